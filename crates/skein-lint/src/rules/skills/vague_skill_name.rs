//! SKILL024 `vague-skill-name`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL024",
    name: "vague-skill-name",
    severity: Severity::Info,
    summary: "a skill named with a generic word (`helper`, `utils`, `tools`)",
    doc: include_str!("vague_skill_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// Names that say nothing about the skill.
const VAGUE: &[&str] = &[
    "helper",
    "helpers",
    "util",
    "utils",
    "utility",
    "utilities",
    "tool",
    "tools",
    "documents",
    "data",
    "files",
    "misc",
    "stuff",
    "common",
    "general",
];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some((name, span)) = skill.str_field(cx, a, "name") else {
        return Vec::new();
    };
    if !VAGUE.contains(&name) {
        return Vec::new();
    }
    vec![
        Diagnostic::new(RULE, a.file, span, format!("skill name {} says nothing about what it does", quote(name)))
            .with_label("a generic name")
            .with_note("the name is the slash command and sits beside the description where Claude chooses skills; several `helper` skills cannot be told apart")
            .with_help("name the activity, e.g. `processing-pdfs` or `analyzing-spreadsheets`"),
    ]
}
