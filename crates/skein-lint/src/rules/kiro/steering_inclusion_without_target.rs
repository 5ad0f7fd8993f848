//! KIRO002 `steering-inclusion-without-target`.

use super::steering_of;
use crate::rules::frontmatter::Needs;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "KIRO002",
    name: "steering-inclusion-without-target",
    severity: Severity::Warning,
    summary: "a Kiro steering file with `inclusion: fileMatch` and no `fileMatchPattern`, or `inclusion: auto` and no `description`",
    doc: include_str!("steering_inclusion_without_target.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::KiroSteering]),
};

/// The modes that need a field.
const NEEDS: &[Needs] = &[
    Needs {
        mode: "fileMatch",
        field: "fileMatchPattern",
        note: "a `fileMatch` steering file is included when a file matching its `fileMatchPattern` is in play",
        help: "add a `fileMatchPattern` with the files the guidance is for (`fileMatchPattern: \"components/**/*.tsx\"`)",
    },
    Needs {
        mode: "auto",
        field: "description",
        note: "an `auto` steering file is included when the request matches its `description`",
        help: "add a `description` that says when the guidance applies",
    },
];

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    steering_of(a)
        .and_then(|fm| {
            fm.missing_target(
                RULE,
                a.file,
                "inclusion",
                NEEDS,
                "Kiro has nothing to include the file by",
            )
        })
        .into_iter()
        .collect()
}
