//! MCP006 `mixed-transport-fields`.

use super::{Transport, mcp_file};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP006",
    name: "mixed-transport-fields",
    severity: Severity::Warning,
    summary: "an MCP server sets fields of another transport than its own",
    doc: include_str!("mixed_transport_fields.md"),
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
    let doc = f.doc;
    let spec = f.spec;
    let mut out = Vec::new();
    for s in &f.servers {
        let typed = f.type_of(s).map(|(_, t)| t.to_string());
        let (own, foreign, what): (&[&str], &[&str], &str) = match f.transport(s) {
            Transport::Stdio => (spec.stdio_fields, spec.remote_fields, "a local process"),
            Transport::Http | Transport::Sse => {
                (spec.remote_fields, spec.stdio_fields, "a remote server")
            }
            Transport::Unknown => continue,
        };
        // Without a `type`, a server with both `command` and a URL is
        // read as one of them: say so once, at the URL.
        for e in doc.entries(s.node).unwrap_or_default() {
            let Some(key) = doc.as_str(e.key) else {
                continue;
            };
            if !foreign.contains(&key) || own.contains(&key) || spec.common_fields.contains(&key) {
                continue;
            }
            let why = match &typed {
                Some(t) => format!("`type` is {}", quote(t)),
                None if what == "a local process" => "it has a `command`".to_string(),
                None => "it has a URL and no `command`".to_string(),
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(e.key).span,
                    format!(
                        "MCP server {} is {what} ({why}) but sets {}, a field of the other transport",
                        quote(&s.name),
                        quote(key)
                    ),
                )
                .with_label(format!("{} ignores this field for {what}", spec.name))
                .with_help("remove the field, or split the server into a local and a remote one"),
            );
        }
    }
    out
}
