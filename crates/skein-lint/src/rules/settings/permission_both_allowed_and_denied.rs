//! SETTINGS004 `permission-both-allowed-and-denied`.

use super::{permissions, rules_of, settings_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS004",
    name: "permission-both-allowed-and-denied",
    severity: Severity::Warning,
    summary: "a permission rule listed in both `allow` and `deny`",
    doc: include_str!("permission_both_allowed_and_denied.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let Some(perms) = permissions(doc, root) else {
        return Vec::new();
    };
    let deny = rules_of(doc, perms, "deny");
    let src = cx.sources.get(a.file);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (id, rule) in rules_of(doc, perms, "allow") {
        let Some(&(denied, _)) = deny.iter().find(|(_, d)| *d == rule) else {
            continue;
        };
        if !seen.insert(rule) {
            continue;
        }
        let span = doc.node(id).span;
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "permission rule {} is both allowed and denied",
                    quote(src.slice(span))
                ),
            )
            .with_label("allowed here, but deny wins")
            .with_secondary(a.file, doc.node(denied).span, "denied here")
            .with_help("remove the rule from the list it should not be in"),
        );
    }
    out
}
