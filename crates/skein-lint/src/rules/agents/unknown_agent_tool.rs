//! AGENT004 `unknown-agent-tool`.

use super::{Subagent, ToolEntry, subagent, suggest, tool_entries};
pub(crate) use crate::claude_code::TOOLS;
pub(crate) use crate::claude_code::is_tool as known;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Applicability, Diagnostic, Fix, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT004",
    name: "unknown-agent-tool",
    severity: Severity::Warning,
    summary: "a subagent `tools` or `disallowedTools` entry that is no Claude Code tool",
    doc: include_str!("unknown_agent_tool.md"),
    fix: Some(Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(agent) = subagent(cx, a) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for field in ["tools", "disallowedTools"] {
        out.extend(field_findings(&agent, a, field));
    }
    out
}

fn field_findings(agent: &Subagent, a: &Artifact, field: &str) -> Vec<Diagnostic> {
    let Some(node) = agent.field(field) else {
        return Vec::new();
    };
    tool_entries(agent, node)
        .into_iter()
        .filter(|e| !known(e.tool()))
        .map(|e| finding(agent, a, field, &e))
        .collect()
}

fn finding(agent: &Subagent, a: &Artifact, field: &str, e: &ToolEntry) -> Diagnostic {
    let tool = e.tool();
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        e.span,
        format!("unknown tool {} in `{field}`", quote(&e.text)),
    )
    .with_label("not a Claude Code tool")
    .with_note(
        "tools are Claude Code's built-in tools by exact name (`Read`, `Bash`, `Bash(git:*)`) or MCP tools `mcp__<server>__<tool>`",
    );
    let words: Vec<&str> = tool.split_whitespace().collect();
    if words.len() > 1 && words.iter().all(|w| known(w)) {
        d = d.with_help(format!(
            "separate the tools with commas: `{}`",
            words.join(", ")
        ));
    } else if let Some(s) = suggest(tool, TOOLS) {
        d = d.with_help(format!("did you mean {}?", quote(s)));
        let entry = e.text.replacen(tool, s, 1);
        if let Some(edit) = crate::fix::near(tool, s)
            .then(|| crate::fix::replace_verbatim(agent.doc, e.node, agent.text(), e.span, &entry))
            .flatten()
        {
            d = d.with_fix(Fix::unsafe_(format!("replace with `{entry}`"), vec![edit]));
        }
    } else if tool.contains("__") || tool.starts_with("mcp_") {
        d = d.with_help("MCP tools are named `mcp__<server>__<tool>`");
    }
    d
}
