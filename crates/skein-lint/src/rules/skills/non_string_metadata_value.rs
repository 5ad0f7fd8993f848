//! SKILL030 `non-string-metadata-value`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL030",
    name: "non-string-metadata-value",
    severity: Severity::Warning,
    summary: "a `metadata` value written as a number, boolean or null, not a string",
    doc: include_str!("non_string_metadata_value.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let doc = skill.doc;
    let Some(entries) = skill.entry("metadata").and_then(|m| doc.entries(m.value)) else {
        return Vec::new();
    };
    let text = cx.sources.get(a.file).text();
    let mut out = Vec::new();
    for e in entries {
        let what = match doc.kind(e.value) {
            NodeKind::Number(_) => "a number",
            NodeKind::Bool(_) => "a boolean",
            // `key:` with no value is an empty value, which YAML reads as null.
            NodeKind::Null if !doc.node(e.value).span.is_empty() => "null",
            // Strings, and vendor objects nested in `metadata` (not an error,
            // see the doc), and aliases, are left alone.
            _ => continue,
        };
        let span = doc.node(e.value).span;
        let written = text.get(span.range()).unwrap_or_default();
        let key = doc.key_text(e.key).unwrap_or_default();
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "`metadata.{key}` is {}, {what}; the specification's `metadata` values are strings",
                    quote(written)
                ),
            )
            .with_label(format!("{what}, not a string"))
            .with_note("a client that reads `metadata` as strings may reject the skill or lose how the value was written (`1.10` read as the number 1.1)")
            .with_help(format!("quote it: `{key}: \"{}\"`", written.replace('"', "\\\""))),
        );
    }
    out
}
