//! Human output: rustc-style snippets rendered by codespan-reporting.

use crate::{Files, Secrets, sanitize};
use codespan_reporting::diagnostic::{
    Diagnostic as CsDiagnostic, Label as CsLabel, Severity as CsSeverity,
};
use codespan_reporting::term::{self, Config};
use skein_syntax::{Diagnostic, Severity, SourceMap};

/// Options of the human renderer.
#[derive(Debug, Clone, Copy, Default)]
pub struct HumanOptions {
    /// Emit ANSI colours.
    pub color: bool,
    /// Make each finding's documentation URL an OSC 8 hyperlink (for a
    /// terminal that shows them; the URL text is printed either way).
    pub links: bool,
    /// Mark findings with an unsafe fix as fixable too (`--unsafe-fixes`);
    /// those with a safe fix are always marked `[*]`.
    pub unsafe_fixes: bool,
}

/// Whether `d` has a fix that `--fix` applies (with `--unsafe-fixes` when
/// `unsafe_fixes`): such a finding is marked `[*]` (ruff's mark).
pub fn fixable(d: &Diagnostic, unsafe_fixes: bool) -> bool {
    d.fix.as_ref().is_some_and(|f| {
        !f.edits.is_empty()
            && (unsafe_fixes || f.applicability == skein_syntax::Applicability::Safe)
    })
}

fn to_codespan(
    d: &Diagnostic,
    sources: &SourceMap,
    options: HumanOptions,
) -> CsDiagnostic<skein_syntax::FileId> {
    let links = options.links;
    let mark = if fixable(d, options.unsafe_fixes) {
        "[*] "
    } else {
        ""
    };
    let severity = match d.severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Info => CsSeverity::Note,
    };
    // Messages quote file contents and paths: keep terminal controls out.
    let safe = |s: &str| sanitize(s).into_owned();
    let mut labels = vec![
        CsLabel::primary(d.primary.file, d.primary.span.range())
            .with_message(safe(&d.primary.message)),
    ];
    labels.extend(
        d.secondary
            .iter()
            .map(|l| CsLabel::secondary(l.file, l.span.range()).with_message(safe(&l.message))),
    );
    let mut notes: Vec<String> = d
        .notes
        .iter()
        .map(|n| format!("note: {}", safe(n)))
        .collect();
    if let Some(h) = &d.help {
        notes.push(format!("help: {}", safe(h)));
    }
    if let Some(f) = &d.fix {
        notes.push(match f.applicability {
            skein_syntax::Applicability::Safe => format!("fix: {} (`--fix`)", safe(&f.message)),
            skein_syntax::Applicability::Unsafe => {
                format!("fix: {} (unsafe: `--fix --unsafe-fixes`)", safe(&f.message))
            }
        });
    }
    // Last, the rule's documentation (after sanitizing: the link's own
    // escape sequence is skein's, never file text).
    let url = crate::rule_url(&d.rule);
    notes.push(if links {
        format!("docs: \u{1b}]8;;{url}\u{1b}\\{url}\u{1b}]8;;\u{1b}\\")
    } else {
        format!("docs: {url}")
    });
    // A finding about a file that was never read (too large, unreadable, a
    // link) has no text to show: name the file in the message instead. So
    // does one on a line too long to print (a 10 MB minified line): the
    // snippet would repeat the whole line for every finding on it.
    let file = sources.get(d.primary.file);
    let long = std::iter::once(&d.primary)
        .chain(&d.secondary)
        .find_map(|l| long_line(sources.get(l.file), l.span.start as usize));
    if let Some((line, chars)) = long {
        let lc = file.line_col(d.primary.span.start as usize);
        notes.insert(
            0,
            format!("note: line {line} is {chars} characters long; its snippet is not shown"),
        );
        return CsDiagnostic::new(severity)
            .with_code(d.rule.code)
            .with_message(format!(
                "{}:{}:{}: {mark}{} [{}]",
                safe(&crate::quote_path(file.path())),
                lc.line,
                lc.column,
                safe(&d.message),
                d.rule.name
            ))
            .with_notes(notes);
    }
    if file.text().is_empty() && d.primary.span.is_empty() && d.secondary.is_empty() {
        return CsDiagnostic::new(severity)
            .with_code(d.rule.code)
            .with_message(format!(
                "{}: {mark}{} [{}]",
                safe(&crate::quote_path(file.path())),
                safe(&d.message),
                d.rule.name
            ))
            .with_notes(notes);
    }
    CsDiagnostic::new(severity)
        .with_code(d.rule.code)
        .with_message(format!("{mark}{} [{}]", safe(&d.message), d.rule.name))
        .with_labels(labels)
        .with_notes(notes)
}

