//! LOOPMASTER003 `no-human-gate`.

use super::manifest;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOPMASTER003",
    name: "no-human-gate",
    severity: Severity::Warning,
    summary: "a Loopmaster manifest whose `human_gates.required_for` is empty",
    doc: include_str!("no_human_gate.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::LoopmasterManifest]),
};

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = manifest(a) else {
        return Vec::new();
    };
    let Some(list) = doc
        .get(root, "human_gates")
        .and_then(|h| doc.get(h, "required_for"))
    else {
        return Vec::new();
    };
    if doc.items(list).is_none_or(|i| !i.is_empty()) {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(list).span,
            "the loop declares no condition that stops for a human",
        )
        .with_label("`human_gates.required_for` is empty")
        .with_help("name the boundary that would make the loop unsafe, e.g. `[public publishing]`"),
    ]
}
