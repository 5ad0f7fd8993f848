//! Human output: rustc-style snippets rendered by codespan-reporting.

use crate::{Files, sanitize};
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
}

fn to_codespan(d: &Diagnostic, sources: &SourceMap) -> CsDiagnostic<skein_syntax::FileId> {
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
    // A finding about a file that was never read (too large, unreadable, a
    // link) has no text to show: name the file in the message instead.
    let file = sources.get(d.primary.file);
    if file.text().is_empty() && d.primary.span.is_empty() && d.secondary.is_empty() {
        return CsDiagnostic::new(severity)
            .with_code(d.rule.code)
            .with_message(format!(
                "{}: {} [{}]",
                safe(file.path()),
                safe(&d.message),
                d.rule.name
            ))
            .with_notes(notes);
    }
    CsDiagnostic::new(severity)
        .with_code(d.rule.code)
        .with_message(format!("{} [{}]", safe(&d.message), d.rule.name))
        .with_labels(labels)
        .with_notes(notes)
}

/// Renders diagnostics as rustc-style text. Plain text unless
/// `options.color`; the result ends with a newline per diagnostic.
pub fn render_human(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    options: HumanOptions,
) -> String {
    let files = Files::new(sources, diagnostics);
    let config = Config::default();
    let mut out = String::new();
    for d in diagnostics {
        let cs = to_codespan(d, sources);
        if options.color {
            let mut buf = codespan_reporting::term::termcolor::Buffer::ansi();
            if term::emit_to_write_style(&mut buf, &config, &files, &cs).is_ok() {
                out.push_str(&String::from_utf8_lossy(buf.as_slice()));
            }
        } else if let Ok(s) = term::emit_into_string(&config, &files, &cs) {
            out.push_str(&s);
        }
    }
    out
}
