//! MCP005 `invalid-server-url`.

use super::{host_of, mcp_file};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP005",
    name: "invalid-server-url",
    severity: Severity::Error,
    summary: "a remote MCP server's URL is not an `http://` or `https://` URL with a host",
    doc: include_str!("invalid_server_url.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// Why `url` is not a usable endpoint URL, if it is not.
pub(crate) fn problem(url: &str, websocket: bool) -> Option<String> {
    let u = url.trim();
    if u.is_empty() || u.starts_with("${") || u.starts_with("{env:") || u.starts_with('$') {
        return None;
    }
    if u.len() != url.len() || u.chars().any(char::is_whitespace) {
        return Some("it contains whitespace".into());
    }
    let lower = u.to_ascii_lowercase();
    let schemes: &[&str] = if websocket {
        &["ws://", "wss://", "http://", "https://"]
    } else {
        &["http://", "https://"]
    };
    if !schemes.iter().any(|s| lower.starts_with(s)) {
        return Some(match lower.find("://") {
            Some(i) => format!("its scheme `{}` is not `http` or `https`", &u[..i]),
            None => "it has no `http://` or `https://` scheme".into(),
        });
    }
    match host_of(u) {
        Some((h, _)) if !h.is_empty() => None,
        _ => Some("it has no host".into()),
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for s in &f.servers {
        let Some((key, node)) = f.url_of(s) else {
            continue;
        };
        let Some(url) = f.doc.as_str(node) else {
            continue;
        };
        let websocket = f.type_of(s).is_some_and(|(_, t)| t == "ws");
        if let Some(why) = problem(url, websocket) {
            let mut d = Diagnostic::new(
                RULE,
                a.file,
                f.doc.node(node).span,
                format!(
                    "`{key}` of MCP server {} is not a valid endpoint URL: {why}",
                    quote(&s.name)
                ),
            )
            .with_label(format!("{} cannot connect to {}", f.spec.name, quote(url)));
            if !url.contains("://") && !url.trim().is_empty() {
                d = d.with_help(format!(
                    "write the scheme: `https://{}` (or `http://` for a local server)",
                    url.trim()
                ));
            } else {
                d = d.with_help("write the endpoint as `https://host/path`");
            }
            out.push(d);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::problem;

    #[test]
    fn urls() {
        assert_eq!(problem("https://a.example/mcp", false), None);
        assert_eq!(problem("${URL}", false), None);
        assert!(problem("localhost:3000/mcp", false).is_some());
        assert!(problem("ftp://x", false).is_some());
        assert!(problem("https:///x", false).is_some());
        assert_eq!(problem("ws://x:1", true), None);
        assert!(problem("ws://x:1", false).is_some());
    }
}
