//! Renderers for skein diagnostics (DESIGN.md §7): human (rustc style, via
//! codespan-reporting), JSON, SARIF 2.1.0, GitHub workflow commands and
//! concise lines. One module per output format; each takes
//! the sorted diagnostics and the [`SourceMap`] they point into.

pub mod concise;
pub mod fingerprint;
pub mod github;
pub mod graph_export;
pub mod human;
pub mod json;
pub mod redact;
pub mod sarif;

/// The documentation page of `rule`: `docs/rules.md` of the repository at
/// the rule's anchor (what SARIF `helpUri`, the human output's `docs:` line,
/// the JSON `url` and `skein rule` give).
pub fn rule_url(rule: &skein_syntax::Rule) -> String {
    format!("{}#{}", sarif::RULES_DOC_URL, sarif::rule_anchor(rule))
}

pub use concise::{render_concise, render_concise_with};
pub use github::render_github;
pub use human::{HumanOptions, render_human};
pub use json::{JSON_SCHEMA_VERSION, JsonReport, json_value};
pub use redact::Secrets;
pub use sarif::{SarifBuilder, SarifLog, sarif_log};

use skein_syntax::SourceMap;

/// Counts shown in the summary line: files analyzed per format and
/// diagnostics per severity.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Files read (recognised by path), including ones that turned out not to be artifacts.
    pub files_read: usize,
    /// Artifacts per format id, sorted by format id.
    pub artifacts: Vec<(String, usize)>,
    /// Files read that could not be analyzed (not UTF-8, too large,
    /// unreadable, a link not followed), each with its finding; left out
    /// of the JSON summary when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub not_analyzed: usize,
    /// Diagnostics at error severity.
    pub errors: usize,
    /// Diagnostics at warning severity.
    pub warnings: usize,
    /// Diagnostics at info severity.
    pub infos: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    /// The summary of a run: `files_read` and `artifacts` as given, the
    /// diagnostics counted by severity, and the files not analyzed counted
    /// by their findings ([`skein_syntax::rules::leaves_file_unanalyzed`]).
    pub fn new(
        files_read: usize,
        artifacts: Vec<(String, usize)>,
        diagnostics: &[skein_syntax::Diagnostic],
    ) -> Summary {
        let count = |s| diagnostics.iter().filter(|d| d.severity == s).count();
        let mut unanalyzed: Vec<skein_syntax::FileId> = diagnostics
            .iter()
            .filter(|d| skein_syntax::rules::leaves_file_unanalyzed(&d.rule))
            .map(|d| d.primary.file)
            .collect();
        unanalyzed.sort_unstable();
        unanalyzed.dedup();
        Summary {
            files_read,
            artifacts,
            not_analyzed: unanalyzed.len(),
            errors: count(skein_syntax::Severity::Error),
            warnings: count(skein_syntax::Severity::Warning),
            infos: count(skein_syntax::Severity::Info),
        }
    }

    /// The one-line summary, e.g.
    /// `checked 12 files (agent-skill 10, skilldrop-loop 2): 3 errors, 1 warning, 0 infos`,
    /// with `N not analyzed` after the formats when some files could not be.
    pub fn line(&self) -> String {
        let mut per: Vec<String> = self
            .artifacts
            .iter()
            .map(|(f, n)| format!("{f} {n}"))
            .collect();
        if self.not_analyzed > 0 {
            per.push(format!("{} not analyzed", self.not_analyzed));
        }
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        format!(
            "checked {} ({}): {}, {}, {}",
            plural(self.files_read, "file"),
            if per.is_empty() {
                "no artifacts".to_string()
            } else {
                per.join(", ")
            },
            plural(self.errors, "error"),
            plural(self.warnings, "warning"),
            plural(self.infos, "info"),
        )
    }
}

/// `path` as a line-based output shows it (concise, and the location line
/// of the human output): as it is, unless it holds a
/// control character (a line break, a tab, an escape), which a line-based
/// reader would split on or a terminal would obey. Such a path is quoted
/// the way git quotes one (`core.quotePath`): in double quotes, with `\n`,
/// `\r`, `\t`, `\"`, `\\` and octal escapes (`\033`) for the other
/// control bytes. A path with a plain space stays unquoted, so the two
/// never read alike.
pub(crate) fn quote_path(path: &str) -> std::borrow::Cow<'_, str> {
    if !path.chars().any(|c| c.is_control()) {
        return std::borrow::Cow::Borrowed(path);
    }
    let mut q = String::with_capacity(path.len() + 8);
    q.push('"');
    for c in path.chars() {
        match c {
            '\n' => q.push_str("\\n"),
            '\r' => q.push_str("\\r"),
            '\t' => q.push_str("\\t"),
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            c if c.is_control() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    q.push_str(&format!("\\{b:03o}"));
                }
            }
            c => q.push(c),
        }
    }
    q.push('"');
    std::borrow::Cow::Owned(q)
}

