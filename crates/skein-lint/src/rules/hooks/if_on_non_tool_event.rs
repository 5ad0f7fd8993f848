//! HOOK015 `if-on-non-tool-event`.

use super::{TOOL_EVENTS, hooks_of};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK015",
    name: "if-on-non-tool-event",
    severity: Severity::Error,
    summary: "a hook handler with `if` on an event that is not a tool event, so it never runs",
    doc: include_str!("if_on_non_tool_event.md"),
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
    for e in h.events() {
        // Unknown events are `unknown-hook-event`'s.
        if TOOL_EVENTS.contains(&e.name.as_str())
            || !skein_model::models::HOOK_EVENTS.contains(&e.name.as_str())
        {
            continue;
        }
        for handler in h.handlers_of(&e) {
            let Some(f) = doc.get_entry(handler, "if") else {
                continue;
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(f.key).span,
                    format!(
                        "a hook with `if` never runs on {}; `if` is evaluated only on tool events",
                        quote(&e.name)
                    ),
                )
                .with_label("this handler never runs")
                .with_secondary(a.file, doc.node(e.key).span, "not a tool event")
                .with_help("remove `if`, or move the handler to PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest or PermissionDenied"),
            );
        }
    }
    out
}
