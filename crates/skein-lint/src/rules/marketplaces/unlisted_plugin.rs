//! MKT004 `unlisted-plugin`.

use super::as_dir;
use crate::{Context, Pass};
use skein_model::graph::{EntrySource, NodeKind, join, market::manifest_root};
use skein_syntax::{Diagnostic, NodeKind as DocKind, Rule, Severity, Span, quote};
use std::collections::{BTreeMap, BTreeSet};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MKT004",
    name: "unlisted-plugin",
    severity: Severity::Info,
    summary: "a plugin folder beside a marketplace's plugins that no entry registers",
    doc: include_str!("unlisted_plugin.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn parent(dir: &str) -> &str {
    let t = dir.trim_end_matches('/');
    match t.rfind('/') {
        Some(i) => &t[..=i],
        None => "",
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let g = cx.graph;
    // Plugin manifests by (plugin root, manifest path below it).
    let mut plugins: BTreeMap<String, Vec<(&str, petgraph::graph::NodeIndex)>> = BTreeMap::new();
    for n in g.graph().node_indices() {
        if g.node(n).kind != NodeKind::Plugin {
            continue;
        }
        let path = cx.path(g.node(n).file);
        let root = manifest_root(path);
        plugins
            .entry(root.to_string())
            .or_default()
            .push((&path[root.len()..], n));
    }
    let mut out = Vec::new();
    for m in g.marketplaces() {
        let listed: BTreeSet<String> = m
            .entries
            .iter()
            .filter_map(|e| match &e.source {
                EntrySource::Local {
                    target: Some(t), ..
                } => Some(as_dir(t)),
                _ => None,
            })
            .collect();
        // The folders that hold this marketplace's plugins.
        let mut homes: BTreeSet<String> = listed
            .iter()
            .filter(|d| !d.is_empty() && **d != m.root)
            .map(|d| parent(d).to_string())
            .collect();
        if let Some((pr, _)) = &m.plugin_root
            && let Some(d) = join(&m.root, pr)
        {
            homes.insert(as_dir(&d));
        }
        homes.retain(|h| h.starts_with(&m.root));
        let Some(a) = cx.artifact(m.file) else {
            continue;
        };
        let doc = &a.document;
        let plugins_key = doc
            .root()
            .filter(|&r| matches!(doc.kind(r), DocKind::Mapping(_)))
            .and_then(|r| doc.get_entry(r, "plugins"))
            .map(|e| doc.node(e.key).span)
            .unwrap_or_else(|| Span::empty(0));
        let want = m.flavour.manifests()[0];
        for home in &homes {
            for (root, manifests) in plugins
                .range(home.clone()..)
                .take_while(|(r, _)| r.starts_with(home.as_str()))
            {
                if parent(root) != home || listed.contains(root) {
                    continue;
                }
                let Some(&(_, n)) = manifests.iter().find(|(rel, _)| *rel == want) else {
                    continue;
                };
                let node = g.node(n);
                // The repository's root is shown as `.`, never as nothing.
                let shown = if home.is_empty() { "." } else { home.as_str() };
                let span = if node.span.is_empty() {
                    Span::empty(0)
                } else {
                    node.span
                };
                out.push(
                    Diagnostic::new(
                        RULE,
                        node.file,
                        span,
                        format!(
                            "plugin {} in `{shown}` is not listed by the marketplace {}",
                            quote(&node.name),
                            quote(g.node(m.node).name.as_str())
                        ),
                    )
                    .with_label("no marketplace entry registers this plugin")
                    .with_secondary(m.file, plugins_key, "the marketplace's entries")
                    .with_help(format!(
                        "add `{{\"name\": \"{}\", \"source\": \"./{}\"}}` to `plugins`, or move the folder out of `{shown}`",
                        node.name,
                        root[m.root.len()..].trim_end_matches('/')
                    )),
                );
            }
        }
    }
    out
}
