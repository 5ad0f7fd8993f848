//! HOOK030 `unknown-copilot-hook-event`.

use super::{
    copilot_camel_events, copilot_event_match, copilot_event_suggestion, copilot_hooks,
    copilot_pascal_events, is_copilot_event, rename_event_with, rename_help,
};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_model::models::HOOK_EVENTS;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK030",
    name: "unknown-copilot-hook-event",
    severity: Severity::Warning,
    summary: "a key of a `.github/hooks/*.json` file's `hooks` that is not a GitHub Copilot hook event",
    doc: include_str!("unknown_copilot_hook_event.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
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
    let mut out = Vec::new();
    for e in h.events() {
        if is_copilot_event(&e.name) {
            continue;
        }
        let span = h.doc.node(e.key).span;
        let claude = HOOK_EVENTS.contains(&e.name.as_str());
        // A Claude Code event is a slip only when Copilot spells the same
        // event otherwise (`Notification` -> `notification`); any other
        // near Copilot name would be a different event.
        let suggestion = copilot_event_match(&e.name)
            .filter(|(nearest, _)| !claude || nearest.eq_ignore_ascii_case(&e.name));
        let d = match suggestion {
            Some((nearest, s)) => {
                let d = Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    if claude {
                        format!(
                            "{} is Claude Code's spelling; Copilot's event is {}",
                            quote(&e.name),
                            quote(s)
                        )
                    } else {
                        format!(
                            "unknown Copilot hook event {}; did you mean {}?",
                            quote(&e.name),
                            quote(s)
                        )
                    },
                )
                .with_label("not a Copilot event (names are case-sensitive)")
                .with_help(rename_help(&h, s))
                .with_fix_opt(rename_event_with(
                    cx,
                    a,
                    &h,
                    e.key,
                    &e.name,
                    s,
                    copilot_event_suggestion,
                ));
                // The key is nearest the event's other name: say why the
                // one of the key's style is suggested.
                if nearest == s {
                    d
                } else {
                    d.with_note(format!(
                        "{} and {} name one event: camelCase names get camelCase payloads, PascalCase names VS Code-compatible snake_case ones",
                        quote(s),
                        quote(nearest)
                    ))
                }
            }
            None => {
                let camel: Vec<&str> = copilot_camel_events().collect();
                super::unknown_client_event(
                    RULE, a.file, span, &e.name, "Copilot", &camel, claude,
                )
                .with_note(format!(
                    "Copilot also accepts the PascalCase names {}, which get VS Code-compatible snake_case payloads",
                    copilot_pascal_events().collect::<Vec<_>>().join(", ")
                ))
            }
        };
        out.push(d.with_note(
            "Copilot ignores a hooks key it does not know, without a warning: the hooks under it never run",
        ));
    }
    out
}
