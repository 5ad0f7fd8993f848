//! MCP servers and tools (DESIGN.md §4: `connects`, `provides`, `declares`).
//!
//! - Every server of an MCP config (`.mcp.json`, `mcp.json`, Agent Plugins
//!   `mcp.json`; the `mcpServers`, `servers` or flat form) is a
//!   [`NodeKind::McpServer`] node at its key.
//! - A Bailey assistant connects ([`EdgeKind::Connects`]) to the servers of
//!   the config its `mcp` names, resolved relative to `assistant.json`.
//! - Each tool its `tools` map declares (`tools` and `write_tools` of a
//!   server) is a [`NodeKind::Tool`] node: the server provides it
//!   ([`EdgeKind::Provides`], when the server is in the config) and the
//!   assistant declares it ([`EdgeKind::Declares`], `write` for a
//!   `write_tools` entry).
//! - A plugin connects to the servers of `.mcp.json` or `mcp.json` in its
//!   root, of the file its manifest's `mcpServers` names, or inline in its
//!   manifest's `mcpServers`.

use super::HashMap;
use super::{EdgeKind, NodeKind, RepoGraph, dir_of, join};
use crate::decode::Artifact;
use crate::format::Format;
use crate::models::Model;
use petgraph::graph::NodeIndex;
use skein_syntax::{Document, FileId, NodeId, SourceMap, Span, Spanned};

/// A Bailey assistant's MCP wiring: its config and what its `tools` declare.
#[derive(Debug, Clone, PartialEq)]
pub struct AssistantMcp {
    /// The assistant node.
    pub node: NodeIndex,
    /// `assistant.json`.
    pub file: FileId,
    /// `mcp` as written.
    pub mcp: Option<Spanned<String>>,
    /// The MCP config `mcp` names, when it is an MCP config artifact of the
    /// repository.
    pub config: Option<FileId>,
    /// The servers of that config ([`NodeKind::McpServer`] nodes), in file order.
    pub servers: Vec<NodeIndex>,
    /// The `tools` key span, when `tools` is written.
    pub tools_key: Option<Span>,
    /// One entry per key of `tools`, in file order.
    pub declared: Vec<ServerDecl>,
}

/// One key of a Bailey assistant's `tools`: a server and its declared tools.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerDecl {
    /// The key as written (a server name).
    pub server: Spanned<String>,
    /// The server of the config it names, if any.
    pub node: Option<NodeIndex>,
    /// The `tools` list's span, when written.
    pub tools_span: Option<Span>,
    /// `tools` entries.
    pub tools: Vec<Spanned<String>>,
    /// `write_tools` entries.
    pub write_tools: Vec<Spanned<String>>,
}

impl ServerDecl {
    /// True when `tool` is in `tools` or `write_tools`.
    pub fn declares(&self, tool: &str) -> bool {
        self.tools
            .iter()
            .chain(&self.write_tools)
            .any(|t| t.value == tool)
    }
}

impl AssistantMcp {
    /// The declaration of server `name` in `tools`, if any.
    pub fn decl(&self, name: &str) -> Option<&ServerDecl> {
        self.declared.iter().find(|d| d.server.value == name)
    }
}

impl RepoGraph {
    /// Bailey assistants with their MCP wiring, in path order.
    pub fn assistant_mcp(&self) -> &[AssistantMcp] {
        &self.assistant_mcp
    }
}

/// The servers of an MCP config document: name and key span, in file order.
/// `mcpServers` (Claude Code, Cursor, Agent Plugins), else `servers` (VS
/// Code), else the flat form (every top-level key whose value is a mapping,
/// but `$schema` and `inputs`).
pub fn server_entries(doc: &Document) -> Vec<(String, Span)> {
    let Some(root) = doc.root() else {
        return Vec::new();
    };
    let map = doc
        .get(root, "mcpServers")
        .or_else(|| doc.get(root, "servers"));
    let flat = map.is_none();
    let Some(entries) = doc.entries(map.unwrap_or(root)) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|e| {
            let name = doc.as_str(e.key)?;
            if flat && (name == "$schema" || name == "inputs" || doc.entries(e.value).is_none()) {
                return None;
            }
            Some((name.to_string(), doc.node(e.key).span))
        })
        .collect()
}

