//! COP004 `invalid-exclude-agent`.

use super::copilot_file;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeId, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP004",
    name: "invalid-exclude-agent",
    severity: Severity::Warning,
    summary: "an `excludeAgent` value that names no Copilot agent",
    doc: include_str!("invalid_exclude_agent.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CopilotPathInstructions]),
};

/// The agents `excludeAgent` names: `code-review` and `cloud-agent` (the
/// page today), `coding-agent` (the same agent's name before it was
/// renamed, which the page gave until then).
pub(crate) const AGENTS: &[&str] = &["cloud-agent", "code-review", "coding-agent"];

/// The agent `value` was probably meant to be.
fn suggestion(value: &str) -> Option<&'static str> {
    crate::similar::suggest(value, AGENTS)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(file) = copilot_file(cx, a, Format::CopilotPathInstructions) else {
        return Vec::new();
    };
    if a.damaged {
        return Vec::new();
    }
    let Some(e) = file.field("excludeAgent") else {
        return Vec::new();
    };
    let doc = file.doc;
    let value = doc.resolve(e.value);
    let valid = "`code-review` or `cloud-agent`";
    let values: Vec<NodeId> = match doc.kind(value) {
        NodeKind::String(_) => vec![e.value],
        NodeKind::Sequence(items) => items.clone(),
        _ => {
            let span = doc.node(e.value).span;
            let written = file.text.get(span.range()).unwrap_or("");
            let (span, message) = if written.is_empty() {
                (
                    doc.node(e.key).span,
                    "`excludeAgent` has no value".to_string(),
                )
            } else {
                (
                    span,
                    format!(
                        "`excludeAgent` is {}, not the name of an agent",
                        quote(written)
                    ),
                )
            };
            return vec![
                Diagnostic::new(RULE, a.file, span, message)
                    .with_label("not an agent name")
                    .with_note("every Copilot agent that reads path-specific instructions still reads this file")
                    .with_help(format!("write {valid}, or remove the field")),
            ];
        }
    };
    let mut out = Vec::new();
    for id in values {
        let span = doc.node(id).span;
        let NodeKind::String(s) = doc.kind(doc.resolve(id)) else {
            let written = file.text.get(span.range()).unwrap_or("");
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "`excludeAgent` value {} is not an agent name",
                        quote(written)
                    ),
                )
                .with_label("not a string")
                .with_help(format!("write {valid}")),
            );
            continue;
        };
        if AGENTS.contains(&s.as_str()) {
            continue;
        }
        let hint = suggestion(s);
        let message = match hint {
            Some(h) => format!(
                "unknown agent {} in `excludeAgent`; did you mean {}?",
                quote(s),
                quote(h)
            ),
            None => format!("unknown agent {} in `excludeAgent`", quote(s)),
        };
        let fix = hint.filter(|h| crate::fix::near(s, h)).and_then(|h| {
            crate::fix::replace_string(doc, id, file.text, h)
                .map(|edit| skein_syntax::Fix::unsafe_(format!("write `{h}`"), vec![edit]))
        });
        out.push(
            Diagnostic::new(RULE, a.file, span, message)
                .with_label("no Copilot agent of this name")
                .with_note("the value excludes no agent: Copilot code review and Copilot cloud agent both still read this file")
                .with_help(match hint {
                    Some(h) => format!("write {}", quote(h)),
                    None => format!("the agents are {valid}"),
                })
                .with_fix_opt(fix),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::suggestion;

    #[test]
    fn suggestions() {
        assert_eq!(suggestion("code_review"), Some("code-review"));
        assert_eq!(suggestion("codeReview"), Some("code-review"));
        assert_eq!(suggestion("cloud_agent"), Some("cloud-agent"));
        assert_eq!(suggestion("copilot"), None);
    }
}
