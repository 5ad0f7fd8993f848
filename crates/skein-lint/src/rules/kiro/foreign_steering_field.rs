//! KIRO003 `foreign-steering-field`.

use super::steering_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "KIRO003",
    name: "foreign-steering-field",
    severity: Severity::Warning,
    summary: "a Kiro steering file scoped with another tool's field (`globs`, `paths`, `applyTo`, `alwaysApply`, `trigger`), which Kiro does not read",
    doc: include_str!("foreign_steering_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::KiroSteering]),
};

/// Other tools' scoping fields, each with the tool it belongs to.
const FOREIGN: &[(&str, &str)] = &[
    ("globs", "a Cursor and Windsurf"),
    ("paths", "a Claude Code"),
    ("applyTo", "a GitHub Copilot"),
    ("alwaysApply", "a Cursor"),
    ("trigger", "a Windsurf"),
];

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(fm) = steering_of(a) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in fm.entries() {
        let Some(key) = fm.doc.key_text(e.key) else {
            continue;
        };
        let Some((_, tool)) = FOREIGN.iter().find(|(k, _)| *k == key) else {
            continue;
        };
        let help = match key.as_str() {
            "alwaysApply" | "trigger" => {
                "set `inclusion` instead (`always`, `fileMatch`, `manual` or `auto`)"
            }
            _ => "use `inclusion: fileMatch` with the patterns in `fileMatchPattern`",
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                fm.doc.node(e.key).span,
                format!("{} is {tool} field; Kiro does not read it", quote(&key)),
            )
            .with_label("not a Kiro steering field")
            .with_note(if fm.field("inclusion").is_some() {
                "Kiro decides when to include a steering file from `inclusion` (and `fileMatchPattern`): this field changes nothing"
            } else {
                "Kiro decides when to include a steering file from `inclusion`: without it the file is included in every interaction"
            })
            .with_help(help),
        );
    }
    out
}
