//! SKILL005 `invalid-compatibility`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL005",
    name: "invalid-compatibility",
    severity: Severity::Error,
    summary: "a skill `compatibility` that is not a string of 1-500 characters",
    doc: include_str!("invalid_compatibility.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// The longest `compatibility` the specification allows, in characters.
const MAX_COMPATIBILITY: usize = 500;

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some(e) = skill.entry("compatibility") else {
        return Vec::new();
    };
    let doc = skill.doc;
    let span = doc.node(e.value).span;
    let (message, label) = match doc.kind(doc.resolve(e.value)) {
        NodeKind::String(s) if s.trim().is_empty() => (
            "the skill's `compatibility` is empty".to_string(),
            "empty".to_string(),
        ),
        NodeKind::String(s) => {
            let len = s.chars().count();
            if len <= MAX_COMPATIBILITY {
                return Vec::new();
            }
            (
                format!(
                    "the skill's `compatibility` is {len} characters long, more than the maximum of {MAX_COMPATIBILITY}"
                ),
                format!("{len} characters"),
            )
        }
        kind => {
            let what = match kind {
                NodeKind::Null => "has no value",
                NodeKind::Bool(_) => "is a boolean",
                NodeKind::Number(_) => "is a number",
                NodeKind::Sequence(_) => "is a list",
                _ => "is a mapping",
            };
            (
                format!("the skill's `compatibility` {what}, not a string"),
                "expected a string".to_string(),
            )
        }
    };
    let span = if span.is_empty() {
        doc.node(e.key).span
    } else {
        span
    };
    vec![
        Diagnostic::new(RULE, a.file, span, message)
            .with_label(label)
            .with_help("write the environment the skill needs as one sentence of at most 500 characters (`Requires git and network access`), or remove the field"),
    ]
}
