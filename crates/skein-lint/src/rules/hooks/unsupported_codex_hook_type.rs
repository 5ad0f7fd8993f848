//! HOOK025 `unsupported-codex-hook-type`.

use super::{CODEX_HANDLER_TYPES, codex_refusal, on_codex_hooks};
use crate::rules::refs::closest;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK025",
    name: "unsupported-codex-hook-type",
    severity: Severity::Error,
    summary: "a Codex hook handler whose `type` Codex does not run (`prompt`, `agent`, `http`, none)",
    doc: include_str!("unsupported_codex_hook_type.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::CODEX_ON,
};

/// Handler types Codex reads and skips ("prompt/agent hooks are not
/// supported yet").
const SKIPPED: &[&str] = &["prompt", "agent"];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    on_codex_hooks(cx, a, |h| findings(cx, a, h))
}

/// The findings on one list of Codex hooks `h` of `a`.
fn findings(cx: &Context, a: &Artifact, h: &super::Hooks) -> Vec<Diagnostic> {
    let doc = h.doc;
    let refused = codex_refusal(a);
    let valid = CODEX_HANDLER_TYPES
        .iter()
        .map(|t| quote(t))
        .collect::<Vec<_>>()
        .join(" or ");
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let Some(t) = doc.get(handler, "type") else {
            if a.damaged {
                continue;
            }
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    super::handler_opening(doc, handler),
                    format!("Codex hook handler has no `type`: {refused}"),
                )
                .with_label("this handler")
                .with_help(format!(
                    "add `\"type\": \"command\"`; Codex runs {valid} handlers"
                )),
            );
            continue;
        };
        let span = doc.node(t).span;
        let ty = doc.as_str(t);
        if ty.is_some_and(|ty| CODEX_HANDLER_TYPES.contains(&ty)) {
            continue;
        }
        let written = ty.map_or_else(
            || cx.sources.get(a.file).slice(span).to_string(),
            str::to_string,
        );
        let d =
            if ty.is_some_and(|ty| SKIPPED.contains(&ty)) {
                Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "Codex skips {} hook handlers (\"not supported yet\"): this hook never runs",
                    quote(&written)
                ),
            )
            .with_label("skipped by Codex")
            .with_help(format!("Codex runs {valid} handlers: run a script that does the check"))
            } else {
                let d = Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "Codex has no hook handler type {}: {refused}",
                        quote(&written)
                    ),
                )
                .with_label("not a Codex handler type");
                match ty.and_then(|ty| closest(ty, CODEX_HANDLER_TYPES.iter().copied())) {
                    Some((s, _)) => d.with_help(format!("did you mean {}?", quote(s))),
                    None => d.with_help(format!("Codex runs {valid} handlers")),
                }
            };
        out.push(d);
    }
    out
}
