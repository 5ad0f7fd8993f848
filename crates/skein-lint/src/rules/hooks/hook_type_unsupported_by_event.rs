//! HOOK010 `hook-type-unsupported-by-event`.

use super::{event_types, handler_type, hooks_of};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK010",
    name: "hook-type-unsupported-by-event",
    severity: Severity::Error,
    summary: "a hook handler whose type its event does not run",
    doc: include_str!("hook_type_unsupported_by_event.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn list(types: &[&str]) -> String {
    let q: Vec<_> = types.iter().map(|t| quote(t)).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => q.join(""),
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for e in h.events() {
        let Some(types) = event_types(&e.name) else {
            continue;
        };
        for handler in h.handlers_of(&e) {
            let Some(ty) = handler_type(doc, handler) else {
                continue;
            };
            // Unknown types are `invalid-hook-type`'s.
            if types.contains(&ty) || super::required_fields(ty).is_none() {
                continue;
            }
            let Some(t) = doc.get(handler, "type") else {
                continue;
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(t).span,
                    format!(
                        "{} hooks do not run on {}, which supports only {} hooks",
                        quote(ty),
                        quote(&e.name),
                        list(types)
                    ),
                )
                .with_label("never runs on this event")
                .with_secondary(a.file, doc.node(e.key).span, "the event")
                .with_help(format!(
                    "use a `command` hook on {}, or move this handler to an event that runs {} hooks",
                    quote(&e.name),
                    quote(ty)
                )),
            );
        }
    }
    out
}
