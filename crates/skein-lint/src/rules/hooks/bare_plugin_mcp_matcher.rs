//! HOOK019 `bare-plugin-mcp-matcher`.

use super::{Home, hooks_of};
use crate::{Context, FilePass, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK019",
    name: "bare-plugin-mcp-matcher",
    severity: Severity::Warning,
    summary: "a plugin hook matching its own bundled MCP server's tools by the bare server key instead of the plugin-scoped name",
    doc: include_str!("bare_plugin_mcp_matcher.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Repository,
    on: super::ON,
};

/// The plugin's name and the keys of the MCP servers it bundles (inline in
/// the manifest, or in its `.mcp.json`).
fn plugin_servers(cx: &Context, root: &str) -> (String, Vec<String>) {
    let manifest = format!("{root}.claude-plugin/plugin.json");
    let mcp = format!("{root}.mcp.json");
    let mut name = root
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let mut servers = Vec::new();
    let keys = |a: &Artifact| -> Vec<String> {
        let doc = &a.document;
        doc.root()
            .and_then(|r| doc.get(r, "mcpServers"))
            .and_then(|m| doc.entries(m))
            .unwrap_or_default()
            .iter()
            .filter_map(|e| doc.key_text(e.key))
            .collect()
    };
    if let Some(a) = cx
        .artifact_at(&manifest)
        .filter(|a| a.format == Format::ClaudePlugin)
    {
        let doc = &a.document;
        if let Some(n) = doc
            .root()
            .and_then(|r| doc.get(r, "name"))
            .and_then(|n| doc.as_str(n))
        {
            name = n.to_string();
        }
        servers.extend(keys(a));
    }
    if let Some(a) = cx.artifact_at(&mcp) {
        servers.extend(keys(a));
    }
    (name, servers)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let Home::Plugin(root) = &h.home else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut found = Vec::new();
    for e in h.events() {
        for &g in &e.groups {
            if let Some(m) = doc.get(g, "matcher") {
                found.push(m);
            }
        }
        for handler in h.handlers_of(&e) {
            if let Some(i) = doc.get(handler, "if") {
                found.push(i);
            }
        }
    }
    if found.is_empty() {
        return Vec::new();
    }
    let (plugin, servers) = plugin_servers(cx, root);
    if servers.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for node in found {
        let Some(text) = doc.as_str(node) else {
            continue;
        };
        for s in &servers {
            let bare = format!("mcp__{s}__");
            if !text.contains(&bare) {
                continue;
            }
            let scoped = format!("mcp__plugin_{plugin}_{s}__");
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(node).span,
                    format!(
                        "{} names the plugin's own MCP server {} by its bare key; its tools are named {}",
                        quote(text),
                        quote(s),
                        quote(&format!("{scoped}<tool>"))
                    ),
                )
                .with_label("never matches a tool of the bundled server")
                .with_help(format!("write {}", quote(&text.replace(&bare, &scoped)))),
            );
        }
    }
    out
}
