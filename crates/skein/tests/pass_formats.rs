//! A per-file pass declared for some formats (`FilePass::on`,
//! `On::Formats`) is never called on an artifact of another format (issue
//! #17: a call per pass per artifact was a measurable share of a large
//! run). This holds every pass to its declaration: on every artifact of
//! every rule fixture, of the demo repository and of the real corpus, each
//! pass is called as if it covered every format, and must find nothing on
//! the artifacts its declaration leaves out.

use skein::skein_lint::{Context, FILE_PASSES, Memo, On, RepoFiles};
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut out = vec![root.join("examples/demo-repo")];
    for rule in std::fs::read_dir(root.join("rules")).expect("corpus/rules exists") {
        let rule = rule.expect("entry").path();
        for case in std::fs::read_dir(&rule).into_iter().flatten() {
            let case = case.expect("entry").path();
            if case.is_dir() {
                out.push(case);
            }
        }
    }
    out.sort();
    out
}

/// Every file below `root`, `/`-separated and relative to it.
fn paths_below(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(rel) = p.strip_prefix(root) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

/// Calls every pass declared for some formats on every artifact of `root`
/// outside them; panics on the first finding. Returns the number of such
/// calls.
fn check_tree(root: &Path) -> usize {
    let options = skein::Options {
        retention: skein::Retention::Full,
        ..skein::Options::default()
    };
    let report = skein::check(root, &options).expect("tree readable");
    let paths = paths_below(root);
    let repo_files: RepoFiles = paths.iter().map(String::as_str).collect();
    let cx = Context {
        graph: report.graph(),
        artifacts: report.artifacts(),
        sources: report.sources(),
        repo_files: &repo_files,
        memo: Memo::new(report.artifacts().len()),
    };
    let mut calls = 0;
    for p in FILE_PASSES {
        let On::Formats(formats) = p.on else {
            continue;
        };
        for a in report
            .artifacts()
            .iter()
            .filter(|a| !formats.contains(&a.format))
        {
            calls += 1;
            let found = (p.check)(&cx, a);
            assert!(
                found.is_empty(),
                "{} ({}) is declared for {:?} but finds {:?} in {} ({}) of {}",
                p.rule.code,
                p.rule.name,
                formats.iter().map(|f| f.id()).collect::<Vec<_>>(),
                found.iter().map(|d| &d.message).collect::<Vec<_>>(),
                cx.path(a.file),
                a.format.id(),
                root.display()
            );
        }
    }
    calls
}

#[test]
fn passes_find_nothing_outside_their_formats_on_the_fixtures() {
    let declared = FILE_PASSES
        .iter()
        .filter(|p| matches!(p.on, On::Formats(_)))
        .count();
    assert_eq!(declared, 169, "passes declared for some formats");
    for p in FILE_PASSES {
        if let On::Formats(formats) = p.on {
            assert!(
                !formats.is_empty(),
                "{} is declared for no format",
                p.rule.code
            );
        }
    }
    let calls: usize = cases().iter().map(|c| check_tree(c)).sum();
    // The passes are called on the other formats' artifacts: the fixtures
    // hold every family of files.
    assert!(
        calls > 100_000,
        "only {calls} calls outside the declared formats"
    );
}

#[test]
fn passes_find_nothing_outside_their_formats_on_the_real_corpus() {
    let Some(corpus) = skein_test_support::real_corpus() else {
        return;
    };
    let calls = check_tree(&corpus);
    assert!(
        calls > 500_000,
        "only {calls} calls outside the declared formats"
    );
}
