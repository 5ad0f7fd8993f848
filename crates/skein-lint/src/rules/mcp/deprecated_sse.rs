//! MCP010 `deprecated-sse`.

use super::{Client, Transport, mcp_file};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP010",
    name: "deprecated-sse",
    severity: Severity::Warning,
    summary: "an MCP server uses the HTTP+SSE transport, which MCP deprecated for Streamable HTTP",
    doc: include_str!("deprecated_sse.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    // Agent Plugins 1.0.0 lists `sse` as a transport of its own.
    if f.client == Client::AgentPlugins {
        return Vec::new();
    }
    let mut out = Vec::new();
    for s in &f.servers {
        if f.transport(s) != Transport::Sse {
            continue;
        }
        let (span, how, help) = match f.type_of(s) {
            Some((node, t)) => (
                f.doc.node(node).span,
                format!("`type` is {}", quote(t)),
                match f.spec.http_type {
                    Some(h) => format!(
                        "if the server speaks Streamable HTTP, write `\"type\": \"{h}\"` and its Streamable HTTP endpoint"
                    ),
                    None => "move to the server's Streamable HTTP endpoint".to_string(),
                },
            ),
            None => {
                let Some((key, node)) = f.url_of(s) else {
                    continue;
                };
                (
                    f.doc
                        .key_of(node)
                        .map_or(s.key_span, |k| f.doc.node(k).span),
                    format!("{} reads `{key}` as an SSE endpoint", f.spec.name),
                    "if the server speaks Streamable HTTP, give its endpoint as `httpUrl`"
                        .to_string(),
                )
            }
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "MCP server {} uses the deprecated SSE transport ({how})",
                    quote(&s.name)
                ),
            )
            .with_label("HTTP+SSE is deprecated since MCP 2025-03-26")
            .with_help(help),
        );
    }
    out
}
