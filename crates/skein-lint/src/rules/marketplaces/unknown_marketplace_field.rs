//! MKT007 `unknown-marketplace-field`.

use crate::rules::refs::closest;
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MKT007",
    name: "unknown-marketplace-field",
    severity: Severity::Warning,
    summary: "a top-level key of a Claude Code marketplace that the marketplace schema does not list",
    doc: include_str!("unknown_marketplace_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

/// The top-level fields of the marketplace schema.
const KNOWN: &[&str] = &[
    "$schema",
    "name",
    "owner",
    "plugins",
    "description",
    "version",
    "metadata",
    "allowCrossMarketplaceDependenciesOn",
    "renames",
];

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (m, a, root) in super::claude_marketplaces(cx) {
        let doc = &a.document;
        let Some(root) = root else {
            continue;
        };
        for e in doc.entries(root).unwrap_or_default() {
            let Some(key) = doc.key_text(e.key) else {
                continue;
            };
            if KNOWN.contains(&key.as_str()) {
                continue;
            }
            // Only a near miss of a known field: other keys are often another
            // tool's data, which Claude Code ignores.
            let Some((near, _)) = closest(&key, KNOWN.iter().copied()) else {
                continue;
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    m.file,
                    doc.node(e.key).span,
                    format!(
                        "unknown marketplace field {}; did you mean {}?",
                        quote(&key),
                        quote(near)
                    ),
                )
                .with_label("Claude Code does not read this key")
                .with_help(format!("rename the key to {}", quote(near))),
            );
        }
    }
    out
}
