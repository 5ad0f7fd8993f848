//! GitHub Actions workflow commands: one `::error`, `::warning` or `::notice`
//! line per diagnostic, which the runner turns into an annotation on the file
//! (in the job summary and the pull request's "Files changed").
//!
//! ```text
//! ::error file=packs/a/loop.json,line=24,col=15,endLine=24,endColumn=19,title=REF001 duplicate-gate-id::gate id `G2` is already used in loop `review`
//! ```
//!
//! `file` is the path from the repository root (the caller passes the
//! analyzed folder as `uri_prefix`). Lines are 1-based; `col` and `endColumn`
//! (UTF-16 code units, `endColumn` exclusive, as in the SARIF output) are
//! given only when the span is on one line, since GitHub accepts columns only
//! for single-line annotations. The message carries the related locations,
//! notes and help on further lines. Values are escaped as the runner's
//! command parser expects: `%`, `\r` and `\n` everywhere, and `:` and `,` in
//! properties too.

use crate::sanitize;
use crate::sarif::region;
use skein_syntax::{Diagnostic, Severity, SourceMap};

/// Escapes a command's message (`%`, CR, LF).
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property's value (`%`, CR, LF, `:` and `,`).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The command for a severity.
pub fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// Whether the primary label `label` says something `message` does not,
/// so an annotation (one text, no source under it) appends it: not when
/// it is empty, when the message holds it, or when every value it quotes
/// (in backticks) or counts (a number) is already in the message
/// (`the folder is \`a-b\`` after "... its folder \`a-b\`").
fn label_adds(message: &str, label: &str) -> bool {
    if label.is_empty() || message.contains(label) {
        return false;
    }
    let quoted = label.split('`').skip(1).step_by(2);
    let numbers = label
        .split(|c: char| !c.is_ascii_digit())
        .filter(|n| !n.is_empty());
    let mut values = quoted.chain(numbers).peekable();
    values.peek().is_none() || !values.all(|v| message.contains(v))
}

/// Renders diagnostics as workflow commands, one line each. `uri_prefix` is
/// the analyzed folder's path from the repository root, `/`-separated and
/// ending in `/`, or empty.
pub fn render_github(diagnostics: &[Diagnostic], sources: &SourceMap, uri_prefix: &str) -> String {
    let secrets = crate::Secrets::new(diagnostics, sources);
    let diagnostics = &*secrets.diagnostics(diagnostics);
    let mut out = String::new();
    for d in diagnostics {
        let file = sources.get(d.primary.file);
        let r = region(file, &d.primary);
        let mut props = vec![
            format!(
                "file={}",
                escape_property(&format!("{uri_prefix}{}", file.path()))
            ),
            format!("line={}", r.start_line),
        ];
        if r.start_line == r.end_line {
            props.push(format!("col={}", r.start_column));
        }
        props.push(format!("endLine={}", r.end_line));
        if r.start_line == r.end_line {
            props.push(format!("endColumn={}", r.end_column));
        }
        props.push(format!(
            "title={}",
            escape_property(&format!("{} {}", d.rule.code, d.rule.name))
        ));
        let mut message = d.message.clone();
        if label_adds(&d.message, &d.primary.message) {
            message.push_str(&format!(": {}", d.primary.message));
        }
        for l in &d.secondary {
            let f = sources.get(l.file);
            let lc = f.line_col(l.span.start as usize);
            message.push_str(&format!(
                "\n{uri_prefix}{}:{}:{}: {}",
                f.path(),
                lc.line,
                lc.column,
                l.message
            ));
        }
        for n in &d.notes {
            message.push_str(&format!("\nnote: {n}"));
        }
        if let Some(h) = &d.help {
            message.push_str(&format!("\nhelp: {h}"));
        }
        out.push_str(&format!(
            "::{} {}::{}\n",
            command(d.severity),
            props.join(","),
            escape_data(&sanitize(&message))
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use skein_syntax::{Rule, SourceFile, Span};

    #[test]
    fn a_label_is_appended_only_when_it_adds_to_the_message() {
        let cases = [
            (
                "skill name `a_b` does not match its folder `a-b`",
                "the folder is `a-b`",
                false,
            ),
            (
                "the description is 1206 characters long, more than 1024",
                "1206 characters",
                false,
            ),
            (
                "`/v` is a number `0.1`, expected a string `\"0.1\"`",
                "expected `\"0.1\"`",
                false,
            ),
            ("x does not match the pattern `p`", "does not match", false),
            ("duplicate key `READY`", "defined again here", true),
            (
                "gate `G1` has no pass-class verdict",
                "no verdict of this gate is of class `pass`",
                false,
            ),
            (
                "unknown property `owner` in the top level",
                "not allowed here",
                true,
            ),
            (
                "the description is 1206 characters long",
                "1300 allowed",
                true,
            ),
            ("message", "", false),
        ];
        for (message, label, adds) in cases {
            assert_eq!(label_adds(message, label), adds, "{message:?} / {label:?}");
        }
    }

    #[test]
    fn escapes_as_the_runner_expects() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    #[test]
    fn one_line_per_diagnostic_with_columns_only_on_one_line() {
        const RULE: Rule = Rule {
            code: "SYN001",
            name: "syntax-error",
            severity: Severity::Info,
            summary: "s",
            doc: "",
            fix: None,
        };
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new("a,b.json", "{\n  \"x\": 1\n}\n"));
        let one = Diagnostic::new(RULE, id, Span::new(4, 7), "bad: 100%\nreally").with_note("n");
        let two = Diagnostic::new(RULE, id, Span::new(0, 11), "m");
        let out = render_github(&[one, two], &sources, "sub/");
        assert_eq!(
            out,
            "::notice file=sub/a%2Cb.json,line=2,col=3,endLine=2,endColumn=6,title=SYN001 syntax-error::bad: 100%25%0Areally%0Anote: n\n\
             ::notice file=sub/a%2Cb.json,line=1,endLine=2,title=SYN001 syntax-error::m\n"
        );
    }
}
