//! WIND002 `invalid-windsurf-trigger`.

use super::{TRIGGERS, rule_of};
use crate::similar::fold;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "WIND002",
    name: "invalid-windsurf-trigger",
    severity: Severity::Warning,
    summary: "a Windsurf rule whose `trigger` is not one of `always_on`, `manual`, `model_decision` or `glob`",
    doc: include_str!("invalid_windsurf_trigger.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::WindsurfRule]),
};

/// The mode `written` was probably meant to be: the same letters in
/// another case or separator (`Always-On`), the first word of one
/// (`always`, `model`), or one a typo away.
pub(crate) fn suggestion(written: &str) -> Option<&'static str> {
    let folded = fold(written);
    TRIGGERS
        .iter()
        .copied()
        .find(|t| t.split('_').next() == Some(folded.as_str()))
        .or_else(|| crate::similar::suggest(&written.to_lowercase(), TRIGGERS))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(rule) = rule_of(a) else {
        return Vec::new();
    };
    let Some(e) = rule.field("trigger") else {
        return Vec::new();
    };
    let doc = rule.doc;
    let span = doc.node(e.value).span;
    let written = cx.sources.get(a.file).slice(span);
    let valid = TRIGGERS
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let message = match doc.kind(e.value) {
        NodeKind::String(s) if TRIGGERS.contains(&s.as_str()) => return Vec::new(),
        NodeKind::String(s) => match suggestion(s) {
            Some(t) => format!("unknown `trigger` {}; did you mean {}?", quote(s), quote(t)),
            None => format!("unknown `trigger` {}", quote(s)),
        },
        _ => format!("`trigger` is {}, not one of the mode names", quote(written)),
    };
    vec![
        Diagnostic::new(RULE, a.file, span, message)
            .with_label("Windsurf does not know this activation mode")
            .with_note("a rule is activated only by one of the four modes: with another value Cascade may never apply it")
            .with_help(format!("set `trigger` to one of {valid}")),
    ]
}
