//! CUR004 `manual-only-rule`.

use super::rule_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CUR004",
    name: "manual-only-rule",
    severity: Severity::Info,
    summary: "a Cursor rule with no `alwaysApply: true`, `globs` or `description`: included only when @-mentioned",
    doc: include_str!("manual_only_rule.md"),
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
    if a.damaged {
        return Vec::new();
    }
    let Some(rule) = rule_of(cx, a) else {
        return Vec::new();
    };
    // A frontmatter that is a list or a scalar says nothing Cursor's
    // documentation describes.
    // An empty rule is CUR005's: how it is applied matters less.
    if rule.empty()
        || !rule.readable()
        || rule.always_applied()
        || rule.globs().is_some()
        || rule.described()
    {
        return Vec::new();
    }
    let (span, label) = match a.frontmatter {
        Some(f) => (f.open, "no `alwaysApply: true`, `globs` or `description`"),
        None => {
            let end = rule.text.find(['\r', '\n']).unwrap_or(rule.text.len());
            (Span::new(0, end), "no frontmatter")
        }
    };
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            "this Cursor rule is included only when @-mentioned in chat",
        )
        .with_label(label)
        .with_help(
            "if Cursor should bring it in by itself, add `description:` (Agent decides when it is relevant), `globs:` (attached with matching files) or `alwaysApply: true` (every chat)",
        ),
    ]
}
