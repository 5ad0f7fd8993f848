//! Exact edits that rules build their fixes from (issue #15).
//!
//! Each helper returns `None` rather than guess: an alias, a tag, an anchor,
//! a block scalar or a value whose text is not what the tree holds is never
//! edited. A replacement is written in the quoting of the value it
//! replaces, so the file parses as before:
//!
//! - a double-quoted value (JSON, or YAML `"..."`) gets a JSON string
//!   literal, which both read alike (`\"`, `\\`, `\n`, `\uXXXX`);
//! - a YAML single-quoted value gets `'...'` with `'` doubled;
//! - a YAML plain value stays plain when the new text is plain-safe
//!   ([`plain_safe`]), else it is double-quoted.

use skein_syntax::{Document, Edit, NodeId, NodeKind, Span};

/// The node's own text in `text`, when its span is in bounds and the node
/// is no alias.
fn raw<'t>(doc: &Document, id: NodeId, text: &'t str) -> Option<(Span, &'t str)> {
    if doc.resolve(id) != id {
        return None;
    }
    let span = doc.node(id).span;
    text.get(span.range()).map(|r| (span, r))
}

/// Whether `s` can be written as a YAML plain scalar, in block or flow
/// context, and read back as the same string (never as a boolean, null or
/// number of the core schema): it starts with a letter or `/`, `.`, `_`,
/// `$`; holds only letters, digits, spaces and `-_./()*@+$:~=<>^%`; has no
/// `: ` or ` #`, does not end with `:` or a space; and is no core-schema
/// keyword.
pub fn plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    let keyword = matches!(
        s.to_ascii_lowercase().as_str(),
        "true" | "false" | "null" | "~" | ".inf" | ".nan" | "yes" | "no" | "on" | "off"
    );
    (first.is_alphabetic() || matches!(first, '/' | '_' | '$'))
        && !keyword
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || "-_./()*@+$:~=<>^%".contains(c))
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s.ends_with(' ')
}

/// `value` as a literal for the place of `raw` (the text of the value it
/// replaces): see the module doc. `None` for a block scalar, a tagged or
/// anchored value, or a non-string raw that is not plain.
pub fn literal_like(raw: &str, value: &str) -> Option<String> {
    match raw.as_bytes().first()? {
        b'"' => serde_json::to_string(value).ok(),
        b'\'' => Some(format!("'{}'", value.replace('\'', "''"))),
        b'|' | b'>' | b'!' | b'&' | b'*' => None,
        _ if plain_safe(value) => Some(value.to_string()),
        _ => serde_json::to_string(value).ok(),
    }
}

/// An edit that makes the string node `id` (a value or a key) read `value`:
/// the whole node replaced by [`literal_like`]. `None` when the node is not
/// a string written in one of the three styles.
pub fn replace_string(doc: &Document, id: NodeId, text: &str, value: &str) -> Option<Edit> {
    let (span, raw) = raw(doc, id, text)?;
    if !matches!(doc.kind(id), NodeKind::String(_)) || raw.contains('\n') {
        return None;
    }
    literal_like(raw, value).map(|l| Edit::replace(span, l))
}

/// An edit that replaces `range` (byte offsets into the string value of
/// node `id`) with `piece`: the whole node rewritten with the new value.
/// `None` unless the node is a string (see [`replace_string`]).
pub fn replace_piece(
    doc: &Document,
    id: NodeId,
    text: &str,
    range: std::ops::Range<usize>,
    piece: &str,
) -> Option<Edit> {
    let NodeKind::String(s) = doc.kind(id) else {
        return None;
    };
    let mut value = s.clone();
    value.get(range.clone())?;
    value.replace_range(range, piece);
    replace_string(doc, id, text, &value)
}

/// An edit that replaces the exact bytes of the string value `id` spells
/// at `span` (a sub-span [`crate::rules::sec::sub_span`] gave, which is
/// exact only when the node's text is its value) with `piece`: for values
/// inside longer strings (a tool in `"Read, Bash"`). `None` unless the
/// node's text between its quotes is its value verbatim and `piece` needs
/// no escaping there.
pub fn replace_verbatim(
    doc: &Document,
    id: NodeId,
    text: &str,
    span: Span,
    piece: &str,
) -> Option<Edit> {
    let (whole, raw) = raw(doc, id, text)?;
    let NodeKind::String(s) = doc.kind(id) else {
        return None;
    };
    let quoted = matches!(raw.as_bytes().first(), Some(b'"' | b'\''));
    let inner = if quoted && raw.len() >= 2 {
        &raw[1..raw.len() - 1]
    } else {
        raw
    };
    let inner_start = whole.start as usize + usize::from(quoted);
    let inside = span.start as usize >= inner_start
        && span.end as usize <= inner_start + inner.len()
        && span.start <= span.end;
    let clean = piece
        .chars()
        .all(|c| c.is_alphanumeric() || "-_./()*@+:~ ".contains(c));
    (s == inner && inside && clean).then(|| Edit::replace(span, piece))
}

/// An edit that makes the scalar written at `span` read `new` instead of
/// `old`, for rules that hold a value's span but not its node: `None`
/// unless the text there is `old` itself (plain) or a JSON string literal
/// of `old` (double-quoted without YAML-only escapes).
pub fn replace_literal_at(text: &str, span: Span, old: &str, new: &str) -> Option<Edit> {
    let raw = text.get(span.range())?;
    let exact = raw == old || serde_json::from_str::<String>(raw).ok().as_deref() == Some(old);
    if !exact || raw.contains('\n') {
        return None;
    }
    literal_like(raw, new).map(|l| Edit::replace(span, l))
}

/// Whether a "did you mean" suggestion is close enough to become a fix:
/// the same after folding case, `-` and `_` ([`crate::similar::fold`]), or
/// one edit apart after folding. A farther suggestion stays a hint in the
/// help (`Shell` -> `Skill` is two edits: perhaps not what was meant).
pub fn near(written: &str, suggested: &str) -> bool {
    let (a, b) = (
        crate::similar::fold(written),
        crate::similar::fold(suggested),
    );
    crate::similar::within(&a, &b, 1).is_some()
}

/// The span of the whole line (from its start to after its line break, or
/// to the end of the text) that holds `at`.
pub fn line_of(text: &str, at: usize) -> Span {
    let start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |i| at + i + 1);
    Span::new(start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_keep_the_quoting() {
        assert_eq!(
            literal_like("\"Raed\"", "Read").as_deref(),
            Some("\"Read\"")
        );
        assert_eq!(literal_like("'Raed'", "it's").as_deref(), Some("'it''s'"));
        assert_eq!(literal_like("Raed", "Read").as_deref(), Some("Read"));
        assert_eq!(literal_like("Raed", "a: b").as_deref(), Some("\"a: b\""));
        assert_eq!(literal_like("x", "true").as_deref(), Some("\"true\""));
        assert_eq!(literal_like("x", "12").as_deref(), Some("\"12\""));
        assert_eq!(literal_like("|", "x"), None);
        assert!(plain_safe("Bash(git add:*)"));
        assert!(!plain_safe("a #b"));
        assert!(!plain_safe("-x"));
    }

    #[test]
    fn lines() {
        assert_eq!(line_of("a\nbc\nd", 3), Span::new(2, 5));
        assert_eq!(line_of("a\nbc", 3), Span::new(2, 4));
    }
}
