//! AGENT001 `missing-agent-field`.

use super::subagent;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT001",
    name: "missing-agent-field",
    severity: Severity::Error,
    summary: "a Claude Code subagent without its `name` or `description`",
    doc: include_str!("missing_agent_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(agent) = subagent(cx, a) else {
        return Vec::new();
    };
    let Some(fm) = a.frontmatter else {
        let lone_cr = skein_syntax::lone_cr_note(agent.text());
        // An unterminated `---` is the syntax front's to report (not one
        // of lines that end in a lone CR, which no client reads as a line).
        if agent
            .text()
            .trim_start_matches('\u{feff}')
            .starts_with("---")
            && lone_cr.is_none()
        {
            return Vec::new();
        }
        let end = agent.text().find('\n').unwrap_or(agent.text().len());
        let end = agent.text()[..end].trim_end_matches('\r').len();
        if let Some(line) = late_opening(agent.text()) {
            return vec![
                Diagnostic::new(
                    RULE,
                    a.file,
                    Span::new(0, end),
                    format!("subagent frontmatter does not start on line 1: the `---` on line {line} opens none"),
                )
                .with_label("before the opening `---`")
                .with_note("frontmatter is read only when `---` is the first line, so the file has no `name` and no `description`")
                .with_help("move this line below the frontmatter, or delete it"),
            ];
        }
        if let Some(key) = bare_key(&agent.text()[..end]) {
            return vec![
                Diagnostic::new(
                    RULE,
                    a.file,
                    Span::new(0, end),
                    format!("subagent frontmatter is not between `---` lines, so `{key}:` is read as body text"),
                )
                .with_label("a frontmatter key without the opening `---`")
                .with_note("without `---` delimiters the file has no frontmatter: no `name` and no `description`")
                .with_help("put a line `---` before the first key and another after the last one"),
            ];
        }
        return vec![
            Diagnostic::new(
                RULE,
                a.file,
                Span::new(0, end),
                "subagent has no YAML frontmatter, so it has no `name` and no `description`",
            )
            .with_label("expected `---` on the first line")
            .with_notes(lone_cr)
            .with_help("start the file with `---`, `name: <agent-name>`, `description: <when to use it>`, `---`"),
        ];
    };
    let mut out = Vec::new();
    for (field, what) in [
        ("name", "the identifier the agent is invoked by"),
        (
            "description",
            "what tells Claude when to delegate to the agent",
        ),
    ] {
        let problem = match agent.field(field) {
            None => Some((
                fm.open,
                format!("subagent has no `{field}`"),
                "in this frontmatter".to_string(),
            )),
            Some(n) => match agent.doc.as_str(n) {
                Some(s) if !s.trim().is_empty() => None,
                Some(_) => Some((
                    agent.doc.node(agent.doc.key_of(n).unwrap_or(n)).span,
                    format!("subagent `{field}` is empty"),
                    "empty".to_string(),
                )),
                None if matches!(agent.doc.kind(n), skein_syntax::NodeKind::Null) => Some((
                    agent.doc.node(agent.doc.key_of(n).unwrap_or(n)).span,
                    format!("subagent `{field}` has no value"),
                    "no value".to_string(),
                )),
                None => None,
            },
        };
        if let Some((span, message, label)) = problem {
            let absent = agent.field(field).is_none();
            let stem = stem(cx.path(a.file));
            let help = match field {
                "name" if absent && !stem.is_empty() => {
                    format!("add `name: {stem}` (the file's name)")
                }
                _ if absent => format!("add `{field}:` to the frontmatter"),
                _ => format!("give `{field}` a value"),
            };
            out.push(
                Diagnostic::new(RULE, a.file, span, message)
                    .with_label(label)
                    .with_note(format!("`{field}` is required: it is {what}"))
                    .with_help(help),
            );
        }
    }
    out
}

/// The line number of a `---` that would open frontmatter but for the
/// blank lines, `#` comments or HTML comments above it.
fn late_opening(text: &str) -> Option<usize> {
    for (i, line) in text.lines().enumerate().take(20) {
        let t = line.trim_end();
        if t == "---" {
            return (i > 0).then_some(i + 1);
        }
        let t = t.trim_start();
        if !(t.is_empty() || t.starts_with('#') || t.starts_with("<!--")) {
            return None;
        }
    }
    None
}

/// The key of a first line written as a YAML `key: value` (`name: x`).
fn bare_key(line: &str) -> Option<&str> {
    let (key, _) = line.split_once(':')?;
    (!key.is_empty()
        && key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    .then_some(key)
}

/// `agents/Code Reviewer.md` -> `code-reviewer`.
fn stem(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.strip_suffix(".md").unwrap_or(file).to_lowercase();
    stem.split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}
