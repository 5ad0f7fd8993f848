//! PLUGIN011 `channel-without-server`.

use super::{manifests, root_mapping};
use crate::rules::refs::closest;
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN011",
    name: "channel-without-server",
    severity: Severity::Error,
    summary: "a plugin channel with no `server`, or one naming no MCP server of the plugin's inline `mcpServers`",
    doc: include_str!("channel_without_server.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(root) = root_mapping(doc) else {
            continue;
        };
        let Some(channels) = doc.get(root, "channels").and_then(|c| doc.items(c)) else {
            continue;
        };
        // The server names, when the manifest declares its servers inline.
        let servers: Option<Vec<String>> = doc
            .get(root, "mcpServers")
            .filter(|&m| matches!(doc.kind(m), NodeKind::Mapping(_)))
            .map(|m| {
                doc.entries(m)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|e| doc.key_text(e.key))
                    .collect()
            });
        for (i, &c) in channels.iter().enumerate() {
            if !matches!(doc.kind(c), NodeKind::Mapping(_)) {
                continue;
            }
            match doc.get(c, "server") {
                None => out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        doc.node(c).span,
                        format!("`channels[{i}]` has no `server`"),
                    )
                    .with_label("`server` is required")
                    .with_help("name the plugin MCP server (a key of `mcpServers`) that delivers this channel's messages"),
                ),
                Some(s) => {
                    let (Some(name), Some(servers)) = (doc.as_str(s), servers.as_ref()) else {
                        continue;
                    };
                    if servers.iter().any(|k| k == name) {
                        continue;
                    }
                    let mut d = Diagnostic::new(
                        RULE,
                        a.file,
                        doc.node(s).span,
                        format!(
                            "`channels[{i}].server` {} is not a server of the plugin's `mcpServers`",
                            quote(name)
                        ),
                    )
                    .with_label("no MCP server of this name");
                    d = match closest(name, servers.iter().map(String::as_str)) {
                        Some((near, _)) => d.with_help(format!("did you mean {}?", quote(near))),
                        None => d.with_note(format!(
                            "the plugin's servers: {}",
                            servers.iter().map(|s| quote(s)).collect::<Vec<_>>().join(", ")
                        )),
                    };
                    out.push(d);
                }
            }
        }
    }
    out
}
