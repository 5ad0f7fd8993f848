//! OpenCode: contracts (`shared/formats/opencode-contract.schema.json`,
//! RizkiRachman/opencode-kit `contract.schema.json`) with their lifecycle,
//! agent frontmatter `skills`, and the agents of an OpenCode configuration
//! (`opencode.json` / `opencode.jsonc`, opencode.ai config docs).

use super::HashMap;
use super::{
    EdgeKind, GEdge, NodeKind, RepoGraph, TerminalKind, dir_of,
    skills::{Skills, nearest},
};
use crate::decode::Artifact;
use crate::format::Format;
use crate::models::{self, Model};
use petgraph::graph::NodeIndex;
use serde_json::Value;
use skein_syntax::{FileId, SourceMap, Span, Spanned};

/// OpenCode: contract `applicable_skills` (anywhere in the contract) and
/// agent frontmatter `skills`, by name; `part_nodes` are the plugin part
/// nodes, agent files among them.
pub(super) fn contracts_and_agents(
    g: &mut RepoGraph,
    artifacts: &[Artifact],
    sources: &SourceMap,
    skills: &Skills,
    part_nodes: &HashMap<FileId, NodeIndex>,
) {
    let path = |a: &Artifact| sources.get(a.file).path();
    let Skills { skill_by_name, .. } = skills;

    for a in artifacts {
        let dir = dir_of(path(a)).to_string();
        let (n, names): (NodeIndex, Vec<Spanned<String>>) = match (&a.model, a.format) {
            (Model::OpenCodeContract(_), _) => {
                let n = g.add(NodeKind::Contract, path(a), a.file, Span::default());
                // `applicable_skills` and the "Loaded extension skills".
                let mut names = collect_named(&a.document, "applicable_skills");
                names.extend(collect_named(&a.document, "extension_skills"));
                names.sort_by_key(|s| s.span);
                (n, names)
            }
            (Model::Frontmatter(fm), Format::PluginAgent) => {
                if fm.skills.is_none() {
                    continue;
                }
                // Each skill at its own list item or comma-separated piece.
                let text = sources.get(a.file).text();
                (part_nodes[&a.file], name_list(&a.document, text, "skills"))
            }
            _ => continue,
        };
        // An OpenCode agent's folder is `agents/`; its skills are looked up from the repo folder above.
        let from = dir.strip_suffix("agents/").unwrap_or(&dir).to_string();
        for s in &names {
            g.use_skill_by_name(nearest(skill_by_name, &s.value, &from), n, s, a.file);
        }
        let kind = g.graph[n].kind;
        g.loader_root(from, kind);
    }
}

/// OpenCode config: each `agent.<name>.skills`, by name, nearest the config.
pub(super) fn configs(
    g: &mut RepoGraph,
    artifacts: &[Artifact],
    sources: &SourceMap,
    skills: &Skills,
) {
    let path = |a: &Artifact| sources.get(a.file).path();
    let Skills { skill_by_name, .. } = skills;

    for a in artifacts {
        let Model::OpenCodeConfig(c) = &a.model else {
            continue;
        };
        let dir = dir_of(path(a)).to_string();
        let doc = &a.document;
        let agents = doc.root().and_then(|r| doc.get(r, "agent"));
        for (name, agent) in &c.agent {
            let span = agents
                .and_then(|m| doc.get_entry(m, name))
                .map(|e| doc.node(e.key).span)
                .unwrap_or_default();
            let n = g.add(NodeKind::Agent, name.clone(), a.file, span);
            for s in &agent.skills {
                g.use_skill_by_name(nearest(skill_by_name, &s.value, &dir), n, s, a.file);
            }
        }
        g.loader_root(dir, NodeKind::Agent);
    }
}