/// Longest line, in bytes, whose snippet the human output prints.
pub const MAX_SNIPPET_LINE_BYTES: usize = 1000;

/// (1-based line, characters) of the line holding `offset` when it is
/// longer than [`MAX_SNIPPET_LINE_BYTES`].
fn long_line(file: &skein_syntax::SourceFile, offset: usize) -> Option<(usize, usize)> {
    let text = file.text();
    let starts = file.lines().line_starts();
    let i = file.lines().line_of(offset.min(text.len()));
    let start = *starts.get(i)? as usize;
    let end = starts.get(i + 1).map_or(text.len(), |&e| e as usize);
    // Characters: the ASCII prefix by its length (O(1) for the many findings
    // of one minified line), the rest counted.
    let ascii = file.lines().ascii_until(i).clamp(start, end);
    (end - start > MAX_SNIPPET_LINE_BYTES).then(|| {
        let rest = text.get(ascii..end).map_or(0, |l| l.chars().count());
        (i + 1, ascii - start + rest)
    })
}

/// Renders diagnostics as rustc-style text. Plain text unless
/// `options.color`; the result ends with a newline per diagnostic.
pub fn render_human(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    options: HumanOptions,
) -> String {
    let secrets = Secrets::new(diagnostics, sources);
    let diagnostics = &*secrets.diagnostics(diagnostics);
    let files = Files::new(sources, diagnostics, &secrets);
    let config = Config::default();
    let mut out = String::new();
    for d in diagnostics {
        let cs = to_codespan(d, sources, options);
        let rendered = if options.color {
            let mut buf = codespan_reporting::term::termcolor::Buffer::ansi();
            term::emit_to_write_style(&mut buf, &config, &files, &cs)
                .is_ok()
                .then(|| String::from_utf8_lossy(buf.as_slice()).into_owned())
        } else {
            term::emit_into_string(&config, &files, &cs).ok()
        };
        if let Some(r) = rendered {
            out.push_str(&info_header(&r, d.severity));
        }
    }
    out
}

/// codespan has no "info" severity: an info finding is rendered as its
/// `note`, and its header says so. The header (the first line, after any
/// colour codes) is made to say `info`, as every other output does.
fn info_header(rendered: &str, severity: Severity) -> std::borrow::Cow<'_, str> {
    let header = rendered.split('\n').next().unwrap_or("");
    match header.find("note[") {
        Some(at) if severity == Severity::Info => {
            let mut s = String::with_capacity(rendered.len());
            s.push_str(&rendered[..at]);
            s.push_str("info");
            s.push_str(&rendered[at + "note".len()..]);
            std::borrow::Cow::Owned(s)
        }
        _ => std::borrow::Cow::Borrowed(rendered),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skein_syntax::{Diagnostic, Rule, Severity, SourceFile, SourceMap, Span};

    #[test]
    fn a_path_with_a_line_break_stays_on_the_location_line() {
        const RULE: Rule = Rule {
            code: "SKILL001",
            name: "missing-skill-field",
            severity: Severity::Error,
            summary: "s",
            doc: "",
            fix: None,
        };
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new("skills/x\ny/SKILL.md", "---\n---\n"));
        let d = Diagnostic::new(RULE, id, Span::new(0, 3), "no `description`");
        let out = render_human(&[d], &sources, HumanOptions::default());
        let location: Vec<&str> = out.lines().filter(|l| l.contains("┌─")).collect();
        assert_eq!(location, vec!["  ┌─ \"skills/x\\ny/SKILL.md\":1:1"]);
    }
}
