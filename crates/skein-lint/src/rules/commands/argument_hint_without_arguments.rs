//! CMD002 `argument-hint-without-arguments`.

use super::command_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CMD002",
    name: "argument-hint-without-arguments",
    severity: Severity::Info,
    summary: "a slash command with an `argument-hint` whose body never uses its arguments",
    doc: include_str!("argument_hint_without_arguments.md"),
    fix: None,
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
    let doc = cmd.doc;
    let Some(hint) = cmd.field("argument-hint") else {
        return Vec::new();
    };
    // Named arguments (`arguments:`) have placeholders of their own names.
    let empty = match doc.kind(hint.value) {
        NodeKind::Null => true,
        NodeKind::String(s) => s.trim().is_empty(),
        _ => false,
    };
    if empty || cmd.field("arguments").is_some() || !cmd.placeholders().is_empty() {
        return Vec::new();
    }
    let span = doc.node(hint.value).span;
    let written = cx.sources.get(a.file).slice(span);
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!(
                "`argument-hint` is {} but the body never uses `$ARGUMENTS`, `$ARGUMENTS[N]` or `$0`…`$9`",
                quote(written)
            ),
        )
        .with_label("shown as the command's input")
        .with_note("Claude Code then appends the input to the end of the prompt as `ARGUMENTS: …`, away from the text that refers to it")
        .with_help("put `$ARGUMENTS` (or `$0`, `$1`, …) where the input belongs in the body, or remove the hint if the command takes no input"),
    ]
}
