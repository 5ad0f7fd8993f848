//! The diagnostic model shared by every layer: rule metadata, severity,
//! labels with spans, notes and help (DESIGN.md §7).
//!
//! Findings are values, never `Err`: a layer that finds a problem pushes a
//! [`Diagnostic`] and goes on.

use crate::source::FileId;
use crate::span::Span;
use serde::{Deserialize, Serialize};

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails a run by default.
    Info,
    /// Likely a mistake.
    Warning,
    /// Will go wrong at run time or violates the format.
    Error,
}

impl Severity {
    /// Lowercase name, as printed and as accepted on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Static metadata of one rule: a stable code (category + 3 digits), a kebab
/// name, the default severity and a one-line summary.
///
/// Codes are never reused; the table of all rules is `skein::rules::ALL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rule {
    /// Stable code, e.g. `SYN001`.
    pub code: &'static str,
    /// Kebab-case name, e.g. `duplicate-key`.
    pub name: &'static str,
    /// Severity used unless configuration overrides it.
    pub severity: Severity,
    /// One line, lowercase, no trailing period.
    pub summary: &'static str,
    /// Longer documentation: what it does, why it matters, an example.
    pub doc: &'static str,
    /// Whether the rule's findings carry a [`Fix`], and of which kind
    /// (`None`: never; `Some(Safe)`: applied by `--fix`; `Some(Unsafe)`:
    /// only with `--unsafe-fixes`). A rule that offers a safe fix in some
    /// cases and an unsafe one in others declares `Unsafe` and its doc's
    /// "Fix" section says which is which. `skein rule CODE` and
    /// docs/rules.md print it (issue #15).
    pub fix: Option<Applicability>,
}

/// A span in one file with a message; a diagnostic has one primary label and
/// any number of secondary ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// File the span is in.
    pub file: FileId,
    /// Byte range in that file.
    pub span: Span,
    /// What this span shows; may be empty.
    pub message: String,
}

impl Label {
    /// A label with a message.
    pub fn new(file: FileId, span: Span, message: impl Into<String>) -> Self {
        Label {
            file,
            span,
            message: message.into(),
        }
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule that produced it.
    pub rule: Rule,
    /// Effective severity (the rule's default unless overridden).
    pub severity: Severity,
    /// Lowercase message that quotes the bad value and, where useful, the
    /// valid alternatives; no trailing period.
    pub message: String,
    /// The smallest node that is wrong.
    pub primary: Label,
    /// Related places (the first definition of a duplicate, the hops of a cycle).
    pub secondary: Vec<Label>,
    /// Extra facts, printed as `= note: ...`.
    pub notes: Vec<String>,
    /// How to fix it, printed as `= help: ...`.
    pub help: Option<String>,
    /// Byte ranges of the primary label's file that hold a secret (SEC001):
    /// every renderer masks these bytes wherever it would show them (the
    /// human snippet, any text that quotes them) with [`redacted`] or
    /// [`mask`], in every file view of the run, whichever diagnostic shows
    /// the line. Messages must never quote a secret themselves; this list
    /// protects the source text. Empty for almost every diagnostic.
    pub redact: Vec<Span>,
    /// The machine-applicable repair, if the rule offers one (issue #15):
    /// edits to the primary label's file. `help` still says it in words.
    pub fix: Option<Fix>,
}

/// Whether a [`Fix`] may be applied unattended.
///
/// The ruff model: a safe fix keeps the file's meaning (quoting a scalar the
/// parser already read the same way, stripping a BOM); an unsafe fix may
/// change what a client does (renaming a field to the one that was probably
/// meant) and is applied only with `--unsafe-fixes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// May change behaviour; applied only on request.
    Unsafe,
    /// Keeps the meaning; applied by `--fix`.
    Safe,
}

/// One replacement: the bytes of `span` in the primary label's file become
/// `replacement` (an empty span inserts, an empty replacement deletes).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Edit {
    /// Byte range of the original file text.
    pub span: Span,
    /// Text written in its place.
    pub replacement: String,
}

impl Edit {
    /// Replaces `span` with `replacement`.
    pub fn replace(span: Span, replacement: impl Into<String>) -> Self {
        Edit {
            span,
            replacement: replacement.into(),
        }
    }

    /// Inserts `text` at byte offset `at`.
    pub fn insert(at: usize, text: impl Into<String>) -> Self {
        Edit::replace(Span::new(at, at), text)
    }

    /// Deletes `span`.
    pub fn delete(span: Span) -> Self {
        Edit::replace(span, "")
    }
}

/// A machine-applicable repair of one diagnostic: a one-line message (what
/// the fix does, e.g. `quote the value`), its [`Applicability`] and
/// non-overlapping [`Edit`]s of the primary label's file, sorted by start.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fix {
    /// What applying it does; lowercase, no trailing period.
    pub message: String,
    /// Safe or unsafe.
    pub applicability: Applicability,
    /// The edits, sorted by span start, never overlapping.
    pub edits: Vec<Edit>,
}

impl Fix {
    /// A fix made of `edits` (sorted here).
    pub fn new(
        message: impl Into<String>,
        applicability: Applicability,
        mut edits: Vec<Edit>,
    ) -> Self {
        edits.sort_by_key(|e| (e.span.start, e.span.end));
        Fix {
            message: message.into(),
            applicability,
            edits,
        }
    }

    /// A safe fix.
    pub fn safe(message: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix::new(message, Applicability::Safe, edits)
    }

