//! MCP009 `insecure-http`.

use super::{host_of, loopback, mcp_file};
use crate::rules::sec::sub_span;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP009",
    name: "insecure-http",
    severity: Severity::Warning,
    summary: "a remote MCP server is reached over plain `http://` on a host that is not this machine",
    doc: include_str!("insecure_http.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    let text = cx.sources.get(a.file).text();
    let mut out = Vec::new();
    for s in &f.servers {
        let Some((key, node)) = f.url_of(s) else {
            continue;
        };
        let Some(url) = f.doc.as_str(node) else {
            continue;
        };
        if !url
            .get(..7)
            .is_some_and(|p| p.eq_ignore_ascii_case("http://"))
        {
            continue;
        }
        let Some((host, range)) = host_of(url) else {
            continue;
        };
        // `0.0.0.0` is MCP011's; a placeholder host is not ours to judge.
        if host.is_empty()
            || loopback(&host)
            || host == "0.0.0.0"
            || host == "[::]"
            || host.contains('$')
            || host.contains('{')
        {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                sub_span(f.doc, node, text, 0..range.end),
                format!(
                    "`{key}` of MCP server {} sends its traffic unencrypted to {}",
                    quote(&s.name),
                    quote(&host)
                ),
            )
            .with_label("plain HTTP to a host that is not this machine")
            .with_help(format!("use `https://{}`", &url[7..])),
        );
    }
    out
}
