//! SKILL010 `agent-without-fork-context`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL010",
    name: "agent-without-fork-context",
    severity: Severity::Warning,
    summary: "a skill `agent` without `context: fork`, or a `context` other than `fork`",
    doc: include_str!("agent_without_fork_context.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let doc = skill.doc;
    let mut out = Vec::new();
    let context = skill.entry("context");
    let ctx_value = context.and_then(|c| doc.as_str(c.value));
    if let Some(c) = context
        && ctx_value != Some("fork")
    {
        let shown = ctx_value
            .map(quote)
            .unwrap_or_else(|| "not a string".into());
        let d = Diagnostic::new(
            RULE,
            a.file,
            doc.node(c.value).span,
            format!("skill `context` is {shown}; the only value Claude Code defines is `fork`"),
        )
        .with_label("not `fork`")
        .with_help("write `context: fork` to run the skill in a subagent, or remove `context` to run it in the conversation");
        out.push(d);
    }
    if let Some(ag) = skill.entry("agent")
        && context.is_none()
    {
        let agent = doc.as_str(ag.value).unwrap_or("");
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(ag.key).span,
                format!("skill sets `agent: {agent}` but not `context: fork`"),
            )
            .with_label("ignored without `context: fork`")
            .with_note("`agent` chooses the subagent a forked skill runs in; without `context: fork` the skill runs inline and `agent` has no effect")
            .with_help("add `context: fork`, or remove `agent`"),
        );
    }
    out
}
