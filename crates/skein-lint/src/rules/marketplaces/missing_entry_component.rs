//! MKT008 `missing-entry-component`.

use super::is_folder;
use crate::{Context, Pass};
use skein_model::graph::{EntrySource, join};
use skein_syntax::{Diagnostic, NodeId, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MKT008",
    name: "missing-entry-component",
    severity: Severity::Error,
    summary: "a component path in a local marketplace entry that names nothing in the plugin folder",
    doc: include_str!("missing_entry_component.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

/// The component fields of an entry.
const COMPONENTS: &[&str] = &[
    "commands",
    "agents",
    "skills",
    "hooks",
    "mcpServers",
    "lspServers",
];

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (m, a, _) in super::claude_marketplaces(cx) {
        let doc = &a.document;
        for e in &m.entries {
            let EntrySource::Local {
                target: Some(target),
                ..
            } = &e.source
            else {
                continue;
            };
            // A source folder that does not exist is MKT001's.
            if !is_folder(cx.repo_files, target) {
                continue;
            }
            for &field in COMPONENTS {
                let Some(v) = doc.get(e.node, field) else {
                    continue;
                };
                let items: Vec<NodeId> = match doc.kind(v) {
                    NodeKind::Sequence(_) => doc.items(v).unwrap_or_default().to_vec(),
                    _ => vec![v],
                };
                for i in items {
                    let Some(p) = doc.as_str(i) else { continue };
                    if !p.starts_with("./") {
                        continue;
                    }
                    let Some(t) = join(target, p) else { continue };
                    if cx.repo_files.contains(&t) || is_folder(cx.repo_files, &t) {
                        continue;
                    }
                    out.push(
                        Diagnostic::new(
                            RULE,
                            m.file,
                            doc.node(i).span,
                            format!(
                                "`{field}` path {} of marketplace entry {} names nothing in the plugin folder",
                                quote(p),
                                quote(e.name.as_ref().map_or("?", |(n, _)| n.as_str()))
                            ),
                        )
                        .with_label("no such file or folder")
                        .with_note(format!("entry paths resolve from the plugin's source folder, here to `{t}`")),
                    );
                }
            }
        }
    }
    out
}
