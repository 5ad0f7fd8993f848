//! Test-only fault injection: the way the test suite proves that a panic
//! while reading one file becomes `SKEIN001 internal-error`, that the other
//! findings are still reported, and that `--fail-on-internal-error` turns it
//! into exit status 2 (issue #18: a test of that contract must be able to
//! fail).
//!
//! The hook exists only with the cargo feature `fault-injection`, which no
//! default build enables (the crate's own dev-dependency on itself turns it
//! on for test builds), and acts only where debug assertions are on, so a
//! release binary cannot reach it whatever its input or environment.
//! With both, setting `SKEIN_TEST_PANIC_DECODE` to a file's path (relative
//! to the analyzed root, as skein prints it) makes the decoding of that file
//! panic, and setting `SKEIN_TEST_CHANGE_AFTER_DECODE` to one makes a lean
//! run (`Retention::Lean`) change that file on disk once every file is
//! decoded, before any dropped text is read again: the file changed under
//! the run.

/// Panics when the test hook asks for the decoding of `path` to panic.
#[cfg(all(feature = "fault-injection", debug_assertions))]
pub(crate) fn inject_decode_panic(path: &str) {
    if std::env::var_os("SKEIN_TEST_PANIC_DECODE").is_some_and(|p| p == path) {
        panic!("fault injected by SKEIN_TEST_PANIC_DECODE (test builds only)");
    }
}

/// Appends a line to the file of `root` that the test hook names, if it
/// exists.
#[cfg(all(feature = "fault-injection", debug_assertions))]
pub(crate) fn change_after_decode(root: &std::path::Path) {
    use std::io::Write;
    let Some(rel) = std::env::var_os("SKEIN_TEST_CHANGE_AFTER_DECODE") else {
        return;
    };
    let path = root.join(rel);
    if path.is_file()
        && let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(path)
    {
        let _ = f.write_all(b"\n# changed while skein ran\n");
    }
}

/// Does nothing: fault injection is compiled out of this build.
#[cfg(not(all(feature = "fault-injection", debug_assertions)))]
#[inline(always)]
pub(crate) fn change_after_decode(_root: &std::path::Path) {}

/// Whether the test hook is set: a run then keeps no cache (the hook is
/// no input of the cache's keys, so a stored result would hide the panic).
#[cfg(all(feature = "fault-injection", debug_assertions))]
pub(crate) fn active() -> bool {
    std::env::var_os("SKEIN_TEST_PANIC_DECODE").is_some()
}

/// Never: fault injection is compiled out of this build.
#[cfg(not(all(feature = "fault-injection", debug_assertions)))]
#[inline(always)]
pub(crate) fn active() -> bool {
    false
}

/// Does nothing: fault injection is compiled out of this build.
#[cfg(not(all(feature = "fault-injection", debug_assertions)))]
#[inline(always)]
pub(crate) fn inject_decode_panic(_path: &str) {}
