//! SKILL009 `string-boolean`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL009",
    name: "string-boolean",
    severity: Severity::Warning,
    summary: "a skill's boolean switch written as a string (`\"true\"`, `yes`)",
    doc: include_str!("string_boolean.md"),
    fix: Some(skein_syntax::Applicability::Safe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// Claude Code's boolean skill fields.
const BOOLEANS: &[&str] = &["disable-model-invocation", "user-invocable"];

/// The boolean Claude Code reads from a string or number: `1`, `true`,
/// `yes`, `on` and `0`, `false`, `no`, `off`, in any case, trimmed (as its
/// frontmatter loader coerces them); `None` for anything else, which it
/// treats as absent.
fn coerced(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// What Claude Code does with `field` when it cannot read a boolean.
fn fallback(field: &str) -> &'static str {
    if field == "user-invocable" {
        "Claude Code reads it as `false` and hides the skill from the `/` menu"
    } else {
        "Claude Code ignores it and leaves the skill model-invocable"
    }
}

/// The edit that writes the value `id` as the YAML boolean `b`: the
/// whole scalar replaced, when it is one written in place (not an alias,
/// a tagged or anchored value, or a block scalar).
pub(crate) fn bool_fix(
    doc: &skein_syntax::Document,
    id: skein_syntax::NodeId,
    text: &str,
    b: bool,
) -> Option<skein_syntax::Fix> {
    if doc.resolve(id) != id {
        return None;
    }
    let span = doc.node(id).span;
    let raw = text.get(span.range())?;
    if raw.is_empty()
        || raw.contains('\n')
        || matches!(raw.as_bytes()[0], b'!' | b'&' | b'*' | b'|' | b'>')
    {
        return None;
    }
    Some(skein_syntax::Fix::safe(
        format!("write `{b}`"),
        vec![skein_syntax::Edit::replace(span, b.to_string())],
    ))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let doc = skill.doc;
    let text = cx.sources.get(a.file).text();
    let mut out = Vec::new();
    for &field in BOOLEANS {
        let Some(e) = skill.entry(field) else {
            continue;
        };
        let span = doc.node(e.value).span;
        let written = text.get(span.range()).unwrap_or_default();
        let spelled = match doc.kind(doc.resolve(e.value)) {
            NodeKind::Bool(_) | NodeKind::Null => continue,
            NodeKind::String(s) => Some(s.to_string()),
            NodeKind::Number(_) => Some(written.to_string()),
            _ => None,
        };
        let d = match spelled.as_deref().map(|s| (s, coerced(s))) {
            Some((_, Some(b))) => {
                let mut d = Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "`{field}` is {}, which Claude Code reads as `{b}` but YAML does not",
                        quote(written)
                    ),
                )
                .with_label("not a YAML boolean")
                .with_help(format!("write `{field}: {b}` without quotes"))
                .with_fix_opt(bool_fix(doc, e.value, text, b))
                .with_note(
                    "YAML 1.2 reads quoted values, `yes`/`no`/`on`/`off` and numbers as strings or numbers; Claude Code coerces them, other Agent Skills clients may not",
                );
                d.severity = Severity::Info;
                d
            }
            Some((_, None)) => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("`{field}` is {}, not a boolean", quote(written)),
            )
            .with_label("not a boolean")
            .with_note(fallback(field))
            .with_help(format!("write `{field}: true` or `{field}: false`")),
            None => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("`{field}` must be `true` or `false`"),
            )
            .with_label("not a boolean")
            .with_note(fallback(field))
            .with_help(format!("write `{field}: true` or `{field}: false`")),
        };
        out.push(d);
    }
    out
}
