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

/// A temporary folder that is a project of its own (a `.git` marker: the
/// top of a work tree), so the folders above it play no part.
pub fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join(".git")).expect("git marker");
    dir
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

/// `../shared` beside the repository root, as CI lays it out; `None` (the
/// skip printed, or a failure under `SKEIN_REQUIRE_SHARED=1`) in a user's
/// clone that does not have it. See `skein_test_support::shared`.
pub fn shared() -> Option<PathBuf> {
    skein_test_support::shared()
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

/// Every diagnostic of a report as the fixtures and the real-corpus
/// snapshot print it, sorted: `path:line:col: severity[CODE] message`, then
/// one indented line `    path:line:col: label` per secondary label (as
/// actionlint prints "previously defined at"), the label's message left out
/// when it has none. Severities are the effective ones, after `skein.toml`
/// overrides.
pub fn finding_lines(report: &skein::Report) -> String {
    let mut blocks: Vec<String> = report
        .diagnostics()
        .iter()
        .map(|d| {
            let (path, line, col) = position(report, d);
            let mut b = format!(
                "{path}:{line}:{col}: {}[{}] {}\n",
                d.severity.as_str(),
                d.rule.code,
                d.message
            );
            for l in &d.secondary {
                let f = report.sources().get(l.file);
                let lc = f.line_col(l.span.start as usize);
                b.push_str(&format!("    {}:{}:{}", f.path(), lc.line, lc.column));
                if !l.message.is_empty() {
                    b.push_str(": ");
                    b.push_str(&l.message);
                }
                b.push('\n');
            }
            b
        })
        .collect();
    blocks.sort();
    blocks.concat()
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

/// Runs the `skein` binary in `cwd` with colour off and `input` on its
/// standard input.
pub fn skein_with_stdin(args: &[&str], cwd: &Path, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_skein"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("skein runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // skein may stop before reading it all: a broken pipe is its answer.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("skein ends")
}
