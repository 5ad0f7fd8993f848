//! Graph export (`skein graph`): skilldrop loops as state machines and the
//! repository as a graph of who holds and loads what, in Graphviz DOT or
//! Mermaid.
//!
//! A loop is drawn from its [`LoopFlow`]: stages in order (the entry gets an
//! arrow from a start point), each gate as a decision node whose edges carry
//! the verdict words (a revise edge also its cap: `REVISE (cap 3)`), and the
//! loop's four terminals. What FLOW001 (`unreachable-stage`) and FLOW002
//! (`uncapped-cycle`) report is marked, red and dashed, from the rules' own
//! answers ([`reached`], [`uncapped_cycles`]), never recomputed here.
//!
//! The repository view has one cluster per pack and per plugin (its skills,
//! its loops, its agents, commands and hooks file), a node per marketplace
//! with an edge to each plugin it lists, and edges loop -> skill or loop it
//! runs, agent or assistant -> skill it loads, agent/assistant/plugin -> MCP
//! server.
//!
//! Output is deterministic: loops in path order, stages in loop order,
//! repository nodes and edges sorted. DOT output is one `digraph` per view;
//! Mermaid output is one diagram, or several as Markdown with a fenced
//! `mermaid` block each.

use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use skein_lint::rules::flow::uncapped_cycle::uncapped_cycles;
use skein_lint::rules::flow::unreachable_stage::reached;
use skein_model::RepoGraph;
use skein_model::graph::{EdgeKind, LoopFlow, NodeKind, VerdictClass};
use skein_syntax::SourceMap;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Write as _;

/// Output syntax of [`render_graph`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphFormat {
    /// Graphviz DOT (`dot -Tsvg`).
    Dot,
    /// Mermaid: `stateDiagram-v2` for loops, `flowchart` for the repository.
    Mermaid,
}

/// Renders every skilldrop loop, then the repository view; with `loop_name`,
/// only the loops of that name (and no repository view). `None` when
/// `loop_name` names no loop.
pub fn render_graph(
    graph: &RepoGraph,
    sources: &SourceMap,
    format: GraphFormat,
    loop_name: Option<&str>,
) -> Option<String> {
    let marks = Marks::new(graph);
    let mut views: Vec<(String, String)> = Vec::new();
    for l in graph.loops() {
        if loop_name.is_some_and(|n| n != l.name) {
            continue;
        }
        let v = LoopView::new(graph, sources, l, &marks);
        let text = match format {
            GraphFormat::Dot => v.dot(),
            GraphFormat::Mermaid => v.mermaid(),
        };
        views.push((
            format!("loop {} ({})", heading_code(&l.name), heading_code(&v.path)),
            text,
        ));
    }
    if loop_name.is_some() && views.is_empty() {
        return None;
    }
    if loop_name.is_none() {
        let r = RepoView::new(graph, sources, &marks);
        let text = match format {
            GraphFormat::Dot => r.dot(),
            GraphFormat::Mermaid => r.mermaid(),
        };
        views.push(("repository".to_string(), text));
    }
    Some(match format {
        GraphFormat::Dot => views.into_iter().map(|(_, t)| t).collect(),
        GraphFormat::Mermaid if views.len() == 1 => views.pop().map(|(_, t)| t).unwrap_or_default(),
        GraphFormat::Mermaid => views
            .into_iter()
            .map(|(title, t)| format!("## {title}\n\n```mermaid\n{t}```\n"))
            .collect::<Vec<_>>()
            .join("\n"),
    })
}

/// `text` as a Markdown code span that stays on its heading line: control
/// characters (line breaks included) become spaces, and the backtick fence is
/// one longer than the longest backtick run inside, so a loop named with
/// newlines and fences cannot end the heading or open a block.
fn heading_code(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut longest = 0;
    let mut run = 0;
    for c in clean.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if clean.starts_with('`') || clean.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{clean}{pad}{fence}")
}

