//! SKILL003 `reserved-skill-name`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL003",
    name: "reserved-skill-name",
    severity: Severity::Warning,
    summary: "a skill name containing a word Anthropic reserves (`anthropic`, `claude`)",
    doc: include_str!("reserved_skill_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// Words a skill name may not contain on Claude's platform.
const RESERVED: &[&str] = &["anthropic", "claude"];

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some(e) = skill.entry("name") else {
        return Vec::new();
    };
    let Some(name) = skill.doc.as_str(e.value) else {
        return Vec::new();
    };
    let lower = name.to_lowercase();
    let Some(word) = RESERVED.iter().find(|w| lower.contains(*w)) else {
        return Vec::new();
    };
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            skill.doc.node(e.value).span,
            format!("skill name {} contains the reserved word `{word}`", quote(name)),
        )
        .with_label(format!("contains `{word}`"))
        .with_note("the Claude API and claude.ai refuse to upload a skill whose name contains `anthropic` or `claude`")
        .with_help("rename the skill (and its folder) without the reserved word"),
    ]
}
