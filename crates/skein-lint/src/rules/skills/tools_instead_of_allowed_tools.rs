//! SKILL007 `tools-instead-of-allowed-tools`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL007",
    name: "tools-instead-of-allowed-tools",
    severity: Severity::Warning,
    summary: "a skill that lists its tools under `tools:` instead of `allowed-tools:`",
    doc: include_str!("tools_instead_of_allowed_tools.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some(e) = skill.entry("tools") else {
        return Vec::new();
    };
    let doc = skill.doc;
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        doc.node(e.key).span,
        "skills take their tools in `allowed-tools`, not `tools`",
    )
    .with_label("`tools` is the field of subagents, not of skills")
    .with_note("clients ignore `tools` in a SKILL.md, so these tools are not pre-approved");
    d = match skill.entry("allowed-tools") {
        Some(at) => d
            .with_secondary(a.file, doc.node(at.key).span, "the skill's `allowed-tools`")
            .with_help("merge these tools into `allowed-tools` and remove `tools`"),
        None => d
            .with_help("rename `tools:` to `allowed-tools:`")
            .with_fix_opt(
                crate::fix::replace_string(
                    doc,
                    e.key,
                    cx.sources.get(a.file).text(),
                    "allowed-tools",
                )
                .map(|edit| {
                    skein_syntax::Fix::unsafe_("rename `tools` to `allowed-tools`", vec![edit])
                }),
            ),
    };
    vec![d]
}
