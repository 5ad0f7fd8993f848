//! HOOK027 `ignored-codex-matcher`.

use super::codex_hooks;
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
};

/// The Codex events whose groups' `matcher` Codex ignores (openai/codex
/// `codex-rs/hooks/src/events/common.rs`, `matcher_pattern_for_event`).
const MATCHERLESS: &[&str] = &["UserPromptSubmit", "Stop", "Interrupt"];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = codex_hooks(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for e in h.events() {
        if !MATCHERLESS.contains(&e.name.as_str()) {
            continue;
        }
        for &g in &e.groups {
            let Some(m) = doc.get_entry(g, "matcher") else {
                continue;
            };
            // Empty, `*` or null match everything: ignoring them changes nothing.
            let written = match doc.as_str(m.value) {
                Some("" | "*") => continue,
                Some(s) => s,
                None if cx.sources.get(a.file).slice(doc.node(m.value).span) == "null" => continue,
                None => cx.sources.get(a.file).slice(doc.node(m.value).span),
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(m.key).span,
                    format!(
                        "`matcher` {} has no effect: Codex ignores matchers on {}",
                        quote(written),
                        quote(&e.name)
                    ),
                )
                .with_label("ignored by Codex")
                .with_secondary(
                    a.file,
                    doc.node(e.key).span,
                    "the hooks run on every occurrence of this event",
                )
                .with_help("remove the `matcher`, or filter inside the hook's command"),
            );
        }
    }
    out
}
