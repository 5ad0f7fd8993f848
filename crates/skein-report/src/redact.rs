//! Redaction of secrets in every output format (DESIGN.md §6, SEC: "printed
//! redacted").
//!
//! A secret is a byte range of a file that a diagnostic marked
//! ([`Diagnostic::redact`]) or that the analysis registered on the file
//! ([`skein_syntax::SourceFile::add_secret`], which keeps the secrets of
//! suppressed findings). Every renderer builds one [`Secrets`] for its run
//! and then
//!
//! - shows file text only through [`Secrets::text`], which masks each
//!   secret in place with [`mask`] (same length, so every offset, column and
//!   line stays where it was): the human snippet of *any* diagnostic on that
//!   line shows `ghp_****…`;
//! - renders messages, labels, notes and help only through
//!   [`Secrets::diagnostics`], which replaces every occurrence of a secret's
//!   text (and of the first 60 characters of a longer one, as
//!   [`skein_syntax::quote`] would cut it) with [`redacted`]
//!   (`ghp_…(40 chars)`), so a message of another rule that happens to quote
//!   the value does not leak it either;
//! - computes content fingerprints (SARIF `primaryLocationLineHash`,
//!   baselines) from the masked text, so a hash of the secret is not
//!   published either.

use rayon::prelude::*;
use skein_syntax::{Diagnostic, FileId, SourceMap, Span, mask, redacted};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The secrets of one rendering: masked spans per file and the texts to
/// scrub from messages.
#[derive(Debug, Clone, Default)]
pub struct Secrets {
    spans: BTreeMap<FileId, Vec<Span>>,
    /// (text to find, replacement), longest first.
    strings: Vec<(String, String)>,
}

/// Secrets shorter than this are masked in snippets but not searched for
/// in messages (a two-letter password would scrub unrelated words).
const MIN_SCRUB_CHARS: usize = 4;

impl Secrets {
    /// Collects the secrets of `diagnostics` and of the files of `sources`.
    pub fn new(diagnostics: &[Diagnostic], sources: &SourceMap) -> Self {
        let mut spans: BTreeMap<FileId, Vec<Span>> = BTreeMap::new();
        for (id, f) in sources.iter() {
            if !f.secrets().is_empty() {
                spans.entry(id).or_default().extend(f.secrets());
            }
        }
        for d in diagnostics {
            if !d.redact.is_empty() && (d.primary.file.0 as usize) < sources.len() {
                spans.entry(d.primary.file).or_default().extend(&d.redact);
            }
        }
        let mut strings = Vec::new();
        for (id, list) in spans.iter_mut() {
            list.sort();
            list.dedup();
            let text = sources.get(*id).text();
            for s in list.iter() {
                let Some(secret) = text.get(s.range()) else {
                    continue;
                };
                let n = secret.chars().count();
                if n < MIN_SCRUB_CHARS {
                    continue;
                }
                let shown = redacted(secret);
                strings.push((secret.to_string(), shown.clone()));
                if n > 60 {
                    let cut: String = secret.chars().take(60).collect();
                    strings.push((cut, shown));
                }
            }
        }
        strings.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        strings.dedup();
        Secrets { spans, strings }
    }

