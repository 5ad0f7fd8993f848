//! CUR006 `ignored-markdown-rule`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CUR006",
    name: "ignored-markdown-rule",
    severity: Severity::Warning,
    summary: "a plain `.md` file in `.cursor/rules/`, which Cursor's rules system ignores",
    doc: include_str!("ignored_markdown_rule.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CursorRule]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::CursorRule {
        return Vec::new();
    }
    let path = cx.path(a.file);
    let Some(stem) = path.strip_suffix(".md") else {
        return Vec::new();
    };
    let name = path.rsplit('/').next().unwrap_or(path);
    let text = cx.sources.get(a.file).text();
    let end = text.find(['\r', '\n']).unwrap_or(text.len());
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            Span::new(0, end),
            format!("Cursor ignores {}: project rules must use the `.mdc` extension", quote(name)),
        )
        .with_label("not read as a rule")
        .with_help(format!(
            "rename it to `{}.mdc` with a frontmatter (`description`, `globs`, `alwaysApply`), or move plain instructions to an `AGENTS.md`",
            stem.rsplit('/').next().unwrap_or(stem)
        )),
    ]
}
