//! TOML -> [`Document`], for the TOML artifacts (Codex's `.codex/config.toml`).
//!
//! The `toml` crate's spanned parser (`DeTable::parse_recoverable`) gives
//! every key and value its byte range; they become the document's nodes, in
//! file order (the crate's map is ordered by key, so entries are re-sorted
//! by their key's offset). A table written as a `[header]` spans from its
//! header; dotted keys build the nested tables they name. Errors are
//! [`rules::SYNTAX_ERROR`] diagnostics at the span the parser gives, and the
//! recovered rest of the file is still converted.

use crate::diagnostic::Diagnostic;
use crate::document::{Document, Entry, NodeId, NodeKind, Number};
use crate::parse::{MAX_DEPTH, Parsed};
use crate::rules;
use crate::source::FileId;
use crate::span::Span;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// Parses a TOML file. Comments (`# ...`) are collected as the other fronts
/// collect theirs, for suppression comments.
pub fn parse_toml(file: FileId, text: &str) -> Parsed {
    let mut out = Parsed::default();
    let (table, errors) = DeTable::parse_recoverable(text);
    for e in errors {
        let span = e
            .span()
            .map(|r| clamp(text, r.start, r.end))
            .unwrap_or_else(|| Span::new(0, 0));
        out.diagnostics.push(
            Diagnostic::new(
                rules::SYNTAX_ERROR,
                file,
                span,
                format!("syntax error: {}", e.message().trim()),
            )
            .with_label("TOML parse error"),
        );
    }
    out.comments = comments(text);
    let span = table.span();
    let root = table_node(
        &mut out.document,
        text,
        table.get_ref(),
        clamp(text, span.start, span.end),
        0,
    );
    out.document.set_root(Some(root));
    out
}

fn clamp(text: &str, start: usize, end: usize) -> Span {
    let end = end.min(text.len());
    let start = start.min(end);
    Span::new(start, end)
}

fn table_node(doc: &mut Document, text: &str, t: &DeTable<'_>, span: Span, depth: usize) -> NodeId {
    let mut items: Vec<(&Spanned<std::borrow::Cow<'_, str>>, &Spanned<DeValue<'_>>)> =
        t.iter().collect();
    items.sort_by_key(|(k, _)| k.span().start);
    let mut entries = Vec::with_capacity(items.len());
    for (k, v) in items {
        let ks = k.span();
        let key = doc.push(
            clamp(text, ks.start, ks.end),
            NodeKind::String(k.get_ref().to_string()),
        );
        let value = value_node(doc, text, v, depth + 1);
        entries.push(Entry { key, value });
    }
    doc.push(span, NodeKind::Mapping(entries))
}

fn value_node(doc: &mut Document, text: &str, v: &Spanned<DeValue<'_>>, depth: usize) -> NodeId {
    let r = v.span();
    let span = clamp(text, r.start, r.end);
    if depth > MAX_DEPTH {
        return doc.push(span, NodeKind::Null);
    }
    match v.get_ref() {
        DeValue::String(s) => doc.push(span, NodeKind::String(s.to_string())),
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            let digits = digits.trim_start_matches('+');
            let n = match i64::from_str_radix(digits, i.radix()) {
                Ok(v) if v >= 0 => Number::PosInt(v as u64),
                Ok(v) => Number::NegInt(v),
                Err(_) => Number::Float(f64::NAN),
            };
            doc.push(span, NodeKind::Number(n))
        }
        DeValue::Float(f) => {
            let n = f
                .as_str()
                .replace('_', "")
                .parse::<f64>()
                .unwrap_or(f64::NAN);
            doc.push(span, NodeKind::Number(Number::Float(n)))
        }
        DeValue::Boolean(b) => doc.push(span, NodeKind::Bool(*b)),
        DeValue::Datetime(d) => doc.push(span, NodeKind::String(d.to_string())),
        DeValue::Array(a) => {
            let items = a
                .iter()
                .map(|i| value_node(doc, text, i, depth + 1))
                .collect();
            doc.push(span, NodeKind::Sequence(items))
        }
        DeValue::Table(t) => table_node(doc, text, t, span, depth),
    }
}

/// The spans of `#` comments outside strings, line by line (a `#` inside a
/// basic or literal string on the same line is skipped; multi-line strings
/// are not tracked, which can only add a span inside one).
fn comments(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let mut quote: Option<u8> = None;
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match quote {
                Some(q) if b == q => quote = None,
                Some(b'"') if b == b'\\' => i += 1,
                Some(_) => {}
                None if b == b'"' || b == b'\'' => quote = Some(b),
                None if b == b'#' => {
                    let end = line.trim_end_matches(['\n', '\r']).len();
                    out.push(Span::new(offset + i, offset + end));
                    break;
                }
                None => {}
            }
            i += 1;
        }
        offset += line.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_and_spans() {
        let text = "# c\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"x\"]\nenv = { A = \"1\" }\n";
        let p = parse_toml(FileId(0), text);
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let d = &p.document;
        let root = d.root().unwrap();
        let s = d.get(root, "mcp_servers").unwrap();
        let docs = d.get(s, "docs").unwrap();
        let c = d.get(docs, "command").unwrap();
        assert_eq!(d.as_str(c), Some("npx"));
        let span = d.node(c).span;
        assert_eq!(&text[span.range()], "\"npx\"");
        let k = d.entries(docs).unwrap()[0].key;
        assert_eq!(&text[d.node(k).span.range()], "command");
        assert_eq!(d.items(d.get(docs, "args").unwrap()).unwrap().len(), 2);
        assert_eq!(p.comments, vec![Span::new(0, 3)]);
    }

    #[test]
    fn errors_are_diagnostics() {
        let p = parse_toml(FileId(0), "[a]\nb = \nc = 1\n");
        assert!(!p.diagnostics.is_empty());
        assert!(p.document.root().is_some());
    }
}
