//! LOOM004 `literal-braces`.

use super::{blocks, spec};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOM004",
    name: "literal-braces",
    severity: Severity::Warning,
    summary: "an instruction block with `{{` and no `template`, whose braces reach the model unchanged",
    doc: include_str!("literal_braces.md"),
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
    let mut out = Vec::new();
    for (text, templated) in blocks(doc, root) {
        let Some(s) = doc.as_str(text) else { continue };
        if templated || !s.contains("{{") {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(text).span,
                "instruction text has `{{` but no `template`, so the braces reach the model as written",
            )
            .with_label("literal text")
            .with_help("add `template: handlebars` to the block if the braces are meant to be filled from state"),
        );
    }
    out
}
