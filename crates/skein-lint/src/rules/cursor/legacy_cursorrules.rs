//! CUR007 `legacy-cursorrules`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CUR007",
    name: "legacy-cursorrules",
    severity: Severity::Warning,
    summary: "a legacy `.cursorrules` file, deprecated for project rules in `.cursor/rules/`",
    doc: include_str!("legacy_cursorrules.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CursorLegacyRules]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::CursorLegacyRules {
        return Vec::new();
    }
    let text = cx.sources.get(a.file).text();
    let end = text.find(['\r', '\n']).unwrap_or(text.len());
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            Span::new(0, end),
            "`.cursorrules` is Cursor's legacy rules file, deprecated",
        )
        .with_label("legacy rules file")
        .with_help(
            "move its instructions into project rules, `.cursor/rules/*.mdc` (with `alwaysApply: true` for what applies to every chat), or into an `AGENTS.md`, and delete it",
        ),
    ]
}
