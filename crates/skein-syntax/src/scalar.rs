//! YAML 1.2 scalar resolution and flow/block scalar text decoding.
//!
//! Source: YAML 1.2.2, §10.3 (core schema tag resolution), §7.3 (flow scalar
//! styles, line folding §6.5), §8.1 (block scalar styles, chomping §8.1.1.2).

use crate::document::{NodeKind, Number};
use std::borrow::Cow;

/// Resolves a plain scalar by the YAML 1.2 core schema (§10.3.2):
/// null, bool, int (decimal, `0o` octal, `0x` hex), float (incl. `.inf`,
/// `.nan`), otherwise string.
pub fn resolve_plain(text: &str) -> NodeKind {
    resolve_plain_scalar(text).unwrap_or_else(|| NodeKind::String(text.to_string()))
}

/// [`resolve_plain`] of a text the caller may own: a string keeps the
/// text's allocation when there is one.
pub(crate) fn resolve_plain_cow(text: Cow<'_, str>) -> NodeKind {
    resolve_plain_scalar(&text).unwrap_or_else(|| NodeKind::String(text.into_owned()))
}

/// [`resolve_plain`] but `None` for a string.
fn resolve_plain_scalar(text: &str) -> Option<NodeKind> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Some(NodeKind::Null),
        "true" | "True" | "TRUE" => return Some(NodeKind::Bool(true)),
        "false" | "False" | "FALSE" => return Some(NodeKind::Bool(false)),
        _ => {}
    }
    if let Some(n) = parse_int(text) {
        return Some(NodeKind::Number(n));
    }
    if let Some(f) = parse_float(text) {
        return Some(NodeKind::Number(Number::Float(f)));
    }
    None
}

/// Parses a core-schema integer: `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`.
pub fn parse_int(text: &str) -> Option<Number> {
    let (radix, digits, negative) = if let Some(h) = text.strip_prefix("0x") {
        (16, h, false)
    } else if let Some(o) = text.strip_prefix("0o") {
        (8, o, false)
    } else {
        let (neg, rest) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        (10, rest, neg)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    match u64::from_str_radix(digits, radix) {
        Ok(u) if !negative => Some(Number::PosInt(u)),
        Ok(0) => Some(Number::PosInt(0)),
        Ok(u) if u <= i64::MAX as u64 + 1 => {
            Some(Number::NegInt((u as i128).wrapping_neg() as i64))
        }
        // Out of the 64-bit range: read as a float, as serde_json does.
        _ => {
            let f: f64 = digits.parse().ok()?;
            Some(Number::Float(if negative { -f } else { f }))
        }
    }
}

/// Parses a core-schema float: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`,
/// `[-+]?.inf` (any of `inf`, `Inf`, `INF`), `.nan` (`nan`, `NaN`, `NAN`).
pub fn parse_float(text: &str) -> Option<f64> {
    let (sign, rest) = match text.as_bytes().first()? {
        b'-' => (-1.0, &text[1..]),
        b'+' => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    match rest {
        ".inf" | ".Inf" | ".INF" => return Some(sign * f64::INFINITY),
        ".nan" | ".NaN" | ".NAN" if sign > 0.0 && !text.starts_with('+') => return Some(f64::NAN),
        _ => {}
    }
    let b = rest.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp == 0 {
            return None;
        }
        i += exp;
    }
    if i != b.len() {
        return None;
    }
    rest.parse::<f64>().ok().map(|f| sign * f)
}

/// Splits `text` into lines, dropping the `\n` and a `\r` before it.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// Folds the lines of a plain or single-quoted flow scalar (YAML 1.2 §6.5,
/// §7.3.2, §7.3.3): trailing and leading white space around each line break
/// is dropped, a single break becomes a space, `n + 1` breaks become `n`
/// newlines. For single-quoted scalars, `''` becomes `'`.
pub fn fold_flow(text: &str, single_quoted: bool) -> String {
    fold_flow_cow(text, single_quoted).into_owned()
}

/// [`fold_flow`], borrowing `text` when folding leaves it as it is (a
/// plain scalar on one line).
pub(crate) fn fold_flow_cow(text: &str, single_quoted: bool) -> Cow<'_, str> {
    let text = if single_quoted {
        Cow::Owned(text.replace("''", "'"))
    } else {
        Cow::Borrowed(text)
    };
    if !text.contains('\n') {
        return text;
    }
    let all: Vec<&str> = lines(&text).collect();
    let last = all.len() - 1;
    let mut out = String::with_capacity(text.len());
    let mut empties = 0usize;
    let mut first = true;
    for (i, line) in all.iter().enumerate() {
        let mut l = *line;
        if i > 0 {
            l = l.trim_start_matches([' ', '\t']);
        }
        if i < last {
            l = l.trim_end_matches([' ', '\t']);
        }
        if l.is_empty() && i != 0 && i != last {
            empties += 1;
            continue;
        }
        if !first {
            if empties == 0 {
                out.push(' ');
            } else {
                out.extend(std::iter::repeat_n('\n', empties));
            }
        }
        empties = 0;
        out.push_str(l);
        first = false;
    }
    if empties > 0 {
        out.extend(std::iter::repeat_n('\n', empties));
    }
    Cow::Owned(out)
}

