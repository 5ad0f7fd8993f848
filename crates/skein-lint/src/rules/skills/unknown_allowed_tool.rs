//! SKILL008 `unknown-allowed-tool`.

use super::{Skill, tool_pieces};
use crate::rules::refs::closest;
use crate::rules::sec::sub_span;
use crate::{Context, FilePass};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL008",
    name: "unknown-allowed-tool",
    severity: Severity::Warning,
    summary: "an `allowed-tools` entry that names no Claude Code tool",
    doc: include_str!("unknown_allowed_tool.md"),
};

/// The pass.
pub const PASS: FilePass = FilePass { rule: RULE, check };

/// Claude Code's tool names (the tools reference, and `Workflow` of dynamic
/// workflows), with the earlier names that permission rules still accept.
pub(crate) const TOOLS: &[&str] = &[
    "Agent",
    "AskUserQuestion",
    "Bash",
    "BashOutput",
    "CronCreate",
    "CronDelete",
    "CronList",
    "Edit",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "KillShell",
    "LS",
    "LSP",
    "ListMcpResourcesTool",
    "Monitor",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "PowerShell",
    "Read",
    "ReadMcpResourceTool",
    "SendMessage",
    "Skill",
    "SlashCommand",
    "Task",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TeamCreate",
    "TeamDelete",
    "TodoRead",
    "TodoWrite",
    "ToolSearch",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
];

/// Why `entry` is not a tool, or `None` when it is one: `Name`,
/// `Name(specifier)` or `mcp__server[__tool]`.
fn fault(entry: &str) -> Option<(String, Option<String>)> {
    if let Some(rest) = entry.strip_prefix("mcp__") {
        return (rest.is_empty() || rest.starts_with('_')).then(|| {
            (
                "an MCP tool needs a server name: `mcp__<server>__<tool>`".to_string(),
                None,
            )
        });
    }
    let (base, args) = match entry.find('(') {
        Some(i) => (&entry[..i], Some(&entry[i..])),
        None => (entry, None),
    };
    if let Some(args) = args
        && !args.ends_with(')')
    {
        return Some((format!("{} has an unclosed `(`", quote(entry)), None));
    }
    if TOOLS.contains(&base) {
        return None;
    }
    let suggestion = TOOLS
        .iter()
        .find(|t| t.eq_ignore_ascii_case(base))
        .copied()
        .or_else(|| closest(base, TOOLS.iter().copied()).map(|(c, _)| c))
        .map(|s| format!("{s}{}", args.unwrap_or("")));
    Some((
        format!("{} is not a Claude Code tool", quote(base)),
        suggestion,
    ))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some(e) = skill.entry("allowed-tools") else {
        return Vec::new();
    };
    let doc = skill.doc;
    let text = cx.sources.get(a.file).text();
    // (entry, its span)
    let mut entries: Vec<(&str, Span)> = Vec::new();
    if let Some(s) = doc.as_str(e.value) {
        for r in tool_pieces(s) {
            entries.push((&s[r.clone()], sub_span(doc, e.value, text, r)));
        }
    } else if let Some(items) = doc.items(e.value) {
        for &item in items {
            if let Some(s) = doc.as_str(item) {
                let t = s.trim();
                if t.is_empty() {
                    continue;
                }
                let start = s.len() - s.trim_start().len();
                entries.push((t, sub_span(doc, item, text, start..start + t.len())));
            }
        }
    }
    let mut out = Vec::new();
    for (entry, span) in entries {
        let Some((why, suggestion)) = fault(entry) else {
            continue;
        };
        let mut d = Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("unknown tool {} in `allowed-tools`: {why}", quote(entry)),
        )
        .with_label("not a tool name");
        d = match suggestion {
            Some(s) => d.with_help(format!("did you mean `{s}`? tool names are case-sensitive")),
            None => d.with_note(
                "tools are Claude Code's built-in names (`Read`, `Bash(git *)`) or MCP tools (`mcp__server__tool`)",
            ),
        };
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fault;

    #[test]
    fn tools() {
        for ok in [
            "Read",
            "Bash(git add:*)",
            "mcp__github__create_issue",
            "mcp__db",
            "WebFetch(domain:x.com)",
        ] {
            assert!(fault(ok).is_none(), "{ok}");
        }
        assert_eq!(fault("read").unwrap().1.as_deref(), Some("Read"));
        assert_eq!(
            fault("bash(ls *)").unwrap().1.as_deref(),
            Some("Bash(ls *)")
        );
        assert_eq!(fault("WebSearh").unwrap().1.as_deref(), Some("WebSearch"));
        assert_eq!(fault("Frobnicate").unwrap().1, None);
        assert!(fault("Bash(git").is_some());
        assert!(fault("mcp__").is_some());
    }
}
