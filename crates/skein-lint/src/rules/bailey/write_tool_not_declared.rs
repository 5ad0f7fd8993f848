//! BAILEY002 `write-tool-not-declared`.

use super::{assistant, strings};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "BAILEY002",
    name: "write-tool-not-declared",
    severity: Severity::Error,
    summary: "a Bailey `write_tools` entry that is not also in the server's `tools`",
    doc: include_str!("write_tool_not_declared.md"),
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
    let Some(servers) = doc.get(root, "tools").and_then(|t| doc.entries(t)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in servers {
        let server = doc.key_text(e.key).unwrap_or_default();
        if doc.entries(e.value).is_none() {
            continue;
        }
        let tools = strings(doc, e.value, "tools");
        for (w, span) in strings(doc, e.value, "write_tools") {
            if tools.iter().any(|(t, _)| *t == w) {
                continue;
            }
            let mut d = Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "write tool {} of server {} is not in its `tools`",
                    quote(w),
                    quote(&server)
                ),
            )
            .with_label("not declared in `tools`");
            d = match doc.get_entry(e.value, "tools") {
                Some(t) => d.with_secondary(a.file, doc.node(t.key).span, "the declared tools"),
                None => d.with_note(format!("server {} declares no `tools`", quote(&server))),
            };
            out.push(d.with_help(format!("add {} to `tools` as well", quote(w))));
        }
    }
    out
}