    /// An unsafe fix.
    pub fn unsafe_(message: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix::new(message, Applicability::Unsafe, edits)
    }
}

impl Diagnostic {
    /// A diagnostic of `rule` at its default severity, with the primary label at `span`.
    pub fn new(rule: Rule, file: FileId, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity: rule.severity,
            message: message.into(),
            primary: Label::new(file, span, ""),
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
            redact: Vec::new(),
            fix: None,
        }
    }

    /// Rewrites every label in file `from` to file `to` (the same file under
    /// another id, when a run numbers its files anew).
    pub fn renumber(&mut self, from: FileId, to: FileId) {
        if from == to {
            return;
        }
        for l in std::iter::once(&mut self.primary).chain(&mut self.secondary) {
            if l.file == from {
                l.file = to;
            }
        }
    }

    /// Attaches a machine-applicable fix; see [`Diagnostic::fix`].
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    /// Attaches `fix` when there is one (a rule whose edit could not be
    /// made exact offers none).
    pub fn with_fix_opt(mut self, fix: Option<Fix>) -> Self {
        if fix.is_some() {
            self.fix = fix;
        }
        self
    }

    /// Marks `span` (in the primary label's file) as a secret to mask in
    /// every output; see [`Diagnostic::redact`].
    pub fn with_redacted(mut self, span: Span) -> Self {
        self.redact.push(span);
        self
    }

    /// Sets the primary label's message.
    pub fn with_label(mut self, message: impl Into<String>) -> Self {
        self.primary.message = message.into();
        self
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, file: FileId, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label::new(file, span, message));
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Adds each of `notes` ([`Diagnostic::with_note`] for each; an
    /// `Option` adds one or none).
    pub fn with_notes<S: Into<String>>(mut self, notes: impl IntoIterator<Item = S>) -> Self {
        self.notes.extend(notes.into_iter().map(Into::into));
        self
    }

    /// Sets the help text.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The key diagnostics are sorted by before rendering: file, span, code,
    /// message. Sorting by it makes output independent of scheduling.
    pub fn sort_key(&self) -> (FileId, Span, &'static str, &str) {
        (
            self.primary.file,
            self.primary.span,
            self.rule.code,
            &self.message,
        )
    }
}

/// Whether `c` is a character that changes or hides how text is displayed
/// without being seen itself: bidirectional controls (U+061C, U+200E,
/// U+200F, U+202A–U+202E, U+2066–U+2069), zero-width characters (U+200B–
/// U+200D, U+2060–U+2064, U+FEFF, U+180E) and tag characters
/// (U+E0000–U+E007F). Messages and snippets never show them raw
/// ([`escape_invisible`]).
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{061c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

/// `s` with every [`is_invisible`] character written `<U+XXXX>`.
pub fn escape_invisible(s: &str) -> std::borrow::Cow<'_, str> {
    // Fast path: every such character is encoded with a lead byte 0xd8
    // (U+061C), 0xe1 (U+180E), 0xe2 (U+2000 block), 0xef (U+FEFF) or 0xf3
    // (tags).
    if !s
        .bytes()
        .any(|b| matches!(b, 0xd8 | 0xe1 | 0xe2 | 0xef | 0xf3))
        || !s.chars().any(is_invisible)
    {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if is_invisible(c) {
            out.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Quotes a value for a message: at most 60 characters, control characters
/// escaped, invisible ones written `<U+XXXX>` ([`is_invisible`]), in backticks.
pub fn quote(value: &str) -> String {
    let mut out = String::from("`");
    for (i, c) in value.chars().enumerate() {
        if i == 60 {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c if is_invisible(c) => out.push_str(&format!("<U+{:04X}>", c as u32)),
            c => out.push(c),
        }
    }
    out.push('`');
    out
}

/// How a secret is named in a message: at most its first 4 characters (fewer
/// for a short value: never more than a quarter of it), `…`, and its length,
/// e.g. `ghp_…(40 chars)`. Never the secret itself.
pub fn redacted(secret: &str) -> String {
    let n = secret.chars().count();
    let keep = (n / 4).min(4);
    let head: String = secret
        .chars()
        .take(keep)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    format!("{head}…({n} chars)")
}

/// A secret masked in place for a source snippet: the same characters as
/// [`redacted`] keeps, then `*` for every remaining byte, so the text keeps
/// its length and every byte offset and line start after it stays where it
/// was (line breaks inside the secret are kept too). E.g.
/// `ghp_************************************`.
pub fn mask(secret: &str) -> String {
    let n = secret.chars().count();
    let keep = (n / 4).min(4);
    let mut out = String::with_capacity(secret.len());
    for (i, c) in secret.chars().enumerate() {
        if (i < keep && !c.is_control()) || c == '\n' || c == '\r' {
            out.push(c);
        } else {
            out.extend(std::iter::repeat_n('*', c.len_utf8()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_shown_by_their_head_and_length_only() {
        let token = format!("ghp_{}", "a1B2".repeat(9));
        assert_eq!(redacted(&token), "ghp_…(40 chars)");
        assert_eq!(mask(&token), format!("ghp_{}", "*".repeat(36)));
        assert_eq!(redacted("hunter2"), "h…(7 chars)");
        assert_eq!(mask("hunter2"), "h******");
        assert_eq!(redacted("abc"), "…(3 chars)");
        assert_eq!(mask("pé\nxyz"), "p**\n***");
        assert_eq!(mask("pé\nxyz").len(), "pé\nxyz".len());
    }
}
