//! MCP017 `reserved-server-name`.

use super::{Client, mcp_file};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP017",
    name: "reserved-server-name",
    severity: Severity::Error,
    summary: "an MCP server in a Claude Code config has a name Claude Code reserves, so it is skipped",
    doc: include_str!("reserved_server_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// Server names Claude Code keeps for itself (its changelog).
const RESERVED: &[&str] = &["workspace", "Claude Browser", "Claude Preview"];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    if f.client != Client::ClaudeCode {
        return Vec::new();
    }
    f.servers
        .iter()
        .filter(|s| RESERVED.contains(&s.name.as_str()))
        .map(|s| {
            Diagnostic::new(
                RULE,
                a.file,
                s.key_span,
                format!(
                    "MCP server name {} is reserved by Claude Code",
                    quote(&s.name)
                ),
            )
            .with_label("Claude Code skips a configured server with this name")
            .with_help("rename the server")
        })
        .collect()
}
