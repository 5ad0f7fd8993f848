//! HOOK031 `missing-copilot-hook-field`.

use super::{COPILOT_COMMAND_FIELDS, copilot_hooks, handler_opening};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK031",
    name: "missing-copilot-hook-field",
    severity: Severity::Error,
    summary: "a GitHub Copilot command hook without a command (`bash`, `powershell`, `command`, `exec`), an `http` hook without its `url`, or a `prompt` hook without its `prompt`",
    doc: include_str!("missing_copilot_hook_field.md"),
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
    for hook in h.copilot_handlers() {
        let (event, node) = (&hook.event, hook.node);
        // A hook is a command hook unless its `type` says otherwise; a
        // `type` that is not a string, or another type, is the schema's
        // (or, in a Claude Code-style group, Claude Code's).
        let (ty, fields): (&str, &[&str]) = match doc.get(node, "type") {
            None => ("command", COPILOT_COMMAND_FIELDS),
            Some(t) => match doc.as_str(t) {
                Some("command") => ("command", COPILOT_COMMAND_FIELDS),
                Some("http") => ("http", &["url"]),
                Some("prompt") => ("prompt", &["prompt"]),
                _ => continue,
            },
        };
        let present: Vec<(&str, skein_syntax::NodeId)> = fields
            .iter()
            .filter_map(|&f| doc.get(node, f).map(|v| (f, v)))
            .collect();
        // A value that is not a string is the schema's.
        if present.iter().any(|&(_, v)| doc.as_str(v).is_none()) {
            continue;
        }
        let blank = |v| doc.as_str(v).is_some_and(|s| s.trim().is_empty());
        let (what, verb) = match ty {
            "command" => ("command", "run"),
            "http" => ("URL", "call"),
            _ => ("prompt", "submit"),
        };
        let wanted = if ty == "command" {
            "`bash` (Unix), `powershell` (Windows) or the cross-platform `command`".to_string()
        } else {
            quote(fields[0])
        };
        if present.is_empty() {
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    handler_opening(doc, node),
                    format!(
                        "Copilot {ty} hook of {} has no {what}: it has nothing to {verb}",
                        quote(event),
                    ),
                )
                .with_label("this hook")
                .with_help(format!("add {wanted} to the hook, or remove it")),
            );
        } else if present.iter().all(|&(_, v)| blank(v)) {
            let (first, v) = present[0];
            let mut names: Vec<String> = present.iter().map(|&(f, _)| quote(f)).collect();
            let last = names.pop().unwrap_or_default();
            let names = if names.is_empty() {
                last
            } else {
                format!("{} and {last}", names.join(", "))
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(v).span,
                    format!(
                        "Copilot {ty} hook of {} with {} {}: it has nothing to {verb}",
                        quote(event),
                        if present.len() == 1 {
                            "an empty"
                        } else {
                            "only empty"
                        },
                        names,
                    ),
                )
                .with_label(format!("{} is empty", quote(first)))
                .with_help(format!("write the {what} to {verb}, or remove the hook")),
            );
        }
    }
    out
}