/// One loop as a DOT `digraph`.
pub fn loop_dot(graph: &RepoGraph, sources: &SourceMap, l: &LoopFlow) -> String {
    LoopView::new(graph, sources, l, &Marks::new(graph)).dot()
}

/// One loop as a Mermaid `stateDiagram-v2`.
pub fn loop_mermaid(graph: &RepoGraph, sources: &SourceMap, l: &LoopFlow) -> String {
    LoopView::new(graph, sources, l, &Marks::new(graph)).mermaid()
}

/// The findings drawn on the graph: nodes and edges of uncapped cycles.
struct Marks {
    cycle_nodes: HashSet<NodeIndex>,
    cycle_edges: HashSet<EdgeIndex>,
}

impl Marks {
    fn new(graph: &RepoGraph) -> Self {
        let cycles = uncapped_cycles(graph);
        Marks {
            cycle_nodes: cycles
                .iter()
                .flat_map(|c| c.nodes.iter().copied())
                .collect(),
            cycle_edges: cycles
                .iter()
                .flat_map(|c| c.edges.iter().copied())
                .collect(),
        }
    }
}

/// How an edge is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Advance: no gate, or a pass/conditional verdict.
    Next,
    /// Back to an earlier stage, capped.
    Revise,
    /// To the redirected or blocked terminal.
    Exit,
    /// A verdict of unknown class, assumed to advance (as FLOW001 assumes).
    Unknown,
    /// Part of an uncapped cycle.
    Cycle,
    /// Out of an unreachable stage: never taken.
    Dead,
}

