//! WIND003 `windsurf-trigger-without-target`.

use super::rule_of;
use crate::rules::frontmatter::Needs;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
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
    on: On::Formats(&[Format::WindsurfRule]),
};

/// The modes that need a field.
const NEEDS: &[Needs] = &[
    Needs {
        mode: "glob",
        field: "globs",
        note: "a `glob` rule is applied to the files its `globs` match",
        help: "add `globs` with the patterns of the files the rule is for (`globs: \"src/**/*.ts\"`)",
    },
    Needs {
        mode: "model_decision",
        field: "description",
        note: "a `model_decision` rule is applied when the model judges its `description` relevant",
        help: "add a `description` that says when the rule applies",
    },
];

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    rule_of(a)
        .and_then(|fm| {
            fm.missing_target(
                RULE,
                a.file,
                "trigger",
                NEEDS,
                "Cascade has nothing to activate the rule by",
            )
        })
        .into_iter()
        .collect()
}
