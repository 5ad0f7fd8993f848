//! The repository passes marked as not reading the graph
//! (`Pass::reads_graph` false) run while the graph is built, with an empty
//! graph in their context (issue #17). This holds them to it: on every rule
//! fixture, each such pass finds exactly the same with the repository's
//! graph as with an empty one.

use skein::skein_lint::{Context, Memo, PASSES, RepoFiles};
use skein::skein_model::RepoGraph;

#[test]
fn graph_free_passes_never_read_the_graph() {
    let free: Vec<_> = PASSES.iter().filter(|p| !p.reads_graph).collect();
    assert_eq!(free.len(), 28, "passes marked graph-free");
    let options = skein::Options {
        retention: skein::Retention::Full,
        ..skein::Options::default()
    };
    let mut findings = 0;
    for case in skein_test_support::rule_cases() {
        let report = skein::check(&case, &options).expect("fixture readable");
        let paths = skein_test_support::paths_below(&case);
        let repo_files: RepoFiles = paths.iter().map(String::as_str).collect();
        let empty = RepoGraph::default();
        let cx = |graph| Context {
            graph,
            artifacts: report.artifacts(),
            sources: report.sources(),
            repo_files: &repo_files,
            memo: Memo::new(report.artifacts().len()),
        };
        let (with, without) = (cx(report.graph()), cx(&empty));
        for p in &free {
            let expected = (p.check)(&with);
            findings += expected.len();
            assert_eq!(
                expected,
                (p.check)(&without),
                "{} ({}) finds otherwise without the graph on {}",
                p.rule.code,
                p.rule.name,
                case.display()
            );
        }
    }
    // The fixtures exercise these passes: they are not compared on nothing.
    assert!(findings >= 25, "graph-free passes found only {findings}");
}
