//! `skein graph`: loops drawn as state machines (DOT and Mermaid) and the
//! repository view. The triage loop of the demo repository has an
//! unreachable stage (FLOW001), drawn red and dashed.

use skein::skein_report::graph_export::{GraphFormat, loop_dot, loop_mermaid, render_graph};
use skein::{InputFile, Options, check, check_files};
use std::path::{Path, PathBuf};
use std::process::Command;

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/examples/demo-repo")
}

const TRIAGE_DOT: &str = r##"digraph "loop triage" {
  graph [rankdir=LR, labelloc=t, fontname="Helvetica", label="loop triage\npacks/core/loops/triage/loop.json"];
  node [fontname="Helvetica", fontsize=11];
  edge [fontname="Helvetica", fontsize=9];
  __start [shape=point, width=0.15, label=""];
  s0 [label="label", shape=box, style="rounded"];
  s1 [label="reproduce", shape=box, style="rounded"];
  g1 [label="G1\nreview", shape=diamond, style="filled", fillcolor="#f6f8fa"];
  s2 [label="hand-off\n(unreachable)", shape=box, style="rounded,dashed", color="#cf222e", fontcolor="#cf222e", penwidth=2];
  t_done [label="done", shape=doublecircle, fixedsize=true, width=1, fontsize=10, style="filled", fillcolor="#dafbe1"];
  t_conditional [label="conditional", shape=doublecircle, fixedsize=true, width=1, fontsize=10, style="filled", fillcolor="#fff8c5"];
  t_redirected [label="redirected", shape=doublecircle, fixedsize=true, width=1, fontsize=10, style="filled", fillcolor="#ddf4ff"];
  t_blocked [label="blocked", shape=doublecircle, fixedsize=true, width=1, fontsize=10, style="filled", fillcolor="#ffebe9"];
  { rank=same; t_done; t_conditional; t_redirected; t_blocked; }
  __start -> s0;
  s0 -> s1;
  s1 -> g1;
  g1 -> s0 [label="REVISE (cap 3)", color="#0969da", fontcolor="#0969da", constraint=false];
  g1 -> t_blocked [label="BLOCKED", color="#57606a", fontcolor="#57606a"];
  s2 -> t_done [color="#8c959f", fontcolor="#8c959f", style=dashed];
}
"##;

const TRIAGE_MERMAID: &str = r##"stateDiagram-v2
  %% loop triage (packs/core/loops/triage/loop.json)
  state "label" as s0
  state "reproduce" as s1
  state g1 <<choice>>
  state "hand-off<br/>(unreachable)" as s2
  state "done" as t_done
  state "conditional" as t_conditional
  state "redirected" as t_redirected
  state "blocked" as t_blocked
  [*] --> s0
  s0 --> s1
  s1 --> g1 : gate G1 (review)
  g1 --> s0 : REVISE (cap 3)
  g1 --> t_blocked : BLOCKED
  s2 --> t_done
  classDef problem stroke:#cf222e,stroke-width:2px,stroke-dasharray:5 5,color:#cf222e
  class s2 problem
"##;

fn triage(format: GraphFormat) -> String {
    let report = check(&demo(), &Options::default()).expect("demo repo reads");
    let l = report
        .graph()
        .loops()
        .iter()
        .find(|l| l.name == "triage")
        .expect("loop triage");
    let via_library = match format {
        GraphFormat::Dot => loop_dot(report.graph(), report.sources(), l),
        GraphFormat::Mermaid => loop_mermaid(report.graph(), report.sources(), l),
    };
    let via_render = render_graph(report.graph(), report.sources(), format, Some("triage"))
        .expect("triage exists");
    assert_eq!(via_library, via_render);
    via_library
}

#[test]
fn triage_loop_to_dot() {
    assert_eq!(triage(GraphFormat::Dot), TRIAGE_DOT);
}

#[test]
fn triage_loop_to_mermaid() {
    assert_eq!(triage(GraphFormat::Mermaid), TRIAGE_MERMAID);
}

