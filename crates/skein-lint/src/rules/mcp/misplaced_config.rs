//! MCP019 `misplaced-config`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP019",
    name: "misplaced-config",
    severity: Severity::Error,
    summary: "an MCP config sits where no client reads it (Claude Code reads `.mcp.json` at the project root, not in `.claude/`)",
    doc: include_str!("misplaced_config.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::McpConfig]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::McpConfig {
        return Vec::new();
    }
    let path = cx.path(a.file);
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or("");
    if parts.next() != Some(".claude") || !matches!(name, ".mcp.json" | "mcp.json") {
        return Vec::new();
    }
    let project = path.strip_suffix(&format!(".claude/{name}")).unwrap_or("");
    let end = cx
        .sources
        .get(a.file)
        .text()
        .find('\n')
        .unwrap_or(0)
        .min(200);
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            Span::new(0, end),
            format!("Claude Code does not read MCP servers from {}", quote(path)),
        )
        .with_label("a project's MCP servers are read from `.mcp.json` at its root")
        .with_help(format!(
            "move the file to {}",
            quote(&format!("{project}.mcp.json"))
        )),
    ]
}
