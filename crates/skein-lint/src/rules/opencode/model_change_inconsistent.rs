//! OPENCODE007 `model-change-inconsistent`.

use super::{at, contract, int};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "OPENCODE007",
    name: "model-change-inconsistent",
    severity: Severity::Error,
    summary: "an OpenCode session that records a model change while its change count is 0",
    doc: include_str!("model_change_inconsistent.md"),
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
    let Some(session) = doc.get(root, "session") else {
        return Vec::new();
    };
    // `model_change_count` defaults to 0.
    let count_node = at(doc, session, &["model_change_count"]);
    let count = match count_node {
        Some(n) => match int(doc, n) {
            Some(c) => c,
            None => return Vec::new(),
        },
        None => 0,
    };
    if count != 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for field in ["previous_model", "model_changed_at"] {
        let Some(v) = doc.get(session, field) else {
            continue;
        };
        let Some(s) = doc.as_str(v) else { continue };
        if s.is_empty() {
            continue;
        }
        let mut d = Diagnostic::new(
            RULE,
            a.file,
            doc.node(v).span,
            format!(
                "`session.{field}` is {}, but the session records no model change",
                quote(s)
            ),
        )
        .with_label("empty if no change has occurred");
        d = match count_node {
            Some(n) => d.with_secondary(a.file, doc.node(n).span, "no change counted"),
            None => d.with_note("`model_change_count` is absent, so 0"),
        };
        out.push(d.with_help(format!(
            "count the change in `model_change_count`, or leave `{field}` empty"
        )));
    }
    out
}
