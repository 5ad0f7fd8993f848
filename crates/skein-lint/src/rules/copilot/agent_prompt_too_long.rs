//! COP012 `agent-prompt-too-long`.

use super::copilot_file;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP012",
    name: "agent-prompt-too-long",
    severity: Severity::Warning,
    summary: "a Copilot custom agent whose prompt (the Markdown below its frontmatter) is over GitHub's 30,000-character maximum",
    doc: include_str!("agent_prompt_too_long.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CopilotAgent]),
};

/// GitHub's maximum for a custom agent's prompt, in characters.
pub const MAX_CHARS: usize = 30_000;

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(file) = copilot_file(cx, a, Format::CopilotAgent) else {
        return Vec::new();
    };
    let Some((chars, span)) = crate::rules::chars_over(file.body(), MAX_CHARS) else {
        return Vec::new();
    };
    let base = file.body_start;
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            Span::new(base + span.start as usize, base + span.end as usize),
            format!("the agent's prompt has {chars} characters; GitHub allows at most {MAX_CHARS}"),
        )
        .with_label(format!("character {} of the prompt", MAX_CHARS + 1))
        .with_note("the prompt is the Markdown below the frontmatter; GitHub's custom agents reference sets its maximum and does not say what happens past it")
        .with_help("move reference material into files the agent reads when it needs them, or split the agent into narrower ones"),
    ]
}
