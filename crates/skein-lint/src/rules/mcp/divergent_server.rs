//! MCP012 `divergent-server`.

use super::{Client, McpFile, mcp_file};
use crate::{Context, Pass};
use skein_model::Format;
use skein_syntax::{Diagnostic, FileId, Rule, Severity, Span, quote};
use std::collections::BTreeMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP012",
    name: "divergent-server",
    severity: Severity::Info,
    summary: "the same MCP server name is configured differently in two clients' files of one project",
    doc: include_str!("divergent_server.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// The project folder of a client file: the folder holding `.mcp.json`,
/// or the parent of `.cursor/`, `.vscode/`, `.amazonq/`, `.gemini/`, `.codex/`.
fn project_dir(path: &str) -> &str {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let (parent, last) = dir.rsplit_once('/').unwrap_or(("", dir));
    if last.starts_with('.') { parent } else { dir }
}

/// What a server runs or reaches: its command line, or its URL.
fn signature(f: &McpFile, node: skein_syntax::NodeId) -> Option<String> {
    let doc = f.doc;
    if let Some((_, u)) = f.url_of(&super::Server {
        name: String::new(),
        key_span: Span::new(0, 0),
        node,
    }) {
        return doc.as_str(u).map(|u| u.trim_end_matches('/').to_string());
    }
    let mut parts: Vec<String> = Vec::new();
    let c = doc.get(node, "command")?;
    match doc.as_str(c) {
        Some(s) => parts.push(s.to_string()),
        None => parts.extend(
            doc.items(c)?
                .iter()
                .filter_map(|&i| doc.as_str(i))
                .map(str::to_string),
        ),
    }
    if let Some(args) = doc.get(node, "args").and_then(|a| doc.items(a)) {
        parts.extend(
            args.iter()
                .filter_map(|&i| doc.as_str(i))
                .map(str::to_string),
        );
    }
    Some(parts.join(" "))
}

/// One definition: client, file, key span, what it runs.
type Def = (Client, FileId, Span, String);

fn check(cx: &Context) -> Vec<Diagnostic> {
    // (project, server name) -> (client, file, key span, signature), in path order.
    let mut seen: BTreeMap<(String, String), Vec<Def>> = BTreeMap::new();
    for a in cx.artifacts {
        if !matches!(
            a.format,
            Format::McpConfig
                | Format::GeminiSettings
                | Format::CodexConfig
                | Format::OpenCodeConfig
        ) {
            continue;
        }
        let path = cx.path(a.file);
        let Some(f) = mcp_file(cx, a) else {
            continue;
        };
        if matches!(
            f.client,
            Client::Unknown | Client::ClaudeDesktop | Client::Windsurf
        ) {
            continue;
        }
        for s in &f.servers {
            let Some(sig) = signature(&f, s.node) else {
                continue;
            };
            seen.entry((project_dir(path).to_string(), s.name.clone()))
                .or_default()
                .push((f.client, a.file, s.key_span, sig));
        }
    }
    let mut out = Vec::new();
    for ((_, name), defs) in seen {
        let Some(first) = defs.first() else {
            continue;
        };
        for d in &defs[1..] {
            if d.0 == first.0 || d.3 == first.3 {
                continue;
            }
            out.push(
                Diagnostic::new(
                    RULE,
                    d.1,
                    d.2,
                    format!(
                        "MCP server {} is configured differently for {} than for {}",
                        quote(&name),
                        d.0.spec().name,
                        first.0.spec().name
                    ),
                )
                .with_label(format!("here it runs {}", quote(&d.3)))
                .with_secondary(
                    first.1,
                    first.2,
                    format!("there it runs {}", quote(&first.3)),
                )
                .with_help("if both should be the same server, make the two definitions agree"),
            );
        }
    }
    out
}
