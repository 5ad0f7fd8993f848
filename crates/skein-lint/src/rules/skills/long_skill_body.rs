//! SKILL021 `long-skill-body`.

use super::{Skill, body};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL021",
    name: "long-skill-body",
    severity: Severity::Info,
    summary: "a SKILL.md body over 500 lines or about 5,000 tokens",
    doc: include_str!("long_skill_body.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// The specification's recommended limits.
const MAX_LINES: usize = 500;
const MAX_TOKENS: usize = 5000;
/// Characters per token of English prose, for the estimate.
const CHARS_PER_TOKEN: usize = 4;

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if Skill::of(a).is_none() {
        return Vec::new();
    }
    let (text, base) = body(cx, a);
    let over = crate::rules::lines_over(text, MAX_LINES);
    // A body of few bytes has as few characters: count only a long one.
    let tokens = if text.len() / CHARS_PER_TOKEN <= MAX_TOKENS {
        text.len() / CHARS_PER_TOKEN
    } else {
        text.chars().count() / CHARS_PER_TOKEN
    };
    if over.is_none() && tokens <= MAX_TOKENS {
        return Vec::new();
    }
    // The line past the limit, or the body's first line.
    let (at, what) = match over {
        Some((lines, line)) => (
            line,
            format!("the skill's body has {lines} lines, over the {MAX_LINES} recommended"),
        ),
        None => {
            let first = text.lines().next().unwrap_or("");
            (
                Span::new(0, first.len()),
                format!(
                    "the skill's body is about {tokens} tokens, over the {MAX_TOKENS} recommended"
                ),
            )
        }
    };
    let lines_over = over.is_some();
    let span = Span::new(base + at.start as usize, base + at.end as usize);
    vec![
        Diagnostic::new(RULE, a.file, span, what)
            .with_label(if lines_over { "line 501 of the body" } else { "the body starts here" })
            .with_note("the whole body is loaded into the context each time the skill runs")
            .with_help("keep SKILL.md to the core steps and move reference material into files under `references/` that the body links"),
    ]
}