    /// True when there is nothing to redact.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// `text` (the text of `file`) with each secret masked in place.
    pub fn text<'a>(&self, file: FileId, text: &'a str) -> Cow<'a, str> {
        let Some(spans) = self.spans.get(&file) else {
            return Cow::Borrowed(text);
        };
        let mut out = text.to_string();
        for s in spans {
            let (mut a, mut b) = (
                (s.start as usize).min(out.len()),
                (s.end as usize).min(out.len()),
            );
            while !out.is_char_boundary(a) {
                a -= 1;
            }
            while !out.is_char_boundary(b) {
                b += 1;
            }
            let masked = mask(&out[a..b]);
            out.replace_range(a..b, &masked);
        }
        Cow::Owned(out)
    }

    /// `s` with every secret's text replaced by its [`redacted`] form.
    pub fn scrub<'a>(&self, s: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(s);
        for (secret, shown) in &self.strings {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), shown));
            }
        }
        out
    }

    /// The diagnostics with every message, label, note and help scrubbed,
    /// and every invisible or bidirectional character in them written
    /// `<U+XXXX>` ([`skein_syntax::escape_invisible`]), so no output format
    /// shows a right-to-left override or a zero-width character raw.
    pub fn diagnostics<'a>(&self, diagnostics: &'a [Diagnostic]) -> Cow<'a, [Diagnostic]> {
        let hidden = |d: &Diagnostic| {
            let has = |s: &str| s.chars().any(skein_syntax::is_invisible);
            has(&d.message)
                || std::iter::once(&d.primary)
                    .chain(&d.secondary)
                    .any(|l| has(&l.message))
                || d.notes.iter().any(|n| has(n))
                || d.help.as_deref().is_some_and(has)
        };
        if self.strings.is_empty() && !diagnostics.iter().any(hidden) {
            return Cow::Borrowed(diagnostics);
        }
        let clean = |s: &str| skein_syntax::escape_invisible(&self.scrub(s)).into_owned();
        Cow::Owned(
            diagnostics
                .par_iter()
                .map(|d| {
                    let mut d = d.clone();
                    d.message = clean(&d.message);
                    for l in std::iter::once(&mut d.primary).chain(d.secondary.iter_mut()) {
                        l.message = clean(&l.message);
                    }
                    for n in &mut d.notes {
                        *n = clean(n);
                    }
                    if let Some(h) = &mut d.help {
                        *h = clean(h);
                    }
                    d
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skein_syntax::{Rule, Severity, SourceFile};

    const RULE: Rule = Rule {
        code: "SEC001",
        name: "hardcoded-secret",
        severity: Severity::Error,
        summary: "s",
        doc: "",
        fix: None,
    };

    #[test]
    fn masks_text_and_scrubs_messages() {
        let secret = "Zr8Kq2Wm5Tn7Xc4Vb9Ld";
        let text = format!("{{\"env\": {{\"API_TOKEN\": \"{secret}\"}}}}\n");
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new(".mcp.json", text.clone()));
        let start = text.find(secret).expect("secret");
        let span = Span::new(start, start + secret.len());
        let d = Diagnostic::new(RULE, id, span, format!("value `{secret}` and more"))
            .with_redacted(span)
            .with_note(format!("quoted again: {secret}"));
        let s = Secrets::new(std::slice::from_ref(&d), &sources);
        let masked = s.text(id, &text);
        assert_eq!(
            masked,
            "{\"env\": {\"API_TOKEN\": \"Zr8K****************\"}}\n"
        );
        assert_eq!(masked.len(), text.len());
        let out = s.diagnostics(std::slice::from_ref(&d));
        assert_eq!(out[0].message, "value `Zr8K…(20 chars)` and more");
        assert_eq!(out[0].notes, ["quoted again: Zr8K…(20 chars)"]);
        // Registered on the file only (a suppressed finding): still masked.
        sources.get_mut(id).add_secret(span);
        let s = Secrets::new(&[], &sources);
        assert_eq!(s.text(id, &text), masked);
    }

    #[test]
    fn invisible_characters_in_messages_are_escaped() {
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new("a.md", "x\n"));
        let d = Diagnostic::new(
            RULE,
            id,
            skein_syntax::Span::new(0, 1),
            "a\u{202e}b\u{200b}c",
        )
        .with_label("l\u{2066}")
        .with_note("n\u{e0041}")
        .with_help("h\u{feff}");
        let secrets = Secrets::new(std::slice::from_ref(&d), &sources);
        let out = secrets.diagnostics(std::slice::from_ref(&d));
        assert_eq!(out[0].message, "a<U+202E>b<U+200B>c");
        assert_eq!(out[0].primary.message, "l<U+2066>");
        assert_eq!(out[0].notes, ["n<U+E0041>"]);
        assert_eq!(out[0].help.as_deref(), Some("h<U+FEFF>"));
    }
}