struct Node {
    id: String,
    label: String,
    kind: VNode,
    /// Reported: unreachable, or on an uncapped cycle.
    problem: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum VNode {
    Stage,
    Gate,
    Terminal(usize),
}

struct Edge {
    from: String,
    to: String,
    label: Option<String>,
    style: Style,
}

struct LoopView {
    name: String,
    path: String,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

const TERMINALS: [(&str, &str); 4] = [
    ("t_done", "done"),
    ("t_conditional", "conditional"),
    ("t_redirected", "redirected"),
    ("t_blocked", "blocked"),
];

impl LoopView {
    fn new(graph: &RepoGraph, sources: &SourceMap, l: &LoopFlow, marks: &Marks) -> Self {
        let g = graph.graph();
        let reached = reached(graph, l);
        let id_of = |n: NodeIndex| -> Option<String> {
            if let Some(i) = l.stages.iter().position(|&s| s == n) {
                return Some(format!("s{i}"));
            }
            l.terminals
                .iter()
                .position(|&t| t == n)
                .map(|t| TERMINALS[t].0.to_string())
        };
        let mut nodes = Vec::new();
        let mut edges = Vec::new();
        for (i, &sn) in l.stages.iter().enumerate() {
            let stage = &g[sn];
            let unreachable = !reached[i];
            let in_cycle = marks.cycle_nodes.contains(&sn);
            let mut label = stage.name.clone();
            // A stage that runs another loop says so: cycles go through it.
            let mut runs: Vec<&str> = g
                .edges(sn)
                .filter(|e| e.weight().kind == EdgeKind::Uses)
                .filter(|e| g[e.target()].kind == NodeKind::Loop)
                .map(|e| g[e.target()].name.as_str())
                .collect();
            runs.sort_unstable();
            runs.dedup();
            for r in runs {
                label.push_str(&format!("\nruns loop {r}"));
            }
            if unreachable {
                label.push_str("\n(unreachable)");
            }
            if in_cycle {
                label.push_str("\n(uncapped cycle)");
            }
            nodes.push(Node {
                id: format!("s{i}"),
                label,
                kind: VNode::Stage,
                problem: unreachable || in_cycle,
            });
            let flow_edges: Vec<_> = g
                .edges(sn)
                .filter(|e| {
                    matches!(
                        e.weight().kind,
                        EdgeKind::Next | EdgeKind::Revise | EdgeKind::Exit
                    )
                })
                .collect();
            let style_of = |e: EdgeIndex, s: Style| {
                if marks.cycle_edges.contains(&e) {
                    Style::Cycle
                } else {
                    s
                }
            };
            let Some(gate) = &l.gates[i] else {
                for e in flow_edges.iter().filter(|e| e.weight().verdict().is_none()) {
                    if let Some(to) = id_of(e.target()) {
                        edges.push(Edge {
                            from: format!("s{i}"),
                            to,
                            label: None,
                            style: style_of(e.id(), Style::Next),
                        });
                    }
                }
                continue;
            };
            let gid = format!("g{i}");
            let mut glabel = gate.id.value.clone();
            if let Some(k) = &gate.kind {
                glabel.push_str(&format!("\n{}", k.value));
            }
            nodes.push(Node {
                id: gid.clone(),
                label: glabel,
                kind: VNode::Gate,
                problem: false,
            });
            edges.push(Edge {
                from: format!("s{i}"),
                to: gid.clone(),
                label: None,
                style: Style::Next,
            });
            for (word, class) in &gate.verdicts {
                let found = flow_edges.iter().find(|e| {
                    e.weight().verdict() == Some(word.value.as_str())
                        && e.weight().span == word.span
                });
                match found {
                    Some(e) => {
                        let Some(to) = id_of(e.target()) else {
                            continue;
                        };
                        let w = e.weight();
                        let (label, style) = match w.kind {
                            EdgeKind::Revise => (
                                match w.cap() {
                                    Some(c) => format!("{} (cap {c})", word.value),
                                    None => format!("{} (no cap)", word.value),
                                },
                                Style::Revise,
                            ),
                            EdgeKind::Exit => (word.value.clone(), Style::Exit),
                            _ => (word.value.clone(), Style::Next),
                        };
                        edges.push(Edge {
                            from: gid.clone(),
                            to,
                            label: Some(label),
                            style: style_of(e.id(), style),
                        });
                    }
                    None if class.is_none() => {
                        // Unknown class: FLOW001 assumes it advances.
                        let to = if i + 1 < l.stages.len() {
                            format!("s{}", i + 1)
                        } else {
                            TERMINALS[0].0.to_string()
                        };
                        edges.push(Edge {
                            from: gid.clone(),
                            to,
                            label: Some(format!("{} (unknown class)", word.value)),
                            style: Style::Unknown,
                        });
                    }
                    // A revise verdict without a `revise_to` stage goes nowhere.
                    None => debug_assert_eq!(*class, Some(VerdictClass::Revise)),
                }
            }
        }
        // Edges out of an unreachable stage (or its gate) are never taken.
        for e in &mut edges {
            let stage = e.from[1..].parse::<usize>().ok();
            if e.style != Style::Cycle && stage.is_some_and(|i| !reached[i]) {
                e.style = Style::Dead;
            }
        }
        for (t, (id, name)) in TERMINALS.iter().enumerate() {
            nodes.push(Node {
                id: id.to_string(),
                label: name.to_string(),
                kind: VNode::Terminal(t),
                problem: false,
            });
        }
        LoopView {
            name: l.name.clone(),
            path: sources.get(l.file).path().to_string(),
            nodes,
            edges,
        }
    }

