//! CMD006 `unknown-command-tool`.

use super::command_of;
use crate::rules::skills::unknown_allowed_tool::allowed_tool_findings;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CMD006",
    name: "unknown-command-tool",
    severity: Severity::Warning,
    summary: "a slash command `allowed-tools` entry that names no Claude Code tool",
    doc: include_str!("unknown_command_tool.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::PluginCommand]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(cmd) = command_of(cx, a) else {
        return Vec::new();
    };
    let Some(e) = cmd.field("allowed-tools") else {
        return Vec::new();
    };
    allowed_tool_findings(RULE, cx, a, cmd.doc, e)
}
