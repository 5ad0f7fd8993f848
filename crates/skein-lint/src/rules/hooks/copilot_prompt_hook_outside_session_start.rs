//! HOOK032 `copilot-prompt-hook-outside-session-start`.

use super::{COPILOT_PROMPT_EVENTS, copilot_hooks, is_copilot_event};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK032",
    name: "copilot-prompt-hook-outside-session-start",
    severity: Severity::Warning,
    summary: "a GitHub Copilot `prompt` hook under an event other than `sessionStart`: it never fires",
    doc: include_str!("copilot_prompt_hook_outside_session_start.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::COPILOT_ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = copilot_hooks(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for e in h.events() {
        // An unknown event is HOOK030's; `sessionStart` runs prompt hooks.
        if !is_copilot_event(&e.name) || COPILOT_PROMPT_EVENTS.contains(&e.name.as_str()) {
            continue;
        }
        // Only hooks straight in the event's list: in a Claude Code-style
        // group a `prompt` hook is Claude Code's kind (a model's verdict),
        // which Copilot's documentation does not describe.
        for &hook in &e.groups {
            let Some(t) = doc.get(hook, "type") else {
                continue;
            };
            if doc.get(hook, "hooks").is_some() || doc.as_str(t) != Some("prompt") {
                continue;
            }
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(t).span,
                    format!(
                        "Copilot prompt hook under {}: prompt hooks run only on `sessionStart`, so it never fires",
                        quote(&e.name)
                    ),
                )
                .with_label("a prompt hook")
                .with_secondary(
                    a.file,
                    doc.node(e.key).span,
                    "this event runs command and http hooks only",
                )
                .with_help("move the hook to `sessionStart`, or remove it"),
            );
        }
    }
    out
}
