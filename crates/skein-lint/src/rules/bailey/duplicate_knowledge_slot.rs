//! BAILEY003 `duplicate-knowledge-slot`.

use super::assistant;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};
use std::collections::HashMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "BAILEY003",
    name: "duplicate-knowledge-slot",
    severity: Severity::Error,
    summary: "two knowledge slots of one Bailey assistant with the same name",
    doc: include_str!("duplicate_knowledge_slot.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::BaileyAssistant]),
};

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((_, doc, root)) = assistant(a) else {
        return Vec::new();
    };
    let Some(slots) = doc.get(root, "knowledge").and_then(|k| doc.items(k)) else {
        return Vec::new();
    };
    let mut seen: HashMap<&str, Span> = HashMap::new();
    let mut out = Vec::new();
    for &slot in slots {
        let Some(v) = doc.get(slot, "name") else {
            continue;
        };
        let Some(name) = doc.as_str(v) else { continue };
        let span = doc.node(v).span;
        if let Some(&first) = seen.get(name) {
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("knowledge slot {} is declared twice", quote(name)),
                )
                .with_label("declared again here")
                .with_secondary(a.file, first, "first declared here")
                .with_help("give each slot its own name, or merge the two slots"),
            );
        } else {
            seen.insert(name, span);
        }
    }
    out
}
