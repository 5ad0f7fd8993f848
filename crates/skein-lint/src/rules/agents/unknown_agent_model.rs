//! AGENT003 `unknown-agent-model`.

use super::{listed, subagent, suggest};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT003",
    name: "unknown-agent-model",
    severity: Severity::Warning,
    summary: "a subagent `model` that is no model alias and no Claude model id",
    doc: include_str!("unknown_agent_model.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// The values a subagent's `model` takes besides a full model id.
pub(crate) const ALIASES: &[&str] = &["inherit", "sonnet", "opus", "haiku", "fable"];

/// The further aliases of Claude Code's model configuration, with a context suffix.
pub(crate) const SUFFIXED: &[&str] = &["sonnet[1m]", "opus[1m]", "fable[1m]", "opusplan"];

/// A full model id: `claude-…` (a Vertex `@version` allowed), a Bedrock
/// `anthropic.claude-…` with an optional region prefix, or a Bedrock ARN.
pub(crate) fn model_id(m: &str) -> bool {
    if m.starts_with("arn:aws") && !m.contains(char::is_whitespace) {
        return true;
    }
    let core = m.strip_suffix("[1m]").unwrap_or(m);
    let Some(i) = core.find("claude-") else {
        return false;
    };
    let (prefix, id) = core.split_at(i);
    (prefix.is_empty() || prefix.ends_with("anthropic."))
        && prefix
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
        && id.len() > "claude-".len()
        && id.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'@' | b':')
        })
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(agent) = subagent(cx, a) else {
        return Vec::new();
    };
    let Some((model, span)) = agent.str_field("model") else {
        return Vec::new();
    };
    if ALIASES.contains(&model) || SUFFIXED.contains(&model) || model_id(model) {
        return Vec::new();
    }
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        span,
        format!("unknown subagent model {}", quote(model)),
    )
    .with_label("not a model alias or a Claude model id")
    .with_note(format!(
        "`model` is one of {}, or a full model id such as `claude-sonnet-4-5`",
        listed(ALIASES)
    ));
    let all: Vec<&str> = ALIASES.iter().chain(SUFFIXED).copied().collect();
    if let Some(s) = suggest(model, &all) {
        d = d.with_help(format!("did you mean {}?", quote(s)));
        if let Some(edit) = agent
            .field("model")
            .filter(|_| crate::fix::near(model, s))
            .and_then(|n| crate::fix::replace_string(agent.doc, n, agent.text(), s))
        {
            d = d.with_fix(skein_syntax::Fix::unsafe_(
                format!("replace with `{s}`"),
                vec![edit],
            ));
        }
    } else if model.to_lowercase().contains("claude") {
        d = d.with_help("model ids are lowercase and start with `claude-`");
    }
    vec![d]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids() {
        assert!(model_id("claude-opus-4-1-20250805"));
        assert!(model_id("claude-sonnet-4-5[1m]"));
        assert!(model_id("claude-opus-4@20250514"));
        assert!(model_id("us.anthropic.claude-sonnet-4-5-20250929-v1:0"));
        assert!(model_id(
            "arn:aws:bedrock:us-east-1:123:inference-profile/x"
        ));
        assert!(!model_id("claude-"));
        assert!(!model_id("Claude-Sonnet"));
        assert!(!model_id("gpt-4o"));
        assert!(!model_id("openai/claude-x"));
    }
}
