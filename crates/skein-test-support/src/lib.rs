//! Test-only helpers shared by the test suites of the workspace's crates.
//!
//! A test that needs something a user's clone may not have (the shared real
//! corpus at `../shared`, Graphviz's `dot`, a way to drop root privileges)
//! asks this crate for it. When it is missing the test is *skipped* and says
//! so on the real standard error, past libtest's output capture, so the skip
//! shows in `cargo test` output even for a test reported `ok`. Where CI sets
//! the matching `SKEIN_REQUIRE_*` variable to `1`, a missing requirement
//! fails the test instead, naming what is missing:
//!
//! | requirement | variable | how `.ci/run` provides it |
//! |---|---|---|
//! | `../shared/corpus/real` | `SKEIN_REQUIRE_SHARED` | checks the folder exists |
//! | Graphviz `dot` | `SKEIN_REQUIRE_DOT` | `apt-get install graphviz` |
//! | an unprivileged user (`setpriv`) when run as root | `SKEIN_REQUIRE_UNPRIVILEGED` | util-linux's `setpriv` |

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

/// The workspace root (the folder holding the top `Cargo.toml`; this
/// crate is `crates/skein-test-support` in it).
pub fn workspace_root() -> PathBuf {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().nth(2).unwrap_or(here).to_path_buf()
}

/// Whether `var` is set to `1` (CI's way of saying "this must not skip").
pub fn required(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| v == "1")
}

/// Skips the calling test: fails it with `reason` when `var` is `1`, else
/// writes `skipped: <test>: <reason>` to the process's standard error
/// directly (not through `eprintln!`, which libtest captures) and returns,
/// so the caller can `return`.
///
/// # Panics
/// When `var` is set to `1`.
pub fn skip(var: &str, reason: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("<unnamed test>")
        .to_string();
    if required(var) {
        panic!("{test}: {reason} ({var}=1 makes this a failure instead of a skip)");
    }
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "skipped: {test}: {reason} (set {var}=1 to fail instead)"
    );
}

/// `../shared` beside the repository root, as CI lays it out, when its
/// `corpus/real` folder exists; otherwise `None` after [`skip`] with
/// `SKEIN_REQUIRE_SHARED`.
///
/// # Panics
/// When the folder is absent and `SKEIN_REQUIRE_SHARED=1`.
pub fn shared() -> Option<PathBuf> {
    let root = workspace_root();
    let p = root.parent().unwrap_or(&root).join("shared");
    if p.join("corpus/real").is_dir() {
        Some(p)
    } else {
        skip(
            "SKEIN_REQUIRE_SHARED",
            &format!(
                "the shared corpus {} is absent (CI lays it beside the repository)",
                p.join("corpus/real").display()
            ),
        );
        None
    }
}

/// `../shared/corpus/real`, or `None` after a skip (see [`shared`]).
///
/// # Panics
/// When the folder is absent and `SKEIN_REQUIRE_SHARED=1`.
pub fn real_corpus() -> Option<PathBuf> {
    shared().map(|s| s.join("corpus/real"))
}

/// Whether Graphviz's `dot` runs; when it does not, [`skip`]s with
/// `SKEIN_REQUIRE_DOT`.
///
/// # Panics
/// When `dot` does not run and `SKEIN_REQUIRE_DOT=1`.
pub fn dot() -> bool {
    let ok = Command::new("dot")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        skip(
            "SKEIN_REQUIRE_DOT",
            "Graphviz `dot` is not installed (apt-get install graphviz)",
        );
    }
    ok
}

/// How to run a command without the privilege to read every file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unprivileged {
    /// This process is not root: run the command as it is.
    AlreadyUnprivileged,
    /// Root with util-linux's `setpriv`: prefix the command with these
    /// arguments (`setpriv --reuid=65534 --regid=65534 --clear-groups
    /// --inh-caps=-all --`), which run it as `nobody`.
    Setpriv(Vec<String>),
}

impl Unprivileged {
    /// A `Command` running `program` unprivileged.
    pub fn command(&self, program: &std::path::Path) -> Command {
        match self {
            Unprivileged::AlreadyUnprivileged => Command::new(program),
            Unprivileged::Setpriv(prefix) => {
                let mut c = Command::new(&prefix[0]);
                c.args(&prefix[1..]).arg(program);
                c
            }
        }
    }
}

/// A way to run a command as a user that mode-000 files deny, or `None`
/// after [`skip`] with `SKEIN_REQUIRE_UNPRIVILEGED` (running as root without
/// a working `setpriv`).
///
/// # Panics
/// When no way exists and `SKEIN_REQUIRE_UNPRIVILEGED=1`.
pub fn unprivileged() -> Option<Unprivileged> {
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string());
    if uid.as_deref().is_some_and(|u| u != "0") {
        return Some(Unprivileged::AlreadyUnprivileged);
    }
    let prefix: Vec<String> = [
        "setpriv",
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "--inh-caps=-all",
        "--",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let works = Command::new(&prefix[0])
        .args(&prefix[1..])
        .args(["id", "-u"])
        .output()
        .is_ok_and(|o| o.status.success() && o.stdout.trim_ascii() == b"65534");
    if works {
        Some(Unprivileged::Setpriv(prefix))
    } else {
        skip(
            "SKEIN_REQUIRE_UNPRIVILEGED",
            "running as root and `setpriv` cannot drop to uid 65534, so a mode-000 file is readable",
        );
        None
    }
}

/// A time bound that holds even when the code under test hangs: while the
/// guard lives, a thread waits `limit`; if the guard is still alive then,
/// the thread writes `watchdog: <what> still running after <limit>` to
/// standard error and ends the test process with exit status 101 (a failed
/// `cargo test`), since a hung test thread cannot be stopped from outside.
/// An assertion made after the code returns cannot catch a hang: use this
/// around the call instead.
pub struct Watchdog {
    done: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// Arms a watchdog of `limit` for `what`.
    pub fn start(what: impl Into<String>, limit: std::time::Duration) -> Watchdog {
        let what = what.into();
        let (done, rx) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(limit) {
                let mut err = std::io::stderr().lock();
                let _ = writeln!(err, "watchdog: {what} still running after {limit:?}");
                std::process::exit(101);
            }
        });
        Watchdog {
            done: Some(done),
            thread: Some(thread),
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        if let Some(done) = self.done.take() {
            let _ = done.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
