//! SKILL020 `first-person-skill-description`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL020",
    name: "first-person-skill-description",
    severity: Severity::Info,
    summary: "a skill description written in the first person (`I can help you …`)",
    doc: include_str!("first_person_skill_description.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// The first-person openings reported, lowercase, each ending its word.
const OPENINGS: &[&str] = &[
    "i ", "i'm ", "i’m ", "i'll ", "i’ll ", "i've ", "we ", "we'll ", "we’ll ", "we're ",
    "let me ", "my ",
];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some((d, span)) = skill.str_field(cx, a, "description") else {
        return Vec::new();
    };
    let lower = d.trim_start().to_lowercase();
    if !OPENINGS.iter().any(|o| lower.starts_with(*o)) {
        return Vec::new();
    }
    let opening: Vec<&str> = d.split_whitespace().take(3).collect();
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!(
                "the skill's description is in the first person ({})",
                quote(&opening.join(" "))
            ),
        )
        .with_label("first person")
        .with_note("the description is put into Claude's system prompt; a first-person one reads as Claude speaking and makes discovery less reliable")
        .with_help("write it in the third person: say what the skill does (\"Processes Excel files and builds reports. Use when …\")"),
    ]
}
