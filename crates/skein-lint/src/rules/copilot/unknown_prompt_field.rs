//! COP005 `unknown-prompt-field`.

use super::{PROMPT_FIELDS, copilot_file, unknown_fields};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP005",
    name: "unknown-prompt-field",
    severity: Severity::Info,
    summary: "a frontmatter field of a Copilot prompt file that Copilot does not read",
    doc: include_str!("unknown_prompt_field.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CopilotPrompt]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(file) = copilot_file(cx, a, Format::CopilotPrompt) else {
        return Vec::new();
    };
    unknown_fields(a, &file, RULE, PROMPT_FIELDS, "prompt file")
}
