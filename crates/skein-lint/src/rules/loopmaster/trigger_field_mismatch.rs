//! LOOPMASTER004 `trigger-field-mismatch`.

use super::{manifest, str_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOPMASTER004",
    name: "trigger-field-mismatch",
    severity: Severity::Warning,
    summary: "a `trigger.schedule` on an event trigger, or a `trigger.event` on a schedule trigger",
    doc: include_str!("trigger_field_mismatch.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::LoopmasterManifest]),
};

/// Trigger types an event starts (§3: "Event name when the trigger is event-like").
const EVENT_LIKE: &[&str] = &["webhook", "ci_event", "issue_event"];

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = manifest(a) else {
        return Vec::new();
    };
    let Some(trigger) = doc.get(root, "trigger") else {
        return Vec::new();
    };
    let Some((tv, ty)) = str_of(doc, trigger, "type") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut report = |key: &str, what: &str| {
        if let Some(entry) = doc.get_entry(trigger, key) {
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(entry.key).span,
                    format!(
                        "`trigger.{key}` is given for a trigger of type {}, which is not {what}",
                        quote(ty)
                    ),
                )
                .with_label("ignored for this trigger type")
                .with_secondary(a.file, doc.node(tv).span, "the trigger type")
                .with_help(format!(
                    "remove `{key}`, or change `type` to one that is {what}"
                )),
            );
        }
    };
    if EVENT_LIKE.contains(&ty) {
        report("schedule", "schedule-like");
    }
    if ty == "schedule" {
        report("event", "event-like");
    }
    out
}
