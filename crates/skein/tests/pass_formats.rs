//! A per-file pass declared for some formats (`FilePass::on`,
//! `On::Formats`) is never called on an artifact of another format (issue
//! #17: a call per pass per artifact was a measurable share of a large
//! run). This holds every pass to its declaration: on every artifact of
//! every rule fixture, of the demo repository and of the real corpus, each
//! pass is called as if it covered every format, and must find nothing on
//! the artifacts its declaration leaves out.

use skein::skein_lint::{Context, FILE_PASSES, Memo, On, RepoFiles};
use std::path::{Path, PathBuf};

/// The demo repository and every rule fixture.
fn cases() -> Vec<PathBuf> {
    let mut out = vec![skein_test_support::workspace_root().join("corpus/examples/demo-repo")];
    out.extend(skein_test_support::rule_cases());
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
    let paths = skein_test_support::paths_below(root);
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
    assert_eq!(declared, 175, "passes declared for some formats");
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
