//! HOOK003 `invalid-hook-type`.

use super::{HANDLER_TYPES, hooks_of};
use crate::rules::refs::closest;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK003",
    name: "invalid-hook-type",
    severity: Severity::Error,
    summary: "a hook handler without a type, or with one Claude Code does not have",
    doc: include_str!("invalid_hook_type.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn valid() -> String {
    HANDLER_TYPES
        .iter()
        .map(|(t, _)| quote(t))
        .collect::<Vec<_>>()
        .join(", ")
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let Some(t) = doc.get(handler, "type") else {
            // A repaired tree may lack the `type` the parser set aside
            // around a syntax error (SYN001 reports that).
            if a.damaged {
                continue;
            }
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    super::handler_opening(doc, handler),
                    format!("hook handler has no `type`; expected one of {}", valid()),
                )
                .with_label("this handler")
                .with_help("add `\"type\": \"command\"` for a shell command"),
            );
            continue;
        };
        let span = doc.node(t).span;
        let written = cx.sources.get(a.file).slice(span);
        let Some(ty) = doc.as_str(t) else {
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "hook `type` is {}, not a string; expected one of {}",
                        quote(written),
                        valid()
                    ),
                )
                .with_label("not a handler type"),
            );
            continue;
        };
        if HANDLER_TYPES.iter().any(|(v, _)| *v == ty) {
            continue;
        }
        let names = HANDLER_TYPES.iter().map(|(t, _)| *t);
        let near = HANDLER_TYPES
            .iter()
            .map(|(t, _)| *t)
            .find(|v| {
                v.eq_ignore_ascii_case(ty)
                    || v.replace('_', "") == ty.to_ascii_lowercase().replace(['_', '-'], "")
            })
            .or_else(|| closest(ty, names).map(|(c, _)| c));
        let d = match near {
            Some(s) => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "unknown hook type {}; did you mean {}?",
                    quote(ty),
                    quote(s)
                ),
            )
            .with_help(format!("set `\"type\": \"{s}\"`")),
            None => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "unknown hook type {}; expected one of {}",
                    quote(ty),
                    valid()
                ),
            ),
        };
        out.push(d.with_label("not a handler type"));
    }
    out
}