/// Decodes the inside of a double-quoted scalar (without the quotes):
/// escapes of YAML 1.2 §5.7 and line folding of §7.3.1 (an escaped line
/// break joins lines with nothing in between).
pub fn decode_double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Start in `out` of unescaped trailing white space on the current line.
    let mut ws_start: Option<usize> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        match c {
            '\\' => {
                ws_start = None;
                let Some((_, e)) = chars.next() else {
                    out.push('\\');
                    break;
                };
                let simple = match e {
                    '0' => Some('\0'),
                    'a' => Some('\x07'),
                    'b' => Some('\x08'),
                    't' | '\t' => Some('\t'),
                    'n' => Some('\n'),
                    'v' => Some('\x0b'),
                    'f' => Some('\x0c'),
                    'r' => Some('\r'),
                    'e' => Some('\x1b'),
                    ' ' => Some(' '),
                    '"' => Some('"'),
                    '/' => Some('/'),
                    '\\' => Some('\\'),
                    'N' => Some('\u{85}'),
                    '_' => Some('\u{a0}'),
                    'L' => Some('\u{2028}'),
                    'P' => Some('\u{2029}'),
                    _ => None,
                };
                if let Some(s) = simple {
                    out.push(s);
                    continue;
                }
                let width = match e {
                    'x' => 2,
                    'u' => 4,
                    'U' => 8,
                    '\r' | '\n' => {
                        // Escaped line break (§7.3.1 s-double-escaped): the break
                        // itself joins nothing, each empty line after it is a line
                        // feed, and the next line's indentation is skipped.
                        if e == '\r' && chars.peek().map(|&(_, c)| c) == Some('\n') {
                            chars.next();
                        }
                        loop {
                            while matches!(chars.peek(), Some(&(_, ' ' | '\t'))) {
                                chars.next();
                            }
                            match chars.peek().map(|&(_, c)| c) {
                                Some('\n') => {
                                    chars.next();
                                }
                                Some('\r') => {
                                    chars.next();
                                    if chars.peek().map(|&(_, c)| c) == Some('\n') {
                                        chars.next();
                                    }
                                }
                                _ => break,
                            }
                            out.push('\n');
                        }
                        continue;
                    }
                    other => {
                        // Invalid escape: keep it verbatim (tree-sitter reports the error).
                        out.push('\\');
                        out.push(other);
                        continue;
                    }
                };
                let hex: String = (0..width)
                    .filter_map(|_| chars.next().map(|(_, c)| c))
                    .collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push('\\');
                        out.push(e);
                        out.push_str(&hex);
                    }
                }
            }
            '\r' | '\n' => {
                if c == '\r' && chars.peek().map(|&(_, c)| c) == Some('\n') {
                    chars.next();
                }
                if let Some(ws) = ws_start.take() {
                    out.truncate(ws);
                }
                // Count empty lines after this break.
                let mut empties = 0;
                loop {
                    while matches!(chars.peek(), Some(&(_, ' ' | '\t'))) {
                        chars.next();
                    }
                    match chars.peek() {
                        Some(&(_, '\n')) => {
                            chars.next();
                            empties += 1;
                        }
                        Some(&(_, '\r')) => {
                            chars.next();
                            if chars.peek().map(|&(_, c)| c) == Some('\n') {
                                chars.next();
                            }
                            empties += 1;
                        }
                        _ => break,
                    }
                }
                if empties == 0 {
                    out.push(' ');
                } else {
                    out.extend(std::iter::repeat_n('\n', empties));
                }
            }
            ' ' | '\t' => {
                if ws_start.is_none() {
                    ws_start = Some(out.len());
                }
                out.push(c);
            }
            c => {
                ws_start = None;
                out.push(c);
            }
        }
    }
    out
}

