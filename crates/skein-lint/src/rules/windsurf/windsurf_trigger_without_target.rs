//! WIND003 `windsurf-trigger-without-target`.

use super::rule_of;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "WIND003",
    name: "windsurf-trigger-without-target",
    severity: Severity::Warning,
    summary: "a Windsurf rule with `trigger: glob` and no `globs`, or `trigger: model_decision` and no `description`",
    doc: include_str!("windsurf_trigger_without_target.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
};

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(rule) = rule_of(a) else {
        return Vec::new();
    };
    let Some((e, trigger)) = rule.string("trigger") else {
        return Vec::new();
    };
    let (needs, what, help) = match trigger {
        "glob" => (
            "globs",
            "a `glob` rule is applied to the files its `globs` match",
            "add `globs` with the patterns of the files the rule is for (`globs: \"src/**/*.ts\"`)",
        ),
        "model_decision" => (
            "description",
            "a `model_decision` rule is applied when the model judges its `description` relevant",
            "add a `description` that says when the rule applies",
        ),
        _ => return Vec::new(),
    };
    if rule.has(needs) {
        return Vec::new();
    }
    let span = rule.doc.node(e.value).span;
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!(
                "`trigger: {trigger}` but no `{needs}`: Cascade has nothing to activate the rule by"
            ),
        )
        .with_label(format!("needs `{needs}`"))
        .with_note(what)
        .with_help(help),
    ]
}
