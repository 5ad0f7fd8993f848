//! OPENCODE004 `tool-required-and-blocked`.

use super::{at, contract};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "OPENCODE004",
    name: "tool-required-and-blocked",
    severity: Severity::Error,
    summary: "an OpenCode contract tool that is both `required` and `blocked`",
    doc: include_str!("tool_required_and_blocked.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::OpenCodeContract]),
};

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = contract(a) else {
        return Vec::new();
    };
    let Some(tools) = at(doc, root, &["required_tools", "tools"]).and_then(|t| doc.entries(t))
    else {
        return Vec::new();
    };
    let is_true = |n| matches!(doc.kind(n), NodeKind::Bool(true));
    let mut out = Vec::new();
    for e in tools {
        let (Some(r), Some(b)) = (
            doc.get_entry(e.value, "required"),
            doc.get_entry(e.value, "blocked"),
        ) else {
            continue;
        };
        if !is_true(r.value) || !is_true(b.value) {
            continue;
        }
        let tool = doc.key_text(e.key).unwrap_or_default();
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(b.key).span,
                format!("tool {} is both required and blocked", quote(&tool)),
            )
            .with_label("blocked here")
            .with_secondary(a.file, doc.node(r.key).span, "required here")
            .with_help("a tool agents must use cannot also be one they must not: set one of the two to false"),
        );
    }
    out
}