#[test]
fn graphviz_renders_the_dot() {
    if !skein_test_support::dot() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let report = check(&demo(), &Options::default()).expect("demo repo reads");
    let all = render_graph(report.graph(), report.sources(), GraphFormat::Dot, None).expect("all");
    for (name, text) in [("triage.dot", triage(GraphFormat::Dot)), ("all.dot", all)] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write dot");
        // `-O`: one SVG per graph (`all.dot` holds each loop and the repository).
        let o = Command::new("dot")
            .arg("-Tsvg")
            .arg("-O")
            .arg(&path)
            .output()
            .expect("dot runs");
        assert!(
            o.status.success() && o.stderr.is_empty(),
            "dot -Tsvg {name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let svg = std::fs::read_to_string(dir.path().join("triage.dot.svg")).expect("svg written");
    assert!(
        svg.contains("<svg") && svg.contains("REVISE (cap 3)"),
        "{svg}"
    );
    assert!(dir.path().join("all.dot.3.svg").exists());
}

#[test]
fn cli_draws_one_loop_and_rejects_an_unknown_one() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_skein"))
            .arg("graph")
            .arg(demo())
            .args(args)
            .output()
            .expect("skein runs")
    };
    let o = run(&["--loop", "triage"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), TRIAGE_DOT);
    let o = run(&["--loop", "triage", "--format", "mermaid"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), TRIAGE_MERMAID);
    let o = run(&["--loop", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no skilldrop loop named `nope`") && err.contains("loops: review, triage"),
        "{err}"
    );
}

#[test]
fn repository_view_clusters_packs_and_plugins() {
    let report = check(&demo(), &Options::default()).expect("demo repo reads");
    let dot = render_graph(report.graph(), report.sources(), GraphFormat::Dot, None).expect("all");
    // Every loop, then the repository.
    assert_eq!(dot.matches("digraph ").count(), 3, "{dot}");
    let repo = &dot[dot.find("digraph repository").expect("repository view")..];
    for want in [
        "graph [label=\"pack core\"",
        "graph [label=\"plugin reviewer\"",
        "label=\"loop triage\", shape=ellipse, color=\"#cf222e\"",
        "label=\"mcp github\", shape=cylinder",
    ] {
        assert!(repo.contains(want), "missing {want}:\n{repo}");
    }
    let mermaid =
        render_graph(report.graph(), report.sources(), GraphFormat::Mermaid, None).expect("all");
    assert!(mermaid.starts_with("## loop `review`"), "{mermaid}");
    assert_eq!(mermaid.matches("```mermaid\n").count(), 3);
    assert!(mermaid.contains("```mermaid\nflowchart LR\n  subgraph c0 [\"pack core\"]\n"));
    // Deterministic.
    let again = check(&demo(), &Options::default()).expect("demo repo reads");
    assert_eq!(
        render_graph(again.graph(), again.sources(), GraphFormat::Dot, None).expect("all"),
        dot
    );
}

#[test]
fn uncapped_cycle_is_marked_and_labels_are_escaped() {
    let files = vec![
        InputFile::new(
            "contracts/terminals.json",
            r#"{"classes": {"pass": "p", "blocked": "b"},
               "verdicts": {"READY": {"class": "pass"}, "BLOCKED": {"class": "blocked"}}}"#,
        ),
        InputFile::new("packs/core/pack.json", r#"{"description": "Core."}"#),
        InputFile::new(
            "packs/core/loops/a/loop.json",
            r#"{"name": "a", "description": "A.", "entrypoint": "LOOP.md", "kind": "loop",
               "stages": [{"id": "start", "type": "generate", "intent": "x", "skills": ["b"]},
                          {"id": "say \"hi\"", "type": "verify", "intent": "x", "skills": ["b"],
                           "gate": {"id": "G1", "verdicts": ["READY", "MAYBE: #1;", "BLOCKED"]}}]}"#,
        ),
        InputFile::new(
            "packs/core/loops/b/loop.json",
            r#"{"name": "b", "description": "B.", "entrypoint": "LOOP.md", "kind": "loop",
               "stages": [{"id": "go", "type": "generate", "intent": "x", "skills": ["a"]}]}"#,
        ),
    ];
    let report = check_files(files, &Options::default());
    assert!(
        report
            .diagnostics()
            .iter()
            .any(|d| d.rule.code == "FLOW002"),
        "the fixture has an uncapped cycle"
    );
    let dot = render_graph(
        report.graph(),
        report.sources(),
        GraphFormat::Dot,
        Some("a"),
    )
    .expect("loop a");
    for want in [
        r##"s0 [label="start\nruns loop b\n(uncapped cycle)", shape=box, style="rounded,dashed", color="#cf222e""##,
        r##"s1 [label="say \"hi\"\nruns loop b\n(uncapped cycle)""##,
        r##"s0 -> s1 [color="#cf222e", fontcolor="#cf222e", style=dashed, penwidth=2];"##,
        r##"g1 -> t_done [label="MAYBE: #1; (unknown class)", style=dotted];"##,
    ] {
        assert!(dot.contains(want), "missing {want}:\n{dot}");
    }
    let mermaid = render_graph(
        report.graph(),
        report.sources(),
        GraphFormat::Mermaid,
        Some("a"),
    )
    .expect("loop a");
    for want in [
        r##"state "say #34;hi#34;<br/>runs loop b<br/>(uncapped cycle)" as s1"##,
        "g1 --> t_done : MAYBE#58; #35;1#59; (unknown class)",
        "class s0,s1 problem",
    ] {
        assert!(mermaid.contains(want), "missing {want}:\n{mermaid}");
    }
}

