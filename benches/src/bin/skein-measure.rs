//! `skein-measure RESULT -- CMD [ARGS...]`: runs CMD (standard streams and
//! working folder inherited), then writes its wall time and peak resident
//! set and CPU time (user + system) to the file RESULT as one JSON line,
//! `{"seconds":F,"cpu_seconds":F,"max_rss_kib":N,"status":N}`, and exits
//! with CMD's status.
//!
//! Why a separate process: Linux records the memory image a process had
//! before `exec` in its `ru_maxrss` (`exec_mmap` keeps the old image's
//! high-water mark), so a child spawned by a large process (the `xtask`
//! that generated a 100k-file tree in memory) reports at least that
//! process's size. This helper is a few MB, so what it reports for its child
//! is that child's own peak, give or take the helper's small image.

use std::process::{Command, ExitCode};
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (result, cmd) = match args.as_slice() {
        [result, sep, cmd @ ..] if sep == "--" && !cmd.is_empty() => (result, cmd),
        _ => {
            eprintln!("usage: skein-measure RESULT -- CMD [ARGS...]");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let child = match Command::new(&cmd[0]).args(&cmd[1..]).spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skein-measure: cannot run {}: {e}", cmd[0]);
            return ExitCode::from(2);
        }
    };
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: `rusage` is plain old data, valid when zeroed.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `pid` is our child, not yet reaped (std never waits on a
        // `Child` it is not asked to); both out-pointers point at live locals.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
        if r == pid {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            eprintln!("skein-measure: wait4: {e}");
            return ExitCode::from(2);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let cpu = tv(ru.ru_utime) + tv(ru.ru_stime);
    let line = format!(
        "{{\"seconds\":{seconds:.6},\"cpu_seconds\":{cpu:.6},\"max_rss_kib\":{},\"status\":{code}}}\n",
        ru.ru_maxrss.max(0)
    );
    if let Err(e) = std::fs::write(result, line) {
        eprintln!("skein-measure: cannot write {result}: {e}");
        return ExitCode::from(2);
    }
    ExitCode::from(code.clamp(0, 255) as u8)
}
