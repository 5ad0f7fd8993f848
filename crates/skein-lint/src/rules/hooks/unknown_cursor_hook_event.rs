//! HOOK028 `unknown-cursor-hook-event`.

use super::{CURSOR_HOOK_EVENTS, cursor_hooks, event_suggestion, rename_event, rename_help};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_model::models::HOOK_EVENTS;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK028",
    name: "unknown-cursor-hook-event",
    severity: Severity::Warning,
    summary: "a key of `.cursor/hooks.json`'s `hooks` that is not a Cursor hook event",
    doc: include_str!("unknown_cursor_hook_event.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::CURSOR_ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = cursor_hooks(cx, a) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in h.events() {
        if CURSOR_HOOK_EVENTS.contains(&e.name.as_str()) {
            continue;
        }
        let span = h.doc.node(e.key).span;
        let claude = HOOK_EVENTS.contains(&e.name.as_str());
        let suggestion = event_suggestion(&e.name, CURSOR_HOOK_EVENTS);
        // A Claude Code event is a typo only when Cursor spells the same
        // event in camelCase (`PreToolUse` -> `preToolUse`); any other near
        // Cursor name would be a different event.
        let suggestion = suggestion.filter(|s| !claude || s.eq_ignore_ascii_case(&e.name));
        let d = match suggestion {
            Some(s) => Diagnostic::new(
                RULE,
                a.file,
                span,
                if claude {
                    format!(
                        "{} is Claude Code's spelling; Cursor's event is {}",
                        quote(&e.name),
                        quote(s)
                    )
                } else {
                    format!(
                        "unknown Cursor hook event {}; did you mean {}?",
                        quote(&e.name),
                        quote(s)
                    )
                },
            )
            .with_label("not a Cursor event (names are case-sensitive)")
            .with_help(rename_help(&h, s))
            .with_fix_opt(rename_event(
                cx,
                a,
                &h,
                e.key,
                &e.name,
                s,
                CURSOR_HOOK_EVENTS,
            )),
            None => super::unknown_client_event(
                RULE,
                a.file,
                span,
                &e.name,
                "Cursor",
                CURSOR_HOOK_EVENTS,
                claude,
            ),
        };
        out.push(d.with_note(
            "Cursor runs hooks only for the events it has: the hooks under this key never run",
        ));
    }
    out
}
