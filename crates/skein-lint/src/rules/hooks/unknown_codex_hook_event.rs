//! HOOK023 `unknown-codex-hook-event`.

use super::{CODEX_HOOK_EVENTS, event_suggestion, on_codex_hooks, rename_event, rename_help};
use crate::{Context, FilePass, Reads};
use skein_model::models::HOOK_EVENTS;
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK023",
    name: "unknown-codex-hook-event",
    severity: Severity::Error,
    summary: "a key of Codex's `hooks` that is not a Codex hook event",
    doc: include_str!("unknown_codex_hook_event.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::CODEX_ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    on_codex_hooks(cx, a, |h| findings(cx, a, h))
}

/// The findings on one list of Codex hooks `h` of `a`.
fn findings(cx: &Context, a: &Artifact, h: &super::Hooks) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // `[hooks.state]` of config.toml is Codex's record of trusted hooks.
    let config = a.format == Format::CodexConfig;
    for e in h.events() {
        if CODEX_HOOK_EVENTS.contains(&e.name.as_str()) || config && e.name == "state" {
            continue;
        }
        let span = h.doc.node(e.key).span;
        // An event of Claude Code's that Codex lacks is no typo: say so
        // rather than suggest a near Codex name.
        let claude_only = HOOK_EVENTS.contains(&e.name.as_str());
        let d = match event_suggestion(&e.name, CODEX_HOOK_EVENTS).filter(|_| !claude_only) {
            Some(s) => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "unknown Codex hook event {}; did you mean {}?",
                    quote(&e.name),
                    quote(s)
                ),
            )
            .with_label("not a Codex event (names are case-sensitive)")
            .with_help(rename_help(h, s))
            // A TOML event name is written in several table headers: one
            // edit cannot rename it.
            .with_fix_opt(
                (!config)
                    .then(|| rename_event(cx, a, h, e.key, &e.name, s, CODEX_HOOK_EVENTS))
                    .flatten(),
            ),
            None => super::unknown_client_event(
                RULE,
                a.file,
                span,
                &e.name,
                "Codex",
                CODEX_HOOK_EVENTS,
                claude_only,
            ),
        };
        out.push(d.with_note(
            "Codex drops a hooks key it does not know without a word: these hooks never run",
        ));
    }
    out
}
