//! MCP011 `wildcard-bind`.

use super::{host_of, mcp_file};
use crate::rules::sec::sub_span;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP011",
    name: "wildcard-bind",
    severity: Severity::Warning,
    summary: "an MCP server is bound to or reached at `0.0.0.0`, every network interface",
    doc: include_str!("wildcard_bind.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

const ANY: &[&str] = &["0.0.0.0", "[::]", "::"];

/// Whether a flag or variable name is about the address a server listens on.
fn bind_name(name: &str) -> bool {
    let n = name.trim_start_matches('-').to_ascii_lowercase();
    ["host", "bind", "listen", "addr", "address", "interface"]
        .iter()
        .any(|w| n.contains(w))
}

/// The byte range of a wildcard address in an argument or value: the whole
/// value, `--host=0.0.0.0`'s value, or `0.0.0.0:8080`'s address.
fn wildcard_in(v: &str, named: bool) -> Option<std::ops::Range<usize>> {
    if named && ANY.contains(&v) {
        return Some(0..v.len());
    }
    if let Some((flag, value)) = v.split_once('=')
        && bind_name(flag)
        && ANY.contains(&value)
    {
        return Some(flag.len() + 1..v.len());
    }
    if v.starts_with("0.0.0.0:") && v[8..].bytes().all(|b| b.is_ascii_digit()) && v.len() > 8 {
        return Some(0..7);
    }
    None
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    let doc = f.doc;
    let text = cx.sources.get(a.file).text();
    let mut out = Vec::new();
    let mut push =
        |node, range: std::ops::Range<usize>, server: &str, what: String, remote: bool| {
            let d = Diagnostic::new(
                RULE,
                a.file,
                sub_span(doc, node, text, range),
                format!("MCP server {} {what}", quote(server)),
            );
            out.push(if remote {
                d.with_label("`0.0.0.0` is not an address to connect to")
                    .with_help(
                        "connect to `127.0.0.1` (or `localhost`), and bind the server there too",
                    )
            } else {
                d.with_label("listens on every network interface")
                    .with_help("bind to `127.0.0.1` so only this machine can reach the server")
            });
        };
    for s in &f.servers {
        if let Some((key, node)) = f.url_of(s)
            && let Some(url) = doc.as_str(node)
            && let Some((host, range)) = host_of(url)
            && ANY.contains(&host.as_str())
        {
            push(
                node,
                range,
                &s.name,
                format!("connects to `{host}` (`{key}`)"),
                true,
            );
        }
        let args: Vec<_> = doc
            .get(s.node, "args")
            .and_then(|x| doc.items(x))
            .unwrap_or_default()
            .to_vec();
        for (i, &n) in args.iter().enumerate() {
            let Some(v) = doc.as_str(n) else {
                continue;
            };
            let named = i > 0
                && doc
                    .as_str(args[i - 1])
                    .is_some_and(|p| p.starts_with('-') && bind_name(p));
            if let Some(r) = wildcard_in(v, named) {
                push(
                    n,
                    r,
                    &s.name,
                    "is bound to `0.0.0.0` by its arguments".into(),
                    false,
                );
            }
        }
        for key in ["env", "environment"] {
            for e in doc
                .get(s.node, key)
                .and_then(|x| doc.entries(x))
                .unwrap_or_default()
            {
                let (Some(k), Some(v)) = (doc.as_str(e.key), doc.as_str(e.value)) else {
                    continue;
                };
                if let Some(r) = wildcard_in(v, bind_name(k)) {
                    push(
                        e.value,
                        r,
                        &s.name,
                        format!("is bound to `0.0.0.0` by `{k}`"),
                        false,
                    );
                }
            }
        }
    }
    out
}
