//! LOOM005 `unpriced-spend-without-cap`.

use super::spec;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOM005",
    name: "unpriced-spend-without-cap",
    severity: Severity::Warning,
    summary: "`policies.on_unpriced_spend` without `policies.max_usd`, where it is inert",
    doc: include_str!("unpriced_spend_without_cap.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::LoomAgentSpec]),
};

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = spec(a) else {
        return Vec::new();
    };
    let Some(p) = doc.get(root, "policies") else {
        return Vec::new();
    };
    let Some(e) = doc.get_entry(p, "on_unpriced_spend") else {
        return Vec::new();
    };
    if doc.get(p, "max_usd").is_some() {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(e.key).span,
            "`on_unpriced_spend` has no effect: `policies` sets no `max_usd`",
        )
        .with_label("inert without a spend cap")
        .with_help("set `max_usd` to the run's spend ceiling, or remove `on_unpriced_spend`"),
    ]
}
