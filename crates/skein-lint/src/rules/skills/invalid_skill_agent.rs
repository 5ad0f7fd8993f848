//! SKILL017 `invalid-skill-agent`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL017",
    name: "invalid-skill-agent",
    severity: Severity::Warning,
    summary: "a skill `agent` that cannot name any subagent",
    doc: include_str!("invalid_skill_agent.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// Claude Code's built-in subagents, by their names as written.
const BUILT_IN: &[&str] = &["Explore", "Plan", "general-purpose"];

/// Whether `s` can name a subagent: a built-in, a custom agent's `name`
/// (lowercase letters, digits and hyphens, as the subagents page defines
/// it), or `plugin:agent` with both parts so.
fn agent_like(s: &str) -> bool {
    let kebab = |p: &str| {
        !p.is_empty()
            && p.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    match s.split_once(':') {
        None => BUILT_IN.contains(&s) || kebab(s),
        Some((plugin, agent)) => kebab(plugin) && (kebab(agent) || BUILT_IN.contains(&agent)),
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some((agent, span)) = skill.str_field(cx, a, "agent") else {
        return Vec::new();
    };
    if agent.trim().is_empty() || agent_like(agent) {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("skill `agent` {} is not a subagent name", quote(agent)),
        )
        .with_label("no subagent can have this name")
        .with_note("`agent` is a built-in subagent (`Explore`, `Plan`, `general-purpose`), the `name` of a custom one (lowercase letters, digits and hyphens), or `plugin:agent`")
        .with_help("name an existing subagent, or remove `agent` to fork into `general-purpose`"),
    ]
}

#[cfg(test)]
mod tests {
    use super::agent_like;

    #[test]
    fn agent_names() {
        for ok in [
            "Explore",
            "general-purpose",
            "code-reviewer",
            "my-plugin:reviewer",
        ] {
            assert!(agent_like(ok), "{ok}");
        }
        for bad in [
            "Invalid Agent!!",
            "Invalid_Agent",
            "a:b:c",
            ":x",
            "two words",
            "explorer agent",
        ] {
            assert!(!agent_like(bad), "{bad}");
        }
    }
}