    fn dot(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "digraph {} {{", dot_str(&format!("loop {}", self.name)));
        let _ = writeln!(
            s,
            "  graph [rankdir=LR, labelloc=t, fontname=\"Helvetica\", label={}];",
            dot_str(&format!("loop {}\n{}", self.name, self.path))
        );
        s.push_str("  node [fontname=\"Helvetica\", fontsize=11];\n");
        s.push_str("  edge [fontname=\"Helvetica\", fontsize=9];\n");
        s.push_str("  __start [shape=point, width=0.15, label=\"\"];\n");
        for n in &self.nodes {
            let mut attrs = match n.kind {
                VNode::Stage => "shape=box, style=\"rounded\"".to_string(),
                VNode::Gate => "shape=diamond, style=\"filled\", fillcolor=\"#f6f8fa\"".to_string(),
                VNode::Terminal(t) => format!(
                    "shape=doublecircle, fixedsize=true, width=1, fontsize=10, style=\"filled\", fillcolor=\"{}\"",
                    ["#dafbe1", "#fff8c5", "#ddf4ff", "#ffebe9"][t]
                ),
            };
            if n.problem {
                attrs = "shape=box, style=\"rounded,dashed\", color=\"#cf222e\", fontcolor=\"#cf222e\", penwidth=2".to_string();
            }
            let _ = writeln!(s, "  {} [label={}, {attrs}];", n.id, dot_str(&n.label));
        }
        s.push_str("  { rank=same; t_done; t_conditional; t_redirected; t_blocked; }\n");
        s.push_str("  __start -> s0;\n");
        for e in &self.edges {
            let mut attrs: Vec<String> = Vec::new();
            if let Some(l) = &e.label {
                attrs.push(format!("label={}", dot_str(l)));
            }
            match e.style {
                Style::Next => {}
                Style::Revise => attrs.push("color=\"#0969da\", fontcolor=\"#0969da\"".into()),
                Style::Exit => attrs.push("color=\"#57606a\", fontcolor=\"#57606a\"".into()),
                Style::Unknown => attrs.push("style=dotted".into()),
                Style::Dead => {
                    attrs.push("color=\"#8c959f\", fontcolor=\"#8c959f\", style=dashed".into())
                }
                Style::Cycle => attrs.push(
                    "color=\"#cf222e\", fontcolor=\"#cf222e\", style=dashed, penwidth=2".into(),
                ),
            }
            if e.style == Style::Revise {
                // Back-edges should not pull the layout backwards.
                attrs.push("constraint=false".into());
            }
            if attrs.is_empty() {
                let _ = writeln!(s, "  {} -> {};", e.from, e.to);
            } else {
                let _ = writeln!(s, "  {} -> {} [{}];", e.from, e.to, attrs.join(", "));
            }
        }
        s.push_str("}\n");
        s
    }

