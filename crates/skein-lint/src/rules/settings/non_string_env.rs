//! SETTINGS005 `non-string-env`.

use super::settings_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS005",
    name: "non-string-env",
    severity: Severity::Error,
    summary: "an `env` setting whose value is not a string",
    doc: include_str!("non_string_env.md"),
    fix: Some(skein_syntax::Applicability::Safe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let Some(env) = doc.get(root, "env") else {
        return Vec::new();
    };
    let src = cx.sources.get(a.file);
    let Some(entries) = doc.entries(env) else {
        let span = doc.node(env).span;
        return vec![
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("`env` is {}, not an object", quote(src.slice(span))),
            )
            .with_label("not an object of variable names to strings")
            .with_help("write `\"env\": {\"NAME\": \"value\"}`"),
        ];
    };
    let mut out = Vec::new();
    for e in entries {
        let what = match doc.kind(e.value) {
            NodeKind::String(_) => continue,
            NodeKind::Number(_) => "a number",
            NodeKind::Bool(_) => "a boolean",
            NodeKind::Null => "null",
            NodeKind::Sequence(_) => "an array",
            NodeKind::Mapping(_) => "an object",
            NodeKind::Alias(_) => continue,
        };
        let name = doc.key_text(e.key).unwrap_or_default();
        let span = doc.node(e.value).span;
        let written = src.slice(span);
        let mut d = Diagnostic::new(
            RULE,
            a.file,
            span,
            format!(
                "environment variable {} is {what} ({}), not a string",
                quote(&name),
                quote(written)
            ),
        )
        .with_label("not a string");
        if matches!(doc.kind(e.value), NodeKind::Number(_) | NodeKind::Bool(_)) {
            d = d.with_help(format!("quote it: `\"{name}\": \"{written}\"`"));
            if doc.resolve(e.value) == e.value
                && !written.contains('\n')
                && let Ok(literal) = serde_json::to_string(written)
            {
                d = d.with_fix(skein_syntax::Fix::safe(
                    "quote the value",
                    vec![skein_syntax::Edit::replace(span, literal)],
                ));
            }
        }
        out.push(d);
    }
    out
}
