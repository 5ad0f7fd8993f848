//! The requests a client asks of the last report: hover, definition,
//! references, document symbols and code actions. Each takes the report,
//! the file (project-relative path) and a byte offset or range, and answers
//! from the graph, the diagnostics and their fixes; none reads the disk.

use super::convert::{Encoding, path_to_uri, range};
use crate::Report;
use lsp_types as lsp;
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;
use skein_model::Model;
use skein_model::graph::{EdgeKind, GNode, NodeKind};
use skein_syntax::{Diagnostic, FileId, SourceFile, Span};
use std::collections::HashMap;
use std::path::Path;

/// The edges a reader follows from where they are written to what they
/// name (structure and flow edges are not references).
fn is_reference(kind: EdgeKind) -> bool {
    matches!(
        kind,
        EdgeKind::Uses
            | EdgeKind::Delegates
            | EdgeKind::Emits
            | EdgeKind::Connects
            | EdgeKind::Lists
            | EdgeKind::Links
    )
}

fn contains(span: Span, offset: usize) -> bool {
    (span.start as usize) <= offset && offset <= span.end as usize && !span.is_empty()
}

/// A place in the report's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The file.
    pub file: FileId,
    /// The bytes.
    pub span: Span,
}

/// What is written at `offset` of `file` and names another thing: the
/// smallest such span and the place it names.
pub fn definition(report: &Report, file: FileId, offset: usize) -> Option<(Span, Place)> {
    let g = report.graph();
    let mut best: Option<(Span, Place)> = None;
    let mut consider = |at: Span, to: Place| {
        if best.is_none_or(|(b, _)| at.len() < b.len()) {
            best = Some((at, to));
        }
    };
    for e in g.graph().edge_references() {
        let w = e.weight();
        if w.file == file && is_reference(w.kind) && contains(w.span, offset) {
            let n = g.node(e.target());
            // A linked path that is no file read names nothing to open.
            if n.kind != NodeKind::File || report.read_file(&n.name) {
                consider(w.span, place_of(report, n));
            }
        }
    }
    // `revise_to` names a stage of the same loop.
    for lf in g.loops().iter().filter(|l| l.file == file) {
        for gate in lf.gates.iter().flatten() {
            if let Some(r) = &gate.revise_to
                && contains(r.span, offset)
                && let Some(&st) = lf.stages.iter().find(|&&s| g.node(s).name == r.value)
            {
                consider(r.span, place_of(report, g.node(st)));
            }
        }
    }
    best
}

/// Where a node is defined; a file node (a linked path) is its file's start.
fn place_of(report: &Report, n: &GNode) -> Place {
    if n.kind == NodeKind::File {
        let read = report.summary().files_read;
        if let Some(id) = super::convert::file_id(report.sources(), read, &n.name) {
            return Place {
                file: id,
                span: Span::empty(0),
            };
        }
    }
    Place {
        file: n.file,
        span: n.span,
    }
}

/// The node defined at `offset` of `file` (its own span there), or the one
/// the reference at `offset` names.
fn node_at(report: &Report, file: FileId, offset: usize) -> Option<NodeIndex> {
    let g = report.graph();
    let mut best: Option<(Span, NodeIndex)> = None;
    for i in g.graph().node_indices() {
        let n = g.node(i);
        if n.file == file
            && n.kind != NodeKind::File
            && !matches!(n.kind, NodeKind::Terminal(_))
            && contains(n.span, offset)
            && best.is_none_or(|(b, _)| n.span.len() < b.len())
        {
            best = Some((n.span, i));
        }
    }
    if let Some((_, i)) = best {
        return Some(i);
    }
    let (_, to) = definition(report, file, offset)?;
    g.graph()
        .node_indices()
        .find(|&i| g.node(i).file == to.file && g.node(i).span == to.span)
}

