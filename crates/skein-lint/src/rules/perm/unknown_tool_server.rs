//! PERM002 `unknown-tool-server`.

use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PERM002",
    name: "unknown-tool-server",
    severity: Severity::Error,
    summary: "a Bailey `tools` key that names no server of the assistant's MCP config",
    doc: "## What it does\nReports a key of a Bailey assistant's `tools` map that is not a \
server of the MCP config its `mcp` member names (resolved relative to `assistant.json`; \
servers are the keys of `mcpServers`, of `servers`, or of the flat form), and every key of \
`tools` when the assistant has no `mcp` at all. The help lists the servers the config \
defines.\n\nAn `mcp` that names no MCP config of the repository is left to the reference \
rules; this rule then reports nothing, since it cannot know the servers.\n\n## Why is this \
bad?\nBailey keys `tools` by the server's name in the MCP configuration, and requires every key \
to be one of those servers. A declaration under a misspelled or renamed server declares \
nothing: the real server's tools are all undeclared, so the client treats each as a write, and \
the read-only declaration the writer meant is lost.\n\n## Example\n```json\n// mcp.json\n\
{\"mcpServers\": {\"gmail\": {\"command\": \"gmail-mcp\"}}}\n// assistant.json\n\"mcp\": \
\"mcp.json\",\n\"tools\": {\"g-mail\": {\"tools\": [\"search_threads\"]}}\n```\nUse instead: \
`\"tools\": {\"gmail\": {\"tools\": [\"search_threads\"]}}`.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let g = cx.graph;
    let mut out = Vec::new();
    for a in g.assistant_mcp() {
        let assistant = &g.node(a.node).name;
        for decl in a.declared.iter().filter(|d| d.node.is_none()) {
            let key = &decl.server.value;
            let d = match (&a.mcp, a.config) {
                (None, _) => Diagnostic::new(
                    RULE,
                    a.file,
                    decl.server.span,
                    format!(
                        "`tools` key {} names no MCP server: assistant {} has no `mcp` configuration",
                        quote(key),
                        quote(assistant)
                    ),
                )
                .with_label("no server by this name")
                .with_help("set `mcp` to the plugin's MCP configuration, or remove this key"),
                (Some(mcp), Some(config)) => {
                    let servers: Vec<String> =
                        a.servers.iter().map(|&s| quote(&g.node(s).name)).collect();
                    let help = if servers.is_empty() {
                        format!("{} defines no server", quote(cx.path(config)))
                    } else {
                        format!(
                            "servers of {}: {}",
                            quote(cx.path(config)),
                            servers.join(", ")
                        )
                    };
                    Diagnostic::new(
                        RULE,
                        a.file,
                        decl.server.span,
                        format!(
                            "`tools` key {} names no server of {}",
                            quote(key),
                            quote(cx.path(config))
                        ),
                    )
                    .with_label("no server by this name")
                    .with_secondary(a.file, mcp.span, "the MCP configuration")
                    .with_help(help)
                }
                (Some(_), None) => continue,
            };
            out.push(d);
        }
    }
    out
}
