//! SKILL019 `placeholder-skill-description`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL019",
    name: "placeholder-skill-description",
    severity: Severity::Warning,
    summary: "a skill description that is still a scaffold placeholder (`[TODO: …]`)",
    doc: include_str!("placeholder_skill_description.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// Whether a description is an unfilled placeholder.
fn placeholder(d: &str) -> bool {
    let t = d.trim();
    t.contains("[TODO")
        || t.starts_with("TODO")
        || t.starts_with("TBD")
        || t.starts_with("FIXME")
        || t.starts_with("<describe")
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some((d, span)) = skill.str_field(cx, a, "description") else {
        return Vec::new();
    };
    if !placeholder(d) {
        return Vec::new();
    }
    let t = d.trim();
    let mut shown: String = t.chars().take(60).collect();
    if shown.len() < t.len() {
        shown.push('…');
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("the skill's description is a placeholder: {}", quote(&shown)),
        )
        .with_label("not filled in")
        .with_note("Claude decides when to load a skill from its description alone")
        .with_help("say what the skill does and when to use it (\"Extracts tables from PDFs. Use when the user mentions PDFs.\")"),
    ]
}
