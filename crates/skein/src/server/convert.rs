//! Between skein's values and the protocol's: file URIs and paths, byte
//! offsets and positions (UTF-8 or UTF-16 columns, as negotiated), and
//! diagnostics.

use lsp_types as lsp;
use skein_syntax::{Diagnostic, FileId, Severity, SourceFile, SourceMap, Span};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// How `Position::character` counts (LSP 3.17 `positionEncoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 code units (bytes), when the client offers it.
    Utf8,
    /// UTF-16 code units, the protocol's default.
    Utf16,
}

/// The local path of a `file:` URI (percent-decoded); `None` for another scheme.
pub fn uri_to_path(uri: &lsp::Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    // `file://host/path`: only the empty host and `localhost` are local.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push(h * 16 + l);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    let s = String::from_utf8(out).ok()?;
    Some(PathBuf::from(s))
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// The `file:` URI of an absolute path, percent-encoding what RFC 3986 does
/// not allow in a path segment.
pub fn path_to_uri(path: &Path) -> lsp::Uri {
    let mut s = String::from("file://");
    for &b in path.to_string_lossy().as_bytes() {
        let keep = b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b);
        if keep {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    lsp::Uri::from_str(&s).expect("a percent-encoded file URI parses")
}

/// The position of byte `offset` of `file`.
pub fn position(file: &SourceFile, offset: usize, enc: Encoding) -> lsp::Position {
    let text = file.text();
    let offset = floor_char(text, offset.min(text.len()));
    let lines = file.lines();
    let line = lines.line_of(offset);
    let start = lines.line_starts()[line] as usize;
    let seg = &text[start..offset];
    let character = match enc {
        Encoding::Utf8 => seg.len(),
        Encoding::Utf16 => seg.encode_utf16().count(),
    };
    lsp::Position::new(line as u32, character as u32)
}

/// The range of `span` in `file`.
pub fn range(file: &SourceFile, span: Span, enc: Encoding) -> lsp::Range {
    lsp::Range::new(
        position(file, span.start as usize, enc),
        position(file, span.end as usize, enc),
    )
}

/// The byte offset of `pos` in `file`: clamped to the end of its line and
/// of the file, rounded down to a character boundary.
pub fn offset(file: &SourceFile, pos: lsp::Position, enc: Encoding) -> usize {
    let text = file.text();
    let starts = file.lines().line_starts();
    let line = pos.line as usize;
    if line >= starts.len() {
        return text.len();
    }
    let start = starts[line] as usize;
    let end = starts.get(line + 1).map_or(text.len(), |&e| e as usize);
    let seg = &text[start..end];
    let mut units = 0usize;
    for (i, c) in seg.char_indices() {
        if units >= pos.character as usize || c == '\n' {
            return start + i;
        }
        units += match enc {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        };
    }
    end
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The protocol's form of `d`: code, link to the rule's documentation,
/// severity, related information from the secondary labels, `unnecessary`
/// for an unused suppression. `d` is already scrubbed of secrets.
pub fn diagnostic(
    d: &Diagnostic,
    sources: &SourceMap,
    root: &Path,
    enc: Encoding,
) -> lsp::Diagnostic {
    let file = sources.get(d.primary.file);
    let severity = match d.severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
    };
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .filter(|l| (l.file.0 as usize) < sources.len())
        .map(|l| {
            let f = sources.get(l.file);
            lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(
                    path_to_uri(&root.join(f.path())),
                    range(f, l.span, enc),
                ),
                message: if l.message.is_empty() {
                    "here".to_string()
                } else {
                    l.message.clone()
                },
            }
        })
        .collect();
    let mut message = d.message.clone();
    if !d.primary.message.is_empty() {
        message = format!("{message}: {}", d.primary.message);
    }
    if let Some(h) = &d.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    let href = lsp::Uri::from_str(&skein_report::rule_url(&d.rule)).ok();
    lsp::Diagnostic {
        range: range(file, d.primary.span, enc),
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.rule.code.to_string())),
        code_description: href.map(|href| lsp::CodeDescription { href }),
        source: Some("skein".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: (d.rule.code == crate::suppress::UNUSED_SUPPRESSION.code)
            .then(|| vec![lsp::DiagnosticTag::UNNECESSARY]),
        data: None,
    }
}

/// The id of the file at project-relative `rel` in `sources`, among the
/// first `read` (the analyzed files).
pub fn file_id(sources: &SourceMap, read: usize, rel: &str) -> Option<FileId> {
    (0..read)
        .map(|i| FileId(i as u32))
        .find(|&id| sources.get(id).path() == rel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_or_bytes() {
        let f = SourceFile::new("a.yaml", "a: é😀x\nb: 1\n");
        let x = "a: é😀".len();
        assert_eq!(position(&f, x, Encoding::Utf16), lsp::Position::new(0, 6));
        assert_eq!(position(&f, x, Encoding::Utf8), lsp::Position::new(0, 9));
        assert_eq!(offset(&f, lsp::Position::new(0, 6), Encoding::Utf16), x);
        assert_eq!(offset(&f, lsp::Position::new(0, 9), Encoding::Utf8), x);
        assert_eq!(offset(&f, lsp::Position::new(1, 99), Encoding::Utf16), 15);
        assert_eq!(offset(&f, lsp::Position::new(9, 0), Encoding::Utf16), 16);
    }

    #[test]
    fn file_uris_round_trip() {
        let p = Path::new("/tmp/a b/ü#.md");
        let u = path_to_uri(p);
        assert_eq!(u.as_str(), "file:///tmp/a%20b/%C3%BC%23.md");
        assert_eq!(uri_to_path(&u).as_deref(), Some(p));
    }
}
