//! SKILL013 `invalid-skill-field-value`.

use super::Skill;
use crate::rules::agents::{EFFORT_LEVELS, listed, suggest};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL013",
    name: "invalid-skill-field-value",
    severity: Severity::Warning,
    summary: "a skill `effort` or `shell` with a value Claude Code does not take",
    doc: include_str!("invalid_skill_field_value.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// The shells of `!` command blocks.
const SHELLS: &[&str] = &["bash", "powershell"];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (field, what, values, ignored) in [
        (
            "effort",
            "effort level",
            EFFORT_LEVELS,
            "Claude Code ignores it and the skill runs at the session's effort",
        ),
        (
            "shell",
            "shell",
            SHELLS,
            "Claude Code warns and runs the skill's `!` commands with bash",
        ),
    ] {
        let Some(e) = skill.entry(field) else {
            continue;
        };
        if field == "effort"
            && matches!(skill.doc.kind(e.value), NodeKind::Number(n) if n.as_u64().is_some())
        {
            continue;
        }
        let Some((v, span)) = skill.str_field(cx, a, field) else {
            continue;
        };
        let t = v.trim().to_ascii_lowercase();
        if t.is_empty()
            || values.contains(&t.as_str())
            || (field == "effort" && t.bytes().all(|b| b.is_ascii_digit()))
        {
            continue;
        }
        let mut d = Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("unknown {what} {} in `{field}`", quote(v)),
        )
        .with_label(format!(
            "not a{} {what}",
            if what.starts_with('e') { "n" } else { "" }
        ))
        .with_note(format!(
            "`{field}` is one of {}{}; {ignored}",
            listed(values),
            if field == "effort" {
                ", or a whole number"
            } else {
                ""
            }
        ));
        if let Some(s) = suggest(&t, values) {
            d = d.with_help(format!("did you mean {}?", quote(s)));
        }
        out.push(d);
    }
    out
}
