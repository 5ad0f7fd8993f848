//! HOOK006 `invalid-hook-timeout`.

use super::hooks_of;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK006",
    name: "invalid-hook-timeout",
    severity: Severity::Error,
    summary: "a hook timeout that is not a positive number of seconds",
    doc: include_str!("invalid_hook_timeout.md"),
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
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let Some(t) = doc.get(handler, "timeout") else {
            continue;
        };
        let span = doc.node(t).span;
        let written = cx.sources.get(a.file).slice(span);
        let why = match doc.kind(t) {
            NodeKind::Number(n) if n.as_f64() > 0.0 => continue,
            NodeKind::Number(_) => format!(
                "hook `timeout` is {}; it must be greater than 0",
                quote(written)
            ),
            NodeKind::String(_) => format!(
                "hook `timeout` is the string {}; it must be a number of seconds greater than 0",
                quote(written)
            ),
            _ => format!(
                "hook `timeout` is {}; it must be a number of seconds greater than 0",
                quote(written)
            ),
        };
        out.push(
            Diagnostic::new(RULE, a.file, span, why)
                .with_label("not a positive number of seconds")
                .with_help("write the timeout in seconds, e.g. `\"timeout\": 30`, or remove it for the default"),
        );
    }
    out
}
