//! HOOK012 `mcp-matcher-without-tool`.

use super::{TOOL_EVENTS, chars_of, hooks_of, span_of};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK012",
    name: "mcp-matcher-without-tool",
    severity: Severity::Warning,
    summary: "a hook matcher that names an MCP server but no tool, so it matches nothing",
    doc: include_str!("mcp_matcher_without_tool.md"),
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
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for e in h.events() {
        if !TOOL_EVENTS.contains(&e.name.as_str()) {
            continue;
        }
        for &g in &e.groups {
            let Some(m) = doc.get(g, "matcher") else {
                continue;
            };
            let Some(chars) = chars_of(cx, a, m) else {
                continue;
            };
            // Only letters, digits, `_` and `|`: compared as exact names.
            if !chars
                .iter()
                .all(|&(c, _)| c.is_ascii_alphanumeric() || c == '_' || c == '|')
            {
                continue;
            }
            let mut start = 0;
            for piece in chars.split(|&(c, _)| c == '|') {
                let name: String = piece.iter().map(|c| c.0).collect();
                let (from, to) = (start, start + piece.len());
                start = to + 1;
                let Some(server) = name.strip_prefix("mcp__") else {
                    continue;
                };
                if server.is_empty() || server.contains("__") {
                    continue;
                }
                let Some(span) = span_of(&chars, from, to) else {
                    continue;
                };
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        span,
                        format!(
                            "`matcher` {} names the MCP server {} but no tool; as an exact name it matches no tool",
                            quote(&name),
                            quote(server)
                        ),
                    )
                    .with_label("matches no tool call")
                    .with_help(format!(
                        "match every tool of the server with `{name}__.*`, or name one tool: `{name}__<tool>`"
                    )),
                );
            }
        }
    }
    out
}
