//! SKILL022 `unrestricted-skill-bash`.

use super::{Skill, tool_pieces};
use crate::rules::sec::sub_span;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL022",
    name: "unrestricted-skill-bash",
    severity: Severity::Info,
    summary: "a skill's `allowed-tools` that pre-approves every shell command (`Bash`)",
    doc: include_str!("unrestricted_skill_bash.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// Entries that grant every command.
fn unrestricted(t: &str) -> bool {
    matches!(t, "Bash" | "Bash(*)" | "Bash(:*)" | "Bash( * )")
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some(e) = skill.entry("allowed-tools") else {
        return Vec::new();
    };
    let doc = skill.doc;
    let text = cx.sources.get(a.file).text();
    let mut hits: Vec<(&str, Span)> = Vec::new();
    if let Some(s) = doc.as_str(e.value) {
        for r in tool_pieces(s) {
            if unrestricted(&s[r.clone()]) {
                hits.push((&s[r.clone()], sub_span(doc, e.value, text, r)));
            }
        }
    } else if let Some(items) = doc.items(e.value) {
        for &item in items {
            if let Some(s) = doc.as_str(item)
                && unrestricted(s.trim())
            {
                let start = s.len() - s.trim_start().len();
                hits.push((
                    s.trim(),
                    sub_span(doc, item, text, start..start + s.trim().len()),
                ));
            }
        }
    }
    hits.into_iter()
        .map(|(t, span)| {
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("{} in `allowed-tools` lets the skill run any shell command without asking", quote(t)),
            )
            .with_label("every command pre-approved")
            .with_note("`allowed-tools` grants permission, it does not restrict: while the skill is active, Claude runs any `Bash` command it chooses with no prompt")
            .with_help("name the commands the skill needs, such as `Bash(git status *)` or `Bash(npm run test *)`")
        })
        .collect()
}
