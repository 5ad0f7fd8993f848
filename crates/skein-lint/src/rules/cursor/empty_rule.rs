//! CUR005 `empty-rule`.

use super::rule_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CUR005",
    name: "empty-rule",
    severity: Severity::Warning,
    summary: "a Cursor rule with no content after its frontmatter",
    doc: include_str!("empty_rule.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CursorRule]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(rule) = rule_of(cx, a) else {
        return Vec::new();
    };
    if !rule.empty() {
        return Vec::new();
    }
    let (span, label) = match a.frontmatter {
        Some(f) => (f.close, "nothing after the frontmatter"),
        None => (Span::new(0, 0), "the file is empty"),
    };
    vec![
        Diagnostic::new(RULE, a.file, span, "this Cursor rule has no content")
            .with_label(label)
            .with_help("write the instructions below the frontmatter, or delete the rule"),
    ]
}
