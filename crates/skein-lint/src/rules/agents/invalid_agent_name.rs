//! AGENT002 `invalid-agent-name`.

use super::subagent;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT002",
    name: "invalid-agent-name",
    severity: Severity::Warning,
    summary: "a subagent `name` that is not lowercase letters, digits and hyphens",
    doc: include_str!("invalid_agent_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// Lowercase letters and digits in words joined by single hyphens.
fn valid(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// `Code Reviewer` -> `code-reviewer`; `None` when nothing valid is left.
fn normalise(name: &str) -> Option<String> {
    let lower = name.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
        .filter(|w| !w.is_empty())
        .collect();
    let n = words.join("-");
    valid(&n).then_some(n)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(agent) = subagent(cx, a) else {
        return Vec::new();
    };
    let Some((name, span)) = agent.str_field("name") else {
        return Vec::new();
    };
    // An empty name is `missing-agent-field`'s.
    if name.trim().is_empty() || valid(name) {
        return Vec::new();
    }
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        span,
        format!(
            "subagent name {} is not lowercase letters, digits and hyphens",
            quote(name)
        ),
    )
    .with_label("invalid name")
    .with_note("a subagent name is lowercase words of letters and digits joined by `-`");
    if let Some(n) = normalise(name) {
        d = d.with_help(format!("set `name: {n}`"));
    }
    vec![d]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(valid("code-reviewer"));
        assert!(valid("k8s-expert2"));
        assert!(!valid("Code Reviewer"));
        assert!(!valid("code_reviewer"));
        assert!(!valid("-x"));
        assert!(!valid("a--b"));
        assert_eq!(normalise("Code Reviewer").as_deref(), Some("code-reviewer"));
        assert_eq!(normalise("code_reviewer").as_deref(), Some("code-reviewer"));
        assert_eq!(normalise("日本"), None);
    }
}
