//! AGENT008 `unknown-agent-field`.

use super::{FIELDS, bad_value, listed, subagent, suggest};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT008",
    name: "unknown-agent-field",
    severity: Severity::Info,
    summary: "a subagent frontmatter key Claude Code does not document (and ignores)",
    doc: include_str!("unknown_agent_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// Keys written as another tool spells them, and the subagent field meant.
const ALIASES: &[(&str, &str)] = &[
    ("allowed-tools", "tools"),
    ("allowedTools", "tools"),
    ("allowed_tools", "tools"),
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
        if FIELDS.contains(&key) {
            continue;
        }
        let meant = ALIASES
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, f)| *f)
            .or_else(|| suggest(key, FIELDS));
        let mut d = Diagnostic::new(
            RULE,
            a.file,
            agent.doc.node(entry.key).span,
            format!("unknown subagent field {}", quote(key)),
        )
        .with_label("not a subagent frontmatter field")
        .with_note(format!(
            "Claude Code ignores it; the fields are {}",
            listed(FIELDS)
        ));
        if let Some(f) = meant {
            // Likely a misspelt field whose setting is lost: a warning.
            d.severity = Severity::Warning;
            d = d.with_help(format!("did you mean `{f}`?"));
            if let Some(bad) = bad_value(&agent, f, entry.value) {
                d = d.with_note(format!(
                    "as `{f}`, the value would be wrong too: {}",
                    bad.message
                ));
            }
        }
        out.push(d);
    }
    out
}
