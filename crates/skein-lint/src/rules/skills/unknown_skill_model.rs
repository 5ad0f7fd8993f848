//! SKILL012 `unknown-skill-model`.

use super::Skill;
use crate::rules::agents::unknown_agent_model::{ALIASES, SUFFIXED, model_id};
use crate::rules::agents::{listed, suggest};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL012",
    name: "unknown-skill-model",
    severity: Severity::Warning,
    summary: "a skill `model` that is neither a Claude Code model alias nor a Claude model id",
    doc: include_str!("unknown_skill_model.md"),
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
    let Some((model, span)) = skill.str_field(cx, a, "model") else {
        return Vec::new();
    };
    let m = model.trim();
    if m.is_empty()
        || ALIASES.contains(&m.to_ascii_lowercase().as_str())
        || SUFFIXED.contains(&m)
        || model_id(m)
    {
        return Vec::new();
    }
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        span,
        format!("unknown skill model {}", quote(model)),
    )
    .with_label("not a model alias or a Claude model id")
    .with_note(format!(
        "`model` is one of {}, or a full model id such as `claude-sonnet-4-5`",
        listed(ALIASES)
    ));
    let all: Vec<&str> = ALIASES.iter().chain(SUFFIXED).copied().collect();
    if let Some(s) = suggest(m, &all) {
        d = d.with_help(format!("did you mean {}?", quote(s)));
        if let Some(edit) = skill
            .entry("model")
            .filter(|_| crate::fix::near(m, s))
            .and_then(|e| {
                crate::fix::replace_string(skill.doc, e.value, cx.sources.get(a.file).text(), s)
            })
        {
            d = d.with_fix(skein_syntax::Fix::unsafe_(
                format!("replace with `{s}`"),
                vec![edit],
            ));
        }
    } else if m.to_lowercase().contains("claude") {
        d = d.with_help("model ids are lowercase and start with `claude-`");
    } else {
        d = d.with_help("skills run on Claude models only: use an alias such as `sonnet`, or remove `model` to keep the session's model");
    }
    vec![d]
}
