//! SKILL018 `injected-command-not-run`.

use super::{Skill, body, prose_lines};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL018",
    name: "injected-command-not-run",
    severity: Severity::Warning,
    summary: "a ``!`command` `` glued to the text before it, which Claude Code does not run",
    doc: include_str!("injected_command_not_run.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if Skill::of(a).is_none() {
        return Vec::new();
    }
    let (text, base) = body(cx, a);
    let mut out = Vec::new();
    // Every case starts with `` !` ``: most bodies have none, and most have
    // no `!` at all (one memchr, before the substring search).
    if memchr::memchr(b'!', text.as_bytes()).is_none() || !text.contains("!`") {
        return out;
    }
    for (at, line) in prose_lines(text) {
        for (i, _) in line.match_indices("!`") {
            let Some(before) = line[..i].chars().next_back() else {
                continue;
            };
            // After white space it runs; after a backtick or a backslash it
            // is shown as syntax (``!`cmd` ``) or escaped.
            if before.is_whitespace() || before == '`' || before == '\\' {
                continue;
            }
            // An odd number of backticks before it: this backtick closes a
            // code span (`` `println!` ``), it opens no command.
            if line[..i].matches('`').count() % 2 == 1 {
                continue;
            }
            let rest = &line[i + 2..];
            let Some(end) = rest.find('`') else {
                continue;
            };
            if end == 0 {
                continue;
            }
            let start = base + at + i;
            let span = Span::new(start, start + 2 + end + 1);
            let written = &line[i..i + 2 + end + 1];
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "{} follows {} with no space, so Claude Code does not run it",
                        quote(written),
                        quote(&before.to_string())
                    ),
                )
                .with_label("left as text")
                .with_note("Claude Code runs `!`command`` only at the start of a line or after white space, and puts its output in its place")
                .with_help(format!(
                    "put a space before it: `{} {written}`",
                    line[..i].rsplit(char::is_whitespace).next().unwrap_or("")
                )),
            );
        }
    }
    out
}
