//! SKILL027 `nested-skill-reference`.

use crate::{Context, Pass};
use petgraph::visit::EdgeRef;
use skein_model::graph::{EdgeKind, NodeKind};
use skein_syntax::{Diagnostic, Rule, Severity, quote};
use std::collections::{HashMap, VecDeque};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL027",
    name: "nested-skill-reference",
    severity: Severity::Info,
    summary: "a file of a skill reached only through another reference, not from SKILL.md",
    doc: include_str!("nested_skill_reference.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let g = cx.graph.graph();
    let mut out = Vec::new();
    for &skill in cx.graph.skills() {
        let refs: Vec<_> = cx
            .graph
            .skill_files(skill)
            .iter()
            .copied()
            .filter(|&n| g[n].kind == NodeKind::Reference)
            .collect();
        if refs.len() < 2 {
            continue;
        }
        // A lean run keeps the tree of every skill whose folder holds a file
        // its text does not name (`unreferenced_skill_file::named_plainly`):
        // when it dropped the tree, every reference is named, none nested.
        if cx
            .artifact(g[skill].file)
            .is_some_and(|a| a.document.is_dropped())
        {
            continue;
        }
        // The text a lean run dropped is read for this and let go.
        let named: Vec<bool> = cx.sources.get(g[skill].file).with_text(|text| {
            refs.iter()
                .map(|&r| {
                    let name = &g[r].name;
                    let file = name.rsplit('/').next().unwrap_or(name);
                    text.contains(name.as_str()) || text.contains(file)
                })
                .collect()
        });
        // Depth 1: linked from SKILL.md, or named in its text (path from the
        // skill's folder or file name).
        let mut via: HashMap<_, Option<petgraph::graph::EdgeIndex>> = HashMap::new();
        let mut queue = VecDeque::new();
        for e in g.edges(skill) {
            if e.weight().kind == EdgeKind::Links && refs.contains(&e.target()) {
                via.entry(e.target()).or_insert(None);
            }
        }
        for (&r, _) in refs.iter().zip(&named).filter(|(_, n)| **n) {
            via.entry(r).or_insert(None);
        }
        let mut direct: Vec<_> = via.keys().copied().collect();
        direct.sort();
        queue.extend(direct);
        while let Some(n) = queue.pop_front() {
            let mut next: Vec<_> = g
                .edges(n)
                .filter(|e| e.weight().kind == EdgeKind::Links && refs.contains(&e.target()))
                .map(|e| (e.weight().span, e.id(), e.target()))
                .collect();
            next.sort();
            for (_, id, t) in next {
                if let std::collections::hash_map::Entry::Vacant(v) = via.entry(t) {
                    v.insert(Some(id));
                    queue.push_back(t);
                }
            }
        }
        let mut nested: Vec<_> = via.iter().filter_map(|(&r, e)| e.map(|e| (r, e))).collect();
        nested.sort();
        for (r, e) in nested {
            let edge = &g[e];
            let (from, _) = g.edge_endpoints(e).expect("an edge of the graph");
            let name = &g[r].name;
            out.push(
                Diagnostic::new(
                    RULE,
                    edge.file,
                    edge.span,
                    format!(
                        "{} is reached from SKILL.md only through {}",
                        quote(name),
                        quote(&g[from].name)
                    ),
                )
                .with_label("a link one level below SKILL.md")
                .with_note("Claude may only preview a file that another reference names, and miss what it holds")
                .with_help(format!("link {} from SKILL.md, saying when to read it", quote(name))),
            );
        }
    }
    out
}
