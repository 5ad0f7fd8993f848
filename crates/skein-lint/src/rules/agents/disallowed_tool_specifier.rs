//! AGENT011 `disallowed-tool-specifier`.

use super::unknown_agent_tool::known;
use super::{subagent, tool_entries};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT011",
    name: "disallowed-tool-specifier",
    severity: Severity::Warning,
    summary: "a `disallowedTools` entry with a specifier (`Bash(git push *)`), which removes the whole tool",
    doc: include_str!("disallowed_tool_specifier.md"),
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
    let Some(agent) = subagent(cx, a) else {
        return Vec::new();
    };
    let Some(deny) = agent.field("disallowedTools") else {
        return Vec::new();
    };
    tool_entries(&agent, deny)
        .into_iter()
        // An unknown tool is AGENT004's finding, not this one's.
        .filter(|e| e.text.contains('(') && known(e.tool()))
        .map(|e| {
            let tool = e.tool().to_string();
            Diagnostic::new(
                RULE,
                a.file,
                e.span,
                format!(
                    "{} in `disallowedTools` removes all of `{tool}`, not only the matching calls",
                    quote(&e.text)
                ),
            )
            .with_label(format!("removes the whole `{tool}` tool"))
            .with_note("a specifier is not applied in `disallowedTools`: the subagent loses the tool")
            .with_help(format!(
                "to keep `{tool}` and block only these calls, add {} to `permissions.deny` in settings; to remove the tool, write `{tool}`",
                quote(&e.text)
            ))
        })
        .collect()
}
