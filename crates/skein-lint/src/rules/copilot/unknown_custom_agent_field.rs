//! COP010 `unknown-custom-agent-field`.

use super::{AGENT_FIELDS, copilot_file, unknown_fields};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP010",
    name: "unknown-custom-agent-field",
    severity: Severity::Info,
    summary: "a frontmatter field of a Copilot custom agent that neither GitHub Copilot nor VS Code reads",
    doc: include_str!("unknown_custom_agent_field.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
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
    unknown_fields(a, &file, RULE, AGENT_FIELDS, "custom agent")
}
