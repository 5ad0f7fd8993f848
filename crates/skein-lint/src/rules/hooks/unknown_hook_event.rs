//! HOOK001 `unknown-hook-event`.

use super::{event_suggestion, hooks_of, rename_event, rename_help};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_model::models::HOOK_EVENTS;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK001",
    name: "unknown-hook-event",
    severity: Severity::Error,
    summary: "a hooks key that is not a Claude Code hook event",
    doc: include_str!("unknown_hook_event.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// The event `name` was probably meant to be: one spelled the same but for
/// case, else the nearest within edit distance 2.
pub(crate) fn suggestion(name: &str) -> Option<&'static str> {
    event_suggestion(name, HOOK_EVENTS)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in h.events() {
        if HOOK_EVENTS.contains(&e.name.as_str()) {
            continue;
        }
        let span = h.doc.node(e.key).span;
        let d = match suggestion(&e.name) {
            Some(s) => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "unknown hook event {}; did you mean {}?",
                    quote(&e.name),
                    quote(s)
                ),
            )
            .with_label("not a Claude Code event (names are case-sensitive)")
            .with_help(rename_help(&h, s))
            .with_fix_opt(rename_event(cx, a, &h, e.key, &e.name, s, HOOK_EVENTS)),
            None => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "unknown hook event {}; Claude Code's events are {}",
                    quote(&e.name),
                    HOOK_EVENTS.join(", ")
                ),
            )
            .with_label("not a Claude Code event"),
        };
        out.push(d.with_note("Claude Code never runs the hooks of an event it does not have"));
    }
    out
}
