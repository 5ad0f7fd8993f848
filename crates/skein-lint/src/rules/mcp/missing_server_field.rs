//! MCP004 `missing-server-field`.

use super::{Client, Transport, mcp_file};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP004",
    name: "missing-server-field",
    severity: Severity::Error,
    summary: "an MCP server lacks what its transport needs: `command` for a local process, a URL for a remote server",
    doc: include_str!("missing_server_field.md"),
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
    // Every finding here is an absence, and a repaired tree may lack what
    // the parser set aside around a syntax error (SYN001 reports that).
    if a.damaged {
        return Vec::new();
    }
    // The Agent Plugins schema requires these itself (SCH001).
    if f.client == Client::AgentPlugins {
        return Vec::new();
    }
    let doc = f.doc;
    let url_key = f.spec.url_keys.first().copied().unwrap_or("url");
    let mut out = Vec::new();
    for s in &f.servers {
        let command = doc.get(s.node, "command");
        let has_command = command.is_some();
        // A command of spaces only starts nothing either (an empty one is
        // the schema's, SCH001).
        let blank = command.filter(|&c| {
            doc.as_str(c)
                .is_some_and(|t| !t.is_empty() && t.trim().is_empty())
        });
        let has_url = f.url_of(s).is_some();
        let typed = f.type_of(s);
        let transport = f.transport(s);
        let what = match transport {
            Transport::Stdio if !has_command => Some((
                format!(
                    "MCP server {} runs a local process but has no `command`",
                    quote(&s.name)
                ),
                "add the executable to start as `command`".to_string(),
            )),
            Transport::Http | Transport::Sse if !has_url => Some((
                format!(
                    "MCP server {} is a remote server but has no `{url_key}`",
                    quote(&s.name)
                ),
                format!("add the server's endpoint as `{url_key}`"),
            )),
            // Claude Desktop starts only local servers from its file.
            Transport::Unknown | Transport::Http if f.spec.url_keys.is_empty() && !has_command => {
                Some((
                    format!("MCP server {} has no `command`", quote(&s.name)),
                    format!(
                        "{} starts only local servers from this file: give it the `command` to run",
                        f.spec.name
                    ),
                ))
            }
            // An invalid `type` is MCP003's.
            Transport::Unknown if typed.is_none() && !has_command && !has_url => Some((
                format!(
                    "MCP server {} has neither `command` nor `{url_key}`",
                    quote(&s.name)
                ),
                format!("give a local server its `command`, a remote one its `{url_key}`"),
            )),
            _ => None,
        };
        if let (Some(c), Transport::Stdio) = (blank, transport) {
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(c).span,
                    format!(
                        "MCP server {} runs a local process but its `command` is blank",
                        quote(&s.name)
                    ),
                )
                .with_label(format!("{} cannot start a command of spaces", f.spec.name))
                .with_help("put the executable to start in `command`"),
            );
        } else if let Some((message, help)) = what {
            out.push(
                Diagnostic::new(RULE, a.file, s.key_span, message)
                    .with_label(format!("{} cannot start this server", f.spec.name))
                    .with_help(help),
            );
        } else if f.spec.type_required && doc.get(s.node, "type").is_none() {
            let types = f.spec.types().map(quote).collect::<Vec<_>>().join(" or ");
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    s.key_span,
                    format!("MCP server {} has no `type`", quote(&s.name)),
                )
                .with_label(format!("{} requires the transport: {types}", f.spec.name))
                .with_help(format!("add `\"type\"`: {types}")),
            );
        }
    }
    out
}
