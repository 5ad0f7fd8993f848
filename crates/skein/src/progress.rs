//! The progress bar of `skein check`: drawn on stderr by a watcher thread
//! from the library's [`skein::Progress`] counters, only once a run has taken
//! more than [`DELAY`] (a quick run shows nothing). The caller decides whether
//! to show it at all: only when stderr is a terminal and the output is for a
//! person (never with machine formats).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use skein::Progress;
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a run goes before the bar appears.
pub const DELAY: Duration = Duration::from_millis(1000);
const TICK: Duration = Duration::from_millis(100);

/// A running watcher; [`Watch::finish`] (or drop) clears the bar.
pub struct Watch {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Watch {
    /// Resets `progress` and starts watching it for the run over `what`.
    pub fn start(progress: Arc<Progress>, what: String) -> Watch {
        progress.reset();
        let (stop, rx) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            // Quiet for the first second.
            match rx.recv_timeout(DELAY) {
                Err(RecvTimeoutError::Timeout) => {}
                _ => return,
            }
            // Hidden until its first state is set, so no frame shows a stale one.
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
                .with_elapsed(DELAY);
            let mut shown = false;
            let style = ProgressStyle::with_template(
                "{spinner} {elapsed:>3} [{bar:25}] {pos}/{len} files: {wide_msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            loop {
                let (done, total) = progress.get();
                let phase = match (done, total) {
                    (_, 0) => "finding artifacts in",
                    (d, t) if d < t => "parsing",
                    _ => "running the passes on",
                };
                if total > 0 {
                    bar.set_length(total as u64);
                }
                bar.set_position(done.min(total) as u64);
                bar.set_message(format!("{phase} {what}"));
                if !shown {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    shown = true;
                }
                bar.tick();
                match rx.recv_timeout(TICK) {
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => break,
                }
            }
            bar.finish_and_clear();
        });
        Watch {
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Stops the watcher and clears its bar before output is written.
    pub fn finish(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        // Dropping the sender wakes the thread; it clears the bar and ends.
        self.stop.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop_now();
    }
}
