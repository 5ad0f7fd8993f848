//! CMD004 `invalid-command-name`.

use super::command_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CMD004",
    name: "invalid-command-name",
    severity: Severity::Error,
    summary: "a slash-command file whose name cannot be typed as a command",
    doc: include_str!("invalid_command_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::PluginCommand]),
};

/// What is wrong with command name `stem`, if anything.
fn problem(stem: &str) -> Option<String> {
    if stem.is_empty() {
        return Some("the name before `.md` is empty".into());
    }
    let bad = stem.chars().find(|c| c.is_whitespace() || c.is_control())?;
    Some(match bad {
        ' ' => "it contains a space, and the first space ends a command's name".into(),
        c if c.is_whitespace() => format!(
            "it contains whitespace (U+{:04X}), which ends a command's name",
            c as u32
        ),
        c => format!("it contains the control character U+{:04X}", c as u32),
    })
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(cmd) = command_of(cx, a) else {
        return Vec::new();
    };
    // A `name` field names the command instead of its file.
    if cmd.field("name").is_some() {
        return Vec::new();
    }
    let stem = cmd.file_name.strip_suffix(".md").unwrap_or(cmd.file_name);
    let Some(why) = problem(stem) else {
        return Vec::new();
    };
    let fixed: String = stem
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        Span::empty(0),
        format!(
            "the command file {} cannot be typed as a slash command: {why}",
            quote(cmd.file_name)
        ),
    )
    .with_label("the command is named after this file");
    if !fixed.is_empty() {
        d = d.with_help(format!(
            "rename the file to {}",
            quote(&format!("{fixed}.md"))
        ));
    }
    vec![d]
}
