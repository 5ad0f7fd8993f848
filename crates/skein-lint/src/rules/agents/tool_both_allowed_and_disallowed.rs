//! AGENT005 `tool-both-allowed-and-disallowed`.

use super::{subagent, tool_entries};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT005",
    name: "tool-both-allowed-and-disallowed",
    severity: Severity::Warning,
    summary: "a tool a subagent lists in both `tools` and `disallowedTools`",
    doc: include_str!("tool_both_allowed_and_disallowed.md"),
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
    let (Some(allow), Some(deny)) = (agent.field("tools"), agent.field("disallowedTools")) else {
        return Vec::new();
    };
    let deny = tool_entries(&agent, deny);
    let mut out = Vec::new();
    for e in tool_entries(&agent, allow) {
        // The same entry, or the whole tool denied (`Bash` denies `Bash(git:*)`).
        let Some(d) = deny
            .iter()
            .find(|d| d.text == e.text || (d.text == d.tool() && d.tool() == e.tool()))
        else {
            continue;
        };
        let message = if d.text == e.text {
            format!("{} is both allowed and disallowed", quote(&e.text))
        } else {
            format!(
                "{} is allowed, but {} is disallowed",
                quote(&e.text),
                quote(&d.text)
            )
        };
        out.push(
            Diagnostic::new(RULE, a.file, e.span, message)
                .with_label("allowed in `tools`")
                .with_secondary(a.file, d.span, "disallowed in `disallowedTools`")
                .with_note("the denial wins: a disallowed tool is removed from the allowed ones, so this entry grants nothing")
                .with_help("remove it from `tools`, or from `disallowedTools` if the agent needs it"),
        );
    }
    out
}
