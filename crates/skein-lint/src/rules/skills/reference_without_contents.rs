//! SKILL028 `reference-without-contents`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL028",
    name: "reference-without-contents",
    severity: Severity::Info,
    summary: "a skill's reference file over 100 lines without a table of contents at its top",
    doc: include_str!("reference_without_contents.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::SkillReference]),
};

/// Lines above which a reference wants a table of contents.
const MAX_LINES: usize = 100;
/// How far from the top the table of contents is looked for, in lines.
const TOP: usize = 50;

/// Whether a line reads as the title of a table of contents: its words,
/// without heading marks, emphasis and a final colon.
fn contents_title(line: &str) -> bool {
    let t = line
        .trim()
        .trim_start_matches('#')
        .trim_matches(|c: char| c == '*' || c == '_' || c == ':' || c.is_whitespace())
        .to_ascii_lowercase();
    t.contains("contents")
        || matches!(
            t.as_str(),
            "toc" | "on this page" | "in this document" | "in this file" | "index" | "sections"
        )
}

fn has_contents(text: &str) -> bool {
    let top: Vec<&str> = text.lines().take(TOP).collect();
    top.iter().any(|l| contents_title(l))
        || top
            .iter()
            .filter(|l| {
                let t = l.trim_start();
                (t.starts_with(['-', '*', '+']) || t.starts_with(|c: char| c.is_ascii_digit()))
                    && t.contains("](#")
            })
            .count()
            >= 3
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::SkillReference {
        return Vec::new();
    }
    let text = cx.sources.get(a.file).text();
    // As `str::lines` counts them: every newline, and a last line without one.
    let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count()
        + usize::from(!text.is_empty() && !text.ends_with('\n'));
    if lines <= MAX_LINES || has_contents(text) {
        return Vec::new();
    }
    let first = text.lines().next().unwrap_or("");
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            Span::new(0, first.len()),
            format!("reference file has {lines} lines and no table of contents at its top"),
        )
        .with_label("the file starts here")
        .with_note("Claude often previews the first lines of a long reference; a contents list there shows it everything the file covers")
        .with_help("add a `## Contents` list of the file's sections below the title"),
    ]
}
