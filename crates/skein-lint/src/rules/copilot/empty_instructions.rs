//! COP007 `empty-instructions`.

use super::{copilot_file, head_span};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP007",
    name: "empty-instructions",
    severity: Severity::Warning,
    summary: "a Copilot instructions file with no instructions in it",
    doc: include_str!("empty_instructions.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CopilotInstructions, Format::CopilotPathInstructions]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let file = copilot_file(cx, a, Format::CopilotInstructions)
        .or_else(|| copilot_file(cx, a, Format::CopilotPathInstructions));
    let Some(file) = file else {
        return Vec::new();
    };
    if !file.body().trim().is_empty() {
        return Vec::new();
    }
    let what = if a.format == Format::CopilotInstructions {
        "repository instructions file"
    } else {
        "instructions file"
    };
    let message = if file.open.is_some() {
        format!("{what} has a frontmatter but no instructions")
    } else {
        format!("{what} is empty")
    };
    vec![
        Diagnostic::new(RULE, a.file, head_span(&file), message)
            .with_label("nothing after this")
            .with_note("Copilot adds the file's Markdown to its requests: an empty file adds nothing")
            .with_help(if a.format == Format::CopilotInstructions {
                "write the instructions in natural language, in Markdown, or delete the file"
            } else {
                "write the instructions in natural language under the frontmatter, or delete the file"
            }),
    ]
}
