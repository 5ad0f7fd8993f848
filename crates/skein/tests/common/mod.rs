//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `skein` binary in `cwd` with colour off.
pub fn skein(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skein"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("skein runs")
}

/// Writes `text` at `root/rel`, creating folders.
pub fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

/// Standard output of a run, as UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

/// Standard error of a run, as UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// `../shared` beside the repository root, as CI lays it out; `None` (with
/// the reason printed) in a user's clone that does not have it.
pub fn shared() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    if p.join("corpus/real").is_dir() {
        Some(p)
    } else {
        eprintln!(
            "skipped: {} is absent (the shared corpus sits beside the repository in CI)",
            p.display()
        );
        None
    }
}

/// The primary location of a diagnostic: (path, line, column), 1-based.
pub fn position<'a>(
    report: &'a skein::Report,
    d: &skein_syntax::Diagnostic,
) -> (&'a str, u32, u32) {
    let f = report.sources().get(d.primary.file);
    let lc = f.line_col(d.primary.span.start as usize);
    (f.path(), lc.line, lc.column)
}

/// `path:line:col: CODE` of every diagnostic of a report, in report order.
pub fn locations(report: &skein::Report) -> Vec<String> {
    report
        .diagnostics()
        .iter()
        .map(|d| {
            let (path, line, col) = position(report, d);
            format!("{path}:{line}:{col}: {}", d.rule.code)
        })
        .collect()
}
