//! COP009 `invalid-agent-target`.

use super::copilot_file;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP009",
    name: "invalid-agent-target",
    severity: Severity::Warning,
    summary: "a Copilot custom agent `target` other than `vscode` or `github-copilot`",
    doc: include_str!("invalid_agent_target.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CopilotAgent]),
};

/// The environments a custom agent can target.
const TARGETS: &[&str] = &["github-copilot", "vscode"];

/// The target `value` was probably meant to be.
fn suggestion(value: &str) -> Option<&'static str> {
    crate::similar::suggest(value, TARGETS)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(file) = copilot_file(cx, a, Format::CopilotAgent) else {
        return Vec::new();
    };
    if a.damaged {
        return Vec::new();
    }
    let Some(e) = file.field("target") else {
        return Vec::new();
    };
    let doc = file.doc;
    let span = doc.node(e.value).span;
    let note = "`target` takes `vscode` (VS Code) or `github-copilot` (Copilot cloud agent and CLI); left unset, the agent is for both";
    let NodeKind::String(s) = doc.kind(doc.resolve(e.value)) else {
        let written = file.text.get(span.range()).unwrap_or("");
        let (span, message) = if written.is_empty() {
            (doc.node(e.key).span, "`target` has no value".to_string())
        } else {
            (
                span,
                format!("`target` is {}, not an environment name", quote(written)),
            )
        };
        return vec![
            Diagnostic::new(RULE, a.file, span, message)
                .with_label("not `vscode` or `github-copilot`")
                .with_note(note)
                .with_help("write `vscode` or `github-copilot`, or remove `target` to run the agent in both"),
        ];
    };
    if TARGETS.contains(&s.as_str()) {
        return Vec::new();
    }
    let hint = suggestion(s);
    let message = match hint {
        Some(h) => format!(
            "unknown custom agent target {}; did you mean {}?",
            quote(s),
            quote(h)
        ),
        None => format!("unknown custom agent target {}", quote(s)),
    };
    let fix = hint.filter(|h| crate::fix::near(s, h)).and_then(|h| {
        crate::fix::replace_string(doc, e.value, file.text, h)
            .map(|edit| skein_syntax::Fix::unsafe_(format!("write `{h}`"), vec![edit]))
    });
    vec![
        Diagnostic::new(RULE, a.file, span, message)
            .with_label("not `vscode` or `github-copilot`")
            .with_note(note)
            .with_help(match hint {
                Some(h) => format!("write {}", quote(h)),
                None => "write `vscode` or `github-copilot`, or remove `target` to run the agent in both".into(),
            })
            .with_fix_opt(fix),
    ]
}

#[cfg(test)]
mod tests {
    use super::suggestion;

    #[test]
    fn suggestions() {
        assert_eq!(suggestion("VSCode"), Some("vscode"));
        assert_eq!(suggestion("github_copilot"), Some("github-copilot"));
        assert_eq!(suggestion("cursor"), None);
    }
}
