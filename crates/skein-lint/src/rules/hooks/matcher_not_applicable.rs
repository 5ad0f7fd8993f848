//! HOOK002 `matcher-not-applicable`.

use super::hooks_of;
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
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for e in h.events() {
        if !MATCHERLESS_HOOK_EVENTS.contains(&e.name.as_str()) {
            continue;
        }
        for &g in &e.groups {
            let Some(m) = doc.get_entry(g, "matcher") else {
                continue;
            };
            // An empty or `*` matcher matches everything: ignoring it changes nothing.
            if matches!(doc.as_str(m.value), Some("" | "*")) {
                continue;
            }
            let written = doc
                .as_str(m.value)
                .unwrap_or_else(|| cx.sources.get(a.file).slice(doc.node(m.value).span));
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(m.key).span,
                    format!(
                        "`matcher` {} has no effect: {} does not support matchers",
                        quote(written),
                        quote(&e.name)
                    ),
                )
                .with_label("ignored by Claude Code")
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
