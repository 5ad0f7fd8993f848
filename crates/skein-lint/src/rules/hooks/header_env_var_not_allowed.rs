//! HOOK013 `header-env-var-not-allowed`.

use super::{chars_of, env_refs, handler_type, hooks_of, span_of};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK013",
    name: "header-env-var-not-allowed",
    severity: Severity::Warning,
    summary: "an HTTP hook header that uses an environment variable not listed in `allowedEnvVars`",
    doc: include_str!("header_env_var_not_allowed.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        if handler_type(doc, handler) != Some("http") {
            continue;
        }
        let Some(headers) = doc.get(handler, "headers").and_then(|x| doc.entries(x)) else {
            continue;
        };
        let allowed = doc.get(handler, "allowedEnvVars");
        // A list that is not one of strings is another matter: say nothing.
        let names: Vec<&str> = match allowed {
            None => Vec::new(),
            Some(l) => {
                let Some(items) = doc.items(l) else { continue };
                let names: Vec<_> = items.iter().filter_map(|&i| doc.as_str(i)).collect();
                if names.len() != items.len() {
                    continue;
                }
                names
            }
        };
        for e in headers {
            let (Some(header), Some(chars)) = (doc.as_str(e.key), chars_of(cx, a, e.value)) else {
                continue;
            };
            let cs: Vec<char> = chars.iter().map(|c| c.0).collect();
            for (name, from, to) in env_refs(&cs) {
                if names.contains(&name.as_str()) {
                    continue;
                }
                let Some(span) = span_of(&chars, from, to) else {
                    continue;
                };
                let written: String = cs[from..to].iter().collect();
                let mut d = Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "header {} uses {}, which is not in `allowedEnvVars`; Claude Code sends an empty string in its place",
                        quote(header),
                        quote(&written)
                    ),
                )
                .with_label("replaced with an empty string")
                .with_help(format!("add `\"{name}\"` to the hook's `allowedEnvVars`"));
                if let Some(l) = allowed {
                    d = d.with_secondary(
                        a.file,
                        doc.node(l).span,
                        "the variables this hook may use",
                    );
                }
                out.push(d);
            }
        }
    }
    out
}
