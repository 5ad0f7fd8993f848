//! SKILL023 `model-invocable-side-effect-skill`.

use super::{Skill, claude_loads};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL023",
    name: "model-invocable-side-effect-skill",
    severity: Severity::Info,
    summary: "a deploy/publish skill that Claude may run on its own (no `disable-model-invocation: true`)",
    doc: include_str!("model_invocable_side_effect_skill.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// Verbs of workflows with side effects outside the repository.
const VERBS: &[&str] = &["deploy", "publish", "ship", "rollback", "release"];

/// Words that make the name one of knowledge about the workflow rather
/// than the workflow itself (`deploy-checklist`, `release-notes`).
const ABOUT: &[&str] = &[
    "checklist",
    "guide",
    "patterns",
    "design",
    "docs",
    "notes",
    "note",
    "review",
    "plan",
    "planning",
    "strategy",
    "practices",
    "changelog",
    "readiness",
    "check",
];

/// The side-effect verb that starts or ends `name`, when it is the name of
/// the workflow itself.
fn side_effect(name: &str) -> Option<&str> {
    let words: Vec<&str> = name.split(['-', '_']).collect();
    if words.iter().any(|w| ABOUT.contains(w)) {
        return None;
    }
    [words.first(), words.last()]
        .into_iter()
        .flatten()
        .copied()
        .find(|w| VERBS.contains(w))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    if !claude_loads(cx, a) {
        return Vec::new();
    }
    if skill.is_true("disable-model-invocation") {
        return Vec::new();
    }
    let Some((name, span)) = skill.str_field(cx, a, "name") else {
        return Vec::new();
    };
    let Some(word) = side_effect(name) else {
        return Vec::new();
    };
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!(
                "skill {} ({}) can be started by Claude on its own",
                quote(name),
                quote(word)
            ),
        )
        .with_label("a workflow with side effects")
        .with_note("without `disable-model-invocation: true`, Claude may decide to run it when the conversation seems to call for it")
        .with_help("add `disable-model-invocation: true` so that only a person starts it, with `/name`"),
    ]
}

#[cfg(test)]
mod tests {
    use super::side_effect;

    #[test]
    fn side_effect_names() {
        assert_eq!(side_effect("deploy-staging"), Some("deploy"));
        assert_eq!(side_effect("vercel-deploy"), Some("deploy"));
        assert_eq!(side_effect("ship"), Some("ship"));
        for none in [
            "release-notes",
            "deploy-checklist",
            "deployment-pipeline-design",
            "supabase-deploy-integration",
            "shipping-rates",
        ] {
            assert_eq!(side_effect(none), None, "{none}");
        }
    }
}
