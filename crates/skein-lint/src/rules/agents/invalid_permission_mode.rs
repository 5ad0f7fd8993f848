//! AGENT006 `invalid-permission-mode`.

use super::{listed, subagent, suggest};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT006",
    name: "invalid-permission-mode",
    severity: Severity::Warning,
    summary: "a subagent `permissionMode` that is no Claude Code permission mode",
    doc: include_str!("invalid_permission_mode.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// Claude Code's permission modes.
const MODES: &[&str] = &[
    "default",
    "acceptEdits",
    "plan",
    "auto",
    "dontAsk",
    "bypassPermissions",
];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(agent) = subagent(cx, a) else {
        return Vec::new();
    };
    let Some(node) = agent.field("permissionMode") else {
        return Vec::new();
    };
    let Some((mode, span)) = agent.str_field("permissionMode") else {
        // A number, a list, a mapping: no mode at all.
        if matches!(agent.doc.kind(node), skein_syntax::NodeKind::Null) {
            return Vec::new();
        }
        return vec![
            Diagnostic::new(
                RULE,
                a.file,
                agent.doc.node(node).span,
                "subagent `permissionMode` is not a string",
            )
            .with_label("expected a permission mode")
            .with_note(format!("`permissionMode` is one of {}", listed(MODES))),
        ];
    };
    if MODES.contains(&mode) {
        return Vec::new();
    }
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        span,
        format!("unknown permission mode {}", quote(mode)),
    )
    .with_label("not a permission mode")
    .with_note(format!("`permissionMode` is one of {}", listed(MODES)));
    if let Some(s) = suggest(mode, MODES) {
        d = d.with_help(format!("did you mean {}?", quote(s)));
        if let Some(edit) = crate::fix::near(mode, s)
            .then(|| crate::fix::replace_string(agent.doc, node, agent.text(), s))
            .flatten()
        {
            d = d.with_fix(skein_syntax::Fix::unsafe_(
                format!("replace with `{s}`"),
                vec![edit],
            ));
        }
    }
    vec![d]
}
