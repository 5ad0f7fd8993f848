//! SEC: hard-coded secrets and paths that escape the repository (DESIGN.md §6).
//!
//! Both rules are per-file passes ([`crate::FilePass`]). This module holds
//! what they share: where an artifact keeps its MCP servers, and the byte
//! span of (part of) a string value in the file.

pub mod hardcoded_secret;
pub mod path_escapes_repo;

use skein_model::{Artifact, Format};
use skein_syntax::{Document, NodeId, NodeKind, Span};

/// An MCP server definition inside an artifact: its name and its mapping node.
pub(crate) struct Server {
    /// The server's name (its key), or `capabilities[N]` for a Loom capability.
    pub name: String,
    /// The server's mapping.
    pub node: NodeId,
}

/// The entries of mapping `map` whose values are mappings, as servers.
fn servers_of_map(doc: &Document, map: NodeId, skip: &[&str]) -> Vec<Server> {
    doc.entries(map)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| {
            let name = doc.as_str(e.key)?;
            if skip.contains(&name) || doc.entries(e.value).is_none() {
                return None;
            }
            Some(Server {
                name: name.to_string(),
                node: e.value,
            })
        })
        .collect()
}

/// Every MCP server an artifact defines, in file order:
///
/// - MCP configs (`.mcp.json`, `mcp.json`, `.cursor/mcp.json`,
///   `.vscode/mcp.json`, `.amazonq/mcp.json`, `claude_desktop_config.json`,
///   Windsurf's `mcp_config.json`, Agent Plugins `mcp.json`): `mcpServers`, else
///   `servers`, else the flat form (top-level mappings but `$schema`, `inputs`);
/// - plugin manifests (Claude, Agent Plugins): an inline `mcpServers` mapping;
/// - marketplaces: the inline `mcpServers` of each `plugins` entry;
/// - Gemini CLI settings (`.gemini/settings.json`): `mcpServers`;
/// - Codex configs (`.codex/config.toml`): the `[mcp_servers.*]` tables;
/// - OpenCode configs: `mcp`;
/// - Loom agent specs: each `capabilities` entry of kind `mcp`.
pub(crate) fn servers(a: &Artifact) -> Vec<Server> {
    let doc = &a.document;
    let Some(root) = doc.root() else {
        return Vec::new();
    };
    match a.format {
        Format::McpConfig | Format::AgentPluginsMcp => {
            match doc
                .get(root, "mcpServers")
                .or_else(|| doc.get(root, "servers"))
            {
                Some(m) => servers_of_map(doc, m, &[]),
                None => servers_of_map(doc, root, &["$schema", "inputs"]),
            }
        }
        Format::ClaudePlugin | Format::CodexPlugin | Format::AgentPluginsManifest => doc
            .get(root, "mcpServers")
            .map(|m| servers_of_map(doc, m, &[]))
            .unwrap_or_default(),
        Format::ClaudeMarketplace => doc
            .get(root, "plugins")
            .and_then(|p| doc.items(p))
            .unwrap_or_default()
            .iter()
            .filter_map(|&p| doc.get(p, "mcpServers"))
            .flat_map(|m| servers_of_map(doc, m, &[]))
            .collect(),
        Format::GeminiSettings => doc
            .get(root, "mcpServers")
            .map(|m| servers_of_map(doc, m, &[]))
            .unwrap_or_default(),
        Format::CodexConfig => doc
            .get(root, "mcp_servers")
            .map(|m| servers_of_map(doc, m, &[]))
            .unwrap_or_default(),
        Format::OpenCodeConfig => doc
            .get(root, "mcp")
            .map(|m| servers_of_map(doc, m, &[]))
            .unwrap_or_default(),
        Format::LoomAgentSpec => doc
            .get(root, "capabilities")
            .and_then(|c| doc.items(c))
            .unwrap_or_default()
            .iter()
            .enumerate()
            .filter(|&(_, &c)| doc.get(c, "kind").and_then(|k| doc.as_str(k)) == Some("mcp"))
            .map(|(i, &c)| Server {
                name: format!("capabilities[{i}]"),
                node: c,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The byte span, in the file, of `value[range]` where `value` is the
/// decoded string of node `id`: exact when the node's source spells the
/// string without escapes (plain or quoted), else the whole string's
/// contents (between the quotes), which then certainly covers it.
pub(crate) fn sub_span(
    doc: &Document,
    id: NodeId,
    text: &str,
    range: std::ops::Range<usize>,
) -> Span {
    let node = doc.node(doc.resolve(id));
    let span = node.span;
    let raw = text.get(span.range()).unwrap_or("");
    let (start, inner) = match raw.as_bytes().first() {
        Some(b'"' | b'\'') if raw.len() >= 2 => (span.start as usize + 1, &raw[1..raw.len() - 1]),
        _ => (span.start as usize, raw),
    };
    match &node.kind {
        NodeKind::String(s) if s == inner && range.end <= s.len() => {
            Span::new(start + range.start, start + range.end)
        }
        _ => Span::new(start, start + inner.len()),
    }
}