/// Issue #11: a marketplace, its plugin and the plugin's components are
/// drawn: the plugin cluster holds its skill, agent, command and hooks file;
/// the marketplace stands outside with an edge to the plugin it lists.
#[test]
fn repository_view_draws_marketplaces_and_plugin_components() {
    let files = vec![
        InputFile::new(
            ".claude-plugin/marketplace.json",
            r#"{"name": "tools", "owner": {"name": "o"},
               "plugins": [{"name": "fmt", "source": "./plugins/fmt"}]}"#,
        ),
        InputFile::new(
            "plugins/fmt/.claude-plugin/plugin.json",
            r#"{"name": "fmt", "version": "1.0.0"}"#,
        ),
        InputFile::new(
            "plugins/fmt/skills/tidy/SKILL.md",
            "---\nname: tidy\ndescription: Tidies code. Use when asked to tidy.\n---\nBody\n",
        ),
        InputFile::new(
            "plugins/fmt/agents/reviewer.md",
            "---\nname: reviewer\ndescription: Reviews.\n---\nBody\n",
        ),
        InputFile::new(
            "plugins/fmt/commands/format.md",
            "---\ndescription: Formats.\n---\nBody\n",
        ),
        InputFile::new(
            "plugins/fmt/hooks/hooks.json",
            r#"{"hooks": {"PostToolUse": [{"matcher": "Edit",
                "hooks": [{"type": "command", "command": "echo hi"}]}]}}"#,
        ),
    ];
    let report = check_files(files, &Options::default());
    let dot = render_graph(report.graph(), report.sources(), GraphFormat::Dot, None).expect("all");
    assert_eq!(
        dot,
        r##"digraph repository {
  graph [rankdir=LR, fontname="Helvetica", label="repository", labelloc=t];
  node [fontname="Helvetica", fontsize=11];
  subgraph cluster_0 {
    graph [label="plugin fmt", style="rounded", color="#8c959f"];
    n2 [label="plugin fmt", shape=folder, style="filled", fillcolor="#f6f8fa"];
    n0 [label="skill tidy", shape=box, style="rounded"];
    n1 [label="agent reviewer", shape=component];
    n3 [label="command /format", shape=cds];
    n4 [label="hooks", shape=hexagon];
  }
  n5 [label="marketplace tools", shape=tab, style="filled", fillcolor="#ddf4ff"];
  n5 -> n2;
}
"##
    );
    let mermaid =
        render_graph(report.graph(), report.sources(), GraphFormat::Mermaid, None).expect("all");
    assert_eq!(
        mermaid,
        r#"flowchart LR
  subgraph c0 ["plugin fmt"]
    n2[/"plugin fmt"/]
    n0("skill tidy")
    n1[["agent reviewer"]]
    n3>"command /format"]
    n4{{"hooks"}}
  end
  n5[\"marketplace tools"/]
  n5 --> n2
"#
    );
}
