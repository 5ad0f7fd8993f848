//! WIND001 `windsurf-rule-too-long`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "WIND001",
    name: "windsurf-rule-too-long",
    severity: Severity::Warning,
    summary: "a Windsurf rule file over the 12,000 characters Windsurf reads of it",
    doc: include_str!("windsurf_rule_too_long.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::WindsurfRule]),
};

/// Windsurf's limit for one rule file, in characters.
pub const MAX_CHARS: usize = 12_000;

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::WindsurfRule {
        return Vec::new();
    }
    let text = cx.sources.get(a.file).text();
    let Some((chars, span)) = crate::rules::chars_over(text, MAX_CHARS) else {
        return Vec::new();
    };
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("this rule file has {chars} characters; Windsurf reads the first {MAX_CHARS}"),
        )
        .with_label(format!("character {} starts here", MAX_CHARS + 1))
        .with_note("what is past the limit is cut off: Cascade never sees those instructions")
        .with_help("split the rule into several files, each with its own activation, or move detail into documents the rule links"),
    ]
}
