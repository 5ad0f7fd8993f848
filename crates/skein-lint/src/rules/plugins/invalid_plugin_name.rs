//! PLUGIN001 `invalid-plugin-name`.

use super::{is_kebab, kind_name, manifests, opening, root_mapping, to_kebab, written};
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN001",
    name: "invalid-plugin-name",
    severity: Severity::Error,
    summary: "a Claude Code plugin manifest without a kebab-case `name`",
    doc: include_str!("invalid_plugin_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(root) = root_mapping(doc) else {
            continue;
        };
        let Some(v) = doc.get(root, "name") else {
            // A repaired tree may lack the `name` the parser set aside
            // around a syntax error (SYN001 reports that).
            if a.damaged {
                continue;
            }
            out.push(
                Diagnostic::new(RULE, a.file, opening(doc), "plugin manifest has no `name`")
                    .with_label("`name` is required in a plugin manifest")
                    .with_help("add `\"name\": \"<kebab-case-name>\"`"),
            );
            continue;
        };
        let span = doc.node(v).span;
        match doc.as_str(v) {
            Some(s) if is_kebab(s) => {}
            Some(s) => {
                let fixed = to_kebab(s);
                let mut d = Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("plugin name {} is not kebab-case", quote(s)),
                )
                .with_label("lowercase letters and digits joined by `-`");
                if !fixed.is_empty() {
                    d = d.with_help(format!("use `\"name\": \"{fixed}\"`"));
                }
                out.push(d);
            }
            None => out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "plugin name is {} `{}`, not a string",
                        kind_name(doc, v),
                        written(cx, a.file, span)
                    ),
                )
                .with_label("expected a kebab-case string"),
            ),
        }
    }
    out
}
