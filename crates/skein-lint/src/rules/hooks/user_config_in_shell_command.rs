//! HOOK017 `user-config-in-shell-command`.

use super::{chars_of, handler_type, hooks_of, span_of};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK017",
    name: "user-config-in-shell-command",
    severity: Severity::Error,
    summary: "a `${user_config.KEY}` placeholder in a shell-form hook command",
    doc: include_str!("user_config_in_shell_command.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

const OPEN: &str = "${user_config.";

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        // Exec form (`args`) substitutes placeholders into its arguments.
        if handler_type(doc, handler) != Some("command") || doc.get(handler, "args").is_some() {
            continue;
        }
        let Some(chars) = doc.get(handler, "command").and_then(|c| chars_of(cx, a, c)) else {
            continue;
        };
        let text: String = chars.iter().map(|c| c.0).collect();
        let mut from = 0;
        while let Some(at) = text[from..].find(OPEN).map(|i| i + from) {
            let Some(close) = text[at..].find('}').map(|i| i + at + 1) else {
                break;
            };
            from = close;
            let key = &text[at + OPEN.len()..close - 1];
            let (s, e) = (text[..at].chars().count(), text[..close].chars().count());
            let Some(span) = span_of(&chars, s, e) else {
                continue;
            };
            let option = key.to_ascii_uppercase().replace(['-', '.'], "_");
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "{} in a shell-form hook command is not substituted; Claude Code rejects the hook",
                        quote(&text[at..close])
                    ),
                )
                .with_label("not allowed in a shell command")
                .with_help(format!(
                    "read the option from the environment as `\"$CLAUDE_PLUGIN_OPTION_{option}\"`, or use exec form and pass the placeholder in `args`"
                )),
            );
        }
    }
    out
}
