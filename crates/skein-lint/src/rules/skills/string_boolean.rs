//! SKILL009 `string-boolean`.

use super::Skill;
use crate::{Context, FilePass};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL009",
    name: "string-boolean",
    severity: Severity::Warning,
    summary: "a skill's boolean switch written as a string (`\"true\"`, `yes`)",
    doc: include_str!("string_boolean.md"),
};

/// The pass.
pub const PASS: FilePass = FilePass { rule: RULE, check };

/// Claude Code's boolean skill fields.
const BOOLEANS: &[&str] = &["disable-model-invocation", "user-invocable"];

/// The boolean a string most likely means.
fn meant(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "y" | "1" => Some(true),
        "false" | "no" | "off" | "n" | "0" => Some(false),
        _ => None,
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let doc = skill.doc;
    let mut out = Vec::new();
    for &field in BOOLEANS {
        let Some(e) = skill.entry(field) else {
            continue;
        };
        let span = doc.node(e.value).span;
        let d = match doc.kind(doc.resolve(e.value)) {
            NodeKind::Bool(_) => continue,
            NodeKind::String(s) => {
                let text = cx.sources.get(a.file).text();
                let written = text.get(span.range()).unwrap_or(s);
                let d = Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("`{field}` is the string {}, not a boolean", quote(written)),
                )
                .with_label("a string");
                match meant(s) {
                    Some(b) => d.with_help(format!("write `{field}: {b}` without quotes")),
                    None => d.with_help(format!("write `{field}: true` or `{field}: false`")),
                }
            }
            NodeKind::Null => continue,
            _ => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("`{field}` must be `true` or `false`"),
            )
            .with_label("not a boolean")
            .with_help(format!("write `{field}: true` or `{field}: false`")),
        };
        out.push(d.with_note(
            "YAML reads quoted values, and `yes`/`no`/`on`/`off`, as strings; a client that expects a boolean may ignore the switch or treat any non-empty string as true",
        ));
    }
    out
}
