//! COP008 `agent-missing-description`.

use super::{copilot_file, head_span};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP008",
    name: "agent-missing-description",
    severity: Severity::Warning,
    summary: "a Copilot custom agent without the `description` GitHub requires",
    doc: include_str!("agent_missing_description.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CopilotAgent]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(file) = copilot_file(cx, a, Format::CopilotAgent) else {
        return Vec::new();
    };
    if a.damaged {
        return Vec::new();
    }
    let doc = file.doc;
    let note = "GitHub's custom agent configuration lists `description` as required: the description of the agent's purpose and capabilities";
    let help = "add `description:` with one sentence on what the agent does and when to use it";
    let Some(e) = file.field("description") else {
        let message = if file.mapping.is_some() {
            "custom agent has no `description`"
        } else if file.doc.root().is_some() {
            "custom agent's frontmatter is not a mapping of fields, so it has no `description`"
        } else {
            "custom agent has no frontmatter, so no `description`"
        };
        return vec![
            Diagnostic::new(RULE, a.file, head_span(&file), message)
                .with_label("no `description` in this file")
                .with_note(note)
                .with_help(help),
        ];
    };
    let empty = match doc.kind(doc.resolve(e.value)) {
        NodeKind::Null => true,
        NodeKind::String(s) => s.trim().is_empty(),
        _ => false,
    };
    if !empty {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(e.key).span,
            "custom agent `description` is empty",
        )
        .with_label("no text")
        .with_note(note)
        .with_help(help),
    ]
}
