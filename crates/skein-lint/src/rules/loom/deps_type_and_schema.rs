//! LOOM001 `deps-type-and-schema`.

use super::spec;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOM001",
    name: "deps-type-and-schema",
    severity: Severity::Error,
    summary: "a Loom agent spec that declares its state with both `deps_type` and `deps_schema`",
    doc: include_str!("deps_type_and_schema.md"),
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
    let (Some(t), Some(s)) = (
        doc.get_entry(root, "deps_type"),
        doc.get_entry(root, "deps_schema"),
    ) else {
        return Vec::new();
    };
    let (first, second) = if doc.node(t.key).span.start < doc.node(s.key).span.start {
        (t, s)
    } else {
        (s, t)
    };
    let name = |e: skein_syntax::Entry| doc.key_text(e.key).unwrap_or_default();
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(second.key).span,
            "the state is declared twice: `deps_type` and `deps_schema` exclude each other",
        )
        .with_label(format!("`{}` given as well", name(second)))
        .with_secondary(
            a.file,
            doc.node(first.key).span,
            format!("`{}` given here", name(first)),
        )
        .with_help("keep `deps_schema` (the canonical form) or `deps_type` (its sugar), not both"),
    ]
}
