//! CUR008 `long-rule`.

use super::rule_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CUR008",
    name: "long-rule",
    severity: Severity::Info,
    summary: "a Cursor rule over 500 lines, the size Cursor's documentation advises staying under",
    doc: include_str!("long_rule.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CursorRule]),
};

/// The documentation's advice: "Keep rules under 500 lines".
const MAX_LINES: usize = 500;

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(rule) = rule_of(cx, a) else {
        return Vec::new();
    };
    let Some((lines, span)) = crate::rules::lines_over(rule.text, MAX_LINES) else {
        return Vec::new();
    };
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("this Cursor rule has {lines} lines, over the {MAX_LINES} Cursor advises"),
        )
        .with_label("line 501")
        .with_note("an applied rule's whole content goes into the model's context")
        .with_help("split it into smaller rules, each on one concern, or reference files with `@path` instead of copying them in"),
    ]
}
