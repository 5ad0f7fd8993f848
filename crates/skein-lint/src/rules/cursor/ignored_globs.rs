//! CUR003 `ignored-globs`.

use super::rule_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CUR003",
    name: "ignored-globs",
    severity: Severity::Warning,
    summary: "a Cursor rule with `alwaysApply: true` and `globs`, which Cursor then ignores",
    doc: include_str!("ignored_globs.md"),
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
    if !rule.always_applied() {
        return Vec::new();
    }
    let Some(globs) = rule.globs() else {
        return Vec::new();
    };
    let doc = rule.doc;
    let value = doc.node(globs.value).span;
    let written = cx.sources.get(a.file).slice(value);
    let always = rule.field("alwaysApply").map(|e| {
        Span::new(
            doc.node(e.key).span.start as usize,
            doc.node(e.value).span.end as usize,
        )
    });
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        value,
        format!(
            "`globs` {} is ignored: `alwaysApply: true` includes this rule in every chat",
            quote(written)
        ),
    )
    .with_label("ignored while `alwaysApply` is `true`");
    if let Some(span) = always {
        d = d.with_secondary(a.file, span, "the rule is always applied");
    }
    vec![d.with_help(
        "to attach the rule only when a matching file is in context, set `alwaysApply: false`; to keep it in every chat, remove `globs`",
    )]
}
