//! MKT002 `marketplace-name-mismatch`.

use crate::{Context, Pass};
use skein_model::Model;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MKT002",
    name: "marketplace-name-mismatch",
    severity: Severity::Warning,
    summary: "a marketplace entry whose name differs from its plugin manifest's name",
    doc: include_str!("marketplace_name_mismatch.md"),
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
        for e in &m.entries {
            let (Some((name, span)), Some(p)) = (&e.name, e.plugin) else {
                continue;
            };
            let node = cx.graph.node(p);
            let Some(Model::Plugin(manifest)) = cx.artifact(node.file).map(|a| &a.model) else {
                continue;
            };
            let (Some(own), Some(own_span)) =
                (manifest.name_str(), manifest.name.as_ref().map(|n| n.span))
            else {
                continue;
            };
            if own == name {
                continue;
            }
            out.push(
                Diagnostic::new(
                    RULE,
                    m.file,
                    *span,
                    format!(
                        "marketplace entry {} registers a plugin named {}",
                        quote(name),
                        quote(own)
                    ),
                )
                .with_label("the entry's name")
                .with_secondary(node.file, own_span, "the plugin manifest's name")
                .with_help(format!(
                    "use one name in both places, e.g. `\"name\": \"{own}\"` in the entry"
                )),
            );
        }
    }
    out
}
