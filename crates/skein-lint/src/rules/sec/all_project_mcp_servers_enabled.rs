//! SEC016 `all-project-mcp-servers-enabled`.

use crate::rules::settings::settings_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC016",
    name: "all-project-mcp-servers-enabled",
    severity: Severity::Warning,
    summary: "project settings approve every MCP server of `.mcp.json` without asking (`enableAllProjectMcpServers: true`)",
    doc: include_str!("all_project_mcp_servers_enabled.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    match doc.get(root, "enableAllProjectMcpServers") {
        Some(v) if matches!(doc.kind(v), NodeKind::Bool(true)) => vec![
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(v).span,
                "`enableAllProjectMcpServers: true` starts every server of the project's `.mcp.json`, including ones added later, without asking",
            )
            .with_label("approval prompt off")
            .with_help("list the servers you reviewed in `enabledMcpjsonServers` instead"),
        ],
        _ => Vec::new(),
    }
}