/// Every place that names the thing at `offset` (its definition first when
/// `include_declaration`).
pub fn references(
    report: &Report,
    file: FileId,
    offset: usize,
    include_declaration: bool,
) -> Vec<Place> {
    let g = report.graph();
    let Some(target) = node_at(report, file, offset) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if include_declaration {
        out.push(place_of(report, g.node(target)));
    }
    for e in g
        .graph()
        .edges_directed(target, petgraph::Direction::Incoming)
    {
        let w = e.weight();
        if is_reference(w.kind) {
            out.push(Place {
                file: w.file,
                span: w.span,
            });
        }
    }
    let name = &g.node(target).name;
    if g.node(target).kind == NodeKind::Stage {
        for lf in g.loops() {
            if !lf.stages.contains(&target) {
                continue;
            }
            for gate in lf.gates.iter().flatten() {
                if let Some(r) = &gate.revise_to
                    && &r.value == name
                {
                    out.push(Place {
                        file: lf.file,
                        span: r.span,
                    });
                }
            }
        }
    }
    out.sort_by_key(|p| (p.file, p.span.start, p.span.end));
    out.dedup();
    out
}

/// Markdown for what is at `offset`: the documentation of each finding
/// there, the description of a skill a stage (or agent) names, the class of
/// a verdict.
pub fn hover(report: &Report, file: FileId, offset: usize) -> Option<(Span, String)> {
    let mut parts = Vec::new();
    let mut at: Option<Span> = None;
    let mut seen = Vec::new();
    for d in report.diagnostics() {
        if d.primary.file == file && contains_or_empty(d.primary.span, offset) {
            if seen.contains(&d.rule.code) {
                continue;
            }
            seen.push(d.rule.code);
            at.get_or_insert(d.primary.span);
            parts.push(format!(
                "**{} {}**: {}\n\n{}\n\n[documentation]({})",
                d.rule.code,
                d.rule.name,
                d.rule.summary,
                d.rule.doc,
                skein_report::rule_url(&d.rule)
            ));
        }
    }
    let g = report.graph();
    // A verdict word of a gate: its class in the loop's vocabulary.
    for lf in g.loops().iter().filter(|l| l.file == file) {
        for gate in lf.gates.iter().flatten() {
            for (v, class) in &gate.verdicts {
                if contains(v.span, offset) {
                    at.get_or_insert(v.span);
                    parts.push(match class {
                        Some(c) => format!(
                            "verdict `{}`: class `{}`{}",
                            v.value,
                            format!("{c:?}").to_lowercase(),
                            if c.advances() {
                                " (advances the loop)"
                            } else {
                                ""
                            }
                        ),
                        None => format!(
                            "verdict `{}`: not in the loop's verdict vocabulary",
                            v.value
                        ),
                    });
                }
            }
        }
    }
    if let Some((span, to)) = definition(report, file, offset) {
        let n = g
            .graph()
            .node_indices()
            .map(|i| g.node(i))
            .find(|n| n.file == to.file && n.span == to.span);
        if let Some(n) = n
            && matches!(n.kind, NodeKind::Skill | NodeKind::Agent | NodeKind::Plugin)
        {
            let path = report.sources().get(n.file).path();
            let description = description_of(report, n.file);
            at.get_or_insert(span);
            parts.push(format!(
                "{} `{}` ({path})\n\n{}",
                kind_name(n.kind),
                n.name,
                description.unwrap_or_else(|| "no description".to_string())
            ));
        }
    }
    let at = at?;
    Some((at, parts.join("\n\n---\n\n")))
}

fn contains_or_empty(span: Span, offset: usize) -> bool {
    (span.start as usize) <= offset && offset <= span.end as usize
}

/// The `description` an artifact declares (skill and agent frontmatter,
/// plugin manifests, Loom specs).
fn description_of(report: &Report, file: FileId) -> Option<String> {
    let a = report.artifacts().iter().find(|a| a.file == file)?;
    if let Model::Frontmatter(f) = &a.model
        && let Some(d) = &f.description
    {
        return Some(d.value.clone());
    }
    let doc = &a.document;
    let root = doc.root()?;
    let id = doc.get(root, "description")?;
    doc.as_str(id).map(str::to_string)
}

