//! AGENT007 `invalid-agent-field-value`.

use super::{bad_value, inner_span, subagent};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT007",
    name: "invalid-agent-field-value",
    severity: Severity::Warning,
    summary: "a subagent `memory`, `effort`, `isolation`, `color`, `maxTurns` or `background` with a value the docs do not allow",
    doc: include_str!("invalid_agent_field_value.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// The fields checked, in the order they are reported within a file.
const CHECKED: &[&str] = &[
    "memory",
    "effort",
    "isolation",
    "color",
    "maxTurns",
    "background",
];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(agent) = subagent(cx, a) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in agent.entries() {
        let Some(key) = agent.doc.as_str(entry.key) else {
            continue;
        };
        if !CHECKED.contains(&key) {
            continue;
        }
        let Some(bad) = bad_value(&agent, key, entry.value) else {
            continue;
        };
        let node = agent.doc.node(entry.value).span;
        let span = match agent.doc.as_str(entry.value) {
            Some(s) => inner_span(agent.text(), node, s),
            None => node,
        };
        let mut d = Diagnostic::new(RULE, a.file, span, bad.message)
            .with_label(bad.label)
            .with_note(bad.note);
        if let Some(h) = bad.help {
            d = d.with_help(h);
        }
        out.push(d);
    }
    out
}
