//! OPENCODE001 `retry-attempt-over-cap`.

use super::{at, contract, int};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "OPENCODE001",
    name: "retry-attempt-over-cap",
    severity: Severity::Error,
    summary: "an OpenCode contract whose `retry.attempt` is above `retry.max_attempts`",
    doc: include_str!("retry_attempt_over_cap.md"),
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
    let (Some(n), Some(cap)) = (
        at(doc, root, &["retry", "attempt"]),
        at(doc, root, &["retry", "max_attempts"]),
    ) else {
        return Vec::new();
    };
    let (Some(attempt), Some(max)) = (int(doc, n), int(doc, cap)) else {
        return Vec::new();
    };
    // A cap below 1 is the schema's finding.
    if attempt <= max || max < 1 {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(n).span,
            format!("retry attempt {attempt} is above the contract's cap of {max} attempts"),
        )
        .with_label(format!("at most {max}"))
        .with_secondary(a.file, doc.node(cap).span, "the cap")
        .with_help("the contract should have gone to BLOCKED at the cap; correct `attempt` or raise `max_attempts`"),
    ]
}
