//! HOOK021 `unknown-matcher-tool`.

use super::hooks_of;
use crate::claude_code::{TOOLS, is_tool};
use crate::rules::refs::closest;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK021",
    name: "unknown-matcher-tool",
    severity: Severity::Warning,
    summary: "a tool-event hook matcher naming no Claude Code tool (`bash`, `Multiedit`) or written as a permission rule (`Bash(git *)`)",
    doc: include_str!("unknown_matcher_tool.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// The events whose matcher filters `tool_name`.
const TOOL_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionDenied",
];

/// The alternatives of a matcher on the exact-match path (only letters,
/// digits, `_`, `-`, spaces, `,` and `|`), or `None` for a regular
/// expression or a match-all.
fn exact_alternatives(m: &str) -> Option<Vec<&str>> {
    let exact = m
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ',' | '|'));
    if !exact || m.trim().is_empty() {
        return None;
    }
    Some(
        m.split(['|', ','])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

/// `Tool(specifier)`: a permission rule, which as a regular expression
/// matches no tool name.
fn permission_rule(m: &str) -> Option<&str> {
    let (tool, rest) = m.split_once('(')?;
    (rest.ends_with(')') && is_tool(tool)).then_some(tool)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for m in h.matchers() {
        if !TOOL_EVENTS.contains(&m.event.as_str()) {
            continue;
        }
        let text = m.value;
        let span = doc.node(m.node).span;
        if let Some(tool) = permission_rule(text) {
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "`matcher` {} is a permission rule, not a tool name: read as a regular expression, it matches no tool",
                        quote(text)
                    ),
                )
                .with_label("matches no tool, so these hooks never run")
                .with_help(format!(
                    "match the tool with `\"matcher\": \"{tool}\"` and put {} in each handler's `if`",
                    quote(text)
                )),
            );
            continue;
        }
        let Some(alts) = exact_alternatives(text) else {
            continue;
        };
        for alt in alts {
            if is_tool(alt) {
                continue;
            }
            let mut d = Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "`matcher` names {}, which is no Claude Code tool",
                    quote(alt)
                ),
            )
            .with_label("compared exactly with the tool name: matches nothing")
            .with_secondary(a.file, doc.node(m.event_key).span, "a tool event");
            let same_case = TOOLS.iter().find(|t| t.eq_ignore_ascii_case(alt));
            d = match same_case {
                Some(t) => d.with_help(format!(
                    "did you mean {}? matchers compare tool names with their case",
                    quote(t)
                )),
                None => match closest(alt, TOOLS.iter().copied()) {
                    Some((near, _)) => d.with_help(format!("did you mean {}?", quote(near))),
                    None => d.with_note(
                        "an MCP tool is matched as `mcp__<server>__<tool>`, or `mcp__<server>__.*` for all of a server's",
                    ),
                },
            };
            out.push(d);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{exact_alternatives, permission_rule};

    #[test]
    fn matchers() {
        assert_eq!(
            exact_alternatives("Edit, Write|Bash"),
            Some(vec!["Edit", "Write", "Bash"])
        );
        assert_eq!(exact_alternatives("mcp__memory__.*"), None);
        assert_eq!(exact_alternatives("*"), None);
        assert_eq!(exact_alternatives(""), None);
        assert_eq!(permission_rule("Bash(git push *)"), Some("Bash"));
        assert_eq!(permission_rule("(Edit|Write)"), None);
        assert_eq!(permission_rule("Notebook(Edit)"), None);
    }
}