fn kind_name(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Skill => "skill",
        NodeKind::Pack => "pack",
        NodeKind::Loop => "loop",
        NodeKind::Stage => "stage",
        NodeKind::Gate => "gate",
        NodeKind::Terminal(_) => "terminal",
        NodeKind::Agent => "agent",
        NodeKind::Contract => "contract",
        NodeKind::Catalogue => "catalogue",
        NodeKind::LoopManifest => "loop manifest",
        NodeKind::Plugin => "plugin",
        NodeKind::Assistant => "assistant",
        NodeKind::McpServer => "MCP server",
        NodeKind::Tool => "tool",
        NodeKind::Command => "command",
        NodeKind::Verdict => "verdict",
        NodeKind::Hook => "hooks",
        NodeKind::Marketplace => "marketplace",
        NodeKind::File => "file",
        NodeKind::Reference => "skill reference",
        NodeKind::Script => "skill script",
    }
}

fn symbol_kind(kind: NodeKind) -> Option<lsp::SymbolKind> {
    Some(match kind {
        NodeKind::Loop | NodeKind::LoopManifest | NodeKind::Contract => lsp::SymbolKind::MODULE,
        NodeKind::Stage => lsp::SymbolKind::FUNCTION,
        NodeKind::Gate => lsp::SymbolKind::EVENT,
        NodeKind::Plugin | NodeKind::Pack | NodeKind::Marketplace | NodeKind::Catalogue => {
            lsp::SymbolKind::PACKAGE
        }
        NodeKind::Skill | NodeKind::Agent | NodeKind::Assistant | NodeKind::Command => {
            lsp::SymbolKind::CLASS
        }
        NodeKind::McpServer | NodeKind::Hook => lsp::SymbolKind::INTERFACE,
        NodeKind::Tool => lsp::SymbolKind::METHOD,
        NodeKind::Verdict => lsp::SymbolKind::ENUM_MEMBER,
        NodeKind::Terminal(_) | NodeKind::File | NodeKind::Reference | NodeKind::Script => {
            return None;
        }
    })
}

/// The outline of `file`: the graph's nodes defined in it (loops with
/// their stages and gates, plugins, marketplaces and their entries, skills,
/// agents, servers), nested along `Contains` edges within the file; a
/// marketplace's entries are its children.
pub fn symbols(
    report: &Report,
    file: FileId,
    source: &SourceFile,
    enc: Encoding,
) -> Vec<lsp::DocumentSymbol> {
    let g = report.graph();
    let mine: Vec<NodeIndex> = g
        .graph()
        .node_indices()
        .filter(|&i| {
            let n = g.node(i);
            n.file == file && symbol_kind(n.kind).is_some() && !n.span.is_empty()
        })
        .collect();
    let mut parent: HashMap<NodeIndex, NodeIndex> = HashMap::new();
    for e in g.graph().edge_references() {
        if e.weight().kind == EdgeKind::Contains
            && mine.contains(&e.source())
            && mine.contains(&e.target())
        {
            parent.entry(e.target()).or_insert(e.source());
        }
    }
    #[allow(deprecated)]
    fn make(n: &GNode, source: &SourceFile, enc: Encoding) -> lsp::DocumentSymbol {
        let r = range(source, n.span, enc);
        lsp::DocumentSymbol {
            name: if n.name.is_empty() {
                kind_name(n.kind).to_string()
            } else {
                n.name.clone()
            },
            detail: Some(kind_name(n.kind).to_string()),
            kind: symbol_kind(n.kind).unwrap_or(lsp::SymbolKind::OBJECT),
            tags: None,
            deprecated: None,
            range: r,
            selection_range: r,
            children: None,
        }
    }
    fn build(
        i: NodeIndex,
        mine: &[NodeIndex],
        parent: &HashMap<NodeIndex, NodeIndex>,
        report: &Report,
        source: &SourceFile,
        enc: Encoding,
    ) -> lsp::DocumentSymbol {
        let g = report.graph();
        let mut s = make(g.node(i), source, enc);
        let kids: Vec<lsp::DocumentSymbol> = mine
            .iter()
            .filter(|&&c| parent.get(&c) == Some(&i))
            .map(|&c| build(c, mine, parent, report, source, enc))
            .collect();
        if !kids.is_empty() {
            s.children = Some(kids);
        }
        s
    }
    let mut out: Vec<lsp::DocumentSymbol> = mine
        .iter()
        .filter(|i| !parent.contains_key(i))
        .map(|&i| build(i, &mine, &parent, report, source, enc))
        .collect();
    // Marketplace entries (the plugins as listed) under the marketplace.
    for m in g.marketplaces().iter().filter(|m| m.file == file) {
        let entries: Vec<lsp::DocumentSymbol> = m
            .entries
            .iter()
            .filter_map(|e| {
                let (name, at) = e.name.clone()?;
                #[allow(deprecated)]
                Some(lsp::DocumentSymbol {
                    name,
                    detail: Some("plugin entry".to_string()),
                    kind: lsp::SymbolKind::FIELD,
                    tags: None,
                    deprecated: None,
                    range: range(source, e.span, enc),
                    selection_range: range(source, at, enc),
                    children: None,
                })
            })
            .collect();
        if let Some(top) = out.iter_mut().find(|s| {
            s.kind == lsp::SymbolKind::PACKAGE && s.detail.as_deref() == Some("marketplace")
        }) {
            top.children.get_or_insert_with(Vec::new).extend(entries);
        } else {
            out.extend(entries);
        }
    }
    out.sort_by_key(|s| (s.range.start.line, s.range.start.character));
    out
}

