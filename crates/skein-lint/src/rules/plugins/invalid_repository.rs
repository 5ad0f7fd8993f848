//! PLUGIN005 `invalid-repository`.

use super::{kind_name, manifests, root_mapping};
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN005",
    name: "invalid-repository",
    severity: Severity::Error,
    summary: "a plugin manifest `repository` that is not a URL string",
    doc: include_str!("invalid_repository.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

fn looks_like_url(s: &str) -> bool {
    s.contains("://") || s.starts_with("git@")
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(v) = root_mapping(doc).and_then(|r| doc.get(r, "repository")) else {
            continue;
        };
        let span = doc.node(v).span;
        match doc.as_str(v) {
            Some(s) if looks_like_url(s) => {}
            Some(s) => {
                let mut d = Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("plugin repository {} is not a URL", quote(s)),
                )
                .with_label("expected a URL such as `https://github.com/owner/repo`");
                d.severity = Severity::Warning;
                out.push(d);
            }
            None => {
                let url = doc.get(v, "url").and_then(|u| doc.as_str(u));
                let mut d = Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "plugin repository is {}, not a URL string",
                        kind_name(doc, v)
                    ),
                )
                .with_label("Claude Code expects a string here");
                d = match url {
                    Some(u) => d.with_help(format!("use `\"repository\": \"{u}\"`")),
                    None => d.with_help("use the repository's URL as a string"),
                };
                out.push(d);
            }
        }
    }
    out
}
