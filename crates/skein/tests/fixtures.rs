//! Rule fixtures: every folder `corpus/rules/<rule-name>/<case>/` is a mini
//! repository with an `expected.out` file listing, sorted, every diagnostic
//! skein reports on it as `path:line:col: severity[CODE] message`, each
//! followed by an indented `path:line:col: label` line per secondary label
//! (`common::finding_lines`). Cases named `clean*` must not report their rule.
//!
//! A case whose findings carry fixes also has `expected.fixed`: what
//! `skein check --fix --unsafe-fixes` makes of it (issue #15), byte for
//! byte: the one file changed, or, when several are, each as a line
//! `==> PATH <==` followed by its text. A case no fix changes has none. The
//! fix is applied to a copy in a temporary folder, then applied again to
//! show it is idempotent (the second run changes nothing and no finding
//! with a fix remains, unless the applier dropped that fix).
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

/// What `--fix --unsafe-fixes` makes of the case (see the module doc), or
/// `None` when it changes nothing; panics when a second run still changes
/// something.
fn fixed(case: &Path) -> Option<String> {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("repo");
    skein_test_support::copy_tree(case, &root);
    let options = skein::Options::default();
    let fix = skein::fix::FixOptions {
        unsafe_fixes: true,
        ..Default::default()
    };
    let run = skein::fix::fix_project(&root, &options, &[String::new()], &fix).expect("fix");
    let errors = skein::fix::write_changes(&root, &run.changes);
    assert!(errors.is_empty(), "{}: {errors:?}", case.display());
    let again = skein::fix::fix_project(&root, &options, &[String::new()], &fix).expect("fix");
    assert!(
        again.changes.is_empty(),
        "{}: a second --fix changes {:?}",
        case.display(),
        again.changes.iter().map(|c| &c.path).collect::<Vec<_>>()
    );
    let dropped: Vec<&str> = run.dropped.iter().map(|d| d.code).collect();
    for d in again.report.diagnostics() {
        assert!(
            d.fix.is_none() || dropped.contains(&d.rule.code),
            "{}: {} still offers a fix after --fix: {}",
            case.display(),
            d.rule.code,
            d.message
        );
    }
    match run.changes.as_slice() {
        [] => None,
        [one] => Some(one.after.clone()),
        many => Some(
            many.iter()
                .map(|c| format!("==> {} <==\n{}", c.path, c.after))
                .collect(),
        ),
    }
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
        let fixed_path = case.join("expected.fixed");
        let got_fixed = fixed(case);
        if bless {
            std::fs::write(&expected_path, &got).expect("write expected.out");
            match &got_fixed {
                Some(f) => std::fs::write(&fixed_path, f).expect("write expected.fixed"),
                None if fixed_path.exists() => {
                    std::fs::remove_file(&fixed_path).expect("remove expected.fixed")
                }
                None => {}
            }
            continue;
        }
        let expected_fixed = std::fs::read(&fixed_path).ok();
        if expected_fixed.as_deref() != got_fixed.as_deref().map(str::as_bytes) {
            failures.push(format!(
                "{rule}/{}: expected.fixed differs:\n--- expected\n{}\n--- got\n{}",
                case.file_name().unwrap().to_string_lossy(),
                expected_fixed
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_else(|| "(no expected.fixed: no change)".into()),
                got_fixed.unwrap_or_else(|| "(no change)".into())
            ));
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
/// The URLs a doc's `## Source` (or `## References`) section names more
/// than once.
fn repeated_sources(doc: &str) -> Vec<String> {
    let Some(start) = doc.find("## Source").or_else(|| doc.find("## References")) else {
        return Vec::new();
    };
    let section = &doc[start + 3..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut urls: Vec<&str> = section
        .match_indices("http")
        .filter(|(i, _)| {
            section[*i..].starts_with("https://") || section[*i..].starts_with("http://")
        })
        .map(|(i, _)| {
            let rest = &section[i..];
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, '>' | ')' | ']' | '`' | '"'))
                .unwrap_or(rest.len());
            rest[..end].trim_end_matches(['.', ',', ';', ':'])
        })
        .collect();
    urls.sort_unstable();
    let mut repeated: Vec<String> = urls
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0].to_string())
        .collect();
    repeated.dedup();
    repeated
}

#[test]
fn a_repeated_source_is_found() {
    assert_eq!(
        repeated_sources(
            "## What it does\nx\n\n## Source\n- a: https://a.example/x\n- b (<https://b.example>)\n- \
             c (<https://a.example/x>).\n\n## Fix\nhttps://b.example\n"
        ),
        ["https://a.example/x"]
    );
    assert!(repeated_sources("## Source\n- https://a.example\n- https://a.example/b\n").is_empty());
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
        for url in repeated_sources(rule.doc) {
            missing.push(format!(
                "{} ({}) names {url} twice in its `## Source` section: one entry per source",
                rule.name, rule.code
            ));
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
        // A rule that declares a fix shows it on a case (issue #15).
        if rule.fix.is_some() && !mine.iter().any(|(_, c)| c.join("expected.fixed").is_file()) {
            missing.push(format!(
                "{} ({}) declares a fix but no case of corpus/rules/{}/ has an expected.fixed",
                rule.name, rule.code, rule.name
            ));
        }
        if rule.fix.is_some() && !rule.doc.contains("## Fix") {
            missing.push(format!(
                "{} ({}) declares a fix but its doc has no `## Fix` section (safe or unsafe, and why)",
                rule.name, rule.code
            ));
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
