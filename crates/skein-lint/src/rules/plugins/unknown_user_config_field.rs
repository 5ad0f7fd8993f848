//! PLUGIN010 `unknown-user-config-field`.

use super::invalid_user_config::user_configs;
use super::{manifests, root_mapping};
use crate::rules::refs::closest;
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN010",
    name: "unknown-user-config-field",
    severity: Severity::Warning,
    summary: "a field of a plugin `userConfig` option that the plugins reference does not list",
    doc: include_str!("unknown_user_config_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// The fields of an option, as the reference lists them.
const FIELDS: &[&str] = &[
    "type",
    "title",
    "description",
    "sensitive",
    "required",
    "default",
    "multiple",
    "min",
    "max",
];

/// A field meant for another, beyond an edit or two.
fn meant(field: &str) -> Option<&'static str> {
    match field {
        "secret" | "secure" | "password" | "masked" => Some("sensitive"),
        "label" | "name" => Some("title"),
        "help" | "desc" => Some("description"),
        "optional" => Some("required"),
        _ => closest(field, FIELDS.iter().copied()).map(|(c, _)| c),
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(root) = root_mapping(doc) else {
            continue;
        };
        for (at, u) in user_configs(doc, root) {
            for opt in doc.entries(u).unwrap_or_default() {
                let name = doc.key_text(opt.key).unwrap_or_default();
                for f in doc.entries(opt.value).unwrap_or_default() {
                    let Some(field) = doc.key_text(f.key) else {
                        continue;
                    };
                    if FIELDS.contains(&field.as_str()) {
                        continue;
                    }
                    let mut d = Diagnostic::new(
                        RULE,
                        a.file,
                        doc.node(f.key).span,
                        format!("unknown field {} in `{at}.{name}`", quote(&field)),
                    )
                    .with_label("not a user-configuration field");
                    d = match meant(&field) {
                        Some(m) => d.with_help(format!("did you mean {}?", quote(m))),
                        None => d.with_note(
                            "the fields are type, title, description, sensitive, required, default, multiple, min and max",
                        ),
                    };
                    out.push(d);
                }
            }
        }
    }
    out
}
