//! BAILEY005 `sold-separately-but-carried`.

use super::{assistant, strings};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "BAILEY005",
    name: "sold-separately-but-carried",
    severity: Severity::Error,
    summary: "a skill in `skills_sold_separately` that the plugin carries",
    doc: include_str!("sold_separately_but_carried.md"),
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
    let Some((b, doc, root)) = assistant(a) else {
        return Vec::new();
    };
    let instr = b.instructions.as_ref().and_then(|i| {
        let f = i.value.strip_prefix("skills/")?.strip_suffix("/SKILL.md")?;
        Some((f, i.span, "the instructions"))
    });
    let carried: Vec<(&str, skein_syntax::Span, &str)> = b
        .skills
        .iter()
        .map(|s| (s.name.value.as_str(), s.name.span, "carried in `skills`"))
        .chain(instr)
        .collect();
    let mut out = Vec::new();
    for (name, span) in strings(doc, root, "skills_sold_separately") {
        let Some(&(_, at, what)) = carried.iter().find(|(n, _, _)| *n == name) else {
            continue;
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "skill {} is sold separately, but the plugin carries it",
                    quote(name)
                ),
            )
            .with_label("said to be obtained separately")
            .with_secondary(a.file, at, what)
            .with_help(format!(
                "remove {} from one of the two: `skills_sold_separately` lists skills the plugin does not carry",
                quote(name)
            )),
        );
    }
    out
}
