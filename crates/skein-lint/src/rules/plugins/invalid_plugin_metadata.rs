//! PLUGIN007 `invalid-plugin-metadata`.

use super::{kind_name, manifests, root_mapping};
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Document, NodeId, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN007",
    name: "invalid-plugin-metadata",
    severity: Severity::Warning,
    summary: "a plugin manifest `author` or `homepage` of the wrong shape",
    doc: include_str!("invalid_plugin_metadata.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

fn is_url(s: &str) -> bool {
    (s.starts_with("https://") || s.starts_with("http://")) && s.len() > "https://".len()
}

/// What is wrong with `author`, if anything: an object whose `name` is a
/// non-empty string (`email`, `url` optional).
fn author_fault(doc: &Document, v: NodeId) -> Option<(NodeId, String)> {
    if doc.entries(v).is_none() {
        return Some((
            v,
            format!(
                "plugin `author` is {}, expected an object with a `name`",
                kind_name(doc, v)
            ),
        ));
    }
    match doc.get(v, "name") {
        None => Some((v, "plugin `author` has no `name`".into())),
        Some(n) => match doc.as_str(n) {
            Some(s) if !s.trim().is_empty() => None,
            Some(_) => Some((n, "plugin `author.name` is empty".into())),
            None => Some((
                n,
                format!(
                    "plugin `author.name` is {}, expected a string",
                    kind_name(doc, n)
                ),
            )),
        },
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(root) = root_mapping(doc) else {
            continue;
        };
        if let Some(v) = doc.get(root, "author")
            && let Some((at, message)) = author_fault(doc, v)
        {
            let mut d = Diagnostic::new(RULE, a.file, doc.node(at).span, message)
                .with_label("not a valid author")
                .with_help(
                    "write `\"author\": {\"name\": \"Your Name\"}` (`email` and `url` optional)",
                );
            // A manifest whose `author` is not an object fails Claude Code's
            // manifest validation, so the plugin does not load: an error.
            if doc.entries(v).is_none() {
                d.severity = Severity::Error;
            }
            out.push(d);
        }
        if let Some(v) = doc.get(root, "homepage") {
            let fault = match doc.as_str(v) {
                Some(s) if is_url(s) => None,
                Some(s) => Some(format!(
                    "plugin homepage {} is not an http(s) URL",
                    quote(s)
                )),
                None => Some(format!(
                    "plugin homepage is {}, expected a URL string",
                    kind_name(doc, v)
                )),
            };
            if let Some(message) = fault {
                out.push(
                    Diagnostic::new(RULE, a.file, doc.node(v).span, message)
                        .with_label("expected a URL such as `https://example.com/my-plugin`"),
                );
            }
        }
    }
    out
}
