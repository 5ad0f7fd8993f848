//! BAILEY004 `skill-path-not-name`.

use super::assistant;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "BAILEY004",
    name: "skill-path-not-name",
    severity: Severity::Error,
    summary: "a Bailey `skills` entry whose `path` is not `skills/<name>/SKILL.md` for its `name`",
    doc: include_str!("skill_path_not_name.md"),
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
    let mut out = Vec::new();
    for s in &b.skills {
        let Some(p) = &s.path else { continue };
        let Some(folder) = p
            .value
            .strip_prefix("skills/")
            .and_then(|r| r.strip_suffix("/SKILL.md"))
        else {
            continue; // not a skill path at all: the schema's finding
        };
        if folder == s.name.value {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                p.span,
                format!(
                    "skill {} has the path of skill {}",
                    quote(&s.name.value),
                    quote(folder)
                ),
            )
            .with_label(format!("expected `skills/{}/SKILL.md`", s.name.value))
            .with_secondary(a.file, s.name.span, "the entry's name")
            .with_help(format!(
                "write `\"path\": \"skills/{}/SKILL.md\"`, or `\"name\": \"{folder}\"`",
                s.name.value
            )),
        );
    }
    out
}