    fn mermaid(&self) -> String {
        let mut s = String::from("stateDiagram-v2\n");
        let _ = writeln!(
            s,
            "  %% loop {} ({})",
            mermaid_comment(&self.name),
            mermaid_comment(&self.path)
        );
        for n in &self.nodes {
            match n.kind {
                VNode::Gate => {
                    let _ = writeln!(s, "  state {} <<choice>>", n.id);
                }
                _ => {
                    let _ = writeln!(s, "  state \"{}\" as {}", mermaid_text(&n.label), n.id);
                }
            }
        }
        s.push_str("  [*] --> s0\n");
        for e in &self.edges {
            // A choice node has no text: its gate id goes on the edge into it.
            let label = e.label.clone().or_else(|| {
                self.nodes
                    .iter()
                    .find(|n| n.id == e.to && n.kind == VNode::Gate)
                    .map(|n| match n.label.split_once('\n') {
                        Some((id, kind)) => format!("gate {id} ({kind})"),
                        None => format!("gate {}", n.label),
                    })
            });
            match label {
                Some(l) => {
                    let _ = writeln!(s, "  {} --> {} : {}", e.from, e.to, mermaid_text(&l));
                }
                None => {
                    let _ = writeln!(s, "  {} --> {}", e.from, e.to);
                }
            }
        }
        let problems: Vec<&str> = self
            .nodes
            .iter()
            .filter(|n| n.problem)
            .map(|n| n.id.as_str())
            .collect();
        if !problems.is_empty() {
            s.push_str("  classDef problem stroke:#cf222e,stroke-width:2px,stroke-dasharray:5 5,color:#cf222e\n");
            let _ = writeln!(s, "  class {} problem", problems.join(","));
        }
        s
    }
}

/// Repository view: clusters of packs and plugins (a plugin's skills,
/// agents, commands and hooks file inside), marketplaces with an edge to each
/// plugin they list, and the edges between skills, loops, agents,
/// assistants and MCP servers.
struct RepoView {
    /// (cluster label, container node, member nodes), sorted.
    clusters: Vec<(String, usize, Vec<usize>)>,
    /// Node number (drawn as `n<number>`) -> (label, shape, problem).
    nodes: BTreeMap<usize, (String, RShape, bool)>,
    /// (from, to), sorted.
    edges: BTreeSet<(usize, usize)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RShape {
    Container,
    Skill,
    Loop,
    Agent,
    Server,
    Command,
    Hooks,
    Marketplace,
    /// A reference or script bundled in a skill's folder.
    File,
}

impl RepoView {
    fn new(graph: &RepoGraph, sources: &SourceMap, marks: &Marks) -> Self {
        let g = graph.graph();
        let path = |n: NodeIndex| sources.get(g[n].file).path();
        let shown = |k: NodeKind| {
            matches!(
                k,
                NodeKind::Skill
                    | NodeKind::Loop
                    | NodeKind::Agent
                    | NodeKind::Assistant
                    | NodeKind::McpServer
                    | NodeKind::Pack
                    | NodeKind::Plugin
                    | NodeKind::Command
                    | NodeKind::Hook
                    | NodeKind::Marketplace
                    | NodeKind::Reference
                    | NodeKind::Script
            )
        };
        // Stable ids: sort by (kind, path, name, index), then number.
        let mut order: Vec<NodeIndex> = g.node_indices().filter(|&n| shown(g[n].kind)).collect();
        order.sort_by(|&a, &b| {
            (g[a].kind, path(a), &g[a].name, a).cmp(&(g[b].kind, path(b), &g[b].name, b))
        });
        let ids: BTreeMap<NodeIndex, usize> =
            order.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let problem_loops: HashSet<NodeIndex> = graph
            .loops()
            .iter()
            .filter(|l| marks.cycle_nodes.contains(&l.node) || reached(graph, l).iter().any(|r| !r))
            .map(|l| l.node)
            .collect();
        let mut nodes = BTreeMap::new();
        for &n in &order {
            let label = |word: &str| format!("{word} {}", g[n].name);
            let (label, shape) = match g[n].kind {
                // A command is invoked by its name: `/format`.
                NodeKind::Command => (format!("command /{}", g[n].name), RShape::Command),
                // One hooks file per plugin: its file name says nothing more.
                NodeKind::Hook => ("hooks".to_string(), RShape::Hooks),
                NodeKind::Marketplace => (label("marketplace"), RShape::Marketplace),
                NodeKind::Reference => (label("reference"), RShape::File),
                NodeKind::Script => (label("script"), RShape::File),
                kind => {
                    let (word, shape) = Self::word(kind);
                    (label(word), shape)
                }
            };
            nodes.insert(ids[&n], (label, shape, problem_loops.contains(&n)));
        }
        // Clusters: a pack holds its skills (contains edges) and the loops
        // under its folder; a plugin its skills, agents, commands and hooks.
        let mut placed: HashSet<NodeIndex> = HashSet::new();
        let mut clusters = Vec::new();
        for &c in order
            .iter()
            .filter(|&&n| matches!(g[n].kind, NodeKind::Pack | NodeKind::Plugin))
        {
            let mut members: Vec<NodeIndex> = g
                .edges(c)
                .filter(|e| e.weight().kind == EdgeKind::Contains)
                .map(|e| e.target())
                .filter(|&t| ids.contains_key(&t))
                .collect();
            if g[c].kind == NodeKind::Pack {
                let p = path(c);
                let dir = &p[..p.rfind('/').map_or(0, |i| i + 1)];
                let loops_dir = format!("{dir}loops/");
                members.extend(
                    graph
                        .loops()
                        .iter()
                        .filter(|l| sources.get(l.file).path().starts_with(&loops_dir))
                        .map(|l| l.node),
                );
            }
            members.retain(|&m| placed.insert(m));
            members.sort_by(|a, b| ids[a].cmp(&ids[b]));
            members.dedup();
            clusters.push((
                nodes[&ids[&c]].0.clone(),
                ids[&c],
                members.iter().map(|m| ids[m]).collect(),
            ));
        }
        let mut edges = BTreeSet::new();
        for l in graph.loops() {
            for &sn in &l.stages {
                for e in g.edges(sn).filter(|e| e.weight().kind == EdgeKind::Uses) {
                    if let Some(to) = ids.get(&e.target()) {
                        edges.insert((ids[&l.node], *to));
                    }
                }
            }
        }
        for e in g.edge_references() {
            let (s, t) = (e.source(), e.target());
            let keep = match e.weight().kind {
                EdgeKind::Connects => true,
                EdgeKind::Uses => matches!(g[s].kind, NodeKind::Agent | NodeKind::Assistant),
                EdgeKind::Delegates | EdgeKind::Lists => true,
                // A skill's references and scripts, as SKILL.md and the
                // references link them (the chain SKILL027 reads).
                EdgeKind::Links => {
                    matches!(g[s].kind, NodeKind::Skill | NodeKind::Reference)
                        && matches!(g[t].kind, NodeKind::Reference | NodeKind::Script)
                }
                _ => false,
            };
            if keep && let (Some(a), Some(b)) = (ids.get(&s), ids.get(&t)) {
                edges.insert((*a, *b));
            }
        }
        RepoView {
            clusters,
            nodes,
            edges,
        }
    }

