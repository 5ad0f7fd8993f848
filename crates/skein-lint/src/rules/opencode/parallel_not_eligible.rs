//! OPENCODE005 `parallel-not-eligible`.

use super::{contract, int};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "OPENCODE005",
    name: "parallel-not-eligible",
    severity: Severity::Warning,
    summary: "`scope.max_parallel_agents` above 1 in a scope that is not `parallel_eligible`",
    doc: include_str!("parallel_not_eligible.md"),
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
    let Some(scope) = doc.get(root, "scope") else {
        return Vec::new();
    };
    let (Some(max), Some(eligible)) = (
        doc.get_entry(scope, "max_parallel_agents"),
        doc.get(scope, "parallel_eligible"),
    ) else {
        return Vec::new();
    };
    let Some(n) = int(doc, max.value) else {
        return Vec::new();
    };
    if n <= 1 || !matches!(doc.kind(eligible), NodeKind::Bool(false)) {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(max.value).span,
            format!("up to {n} parallel agents in a scope that is not eligible for parallel work"),
        )
        .with_label("unused: the scope is not parallel-eligible")
        .with_secondary(
            a.file,
            doc.node(eligible).span,
            "`parallel_eligible` is false",
        )
        .with_help("set `parallel_eligible: true`, or `max_parallel_agents: 1`"),
    ]
}
