//! HOOK004 `missing-hook-field`.

use super::{handler_type, hooks_of, required_fields};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK004",
    name: "missing-hook-field",
    severity: Severity::Error,
    summary: "a hook handler without the field its type requires",
    doc: include_str!("missing_hook_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    // Every finding here is an absence, and a repaired tree may lack what
    // the parser set aside around a syntax error (SYN001 reports that).
    if a.damaged {
        return Vec::new();
    }
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let Some(ty) = handler_type(doc, handler) else {
            continue;
        };
        let Some(fields) = required_fields(ty) else {
            continue;
        };
        let Some(t) = doc.get(handler, "type") else {
            continue;
        };
        for f in fields.iter().filter(|f| doc.get(handler, f).is_none()) {
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(t).span,
                    format!("{} hook has no `{f}`", quote(ty)),
                )
                .with_label(format!("a {} hook requires `{f}`", quote(ty)))
                .with_help(format!("add `\"{f}\"` to this handler")),
            );
        }
    }
    out
}
