//! KIRO001 `invalid-steering-inclusion`.

use super::{INCLUSIONS, steering_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "KIRO001",
    name: "invalid-steering-inclusion",
    severity: Severity::Warning,
    summary: "a Kiro steering file whose `inclusion` is not one of `always`, `fileMatch`, `manual` or `auto`",
    doc: include_str!("invalid_steering_inclusion.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::KiroSteering]),
};

/// The mode `written` was probably meant to be: the same letters in
/// another case or separator (`file_match`, `FileMatch`), or one a typo
/// away.
fn suggestion(written: &str) -> Option<&'static str> {
    crate::similar::suggest(written, INCLUSIONS)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(fm) = steering_of(a) else {
        return Vec::new();
    };
    let Some(e) = fm.field("inclusion") else {
        return Vec::new();
    };
    let span = fm.doc.node(e.value).span;
    let message = match fm.doc.kind(e.value) {
        NodeKind::String(s) if INCLUSIONS.contains(&s.as_str()) => return Vec::new(),
        NodeKind::String(s) => match suggestion(s) {
            Some(m) => format!(
                "unknown `inclusion` {}; did you mean {}?",
                quote(s),
                quote(m)
            ),
            None => format!("unknown `inclusion` {}", quote(s)),
        },
        _ => format!(
            "`inclusion` is {}, not one of the mode names",
            quote(cx.sources.get(a.file).slice(span))
        ),
    };
    vec![
        Diagnostic::new(RULE, a.file, span, message)
            .with_label("Kiro does not know this inclusion mode")
            .with_note("the inclusion mode decides when Kiro adds the file to its context: with another value it is not included the way it was meant")
            .with_help("set `inclusion` to `always`, `fileMatch`, `manual` or `auto`"),
    ]
}