/// A parsed block scalar header (YAML 1.2 §8.1.1): style, explicit
/// indentation indicator, chomping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockHeader {
    /// `true` for `>` (folded), `false` for `|` (literal).
    pub folded: bool,
    /// Explicit indentation indicator `1`..=`9`.
    pub indent: Option<usize>,
    /// `-` strip, `+` keep, none clip.
    pub chomp: Chomp,
}

/// Block chomping indicator (YAML 1.2 §8.1.1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chomp {
    /// `-`: no final line break.
    Strip,
    /// default: one final line break.
    Clip,
    /// `+`: the final line break and all trailing empty lines.
    Keep,
}

/// Decodes a block scalar. `text` starts at the indicator (`|` or `>`) and
/// runs to the end of the region that may hold its content; content stops at
/// the first non-empty line indented less than the content indentation.
/// `parent_indent` is the indentation of the node that owns the scalar
/// (-1 at top level). Returns the value and the byte length of `text` consumed.
pub fn decode_block(text: &str, parent_indent: i64) -> String {
    let header_end = text.find('\n').map(|i| i + 1).unwrap_or(text.len());
    let header = &text[..header_end];
    let mut h = BlockHeader {
        folded: header.starts_with('>'),
        indent: None,
        chomp: Chomp::Clip,
    };
    for c in header[1..].chars() {
        match c {
            '-' => h.chomp = Chomp::Strip,
            '+' => h.chomp = Chomp::Keep,
            '1'..='9' => h.indent = Some(c as usize - '0' as usize),
            _ => break,
        }
    }
    let body = &text[header_end..];
    // Split into lines, remembering whether each ended with a line break.
    let mut raw: Vec<(&str, bool)> = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        match rest.find('\n') {
            Some(i) => {
                let l = &rest[..i];
                raw.push((l.strip_suffix('\r').unwrap_or(l), true));
                rest = &rest[i + 1..];
            }
            None => {
                raw.push((rest.strip_suffix('\r').unwrap_or(rest), false));
                rest = "";
            }
        }
    }
    let lead = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let is_blank = |l: &str| l.trim_start_matches(' ').is_empty();
    let indent = match h.indent {
        Some(m) => (parent_indent + m as i64).max(0) as usize,
        None => {
            // Auto-detection (§8.1.1.1): the indentation of the first non-empty
            // content line; with none, that of the longest leading empty line.
            let floor = (parent_indent + 1).max(0) as usize;
            let first = raw.iter().position(|(l, _)| !is_blank(l));
            match first.map(|i| lead(raw[i].0)) {
                Some(n) if n >= floor => n,
                _ => raw[..first.unwrap_or(raw.len())]
                    .iter()
                    .map(|(l, _)| l.len())
                    .max()
                    .unwrap_or(0)
                    .max(floor),
            }
        }
    };
    // Collect content lines: stop at the first non-blank line indented less.
    let mut content: Vec<(&str, bool)> = Vec::new();
    for &(l, nl) in &raw {
        if !is_blank(l) && lead(l) < indent {
            break;
        }
        if !is_blank(l) && l.trim_start_matches(' ').starts_with('#') && lead(l) < indent {
            break;
        }
        let stripped = if l.len() >= indent && l[..indent].bytes().all(|b| b == b' ') {
            &l[indent..]
        } else if is_blank(l) {
            ""
        } else {
            l
        };
        content.push((stripped, nl));
    }
    // Drop an unterminated final empty segment (text ended right after a break).
    while let Some(&("", false)) = content.last() {
        content.pop();
    }
    let last_non_empty = content.iter().rposition(|(l, _)| !l.is_empty());
    let (body_lines, trailing) = match last_non_empty {
        Some(i) => (&content[..=i], &content[i + 1..]),
        None => (&content[..0], &content[..]),
    };
    let mut out = String::new();
    if h.folded {
        let mut prev_normal: Option<bool> = None;
        let mut empties = 0usize;
        for (l, _) in body_lines {
            if l.is_empty() {
                empties += 1;
                continue;
            }
            let normal = !l.starts_with([' ', '\t']);
            match prev_normal {
                None => out.extend(std::iter::repeat_n('\n', empties)),
                Some(p) => {
                    if p && normal {
                        if empties == 0 {
                            out.push(' ');
                        } else {
                            out.extend(std::iter::repeat_n('\n', empties));
                        }
                    } else {
                        out.extend(std::iter::repeat_n('\n', empties + 1));
                    }
                }
            }
            empties = 0;
            out.push_str(l);
            prev_normal = Some(normal);
        }
    } else {
        for (i, (l, _)) in body_lines.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(l);
        }
    }
    let ends_with_break = body_lines.last().map(|&(_, nl)| nl).unwrap_or(false);
    match h.chomp {
        Chomp::Strip => {}
        Chomp::Clip => {
            if ends_with_break {
                out.push('\n');
            }
        }
        Chomp::Keep => {
            if body_lines.is_empty() {
                out.extend(trailing.iter().filter(|(_, nl)| *nl).map(|_| '\n'));
            } else {
                if ends_with_break {
                    out.push('\n');
                }
                out.extend(trailing.iter().filter(|(_, nl)| *nl).map(|_| '\n'));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_schema_resolution() {
        assert_eq!(resolve_plain("0.1"), NodeKind::Number(Number::Float(0.1)));
        assert_eq!(resolve_plain("0x1F"), NodeKind::Number(Number::PosInt(31)));
        assert_eq!(resolve_plain("0o17"), NodeKind::Number(Number::PosInt(15)));
        assert_eq!(resolve_plain("017"), NodeKind::Number(Number::PosInt(17)));
        assert_eq!(resolve_plain("-7"), NodeKind::Number(Number::NegInt(-7)));
        assert_eq!(resolve_plain("yes"), NodeKind::String("yes".into()));
        assert_eq!(resolve_plain("on"), NodeKind::String("on".into()));
        assert_eq!(resolve_plain("~"), NodeKind::Null);
        assert_eq!(resolve_plain("Null"), NodeKind::Null);
        assert_eq!(resolve_plain("1_000"), NodeKind::String("1_000".into()));
        assert_eq!(
            resolve_plain("1e3"),
            NodeKind::Number(Number::Float(1000.0))
        );
        assert_eq!(
            resolve_plain("-.inf"),
            NodeKind::Number(Number::Float(f64::NEG_INFINITY))
        );
        assert_eq!(resolve_plain("tRue"), NodeKind::String("tRue".into()));
    }

    #[test]
    fn double_quoted_escapes_and_folding() {
        assert_eq!(decode_double_quoted(r"a\tb\u00e9\x41"), "a\tbéA");
        assert_eq!(decode_double_quoted("one\n  two"), "one two");
        assert_eq!(decode_double_quoted("one \n\n  two"), "one\ntwo");
        assert_eq!(decode_double_quoted("one\\\n  two"), "onetwo");
    }

    #[test]
    fn plain_and_single_folding() {
        assert_eq!(fold_flow("a\n  b\n\n  c", false), "a b\nc");
        assert_eq!(fold_flow("it''s", true), "it's");
    }

    #[test]
    fn block_scalars() {
        assert_eq!(decode_block("|\n  a\n   b\n\n", 0), "a\n b\n");
        assert_eq!(decode_block("|-\n  a\n  b\n", 0), "a\nb");
        assert_eq!(decode_block("|+\n  a\n\n\n", 0), "a\n\n\n");
        assert_eq!(decode_block(">\n  a\n  b\n\n  c\n", 0), "a b\nc\n");
        assert_eq!(decode_block(">\n  a\n    x\n  b\n", 0), "a\n  x\nb\n");
        assert_eq!(decode_block("|2\n    a\n", 0), "  a\n");
        assert_eq!(decode_block("|\n  a\nnext: 1\n", 0), "a\n");
    }

    #[test]
    fn block_scalar_of_empty_lines_only() {
        // Indentation comes from the longest empty line (§8.1.1.1), so the
        // lines hold no spaces of content.
        assert_eq!(decode_block("|\n  \n  \n", 0), "");
        assert_eq!(decode_block(">\n  \n  \n", 0), "");
        assert_eq!(decode_block("|+\n  \n   \n", 0), "\n\n");
        assert_eq!(decode_block("|\n  \nb: 1\n", 0), "");
        assert_eq!(decode_block("|+\r\n  \r\n\r\nb: 1\r\n", 0), "\n\n");
    }

    #[test]
    fn escaped_line_break_keeps_following_empty_lines() {
        assert_eq!(decode_double_quoted("x\\\n\n  y"), "x\ny");
        assert_eq!(decode_double_quoted("x\\\n \n\n  y"), "x\n\ny");
        assert_eq!(decode_double_quoted("x\\\r\n\r\n  y"), "x\ny");
        assert_eq!(decode_double_quoted("x \\\n  y"), "x y");
    }
}
