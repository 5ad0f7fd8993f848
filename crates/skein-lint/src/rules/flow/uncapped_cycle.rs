//! FLOW002 `uncapped-cycle`.

use crate::{Context, Pass};
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::{EdgeFiltered, EdgeRef};
use skein_model::RepoGraph;
use skein_model::graph::{EdgeKind, GEdge, NodeKind};
use skein_syntax::{Diagnostic, Rule, Severity, quote};
use std::collections::{HashMap, HashSet};

/// The rule.
pub const RULE: Rule = Rule {
    code: "FLOW002",
    name: "uncapped-cycle",
    severity: Severity::Error,
    summary: "a cycle of loops, stages or agents that nothing caps",
    doc: "## What it does\nFinds strongly connected components of the repository graph's flow \
edges (stage to stage, revise back-edges, loops used as skills of other loops, a2a delegation) \
in which no edge or node carries a cap (a skilldrop loop's `cap`, default 3; a Loom agent's \
`policies.max_iterations`; an OpenCode contract's `retry.max_attempts` on its review -> plan \
retry; a Loopmaster manifest's `failure_policy.retry`), and prints the whole cycle path. A revise verdict whose cap has \
no exit (the gate can emit neither a conditional nor a blocked verdict) is `gate-without-blocked`'s \
finding, not this rule's: one fault, one finding.\n\n## Why is this bad?\nAn agent in an uncapped cycle runs until \
it exhausts its budget: loop A runs loop B, which runs loop A again; agent `triage` delegates \
to `oncall`, which delegates back.\n\n## Example\n```yaml\n# triage.agent.yaml\ncapabilities:\n  \
- {kind: a2a, agent: oncall}\n# oncall.agent.yaml\ncapabilities:\n  - {kind: a2a, agent: \
triage}\n```\nUse instead: set `policies.max_iterations` on one of them.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn is_flow(e: &GEdge) -> bool {
    matches!(
        e.kind,
        EdgeKind::Next
            | EdgeKind::Revise
            | EdgeKind::Delegates
            | EdgeKind::Uses
            | EdgeKind::Contains
    )
}

/// A strongly connected component of the flow edges (see [`RULE`]) in which
/// no edge and no node carries a cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UncappedCycle {
    /// Its nodes, sorted by (file, span, index): the first is where the
    /// diagnostic points.
    pub nodes: Vec<NodeIndex>,
    /// The flow edges between its nodes, in edge index order.
    pub edges: Vec<EdgeIndex>,
}

