//! HOOK027 `ignored-codex-matcher`.

use super::{ignored_matchers, on_codex_hooks};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK027",
    name: "ignored-codex-matcher",
    severity: Severity::Warning,
    summary: "a `matcher` on a Codex event that ignores matchers (`UserPromptSubmit`, `Stop`, `Interrupt`)",
    doc: include_str!("ignored_codex_matcher.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::CODEX_ON,
};

/// The Codex events whose groups' `matcher` Codex ignores (openai/codex
/// `codex-rs/hooks/src/events/common.rs`, `matcher_pattern_for_event`).
const MATCHERLESS: &[&str] = &["UserPromptSubmit", "Stop", "Interrupt"];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    on_codex_hooks(cx, a, |h| {
        ignored_matchers(cx, a, h, MATCHERLESS, RULE, "Codex", |written, event| {
            format!(
                "`matcher` {} has no effect: Codex ignores matchers on {}",
                quote(written),
                quote(event)
            )
        })
    })
}
