//! HOOK026 `missing-codex-hook-field`.

use super::{codex_refusal, on_codex_hooks};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK026",
    name: "missing-codex-hook-field",
    severity: Severity::Error,
    summary: "a Codex `command` hook without its command, or an `mcp_tool` hook without `server` or `tool`",
    doc: include_str!("missing_codex_hook_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::CODEX_ON,
};

/// The fields each handler type Codex runs requires.
const REQUIRED: &[(&str, &[&str])] =
    &[("command", &["command"]), ("mcp_tool", &["server", "tool"])];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.damaged {
        return Vec::new();
    }
    on_codex_hooks(cx, a, |h| findings(cx, a, h))
}

/// The findings on one list of Codex hooks `h` of `a`.
fn findings(_cx: &Context, a: &Artifact, h: &super::Hooks) -> Vec<Diagnostic> {
    let doc = h.doc;
    let refused = codex_refusal(a);
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let Some(ty) = doc.get(handler, "type").and_then(|t| doc.as_str(t)) else {
            continue;
        };
        let Some((_, fields)) = REQUIRED.iter().find(|(t, _)| *t == ty) else {
            continue;
        };
        for field in *fields {
            match doc.get(handler, field) {
                None => {
                    out.push(
                        Diagnostic::new(
                            RULE,
                            a.file,
                            super::handler_opening(doc, handler),
                            format!(
                                "Codex {} hook has no {}: {refused}",
                                quote(ty),
                                quote(field)
                            ),
                        )
                        .with_label("this handler")
                        .with_help(format!("add {} to the handler", quote(field))),
                    );
                }
                // Codex skips a command hook whose command is blank.
                Some(v)
                    if *field == "command"
                        && doc.as_str(v).is_some_and(|c| c.trim().is_empty()) =>
                {
                    out.push(
                        Diagnostic::new(
                            RULE,
                            a.file,
                            doc.node(v).span,
                            "Codex `command` hook with an empty command: Codex skips it",
                        )
                        .with_label("empty")
                        .with_help("write the command to run, or remove the handler"),
                    );
                }
                Some(_) => {}
            }
        }
    }
    out
}
