//! SKILL016 `unreachable-skill`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL016",
    name: "unreachable-skill",
    severity: Severity::Warning,
    summary: "a skill with `disable-model-invocation: true` and `user-invocable: false`: nobody can run it",
    doc: include_str!("unreachable_skill.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    if !skill.is_true("disable-model-invocation") || !skill.is_false("user-invocable") {
        return Vec::new();
    }
    let (Some(dmi), Some(ui)) = (
        skill.entry("disable-model-invocation"),
        skill.entry("user-invocable"),
    ) else {
        return Vec::new();
    };
    let doc = skill.doc;
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(ui.key).span,
            "the skill can be run by neither the user nor Claude",
        )
        .with_label("hidden from the `/` menu")
        .with_secondary(a.file, doc.node(dmi.key).span, "and Claude may not invoke it")
        .with_note("`disable-model-invocation: true` also keeps the skill from being preloaded into subagents")
        .with_help("keep one of the two: remove `user-invocable: false` for a skill the user starts by hand, or `disable-model-invocation: true` for background knowledge Claude loads"),
    ]
}
