//! COP006 `deprecated-prompt-mode`.

use super::copilot_file;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP006",
    name: "deprecated-prompt-mode",
    severity: Severity::Warning,
    summary: "a Copilot prompt file that sets `mode`, the deprecated name of `agent`",
    doc: include_str!("deprecated_prompt_mode.md"),
    fix: Some(skein_syntax::Applicability::Safe),
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
    if a.damaged {
        return Vec::new();
    }
    let Some(mode) = file.field("mode") else {
        return Vec::new();
    };
    let doc = file.doc;
    let span = doc.node(mode.key).span;
    let d = Diagnostic::new(
        RULE,
        a.file,
        span,
        "`mode` is deprecated in prompt files; the field is now `agent`",
    )
    .with_label("deprecated field");
    let d = match file.field("agent") {
        Some(agent) => d
            .with_secondary(a.file, doc.node(agent.key).span, "`agent` is set here too")
            .with_note("the prompt runs with the `agent` value; `mode` is left over")
            .with_help("remove the `mode` line"),
        None => d
            .with_note("VS Code still reads `mode` as `agent` for now, and marks it as an error in the editor")
            .with_help("rename `mode` to `agent`; the value stays as it is")
            .with_fix_opt(
                crate::fix::replace_string(doc, mode.key, file.text, "agent").map(|edit| {
                    skein_syntax::Fix::safe("rename `mode` to `agent`", vec![edit])
                }),
            ),
    };
    vec![d]
}