/// Adapter so codespan-reporting can read files from a [`SourceMap`], with
/// each text made safe for a terminal by [`sanitize`].
pub(crate) struct Files<'a>(
    pub &'a SourceMap,
    pub Vec<std::borrow::Cow<'a, str>>,
    pub Vec<std::borrow::Cow<'a, str>>,
);

impl<'a> Files<'a> {
    /// Sanitizes the files that `diagnostics` point into, secrets masked
    /// ([`Secrets::text`]); the others are never shown and stay as they are.
    pub(crate) fn new(
        sources: &'a SourceMap,
        diagnostics: &[skein_syntax::Diagnostic],
        secrets: &Secrets,
    ) -> Self {
        let mut shown = vec![false; sources.len()];
        for d in diagnostics {
            shown[d.primary.file.0 as usize] = true;
            for l in &d.secondary {
                shown[l.file.0 as usize] = true;
            }
        }
        let pick = |i: usize, s: &'a str| {
            if shown[i] {
                sanitize(s)
            } else {
                std::borrow::Cow::Borrowed(s)
            }
        };
        let text = |i: usize, id: skein_syntax::FileId, s: &'a str| {
            if !shown[i] {
                return std::borrow::Cow::Borrowed(s);
            }
            match secrets.text(id, s) {
                std::borrow::Cow::Borrowed(b) => sanitize(b),
                std::borrow::Cow::Owned(o) => std::borrow::Cow::Owned(sanitize(&o).into_owned()),
            }
        };
        Files(
            sources,
            sources
                .iter()
                .enumerate()
                .map(|(i, (id, f))| text(i, id, f.text()))
                .collect(),
            sources
                .iter()
                .enumerate()
                // A name is one line: a control character in it is quoted
                // (`quote_path`), then what remains made safe.
                .map(|(i, (_, f))| match quote_path(f.path()) {
                    std::borrow::Cow::Borrowed(p) => pick(i, p),
                    std::borrow::Cow::Owned(q) => {
                        std::borrow::Cow::Owned(sanitize(&q).into_owned())
                    }
                })
                .collect(),
        )
    }
}

/// Replaces characters that would act on a terminal instead of showing in a
/// snippet (C0 controls but tab and line feed, a carriage return not before a
/// line feed, DEL, C1 controls, bidirectional controls, zero-width and tag
/// characters: [`skein_syntax::is_invisible`]) by `?`, one per byte,
/// so every byte offset and line start stays where it was. A file in the
/// analyzed repository cannot retitle, recolour or rewrite the reader's terminal.
pub fn sanitize(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char, next: Option<char>| match c {
        '\t' | '\n' => false,
        '\r' => next != Some('\n'),
        c if (c as u32) < 0x20 || c == '\u{7f}' => true,
        '\u{80}'..='\u{9f}' => true,
        c => skein_syntax::is_invisible(c),
    };
    // Fast path: every character above needs a byte below 0x20, 0x7f, or a
    // lead byte 0xc2 (C1), 0xd8 (U+061C), 0xe1 (U+180E), 0xe2 (bidi and
    // zero-width), 0xef (U+FEFF) or 0xf3 (tags); a text without one is left
    // alone.
    let suspicious = text.bytes().any(|b| {
        (b < 0x20 && b != b'\t' && b != b'\n')
            || matches!(b, 0x7f | 0xc2 | 0xd8 | 0xe1 | 0xe2 | 0xef | 0xf3)
    });
    if !suspicious {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        if bad(c, chars.peek().copied()) {
            any = true;
            break;
        }
    }
    if !any {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if bad(c, chars.peek().copied()) {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

impl<'a> codespan_reporting::files::Files<'a> for Files<'a> {
    type FileId = skein_syntax::FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: Self::FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.2[id.0 as usize])
    }

    fn source(&'a self, id: Self::FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.1[id.0 as usize])
    }

    fn line_index(
        &'a self,
        id: Self::FileId,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.0.get(id).lines().line_of(byte_index))
    }

    fn line_range(
        &'a self,
        id: Self::FileId,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        let f = self.0.get(id);
        let starts = f.lines().line_starts();
        let start =
            *starts
                .get(line_index)
                .ok_or(codespan_reporting::files::Error::LineTooLarge {
                    given: line_index,
                    max: starts.len() - 1,
                })? as usize;
        let end = starts
            .get(line_index + 1)
            .map(|&e| e as usize)
            .unwrap_or(f.text().len());
        Ok(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn terminal_controls_are_neutralised_byte_for_byte() {
        let text = "name: Bad_\u{1b}]0;PWNED\u{7}\u{1b}[31mRED\r\nnext\rline \u{202e}x\n";
        let safe = sanitize(text);
        assert_eq!(safe, "name: Bad_?]0;PWNED??[31mRED\r\nnext?line ???x\n");
        assert_eq!(safe.len(), text.len());
        assert!(matches!(
            sanitize("plain\ttext\r\n"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
