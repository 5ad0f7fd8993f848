//! CUR002 `always-apply-not-boolean`.

use super::rule_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CUR002",
    name: "always-apply-not-boolean",
    severity: Severity::Warning,
    summary: "a Cursor rule's `alwaysApply` that is not `true` or `false`",
    doc: include_str!("always_apply_not_boolean.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
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
    let Some(e) = rule.field("alwaysApply") else {
        return Vec::new();
    };
    let doc = rule.doc;
    let value = doc.resolve(e.value);
    let spelled = match doc.kind(value) {
        // `alwaysApply:` with no value leaves the rule not always applied,
        // like `false`; not this rule's.
        NodeKind::Bool(_) | NodeKind::Null => return Vec::new(),
        NodeKind::String(s) => match s.trim() {
            t if t.eq_ignore_ascii_case("true") => Some(true),
            t if t.eq_ignore_ascii_case("false") => Some(false),
            _ => None,
        },
        _ => None,
    };
    let span = doc.node(e.value).span;
    let written = cx.sources.get(a.file).slice(span);
    let d = match spelled {
        Some(b) => Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("`alwaysApply` is the string {}, not a boolean", quote(written)),
        )
        .with_label("a string, not `true` or `false`")
        .with_help(format!("write `alwaysApply: {b}`, without quotes"))
        // Unsafe: whether Cursor reads the string as the boolean is not
        // documented, so the fix may change when the rule is included.
        .with_fix_opt(
            crate::rules::skills::string_boolean::bool_fix(doc, e.value, rule.text, b).map(
                |f| skein_syntax::Fix {
                    applicability: skein_syntax::Applicability::Unsafe,
                    ..f
                },
            ),
        ),
        None => Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("`alwaysApply` is {}, not `true` or `false`", quote(written)),
        )
        .with_label("not a boolean")
        .with_help(
            "write `alwaysApply: true` to include the rule in every chat, or `alwaysApply: false` to let `globs` or `description` decide",
        ),
    };
    vec![d]
}
