//! MCP015 `invalid-header`.

use super::mcp_file;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP015",
    name: "invalid-header",
    severity: Severity::Error,
    summary: "an HTTP header of a remote MCP server is not a valid header, or is set twice",
    doc: include_str!("invalid_header.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// Whether `name` is an HTTP field name: an RFC 9110 token.
fn token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    let doc = f.doc;
    let mut out = Vec::new();
    for s in &f.servers {
        for key in ["headers", "http_headers"] {
            let Some(entries) = doc.get(s.node, key).and_then(|h| doc.entries(h)) else {
                continue;
            };
            let mut seen: Vec<(String, skein_syntax::Span)> = Vec::new();
            for e in entries {
                let Some(name) = doc.as_str(e.key) else {
                    continue;
                };
                let span = doc.node(e.key).span;
                if !token(name) {
                    out.push(
                        Diagnostic::new(
                            RULE,
                            a.file,
                            span,
                            format!(
                                "header name {} of MCP server {} is not a valid HTTP header name",
                                quote(name),
                                quote(&s.name)
                            ),
                        )
                        .with_label("a header name has no spaces, colons or control characters")
                        .with_help(
                            "write the header's name alone as the key, its value as the value",
                        ),
                    );
                } else if let Some((_, first)) =
                    seen.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))
                {
                    out.push(
                        Diagnostic::new(
                            RULE,
                            a.file,
                            span,
                            format!(
                                "header {} of MCP server {} is set twice (header names are case-insensitive)",
                                quote(name),
                                quote(&s.name)
                            ),
                        )
                        .with_label("set again here")
                        .with_secondary(a.file, *first, "first set here")
                        .with_help("keep one of the two"),
                    );
                }
                if let Some(v) = doc.as_str(e.value)
                    && v.chars()
                        .any(|c| (c.is_control() && c != '\t') || c == '\u{7f}')
                {
                    out.push(
                        Diagnostic::new(
                            RULE,
                            a.file,
                            doc.node(e.value).span,
                            format!(
                                "value of header {} of MCP server {} holds a control character",
                                quote(name),
                                quote(&s.name)
                            ),
                        )
                        .with_label("not allowed in an HTTP header value")
                        .with_help(
                            "remove the control character (a line break would split the request)",
                        ),
                    );
                }
                seen.push((name.to_string(), span));
            }
        }
    }
    out
}
