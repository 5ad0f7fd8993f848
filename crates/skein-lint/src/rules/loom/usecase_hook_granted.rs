//! LOOM002 `usecase-hook-granted`.

use super::spec;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOM002",
    name: "usecase-hook-granted",
    severity: Severity::Error,
    summary: "an `on_output` or `conversation` use-case key also granted as a `usecase` capability",
    doc: include_str!("usecase_hook_granted.md"),
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
    // Every granted use-case key, with its node.
    let mut granted = Vec::new();
    for &c in doc
        .get(root, "capabilities")
        .and_then(|c| doc.items(c))
        .unwrap_or_default()
    {
        if doc.get(c, "kind").and_then(|k| doc.as_str(k)) != Some("usecase") {
            continue;
        }
        for &k in doc
            .get(c, "keys")
            .and_then(|k| doc.items(k))
            .unwrap_or_default()
        {
            if let Some(s) = doc.as_str(k) {
                granted.push((s, doc.node(k).span));
            }
        }
    }
    let mut out = Vec::new();
    for hook in ["on_output", "conversation"] {
        let Some(v) = doc.get(root, hook).and_then(|h| doc.get(h, "usecase")) else {
            continue;
        };
        let Some(key) = doc.as_str(v) else { continue };
        let Some(&(_, at)) = granted.iter().find(|(g, _)| *g == key) else {
            continue;
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                at,
                format!(
                    "use case {} is the `{hook}` hook and is also granted to the model",
                    quote(key)
                ),
            )
            .with_label("granted as a tool here")
            .with_secondary(a.file, doc.node(v).span, format!("the `{hook}` use case"))
            .with_help(format!(
                "remove {} from the `usecase` capability: the `{hook}` hook is not a tool",
                quote(key)
            )),
        );
    }
    out
}
