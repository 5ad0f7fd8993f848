//! CMD005 `command-string-boolean`.

use super::command_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CMD005",
    name: "command-string-boolean",
    severity: Severity::Info,
    summary: "a boolean slash-command field written as a string",
    doc: include_str!("command_string_boolean.md"),
    fix: Some(skein_syntax::Applicability::Safe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::PluginCommand]),
};

/// The documented boolean fields of a command.
const BOOLEAN_FIELDS: &[&str] = &["disable-model-invocation", "user-invocable"];

/// The boolean a string spells, if it spells one.
fn spelled(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" => Some(true),
        "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(cmd) = command_of(cx, a) else {
        return Vec::new();
    };
    let doc = cmd.doc;
    let mut out = Vec::new();
    for field in BOOLEAN_FIELDS {
        let Some(e) = cmd.field(field) else {
            continue;
        };
        let NodeKind::String(s) = doc.kind(e.value) else {
            continue;
        };
        let Some(b) = spelled(s) else {
            continue;
        };
        let span = doc.node(e.value).span;
        let written = cx.sources.get(a.file).slice(span);
        // Claude Code coerces these spellings (`1/true/yes/on`,
        // `0/false/no/off`), so the switch works: a hint, not a fault.
        let d = Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("`{field}` is the string {}, not a boolean", quote(written)),
        )
        .with_label("a string, not `true` or `false`")
        .with_note(format!(
            "Claude Code reads it as `{b}`; YAML and other tools read a string"
        ))
        .with_help(format!("write `{field}: {b}`, without quotes"))
        .with_fix_opt(crate::rules::skills::string_boolean::bool_fix(
            doc,
            e.value,
            cx.sources.get(a.file).text(),
            b,
        ));
        out.push(d);
    }
    out
}