/// Every uncapped cycle of the repository graph. This rule reports each one;
/// `skein graph` marks them from the same answer.
pub fn uncapped_cycles(graph: &RepoGraph) -> Vec<UncappedCycle> {
    let g = graph.graph();
    // Flow edges only; `Contains` only from a loop to its entry stage (running a
    // loop starts it there), `Uses` only into loops (skills do not call back).
    let entries: HashSet<(NodeIndex, NodeIndex)> = graph
        .loops()
        .iter()
        .filter(|l| !l.stages.is_empty())
        .map(|l| (l.node, l.stages[0]))
        .collect();
    let loop_nodes: HashSet<NodeIndex> = graph.loops().iter().map(|l| l.node).collect();
    // A cycle is capped when one of its edges or nodes carries a cap, so the
    // uncapped cycles are exactly the cycles of the flow graph with capped
    // edges and capped nodes taken out: a capped revise edge inside one loop
    // must not hide an uncapped cycle through it (loop A runs loop B, which
    // runs loop A).
    let filtered = EdgeFiltered::from_fn(g, |e| {
        let w = e.weight();
        w.cap().is_none()
            && g[e.source()].cap().is_none()
            && g[e.target()].cap().is_none()
            && filtered_has(&entries, &loop_nodes, e.source(), e.target(), w)
    });
    let mut out = Vec::new();
    // Kosaraju's algorithm in petgraph walks with explicit stacks; its Tarjan
    // recurses once per node of a path and overflows on a long loop.
    for mut scc in kosaraju_scc(&filtered) {
        // A single node is a cycle only with a self-loop.
        if scc.len() == 1
            && !g.edges(scc[0]).any(|e| {
                e.target() == scc[0]
                    && e.weight().cap().is_none()
                    && g[scc[0]].cap().is_none()
                    && filtered_has(&entries, &loop_nodes, e.source(), e.target(), e.weight())
            })
        {
            continue;
        }
        let members: HashSet<NodeIndex> = scc.iter().copied().collect();
        // The members' own edges (not every edge of the graph per cycle), in
        // edge index order.
        let mut inner: Vec<_> = scc
            .iter()
            .flat_map(|&n| g.edges(n))
            .filter(|e| members.contains(&e.target()))
            .filter(|e| e.weight().cap().is_none())
            .filter(|e| filtered_has(&entries, &loop_nodes, e.source(), e.target(), e.weight()))
            .collect();
        inner.sort_by_key(|e| e.id());
        if inner.is_empty() {
            continue; // a single node without a self-loop
        }
        scc.sort_by_key(|&n| (g[n].file, g[n].span, n));
        out.push(UncappedCycle {
            nodes: scc,
            edges: inner.iter().map(|e| e.id()).collect(),
        });
    }
    out.sort_by_key(|c| {
        let n = c.nodes[0];
        (g[n].file, g[n].span, n)
    });
    out
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let g = cx.graph.graph();
    let mut out = Vec::new();
    for cycle in uncapped_cycles(cx.graph) {
        // The cycle's edges by (source, target); the first edge in index
        // order where two connect the same nodes.
        let mut by_pair: HashMap<(NodeIndex, NodeIndex), EdgeIndex> = HashMap::new();
        for &e in &cycle.edges {
            if let Some(pair) = g.edge_endpoints(e) {
                by_pair
                    .entry(pair)
                    .and_modify(|x| *x = (*x).min(e))
                    .or_insert(e);
            }
        }
        let inner: Vec<(NodeIndex, NodeIndex)> = by_pair.keys().copied().collect();
        let scc = cycle.nodes;
        let start = scc[0];
        let path = cycle_path(start, &inner);
        // Print the artifacts the cycle runs through (loops, agents); a cycle
        // inside one loop prints its stages.
        let artifact = |n: NodeIndex| matches!(g[n].kind, NodeKind::Loop | NodeKind::Agent);
        let mut names: Vec<String> = path
            .iter()
            .filter(|&&n| artifact(n))
            .map(|&n| g[n].name.clone())
            .collect();
        if names.is_empty() {
            names = path.iter().map(|&n| g[n].name.clone()).collect();
        }
        let first = &g[start];
        let mut d = Diagnostic::new(
            RULE,
            first.file,
            first.span,
            format!("cycle with no cap: {}", names.join(" -> ")),
        )
        .with_label("the cycle starts here")
        .with_help("cap it: a skilldrop loop `cap`, `policies.max_iterations` on a Loom agent, or `retry.max_attempts` on an OpenCode contract");
        for w in path.windows(2) {
            let Some(&e) = by_pair.get(&(w[0], w[1])) else {
                continue;
            };
            let e = &g[e];
            let what = match e.kind {
                EdgeKind::Uses => format!("runs loop {}", quote(&g[w[1]].name)),
                EdgeKind::Delegates => format!("delegates to {}", quote(&g[w[1]].name)),
                EdgeKind::Revise => format!("returns to {}", quote(&g[w[1]].name)),
                _ => continue,
            };
            d = d.with_secondary(e.file, e.span, what);
        }
        out.push(d);
    }
    out
}

fn filtered_has(
    entries: &HashSet<(NodeIndex, NodeIndex)>,
    loops: &HashSet<NodeIndex>,
    s: NodeIndex,
    t: NodeIndex,
    w: &GEdge,
) -> bool {
    is_flow(w)
        && match w.kind {
            EdgeKind::Contains => entries.contains(&(s, t)),
            EdgeKind::Uses => loops.contains(&t),
            _ => true,
        }
}

/// A shortest path `start -> ... -> start` over `edges` (breadth first, so the
/// printed cycle is the tightest one through `start`).
fn cycle_path(start: NodeIndex, edges: &[(NodeIndex, NodeIndex)]) -> Vec<NodeIndex> {
    use std::collections::{BTreeMap, VecDeque};
    // Successors in (source, target) order, so the path found is deterministic.
    let mut next: BTreeMap<NodeIndex, Vec<NodeIndex>> = BTreeMap::new();
    for &(s, t) in edges {
        next.entry(s).or_default().push(t);
    }
    for ts in next.values_mut() {
        ts.sort();
    }
    let mut prev: HashMap<NodeIndex, NodeIndex> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(n) = queue.pop_front() {
        for &t in next.get(&n).map(Vec::as_slice).unwrap_or_default() {
            if t == start {
                // Walk back from `n` to `start`, then turn it round.
                let mut path = vec![n];
                while *path.last().expect("non-empty") != start {
                    let p = prev[path.last().expect("non-empty")];
                    path.push(p);
                }
                path.reverse();
                path.push(start);
                return path;
            }
            if !prev.contains_key(&t) && t != start {
                prev.insert(t, n);
                queue.push_back(t);
            }
        }
    }
    vec![start, start]
}
