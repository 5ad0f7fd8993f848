//! The repository graph as a library user sees it (`Report::graph()`):
//! node and edge kinds of DESIGN.md §4 built from a small in-memory repository.

use petgraph::visit::EdgeRef;
use skein::skein_model::graph::{EdgeKind, NodeKind, VerdictClass};
use skein::{InputFile, Options, check_files};

/// The two sections skilldrop requires of a LOOP.md (REF009).
const SECTIONS: &str = "\n## Quality bar\n\n- Evidence.\n\n## Anti-patterns\n\n- Skipping gates.\n";

fn repo() -> Vec<InputFile> {
    let skill = |n: &str| {
        InputFile::new(
            format!("packs/core/skills/{n}/SKILL.md"),
            format!("---\nname: {n}\ndescription: Does {n}.\n---\n"),
        )
    };
    vec![
        InputFile::new(
            "contracts/terminals.json",
            r#"{"classes": {"pass": "p", "revise": "r", "blocked": "b"},
               "verdicts": {"READY": {"class": "pass"}, "REVISE": {"class": "revise"}, "BLOCKED": {"class": "blocked"}}}"#,
        ),
        InputFile::new("packs/core/pack.json", r#"{"description": "Core."}"#),
        skill("draft"),
        skill("check"),
        InputFile::new(
            "packs/core/loops/review/loop.json",
            r#"{"name": "review", "description": "Review.", "entrypoint": "LOOP.md", "kind": "loop", "cap": 2,
               "stages": [
                 {"id": "draft", "type": "generate", "intent": "Draft.", "skills": ["draft"]},
                 {"id": "check", "type": "verify", "intent": "Check.", "skills": ["check"],
                  "gate": {"id": "G1", "kind": "review", "verdicts": ["READY", "REVISE", "BLOCKED"], "revise_to": "draft"}}]}"#,
        ),
        InputFile::new(
            "packs/core/loops/review/LOOP.md",
            format!(
                "---\nname: review\ndescription: Review.\n---\n| Stage | Skill |\n|---|---|\n\
                 | draft | `draft` |\n| check | `check` behind **G1** |\n{SECTIONS}"
            ),
        ),
        InputFile::new("plugins/p/.claude-plugin/plugin.json", r#"{"name": "p"}"#),
        InputFile::new(
            "plugins/p/agents/reviewer.md",
            "---\nname: reviewer\ndescription: Reviews.\n---\n",
        ),
        InputFile::new(
            "plugins/p/commands/review.md",
            "---\ndescription: Review now.\n---\n",
        ),
        InputFile::new("plugins/p/hooks/hooks.json", r#"{"hooks": {}}"#),
        InputFile::new(
            "plugins/p/skills/tone/SKILL.md",
            "---\nname: tone\ndescription: Tone.\n---\n",
        ),
    ]
}

#[test]
fn graph_has_the_design_node_and_edge_kinds() {
    let report = check_files(repo(), &Options::default());
    let codes: Vec<_> = report.diagnostics().iter().map(|d| d.rule.code).collect();
    assert!(codes.is_empty(), "the repository is clean: {codes:?}");
    let g = report.graph();
    let graph = g.graph();
    let count = |k: NodeKind| graph.node_weights().filter(|n| n.kind == k).count();
    assert_eq!(count(NodeKind::Skill), 3);
    assert_eq!(count(NodeKind::Loop), 1);
    assert_eq!(count(NodeKind::Stage), 2);
    assert_eq!(count(NodeKind::Gate), 1);
    assert_eq!(count(NodeKind::Verdict), 3);
    assert_eq!(count(NodeKind::Plugin), 1);
    assert_eq!(count(NodeKind::Agent), 1);
    assert_eq!(count(NodeKind::Command), 1);
    assert_eq!(count(NodeKind::Hook), 1);

    let l = &g.loops()[0];
    assert_eq!(l.name, "review");
    assert_eq!(l.cap.0, 2);
    let cap_span = l.cap.1.expect("the cap is written in loop.json");
    let loop_text = report.sources().get(l.file).text();
    assert_eq!(
        &loop_text[cap_span.start as usize..cap_span.end as usize],
        "2",
        "the cap's span is its value"
    );
    let gate = l.gates[1].as_ref().expect("check has a gate");
    let classes: Vec<_> = gate
        .verdicts
        .iter()
        .map(|(v, c)| (v.value.as_str(), *c))
        .collect();
    assert_eq!(
        classes,
        [
            ("READY", Some(VerdictClass::Pass)),
            ("REVISE", Some(VerdictClass::Revise)),
            ("BLOCKED", Some(VerdictClass::Blocked))
        ]
    );
    // check --REVISE (cap 2)--> draft; check --READY--> done; gate emits three words.
    let out: Vec<_> = graph
        .edges(l.stages[1])
        .map(|e| {
            (
                e.weight().kind,
                e.weight().verdict().map(str::to_string),
                e.weight().cap(),
                graph[e.target()].name.clone(),
            )
        })
        .collect();
    assert!(
        out.contains(&(
            EdgeKind::Revise,
            Some("REVISE".into()),
            Some(2),
            "draft".into()
        )),
        "{out:?}"
    );
    assert!(
        out.contains(&(EdgeKind::Next, Some("READY".into()), None, "done".into())),
        "{out:?}"
    );
    assert!(
        out.contains(&(
            EdgeKind::Exit,
            Some("BLOCKED".into()),
            None,
            "blocked".into()
        )),
        "{out:?}"
    );
    assert_eq!(
        graph
            .edges(gate.node)
            .filter(|e| e.weight().kind == EdgeKind::Emits)
            .count(),
        3
    );

    // The plugin contains its skill, agent, command and hooks.
    let plugin = graph
        .node_indices()
        .find(|&n| graph[n].kind == NodeKind::Plugin)
        .expect("plugin");
    let mut contained: Vec<_> = graph
        .edges(plugin)
        .map(|e| (graph[e.target()].kind, graph[e.target()].name.clone()))
        .collect();
    contained.sort();
    assert_eq!(
        contained,
        [
            (NodeKind::Skill, "tone".to_string()),
            (NodeKind::Agent, "reviewer".to_string()),
            (NodeKind::Command, "review".to_string()),
            (NodeKind::Hook, "hooks.json".to_string()),
        ]
    );
    // Every stage skill resolved; nothing unresolved.
    assert!(g.unresolved().is_empty());
    let draft = g
        .skills()
        .iter()
        .copied()
        .find(|&s| graph[s].name == "draft")
        .expect("draft");
    assert_eq!(g.loaders_of(draft).len(), 1);
}

/// Regression (code review): petgraph's recursive Tarjan overflowed the stack
/// on a loop of 20,000 stages, aborting the process; the passes must finish
/// on a 2 MiB test-thread stack.
#[test]
fn a_very_long_loop_does_not_overflow_the_stack() {
    let stages: Vec<String> = (0..20_000)
        .map(|i| {
            format!(
                r#"{{"id": "s{i}", "type": "generate", "intent": "Step.", "skills": ["draft"]}}"#
            )
        })
        .collect();
    let mut files = repo();
    files.push(InputFile::new(
        "packs/core/loops/long/loop.json",
        format!(
            r#"{{"name": "long", "description": "Long.", "entrypoint": "LOOP.md", "kind": "loop", "stages": [{}]}}"#,
            stages.join(",")
        ),
    ));
    files.push(InputFile::new(
        "packs/core/loops/long/LOOP.md",
        format!("---\nname: long\ndescription: Long.\n---\nEvery stage runs `draft`.\n{SECTIONS}"),
    ));
    let report = check_files(files, &Options::default());
    let codes: Vec<_> = report.diagnostics().iter().map(|d| d.rule.code).collect();
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(
        report
            .graph()
            .loops()
            .iter()
            .find(|l| l.name == "long")
            .map(|l| l.stages.len()),
        Some(20_000)
    );
}

#[test]
fn marketplace_entries_list_their_plugins() {
    let files = vec![
        InputFile::new(
            ".claude-plugin/marketplace.json",
            r#"{"name": "m", "owner": {"name": "o"}, "plugins": [
                 {"name": "p", "source": "./plugins/p"},
                 {"name": "gone", "source": "./plugins/gone"},
                 {"name": "remote", "source": {"source": "github", "repo": "o/r"}}]}"#,
        ),
        InputFile::new("plugins/p/.claude-plugin/plugin.json", r#"{"name": "p"}"#),
        InputFile::new(
            ".agents/plugins/marketplace.json",
            r#"{"name": "c", "plugins": [{"name": "p", "source": {"source": "local", "path": "./plugins/p"}}]}"#,
        ),
        InputFile::new("plugins/p/.codex-plugin/plugin.json", r#"{"name": "p"}"#),
    ];
    let report = check_files(files, &Options::default());
    let g = report.graph();
    let graph = g.graph();
    let lists: Vec<(String, String)> = graph
        .edge_references()
        .filter(|e| e.weight().kind == EdgeKind::Lists)
        .map(|e| {
            let to = &graph[e.target()];
            (
                graph[e.source()].name.clone(),
                report.sources().get(to.file).path().to_string(),
            )
        })
        .collect();
    assert_eq!(lists.len(), 2, "{lists:?}");
    assert!(lists.contains(&("m".into(), "plugins/p/.claude-plugin/plugin.json".into())));
    assert!(lists.contains(&("c".into(), "plugins/p/.codex-plugin/plugin.json".into())));
    let m = &g.marketplaces();
    assert_eq!(m.len(), 2);
    let claude = m
        .iter()
        .find(|m| m.entries.len() == 3)
        .expect("claude marketplace");
    assert!(claude.entries[1].plugin.is_none());
    assert!(matches!(
        claude.entries[2].source,
        skein::skein_model::graph::EntrySource::Remote(ref k) if k == "github"
    ));
    assert!(
        graph
            .node_indices()
            .filter(|&n| graph[n].kind == NodeKind::Marketplace)
            .count()
            == 2
    );
}
