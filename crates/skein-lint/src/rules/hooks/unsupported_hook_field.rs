//! HOOK005 `unsupported-hook-field`.

use super::{COMMON_FIELDS, TYPE_FIELDS, handler_type, hooks_of, type_fields};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK005",
    name: "unsupported-hook-field",
    severity: Severity::Warning,
    summary: "a hook handler field that belongs to another handler type",
    doc: include_str!("unsupported_hook_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// The types that document `field`.
fn owners(field: &str) -> Vec<&'static str> {
    TYPE_FIELDS
        .iter()
        .filter(|(_, f)| f.contains(&field))
        .map(|(t, _)| *t)
        .collect()
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let Some(ty) = handler_type(doc, handler) else {
            continue;
        };
        let Some(own) = type_fields(ty) else {
            continue;
        };
        for e in doc.entries(handler).unwrap_or_default() {
            let Some(key) = doc.as_str(e.key) else {
                continue;
            };
            if COMMON_FIELDS.contains(&key) || own.contains(&key) {
                continue;
            }
            // A field no handler type documents is not this rule's.
            let owner = owners(key);
            if owner.is_empty() {
                continue;
            }
            let of = owner
                .iter()
                .map(|t| quote(t))
                .collect::<Vec<_>>()
                .join(" and ");
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(e.key).span,
                    format!(
                        "`{key}` is not a field of a {} hook; it belongs to {of} hooks",
                        quote(ty)
                    ),
                )
                .with_label(format!("ignored by a {} hook", quote(ty)))
                .with_help(format!(
                    "remove `{key}`, or change `type` if the handler was meant to be a {} hook",
                    owner[0]
                )),
            );
        }
    }
    out
}