/// The strings of sequence `id`, with spans.
fn strings(doc: &Document, id: Option<NodeId>) -> Vec<Spanned<String>> {
    id.and_then(|i| doc.items(i))
        .unwrap_or_default()
        .iter()
        .filter_map(|&i| {
            Some(Spanned {
                span: doc.node(i).span,
                value: doc.as_str(i)?.to_string(),
            })
        })
        .collect()
}

/// Adds MCP servers, tools and their edges (see the module doc).
pub(super) fn link(g: &mut RepoGraph, artifacts: &[Artifact], sources: &SourceMap) {
    let path = |a: &Artifact| sources.get(a.file).path();

    // Servers of every MCP config, by the config's path.
    let mut configs: HashMap<String, (FileId, Vec<NodeIndex>)> = HashMap::default();
    for a in artifacts
        .iter()
        .filter(|a| matches!(a.format, Format::McpConfig | Format::AgentPluginsMcp))
    {
        let servers = server_entries(&a.document)
            .into_iter()
            .map(|(name, span)| g.add(NodeKind::McpServer, name, a.file, span))
            .collect();
        configs.insert(path(a).to_string(), (a.file, servers));
    }
    let by_file: HashMap<FileId, NodeIndex> = g
        .graph
        .node_indices()
        .filter(|&n| matches!(g.graph[n].kind, NodeKind::Assistant | NodeKind::Plugin))
        .map(|n| (g.graph[n].file, n))
        .collect();

    // Bailey assistants.
    for a in artifacts {
        let Model::BaileyAssistant(b) = &a.model else {
            continue;
        };
        let Some(&node) = by_file.get(&a.file) else {
            continue;
        };
        let dir = dir_of(path(a));
        let (config, servers) = match b
            .mcp
            .as_ref()
            .and_then(|m| join(dir, &m.value))
            .and_then(|p| configs.get(&p))
        {
            Some((f, s)) => (Some(*f), s.clone()),
            None => (None, Vec::new()),
        };
        let mcp_span = b.mcp.as_ref().map(|m| m.span).unwrap_or_default();
        for &s in &servers {
            g.edge(node, s, EdgeKind::Connects, a.file, mcp_span);
        }
        let doc = &a.document;
        let tools_entry = doc.root().and_then(|r| doc.get_entry(r, "tools"));
        let mut declared = Vec::new();
        for e in tools_entry
            .and_then(|t| doc.entries(t.value))
            .unwrap_or_default()
        {
            let Some(name) = doc.as_str(e.key) else {
                continue;
            };
            let server_node = servers.iter().copied().find(|&s| g.graph[s].name == name);
            let list = doc.get(e.value, "tools");
            let decl = ServerDecl {
                server: Spanned {
                    span: doc.node(e.key).span,
                    value: name.to_string(),
                },
                node: server_node,
                tools_span: list.map(|l| doc.node(l).span),
                tools: strings(doc, list),
                write_tools: strings(doc, doc.get(e.value, "write_tools")),
            };
            let mut tool_nodes: HashMap<&str, NodeIndex> = HashMap::default();
            for (t, write) in decl
                .tools
                .iter()
                .map(|t| (t, false))
                .chain(decl.write_tools.iter().map(|t| (t, true)))
            {
                let tn = *tool_nodes.entry(&t.value).or_insert_with(|| {
                    let tn = g.add(NodeKind::Tool, t.value.clone(), a.file, t.span);
                    if let Some(s) = server_node {
                        let (file, span) = (g.graph[s].file, g.graph[s].span);
                        g.edge(s, tn, EdgeKind::Provides, file, span);
                    }
                    tn
                });
                g.edge(node, tn, EdgeKind::Declares { write }, a.file, t.span);
            }
            declared.push(decl);
        }
        g.assistant_mcp.push(AssistantMcp {
            node,
            file: a.file,
            mcp: b.mcp.clone(),
            config,
            servers,
            tools_key: tools_entry.map(|e| doc.node(e.key).span),
            declared,
        });
    }

    // Plugins: `.mcp.json` / `mcp.json` in the root, or the manifest's `mcpServers`.
    for a in artifacts.iter().filter(|a| {
        matches!(
            a.format,
            Format::ClaudePlugin | Format::CodexPlugin | Format::AgentPluginsManifest
        )
    }) {
        let Some(&node) = by_file.get(&a.file) else {
            continue;
        };
        let p = path(a);
        let root = super::plugin_root(dir_of(p));
        let doc = &a.document;
        let inline = doc.root().and_then(|r| doc.get(r, "mcpServers"));
        let mut files = vec![format!("{root}.mcp.json"), format!("{root}mcp.json")];
        if let Some(rel) = inline.and_then(|i| doc.as_str(i))
            && let Some(f) = join(root, rel)
        {
            files.push(f);
        }
        files.sort();
        files.dedup();
        for f in files {
            if let Some((cf, servers)) = configs.get(&f) {
                for &s in servers {
                    let span = g.graph[s].span;
                    g.edge(node, s, EdgeKind::Connects, *cf, span);
                }
            }
        }
        if let Some(m) = inline.filter(|&i| doc.entries(i).is_some()) {
            for e in doc.entries(m).unwrap_or_default() {
                let Some(name) = doc.as_str(e.key) else {
                    continue;
                };
                let span = doc.node(e.key).span;
                let s = g.add(NodeKind::McpServer, name, a.file, span);
                g.edge(node, s, EdgeKind::Connects, a.file, span);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build_graph, classify_path, decode};
    use skein_syntax::{Parsers, SourceFile};

    fn graph(files: &[(&str, &str)]) -> RepoGraph {
        let mut sources = SourceMap::new();
        let mut parsers = Parsers::new();
        let mut artifacts = Vec::new();
        for (path, text) in files {
            let file = sources.add(SourceFile::new(*path, *text));
            let candidate = classify_path(path).expect("artifact path");
            artifacts.extend(decode(&mut parsers, file, candidate, text.as_bytes()).artifact);
        }
        build_graph(&artifacts, &sources)
    }

    fn count(g: &RepoGraph, f: impl Fn(EdgeKind) -> bool) -> usize {
        g.graph().edge_weights().filter(|e| f(e.kind)).count()
    }

    #[test]
    fn servers_tools_and_their_edges() {
        let g = graph(&[
            (
                "p/assistant.json",
                r#"{"format_version": "0.1", "name": "p", "title": "P",
                "instructions": "skills/p/SKILL.md", "mcp": "mcp.json",
                "tools": {"gmail": {"tools": ["a", "b"], "write_tools": ["b"]},
                          "ghost": {"tools": ["x"]}}}"#,
            ),
            (
                "p/mcp.json",
                r#"{"mcpServers": {"gmail": {"command": "g"}, "crm": {"command": "c"}}}"#,
            ),
            ("q/.claude-plugin/plugin.json", r#"{"name": "q"}"#),
            ("q/.mcp.json", r#"{"fs": {"command": "fs"}}"#),
        ]);
        let kinds = |k| g.graph().node_weights().filter(|n| n.kind == k).count();
        assert_eq!(kinds(NodeKind::McpServer), 3);
        assert_eq!(kinds(NodeKind::Tool), 3);
        assert_eq!(count(&g, |k| k == EdgeKind::Connects), 3);
        assert_eq!(count(&g, |k| k == EdgeKind::Provides), 2);
        assert_eq!(count(&g, |k| k == EdgeKind::Declares { write: false }), 3);
        assert_eq!(count(&g, |k| k == EdgeKind::Declares { write: true }), 1);
        let a = &g.assistant_mcp()[0];
        assert!(a.config.is_some());
        assert_eq!(a.servers.len(), 2);
        let names: Vec<_> = a.declared.iter().map(|d| d.server.value.as_str()).collect();
        assert_eq!(names, ["gmail", "ghost"]);
        assert!(a.declared[0].node.is_some() && a.declared[1].node.is_none());
        assert!(a.declared[0].declares("b") && !a.declared[0].declares("c"));
    }

    #[test]
    fn server_forms() {
        let mut p = Parsers::new();
        let names = |text: &str, p: &mut Parsers| -> Vec<String> {
            let doc = p.parse_json(FileId(0), text).document;
            server_entries(&doc).into_iter().map(|(n, _)| n).collect()
        };
        assert_eq!(
            names(r#"{"servers": {"a": {}}, "inputs": []}"#, &mut p),
            ["a"]
        );
        assert_eq!(
            names(r#"{"$schema": "x", "b": {"url": "u"}, "c": 1}"#, &mut p),
            ["b"]
        );
        assert_eq!(names(r#"{"mcpServers": {"d": {}}}"#, &mut p), ["d"]);
    }
}
