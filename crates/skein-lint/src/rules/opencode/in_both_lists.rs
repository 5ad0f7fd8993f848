//! OPENCODE003 `in-both-lists`.

use super::{at, contract};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Document, NodeId, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "OPENCODE003",
    name: "in-both-lists",
    severity: Severity::Error,
    summary: "an entry both in scope and out of scope, or both a do and a don't, of an OpenCode contract",
    doc: include_str!("in_both_lists.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::OpenCodeContract]),
};

/// The pairs of lists that exclude each other: (object path, first, second).
const PAIRS: &[(&[&str], &str, &str)] = &[
    (&["scope"], "included", "excluded"),
    (&["requirements", "scope"], "included", "excluded"),
    (&["governance", "permissions"], "do", "dont"),
];

fn strings(doc: &Document, m: NodeId, key: &str) -> Vec<(String, Span)> {
    doc.get(m, key)
        .and_then(|l| doc.items(l))
        .unwrap_or_default()
        .iter()
        .filter_map(|&i| Some((doc.as_str(i)?.to_string(), doc.node(i).span)))
        .collect()
}

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = contract(a) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (path, first, second) in PAIRS {
        let Some(m) = at(doc, root, path) else {
            continue;
        };
        let ones = strings(doc, m, first);
        let mut reported: Vec<String> = Vec::new();
        for (entry, span) in strings(doc, m, second) {
            let Some((_, at_first)) = ones.iter().find(|(v, _)| *v == entry) else {
                continue;
            };
            if reported.contains(&entry) {
                continue;
            }
            reported.push(entry.clone());
            let prefix = path.join(".");
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "{} is in both `{prefix}.{first}` and `{prefix}.{second}`",
                        quote(&entry)
                    ),
                )
                .with_label(format!("in `{second}`"))
                .with_secondary(a.file, *at_first, format!("in `{first}`"))
                .with_help(format!("keep {} in one of the two lists", quote(&entry))),
            );
        }
    }
    out
}
