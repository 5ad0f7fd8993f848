//! KIRO002 `steering-inclusion-without-target`.

use super::steering_of;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
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
};

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(fm) = steering_of(a) else {
        return Vec::new();
    };
    let Some((e, inclusion)) = fm.string("inclusion") else {
        return Vec::new();
    };
    let (needs, what, help) = match inclusion {
        "fileMatch" => (
            "fileMatchPattern",
            "a `fileMatch` steering file is included when a file matching its `fileMatchPattern` is in play",
            "add a `fileMatchPattern` with the files the guidance is for (`fileMatchPattern: \"components/**/*.tsx\"`)",
        ),
        "auto" => (
            "description",
            "an `auto` steering file is included when the request matches its `description`",
            "add a `description` that says when the guidance applies",
        ),
        _ => return Vec::new(),
    };
    if fm.has(needs) {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            fm.doc.node(e.value).span,
            format!(
                "`inclusion: {inclusion}` but no `{needs}`: Kiro has nothing to include the file by"
            ),
        )
        .with_label(format!("needs `{needs}`"))
        .with_note(what)
        .with_help(help),
    ]
}
