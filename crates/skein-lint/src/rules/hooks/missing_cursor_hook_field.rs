//! HOOK029 `missing-cursor-hook-field`.

use super::cursor_hooks;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK029",
    name: "missing-cursor-hook-field",
    severity: Severity::Error,
    summary: "a Cursor command hook without its `command`, or a prompt hook without its `prompt`",
    doc: include_str!("missing_cursor_hook_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::CURSOR_ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.damaged {
        return Vec::new();
    }
    let Some(h) = cursor_hooks(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (event, hook) in h.cursor_handlers() {
        // A hook is a command hook unless its `type` says otherwise; a
        // `type` that is not a string, or another type, is the schema's.
        let (ty, field) = match doc.get(hook, "type") {
            None => ("command", "command"),
            Some(t) => match doc.as_str(t) {
                Some("command") => ("command", "command"),
                Some("prompt") => ("prompt", "prompt"),
                _ => continue,
            },
        };
        // Some setups give a prompt hook its text in `command`; whether
        // Cursor reads it there is not settled by its documentation, so
        // such a hook is not reported.
        let text_in_command = || {
            doc.get(hook, "command")
                .and_then(|c| doc.as_str(c))
                .is_some_and(|c| !c.trim().is_empty())
        };
        match doc.get(hook, field) {
            None if ty == "prompt" && text_in_command() => {}
            None => {
                let at = doc.node(hook).span.start as usize;
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        Span::new(at, at + 1),
                        format!(
                            "Cursor {ty} hook of {} has no {}: it has nothing to run",
                            quote(&event),
                            quote(field)
                        ),
                    )
                    .with_label("this hook")
                    .with_help(format!("add {} to the hook, or remove it", quote(field))),
                );
            }
            Some(v) if doc.as_str(v).is_some_and(|c| c.trim().is_empty()) => {
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        doc.node(v).span,
                        format!(
                            "Cursor {ty} hook of {} with an empty {}: it has nothing to run",
                            quote(&event),
                            quote(field)
                        ),
                    )
                    .with_label("empty")
                    .with_help(format!("write the {field} to run, or remove the hook")),
                );
            }
            Some(_) => {}
        }
    }
    out
}
