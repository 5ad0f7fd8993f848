//! SETTINGS010 `pr-url-template-placeholder`.

use super::settings_of;
use crate::rules::refs::closest;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS010",
    name: "pr-url-template-placeholder",
    severity: Severity::Warning,
    summary: "a `prUrlTemplate` with no placeholder, or with a placeholder Claude Code does not fill",
    doc: include_str!("pr_url_template_placeholder.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// The placeholders Claude Code substitutes.
const PLACEHOLDERS: &[&str] = &["host", "owner", "repo", "number", "url"];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let Some(t) = doc.get(root, "prUrlTemplate") else {
        return Vec::new();
    };
    let Some(text) = doc.as_str(t) else {
        return Vec::new();
    };
    let span = doc.node(t).span;
    let written = quote(cx.sources.get(a.file).slice(span));
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        let Some(j) = rest[i..].find('}') else { break };
        names.push(&rest[i + 1..i + j]);
        rest = &rest[i + j + 1..];
    }
    let list = PLACEHOLDERS
        .iter()
        .map(|p| format!("`{{{p}}}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = Vec::new();
    if names.is_empty() {
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("`prUrlTemplate` {written} has no placeholder, so every PR link points at the same page"),
            )
            .with_label("no `{...}` placeholder")
            .with_help(format!("use the placeholders {list}, e.g. `https://reviews.example.com/{{owner}}/{{repo}}/pull/{{number}}`")),
        );
    }
    for n in names {
        if PLACEHOLDERS.contains(&n) {
            continue;
        }
        let mut d = Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("`prUrlTemplate` placeholder `{{{n}}}` is not one Claude Code fills"),
        )
        .with_label("left in the link as written");
        d = match closest(n, PLACEHOLDERS.iter().copied()) {
            Some((near, _)) => d.with_help(format!(
                "did you mean `{{{near}}}`? the placeholders are {list}"
            )),
            None => d.with_help(format!("the placeholders are {list}")),
        };
        out.push(d);
    }
    out
}
