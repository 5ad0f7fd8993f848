//! FLOW001 `unreachable-stage`.

use crate::{Context, Pass};
use petgraph::visit::EdgeRef;
use skein_model::RepoGraph;
use skein_model::graph::{EdgeKind, LoopFlow, NodeKind};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "FLOW001",
    name: "unreachable-stage",
    severity: Severity::Error,
    summary: "a loop stage that no path from the entry stage reaches",
    doc: "## What it does\nFor each skilldrop loop, follows the flow from the entry (the first \
stage): a stage without a gate advances to the next; a gate advances on its pass- and \
conditional-class verdicts and returns to `revise_to` on revise-class ones (classes from \
`contracts/terminals.json`). A stage no path reaches is reported, with the gate that cuts every \
path to it.\n\n## Why is this bad?\nThe stage never runs: its skills are dead weight and whatever \
it was meant to check is never checked. The usual cause is a gate whose verdicts can only \
revise, redirect or block.\n\n## Example\n```json\n{\"id\": \"verify\", \"gate\": {\"id\": \"G1\", \
\"verdicts\": [\"NOT READY\", \"BLOCKED\"], \"revise_to\": \"draft\"}},\n{\"id\": \"ship\"}\n```\n\
Use instead: give `G1` a pass-class verdict such as `READY`.\n\n## Known problems\nVerdicts not \
in the vocabulary are assumed to advance, so an unknown word never makes a stage unreachable \
(FLOW rules about the vocabulary report it instead).",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.graph
        .loops()
        .iter()
        .flat_map(|l| check_loop(cx, l))
        .collect()
}

/// Which stages of loop `l` some path from the entry reaches, by stage index
/// (`l.stages` order): next and revise edges, and a verdict of unknown class
/// assumed to advance. The stages this rule reports are the `false` ones;
/// `skein graph` draws them from the same answer.
pub fn reached(graph: &RepoGraph, l: &LoopFlow) -> Vec<bool> {
    let g = graph.graph();
    let n = l.stages.len();
    let positions: std::collections::HashMap<_, usize> =
        l.stages.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let index_of = |node| positions.get(&node).copied();
    let mut reached = vec![false; n];
    if n == 0 {
        return reached;
    }
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        if reached[i] {
            continue;
        }
        reached[i] = true;
        let mut targets: Vec<usize> = g
            .edges(l.stages[i])
            .filter(|e| matches!(e.weight().kind, EdgeKind::Next | EdgeKind::Revise))
            .filter_map(|e| index_of(e.target()))
            .collect();
        // A verdict of unknown class may advance: assume it does.
        if let Some(gate) = &l.gates[i]
            && gate.verdicts.iter().any(|(_, c)| c.is_none())
            && i + 1 < n
        {
            targets.push(i + 1);
        }
        stack.extend(targets.into_iter().filter(|&t| !reached[t]));
    }
    reached
}

fn check_loop(cx: &Context, l: &LoopFlow) -> Vec<Diagnostic> {
    let g = cx.graph.graph();
    let n = l.stages.len();
    let reached = reached(cx.graph, l);
    let mut out = Vec::new();
    for j in (1..n).filter(|&j| !reached[j]) {
        let stage = g.node_weight(l.stages[j]).expect("stage node");
        debug_assert_eq!(stage.kind, NodeKind::Stage);
        let entry = &g[l.stages[0]].name;
        let mut d = Diagnostic::new(
            RULE,
            stage.file,
            stage.span,
            format!(
                "stage {} of loop {} is unreachable from the entry stage {}",
                quote(&stage.name),
                quote(&l.name),
                quote(entry)
            ),
        )
        .with_label("no path reaches this stage");
        // The gate that cuts: the last reached stage before `j` whose gate cannot advance.
        let cut = (0..j)
            .rev()
            .filter(|&i| reached[i])
            .find_map(|i| l.gates[i].as_ref());
        if let Some(gate) = cut {
            let words: Vec<String> = gate.verdicts.iter().map(|(v, _)| quote(&v.value)).collect();
            d = d
                .with_secondary(
                    stage.file,
                    gate.id.span,
                    format!(
                        "gate {} can emit no pass or conditional verdict",
                        quote(&gate.id.value)
                    ),
                )
                .with_note(format!(
                    "gate {} can emit only {}",
                    quote(&gate.id.value),
                    words.join(", ")
                ))
                .with_help(format!(
                    "add a pass-class verdict to gate {}",
                    quote(&gate.id.value)
                ));
        }
        out.push(d);
    }
    out
}
