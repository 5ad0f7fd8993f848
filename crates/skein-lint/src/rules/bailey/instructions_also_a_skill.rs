//! BAILEY001 `instructions-also-a-skill`.

use super::assistant;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "BAILEY001",
    name: "instructions-also-a-skill",
    severity: Severity::Error,
    summary: "a Bailey assistant whose instructions skill is also listed in `skills`",
    doc: include_str!("instructions_also_a_skill.md"),
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
    let Some((b, _, _)) = assistant(a) else {
        return Vec::new();
    };
    let Some(instr) = &b.instructions else {
        return Vec::new();
    };
    // The instructions' skill by its folder: `skills/<name>/SKILL.md`.
    let folder = instr
        .value
        .strip_prefix("skills/")
        .and_then(|r| r.strip_suffix("/SKILL.md"));
    let mut out = Vec::new();
    for s in &b.skills {
        let same_path = s.path.as_ref().is_some_and(|p| p.value == instr.value);
        let same_name = folder == Some(s.name.value.as_str());
        if !same_path && !same_name {
            continue;
        }
        let span = match (&s.path, same_path) {
            (Some(p), true) => p.span,
            _ => s.name.span,
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "skill {} is the assistant's instructions and is listed in `skills` too",
                    quote(&s.name.value)
                ),
            )
            .with_label("listed again here")
            .with_secondary(a.file, instr.span, "the instructions")
            .with_help("remove this entry from `skills`: the instructions are in context from the first message"),
        );
    }
    out
}
