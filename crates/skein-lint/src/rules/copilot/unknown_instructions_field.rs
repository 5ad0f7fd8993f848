//! COP003 `unknown-instructions-field`.

use super::{INSTRUCTIONS_FIELDS, copilot_file, unknown_fields};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP003",
    name: "unknown-instructions-field",
    severity: Severity::Info,
    summary: "a frontmatter field of a path-specific Copilot instructions file that Copilot does not read",
    doc: include_str!("unknown_instructions_field.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CopilotPathInstructions]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(file) = copilot_file(cx, a, Format::CopilotPathInstructions) else {
        return Vec::new();
    };
    unknown_fields(a, &file, RULE, INSTRUCTIONS_FIELDS, "instructions file")
}
