//! HOOK002 `matcher-not-applicable`.

use super::{hooks_of, ignored_matchers};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_model::models::MATCHERLESS_HOOK_EVENTS;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK002",
    name: "matcher-not-applicable",
    severity: Severity::Warning,
    summary: "a hook matcher on an event that ignores matchers",
    doc: include_str!("matcher_not_applicable.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    ignored_matchers(
        cx,
        a,
        &h,
        MATCHERLESS_HOOK_EVENTS,
        RULE,
        "Claude Code",
        |written, event| {
            format!(
                "`matcher` {} has no effect: {} does not support matchers",
                quote(written),
                quote(event)
            )
        },
    )
}