/// The code actions for `diagnostics` (the file's findings in the range
/// asked): each fix as a quick fix, then "suppress with a reason" in the
/// form the file takes ([`super::suppression`]).
pub fn code_actions(
    report: &Report,
    diagnostics: &[(&Diagnostic, lsp::Diagnostic)],
    source: &SourceFile,
    config: &crate::config::Config,
    root: &Path,
    enc: Encoding,
    create_files: bool,
) -> Vec<lsp::CodeActionOrCommand> {
    let uri = path_to_uri(&root.join(source.path()));
    let mut out = Vec::new();
    let edit = |edits: Vec<lsp::TextEdit>| lsp::WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        document_changes: None,
        change_annotations: None,
    };
    for (d, ld) in diagnostics {
        if let Some(fix) = &d.fix {
            let edits = fix
                .edits
                .iter()
                .map(|e| lsp::TextEdit {
                    range: range(source, e.span, enc),
                    new_text: e.replacement.clone(),
                })
                .collect();
            let safe = fix.applicability == skein_syntax::Applicability::Safe;
            out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: format!("{} ({})", fix.message, d.rule.code),
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![(*ld).clone()]),
                edit: Some(edit(edits)),
                command: None,
                is_preferred: Some(safe),
                disabled: None,
                data: None,
            }));
        }
    }
    for (d, ld) in diagnostics {
        if let Some(edit) =
            super::suppression::config_entry(report, d, source, config, root, enc, create_files)
        {
            out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: format!("suppress {} in skein.toml with a reason", d.rule.code),
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![(*ld).clone()]),
                edit: Some(edit),
                command: None,
                is_preferred: Some(false),
                disabled: None,
                data: None,
            }));
        }
        if let Some((at, text)) = super::suppression::comment(report, d, source) {
            let p = super::convert::position(source, at, enc);
            out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: format!("suppress {} here with a reason", d.rule.code),
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![(*ld).clone()]),
                edit: Some(edit(vec![lsp::TextEdit {
                    range: lsp::Range::new(p, p),
                    new_text: text,
                }])),
                command: None,
                is_preferred: Some(false),
                disabled: None,
                data: None,
            }));
        }
    }
    out
}
