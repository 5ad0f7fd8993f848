//! MCP008 `undefined-input`.

use super::{Client, PlaceholderKind, mcp_file, placeholders, string_values};
use crate::rules::refs::closest;
use crate::rules::sec::sub_span;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP008",
    name: "undefined-input",
    severity: Severity::Error,
    summary: "an `${input:id}` in VS Code's `mcp.json` names no entry of `inputs`",
    doc: include_str!("undefined_input.md"),
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
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    if f.client != Client::VsCode {
        return Vec::new();
    }
    let doc = f.doc;
    let ids: Vec<&str> = doc
        .get(f.root, "inputs")
        .and_then(|i| doc.items(i))
        .unwrap_or_default()
        .iter()
        .filter_map(|&i| doc.get(i, "id").and_then(|id| doc.as_str(id)))
        .collect();
    let text = cx.sources.get(a.file).text();
    let mut out = Vec::new();
    for s in &f.servers {
        for n in string_values(doc, s.node) {
            let Some(v) = doc.as_str(n) else {
                continue;
            };
            for p in placeholders(v) {
                let PlaceholderKind::Input(id) = &p.kind else {
                    continue;
                };
                if ids.contains(&id.as_str()) {
                    continue;
                }
                let span = sub_span(doc, n, text, p.range.clone());
                let mut d = Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    match closest(id, ids.iter().copied()) {
                        Some((c, _)) => format!(
                            "{} in MCP server {} names no input; did you mean {}?",
                            quote(&p.text),
                            quote(&s.name),
                            quote(&format!("${{input:{c}}}"))
                        ),
                        None => format!(
                            "{} in MCP server {} names no input",
                            quote(&p.text),
                            quote(&s.name)
                        ),
                    },
                )
                .with_label("no entry of `inputs` has this `id`");
                d = if ids.is_empty() {
                    d.with_help(format!(
                        "add `\"inputs\": [{{\"type\": \"promptString\", \"id\": \"{id}\", \"description\": \"...\", \"password\": true}}]`"
                    ))
                } else {
                    d.with_help(format!(
                        "add an input with `\"id\": \"{id}\"` or use one of {}",
                        ids.iter().map(|i| quote(i)).collect::<Vec<_>>().join(", ")
                    ))
                };
                out.push(d);
            }
        }
    }
    out
}