/// The lifecycle of an OpenCode contract (`formats/opencode-contract.schema.json`,
/// `state`): phases PLAN -> EXECUTE -> REVIEW -> COMPLETE (or BLOCKED); a review
/// scored under `retry.score_threshold` sends the work round again (one RETRY
/// back-edge REVIEW -> PLAN), capped by `retry.max_attempts` (no cap when
/// `retry` is given without it; no retry edge when the contract has no `retry`).
pub(super) fn lifecycle(g: &mut RepoGraph, a: &Artifact, c: &models::OpenCodeContract) {
    let span = c
        .retry
        .as_ref()
        .map(|r| r.span)
        .or(c.state.as_ref().map(|s| s.span))
        .unwrap_or_default();
    let phases: Vec<NodeIndex> = ["PLAN", "EXECUTE", "REVIEW"]
        .iter()
        .map(|p| g.add(NodeKind::Stage, *p, a.file, span))
        .collect();
    let done = g.add(
        NodeKind::Terminal(TerminalKind::Done),
        "COMPLETE",
        a.file,
        span,
    );
    let blocked = g.add(
        NodeKind::Terminal(TerminalKind::Blocked),
        "BLOCKED",
        a.file,
        span,
    );
    for (i, &p) in phases.iter().enumerate() {
        let next = phases.get(i + 1).copied().unwrap_or(done);
        g.edge(p, next, EdgeKind::Next, a.file, span);
        g.edge(p, blocked, EdgeKind::Exit, a.file, span);
    }
    if let Some(retry) = &c.retry {
        let cap = retry.value.get("max_attempts").and_then(Value::as_u64);
        g.graph.add_edge(
            phases[2],
            phases[0],
            GEdge::new(
                EdgeKind::Revise,
                a.file,
                retry.span,
                Some("RETRY".into()),
                cap,
            ),
        );
    }
}

/// Every string in arrays under key `key`, anywhere in the document, with spans.
fn collect_named(doc: &skein_syntax::Document, key: &str) -> Vec<Spanned<String>> {
    let mut out = Vec::new();
    let Some(root) = doc.root() else { return out };
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if let Some(entries) = doc.entries(id) {
            for e in entries.iter().rev() {
                if doc.as_str(e.key) == Some(key)
                    && let Some(items) = doc.items(e.value)
                {
                    for &i in items {
                        if let Some(s) = doc.as_str(i) {
                            out.push(Spanned {
                                span: doc.node(i).span,
                                value: s.to_string(),
                            });
                        }
                    }
                }
                stack.push(e.value);
            }
        } else if let Some(items) = doc.items(id) {
            stack.extend(items.iter().rev());
        }
    }
    out.sort_by_key(|s| s.span);
    out
}

/// The names of a top-level frontmatter field written as a list or as a
/// comma-separated string, each with its own span: the list item, or the
/// piece of the string (the whole scalar when its text is not the value
/// byte for byte, as with escapes or folded lines).
fn name_list(doc: &skein_syntax::Document, text: &str, key: &str) -> Vec<Spanned<String>> {
    let Some(node) = doc.root().and_then(|r| doc.get(r, key)) else {
        return Vec::new();
    };
    // Where `value` starts inside the scalar at `span`, if written as is.
    let offset = |span: Span, value: &str| -> Option<usize> {
        let raw = text.get(span.start as usize..span.end as usize)?;
        if raw == value {
            return Some(0);
        }
        let quoted = raw.len() >= 2
            && ((raw.starts_with('"') && raw.ends_with('"'))
                || (raw.starts_with('\'') && raw.ends_with('\'')));
        (quoted && &raw[1..raw.len() - 1] == value).then_some(1)
    };
    let mut out = Vec::new();
    let mut push = |span: Span, value: &str| {
        let at = offset(span, value);
        let mut start = 0;
        let pieces: Vec<&str> = if doc.items(node).is_some() {
            vec![value]
        } else {
            value.split(',').collect()
        };
        for piece in pieces {
            let name = piece.trim();
            let lead = piece.len() - piece.trim_start().len();
            if !name.is_empty() {
                let span = match at {
                    Some(o) => {
                        let s = span.start as usize + o + start + lead;
                        Span::new(s, s + name.len())
                    }
                    None => span,
                };
                out.push(Spanned {
                    span,
                    value: name.to_string(),
                });
            }
            start += piece.len() + 1;
        }
    };
    match doc.items(node) {
        Some(items) => {
            for &i in items {
                if let Some(v) = doc.as_str(i) {
                    push(doc.node(i).span, v);
                }
            }
        }
        None => {
            if let Some(v) = doc.as_str(node) {
                push(doc.node(node).span, v);
            }
        }
    }
    out
}
