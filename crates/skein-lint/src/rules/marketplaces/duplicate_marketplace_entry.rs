//! MKT003 `duplicate-marketplace-entry`.

use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};
use std::collections::HashMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "MKT003",
    name: "duplicate-marketplace-entry",
    severity: Severity::Error,
    summary: "two entries of one marketplace with the same plugin name",
    doc: include_str!("duplicate_marketplace_entry.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for m in cx.graph.marketplaces() {
        let mut first: HashMap<&str, Span> = HashMap::new();
        for e in &m.entries {
            let Some((name, span)) = &e.name else {
                continue;
            };
            match first.get(name.as_str()) {
                None => {
                    first.insert(name, *span);
                }
                Some(&at) => out.push(
                    Diagnostic::new(
                        RULE,
                        m.file,
                        *span,
                        format!("marketplace lists plugin {} twice", quote(name)),
                    )
                    .with_label("second entry")
                    .with_secondary(m.file, at, "first entry")
                    .with_help("remove one entry, or rename one of the plugins"),
                ),
            }
        }
    }
    out
}