    /// The label word and shape of the node kinds drawn by name.
    fn word(kind: NodeKind) -> (&'static str, RShape) {
        match kind {
            NodeKind::Skill => ("skill", RShape::Skill),
            NodeKind::Loop => ("loop", RShape::Loop),
            NodeKind::Agent => ("agent", RShape::Agent),
            NodeKind::Assistant => ("assistant", RShape::Agent),
            NodeKind::McpServer => ("mcp", RShape::Server),
            NodeKind::Pack => ("pack", RShape::Container),
            _ => ("plugin", RShape::Container),
        }
    }

    fn in_cluster(&self) -> HashSet<usize> {
        self.clusters
            .iter()
            .flat_map(|(_, c, m)| std::iter::once(*c).chain(m.iter().copied()))
            .collect()
    }

    fn dot(&self) -> String {
        let node = |s: &mut String, indent: &str, id: usize| {
            let (label, shape, problem) = &self.nodes[&id];
            let mut attrs = match shape {
                RShape::Container => "shape=folder, style=\"filled\", fillcolor=\"#f6f8fa\"",
                RShape::Skill => "shape=box, style=\"rounded\"",
                RShape::Loop => "shape=ellipse",
                RShape::Agent => "shape=component",
                RShape::Server => "shape=cylinder",
                RShape::Command => "shape=cds",
                RShape::Hooks => "shape=hexagon",
                RShape::Marketplace => "shape=tab, style=\"filled\", fillcolor=\"#ddf4ff\"",
                RShape::File => "shape=note",
            }
            .to_string();
            if *problem {
                attrs.push_str(
                    ", color=\"#cf222e\", fontcolor=\"#cf222e\", style=\"dashed\", penwidth=2",
                );
            }
            let _ = writeln!(s, "{indent}n{id} [label={}, {attrs}];", dot_str(label));
        };
        let mut s = String::from("digraph repository {\n");
        s.push_str(
            "  graph [rankdir=LR, fontname=\"Helvetica\", label=\"repository\", labelloc=t];\n",
        );
        s.push_str("  node [fontname=\"Helvetica\", fontsize=11];\n");
        for (i, (label, c, members)) in self.clusters.iter().enumerate() {
            let _ = writeln!(s, "  subgraph cluster_{i} {{");
            let _ = writeln!(
                s,
                "    graph [label={}, style=\"rounded\", color=\"#8c959f\"];",
                dot_str(label)
            );
            node(&mut s, "    ", *c);
            for &m in members {
                node(&mut s, "    ", m);
            }
            s.push_str("  }\n");
        }
        let clustered = self.in_cluster();
        for &id in self.nodes.keys().filter(|id| !clustered.contains(id)) {
            node(&mut s, "  ", id);
        }
        for (a, b) in &self.edges {
            let _ = writeln!(s, "  n{a} -> n{b};");
        }
        s.push_str("}\n");
        s
    }

