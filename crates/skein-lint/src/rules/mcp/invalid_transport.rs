//! MCP003 `invalid-transport`.

use super::{mcp_file, type_suggestion};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP003",
    name: "invalid-transport",
    severity: Severity::Error,
    summary: "an MCP server's `type` is not a transport its client knows",
    doc: include_str!("invalid_transport.md"),
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
    if !f.spec.checks_type() || f.client == super::Client::AgentPlugins {
        return Vec::new();
    }
    let valid = f.spec.types().map(quote).collect::<Vec<_>>().join(", ");
    let mut out = Vec::new();
    for s in &f.servers {
        let Some((node, t)) = f.type_of(s) else {
            continue;
        };
        if f.spec.types().any(|v| v == t) || f.spec.quiet_types.contains(&t) {
            continue;
        }
        let span = f.doc.node(node).span;
        let d = match type_suggestion(f.spec, t) {
            Some(to) => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "MCP server {} has transport {}, which {} does not know; did you mean {}?",
                    quote(&s.name),
                    quote(t),
                    f.spec.name,
                    quote(to)
                ),
            )
            .with_label(format!("{} accepts {valid}", f.spec.name))
            .with_help(format!("write `\"type\": \"{to}\"`")),
            None => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "MCP server {} has transport {}, which {} does not know",
                    quote(&s.name),
                    quote(t),
                    f.spec.name
                ),
            )
            .with_label(format!("{} accepts {valid}", f.spec.name))
            .with_help("use one of the transports the client accepts"),
        };
        out.push(d.with_note(format!("{}: {}", f.spec.name, f.spec.source)));
    }
    out
}
