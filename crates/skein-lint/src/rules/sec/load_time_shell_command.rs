//! SEC013 `load-time-shell-command`.

use super::bang_commands_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC013",
    name: "load-time-shell-command",
    severity: Severity::Info,
    summary: "a skill or command runs a shell command when it is loaded (`` !`command` ``)",
    doc: include_str!("load_time_shell_command.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill, Format::PluginCommand]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let what = match a.format {
        Format::AgentSkill => "skill",
        Format::PluginCommand => "command",
        _ => return Vec::new(),
    };
    let text = cx.sources.get(a.file).text();
    let commands = bang_commands_of(cx, a);
    commands
        .iter()
        .map(|&(span, block)| {
            let cmd = text[span.range()].trim();
            let form = if block { "a ```! block" } else { "`!`" };
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "the {what} runs {} in a shell when it is invoked ({form}), before the model sees it",
                    quote(cmd)
                ),
            )
            .with_label("runs on the user's machine")
            .with_note("the output replaces the command in the prompt; review it as code")
        })
        .collect()
}