    fn mermaid(&self) -> String {
        let node = |s: &mut String, indent: &str, id: usize| {
            let (label, shape, _) = &self.nodes[&id];
            let text = mermaid_text(label);
            let _ = match shape {
                RShape::Container => writeln!(s, "{indent}n{id}[/\"{text}\"/]"),
                RShape::Skill => writeln!(s, "{indent}n{id}(\"{text}\")"),
                RShape::Loop => writeln!(s, "{indent}n{id}([\"{text}\"])"),
                RShape::Agent => writeln!(s, "{indent}n{id}[[\"{text}\"]]"),
                RShape::Server => writeln!(s, "{indent}n{id}[(\"{text}\")]"),
                RShape::Command => writeln!(s, "{indent}n{id}>\"{text}\"]"),
                RShape::Hooks => writeln!(s, "{indent}n{id}{{{{\"{text}\"}}}}"),
                RShape::Marketplace => writeln!(s, "{indent}n{id}[\\\"{text}\"/]"),
                RShape::File => writeln!(s, "{indent}n{id}[\"{text}\"]"),
            };
        };
        let mut s = String::from("flowchart LR\n");
        for (i, (label, c, members)) in self.clusters.iter().enumerate() {
            let _ = writeln!(s, "  subgraph c{i} [\"{}\"]", mermaid_text(label));
            node(&mut s, "    ", *c);
            for &m in members {
                node(&mut s, "    ", m);
            }
            s.push_str("  end\n");
        }
        let clustered = self.in_cluster();
        for &id in self.nodes.keys().filter(|id| !clustered.contains(id)) {
            node(&mut s, "  ", id);
        }
        for (a, b) in &self.edges {
            let _ = writeln!(s, "  n{a} --> n{b}");
        }
        let problems: Vec<String> = self
            .nodes
            .iter()
            .filter(|(_, (_, _, p))| *p)
            .map(|(id, _)| format!("n{id}"))
            .collect();
        if !problems.is_empty() {
            s.push_str("  classDef problem stroke:#cf222e,stroke-width:2px,stroke-dasharray:5 5,color:#cf222e\n");
            let _ = writeln!(s, "  class {} problem", problems.join(","));
        }
        s
    }
}

/// A DOT double-quoted string: `"` and `\` escaped, line breaks as `\n`
/// (centred lines), other control characters dropped.
fn dot_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Mermaid label text: letters, digits, spaces and a few punctuation marks
/// as they are; every other character as a Mermaid entity code (`#34;`), so
/// quotes, colons, semicolons, brackets and `#` cannot end the label or the
/// statement. A line break becomes `<br/>`.
fn mermaid_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("<br/>"),
            c if c.is_alphanumeric() || " _-.,()/+*'!?=@".contains(c) => out.push(c),
            c if c.is_control() => {}
            c => {
                let _ = write!(out, "#{};", c as u32);
            }
        }
    }
    out
}

/// Text for a `%%` comment: one line.
fn mermaid_comment(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect()
}

#[cfg(test)]
mod tests {

    #[test]
    fn loop_headings_cannot_break_out_of_their_line() {
        assert_eq!(heading_code("review"), "`review`");
        assert_eq!(
            heading_code("x\n```\n# injected\n```mermaid"),
            "````x ``` # injected ```mermaid````"
        );
        assert_eq!(heading_code("`a`"), "`` `a` ``");
    }

    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(dot_str("a \"b\"\\n\nc"), "\"a \\\"b\\\"\\\\n\\nc\"");
        assert_eq!(
            mermaid_text("x: \"y\"; #z\nw"),
            "x#58; #34;y#34;#59; #35;z<br/>w"
        );
        assert_eq!(mermaid_text("REVISE (cap 3)"), "REVISE (cap 3)");
    }
}
