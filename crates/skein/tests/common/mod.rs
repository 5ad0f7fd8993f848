//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::PathBuf;

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

/// `path:line:col: CODE` of every diagnostic of a report, in report order.
pub fn locations(report: &skein::Report) -> Vec<String> {
    report
        .diagnostics()
        .iter()
        .map(|d| {
            let f = report.sources().get(d.primary.file);
            let lc = f.line_col(d.primary.span.start as usize);
            format!("{}:{}:{}: {}", f.path(), lc.line, lc.column, d.rule.code)
        })
        .collect()
}
