//! SKILL035 `backslash-path`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Edit, Fix, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL035",
    name: "backslash-path",
    severity: Severity::Warning,
    summary: "a path in a SKILL.md written with Windows backslashes (`scripts\\run.py`) that names a file of the skill, which fails on macOS and Linux",
    doc: include_str!("backslash_path.md"),
    fix: Some(skein_syntax::Applicability::Safe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// A byte that may be part of a path segment.
fn segment_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// The backslash paths of `line` (starting at byte `at` of the file): spans
/// of `name\name…` runs (an optional leading `.\` included) that start
/// after a space, a quote, a backtick, `(`, `[` or the line's start, with
/// at least one backslash between two segments and none at either end.
fn backslash_paths(line: &str, at: usize) -> Vec<Span> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'`' | b'"' | b'\'' | b'(' | b'[');
        if !starts || !segment_byte(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i;
        let mut slashes = 0;
        while end < b.len() {
            if segment_byte(b[end]) {
                end += 1;
            } else if b[end] == b'\\'
                && end + 1 < b.len()
                && segment_byte(b[end + 1])
                && end > start
            {
                slashes += 1;
                end += 1;
            } else {
                break;
            }
        }
        // `C:\…` and `\\server\…` are absolute Windows paths: not the
        // skill's files, and not matched (the run stops at `:` or starts
        // after a backslash).
        let after = b.get(end).copied();
        // A sentence's full stop is not part of the path.
        let mut last = end;
        while last > start && b[last - 1] == b'.' {
            last -= 1;
        }
        if slashes > 0 && after != Some(b':') && after != Some(b'\\') {
            out.push(Span::new(at + start, at + last));
        }
        i = end.max(i + 1);
    }
    out
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::AgentSkill || a.damaged {
        return Vec::new();
    }
    let Some(fm) = a.frontmatter else {
        return Vec::new();
    };
    let path = cx.path(a.file);
    let folder = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let text = cx.sources.get(a.file).text();
    let body_start = fm.body_start as usize;
    let Some(body) = text.get(body_start..) else {
        return Vec::new();
    };
    if !body.contains('\\') {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (line_at, line) in crate::rules::unfenced_lines(text, body_start) {
        if !line.contains('\\') {
            continue;
        }
        for span in backslash_paths(line, line_at) {
            let written = &text[span.start as usize..span.end as usize];
            let forward = written.replace('\\', "/");
            let rel = forward.strip_prefix("./").unwrap_or(&forward);
            if !cx.repo_files.contains(&format!("{folder}{rel}")) {
                continue;
            }
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "path {} uses backslashes; write {}",
                        quote(written),
                        quote(&forward)
                    ),
                )
                .with_label("Windows-style path")
                .with_note("on macOS and Linux a backslash is part of a file name, not a separator: the agent looks for a file that does not exist there")
                .with_help(format!("write {}: forward slashes work on every system", quote(&forward)))
                .with_fix(Fix::safe(
                    format!("write `{forward}`"),
                    vec![Edit::replace(span, forward.clone())],
                )),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::backslash_paths;
    use skein_syntax::Span;

    fn found(line: &str) -> Vec<&str> {
        backslash_paths(line, 0)
            .into_iter()
            .map(|s| &line[s.start as usize..s.end as usize])
            .collect()
    }

    #[test]
    fn runs_of_segments_joined_by_backslashes() {
        assert_eq!(found("Run scripts\\fill.py on it"), ["scripts\\fill.py"]);
        assert_eq!(
            found("then read references\\forms.md."),
            ["references\\forms.md"]
        );
        assert_eq!(
            found("See `references\\api\\v2.md`."),
            ["references\\api\\v2.md"]
        );
        assert_eq!(found("[guide](docs\\guide.md)"), ["docs\\guide.md"]);
        assert_eq!(found("Run .\\scripts\\run.ps1"), [".\\scripts\\run.ps1"]);
        // Escapes and absolute Windows paths are no relative paths.
        assert_eq!(found("match \\d+ or a\\"), Vec::<&str>::new());
        assert_eq!(found("C:\\Users\\me"), Vec::<&str>::new());
        assert_eq!(found("\\\\server\\share"), Vec::<&str>::new());
        assert_eq!(found("x=a\\b"), Vec::<&str>::new());
        assert_eq!(backslash_paths("a\\b", 10), [Span::new(10, 13)]);
    }
}
