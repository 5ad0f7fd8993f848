//! Rule fixtures: every folder `corpus/rules/<rule-name>/<case>/` is a mini
//! repository with an `expected.out` file listing, sorted, every diagnostic
//! skein reports on it as `path:line:col: severity[CODE] message`, each
//! followed by an indented `path:line:col: label` line per secondary label
//! (`common::finding_lines`). Cases named `clean*` must not report their rule.
//!
//! `SKEIN_BLESS=1 cargo test -p skein --test fixtures` (or `cargo xtask bless`)
//! rewrites the expectations from the current output. `SKEIN_FIXTURE=<rule>`
//! (comma-separated) limits a run to those rules' folders.

mod common;

use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/rules")
}

fn cases() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for rule in std::fs::read_dir(corpus()).expect("corpus/rules exists") {
        let rule = rule.expect("entry").path();
        if !rule.is_dir() {
            continue;
        }
        let name = rule
            .file_name()
            .and_then(|n| n.to_str())
            .expect("UTF-8 rule folder")
            .to_string();
        for case in std::fs::read_dir(&rule).expect("rule folder") {
            let case = case.expect("entry").path();
            if case.is_dir() {
                out.push((name.clone(), case));
            }
        }
    }
    out.sort();
    out
}

/// Every diagnostic of `root` as `common::finding_lines` prints it.
pub fn render(root: &Path) -> String {
    let report = skein::check(root, &skein::Options::default()).expect("fixture readable");
    common::finding_lines(&report)
}

/// Whether a fixture output has a finding of `code` (its `[CODE]` on a
/// finding line, not on a secondary label's line).
fn reports(output: &str, code: &str) -> bool {
    let tag = format!("[{code}] ");
    output
        .lines()
        .any(|l| !l.starts_with(' ') && l.contains(&tag))
}

#[test]
fn rule_fixtures() {
    let bless = std::env::var_os("SKEIN_BLESS").is_some();
    let mut failures = Vec::new();
    let only: Option<Vec<String>> = std::env::var("SKEIN_FIXTURE")
        .ok()
        .map(|v| v.split(',').map(str::to_string).collect());
    let all = cases();
    assert!(!all.is_empty(), "no fixtures under corpus/rules");
    for (rule, case) in &all {
        if only.as_ref().is_some_and(|o| !o.contains(rule)) {
            continue;
        }
        let got = render(case);
        let expected_path = case.join("expected.out");
        if bless {
            std::fs::write(&expected_path, &got).expect("write expected.out");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|_| panic!("{} has no expected.out", case.display()));
        // A clean case must not report the rule it is a fixture of.
        let clean = case
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("clean"));
        if let (true, Some(r)) = (clean, skein::rules::find(rule)) {
            assert!(
                !reports(&got, r.code),
                "{rule}/{}: a clean case reports {}:\n{got}",
                case.file_name().unwrap().to_string_lossy(),
                r.code
            );
        }
        if got != expected {
            failures.push(format!(
                "{rule}/{}:\n--- expected\n{expected}--- got\n{got}",
                case.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
/// Tidy: every registered rule has a doc, a failing fixture (a case whose
/// output has its code) and a clean fixture (a `clean*` case whose output
/// does not).
#[test]
fn every_rule_has_doc_and_fixtures() {
    // Rules about reading files cannot be a committed fixture (a 10 MiB file,
    // a FIFO), nor can an internal error (it needs a failing pass);
    // `tests/hostile.rs` covers them.
    const IO_RULES: &[&str] = &["file-too-large", "unreadable-file", "internal-error"];
    let all = cases();
    let mut missing = Vec::new();
    for rule in skein::rules::all() {
        if !rule.doc.contains("## What it does") || !rule.doc.contains("## Why is this bad?") {
            missing.push(format!("{} ({}) has no full doc", rule.name, rule.code));
        }
        let mine: Vec<_> = all.iter().filter(|(r, _)| r == rule.name).collect();
        let expected =
            |c: &PathBuf| std::fs::read_to_string(c.join("expected.out")).unwrap_or_default();
        let fails = mine.iter().any(|(_, c)| reports(&expected(c), rule.code));
        let clean = mine.iter().any(|(_, c)| {
            c.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("clean")
                && !reports(&expected(c), rule.code)
        });
        if IO_RULES.contains(&rule.name) {
            continue;
        }
        if !fails {
            missing.push(format!(
                "{} ({}) has no failing fixture in corpus/rules/{}/",
                rule.name, rule.code, rule.name
            ));
        }
        if !clean {
            missing.push(format!(
                "{} ({}) has no clean fixture in corpus/rules/{}/clean*/",
                rule.name, rule.code, rule.name
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
