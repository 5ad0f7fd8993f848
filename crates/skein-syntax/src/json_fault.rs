//! Where a JSON syntax error is. tree-sitter's ERROR node holds what its
//! recovery set aside: complete values it had parsed and gave up (a pair
//! before a missing `,`), tokens it skipped, and text no token matches; its
//! span is often a whole pair or line, while the fault is one token. This
//! module finds that token by reading the tokens around the ERROR node with
//! JSON's grammar (a small pushdown automaton over tokens, complete values
//! and pairs taken whole): the first one JSON does not allow where it
//! stands is the fault, with what JSON expected there.
//!
//! The automaton starts from the ERROR node's previous sibling (what the
//! parser had accepted just before), reads the ERROR node's tokens (nested
//! ERROR nodes opened, with an explicit stack) and then the next sibling,
//! so each ERROR node costs its own size: no walk of the whole container.

use crate::span::Span;
use tree_sitter::Node as TsNode;

/// The fault of one ERROR node: its span, the offending text, and what
/// JSON allowed there.
pub(crate) struct Fault {
    pub(crate) span: Span,
    pub(crate) kind: FaultKind,
}

/// What is wrong at a [`Fault`].
pub(crate) enum FaultKind {
    /// A token JSON does not allow here; what it expected instead.
    Unexpected(&'static str),
    /// A `,` right before a closing bracket.
    TrailingComma,
    /// A string with no closing `"` on its line.
    Unterminated,
    /// The file ends where JSON expected more (a file cut short); what it
    /// expected.
    End(&'static str),
}

/// One token as the automaton reads it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tok {
    /// `{` (true) or `[` (false).
    Open(bool),
    /// `}` (true) or `]` (false).
    Close(bool),
    Comma,
    Colon,
    /// A string: a value, or a key.
    Str,
    /// A number, `true`, `false`, `null`, an object or an array, whole.
    Value,
    /// A key, `:` and value, whole.
    Pair,
    /// A string whose closing `"` is missing: the span to point at.
    Unterminated,
    /// Anything else: text no JSON token matches.
    Bad,
}

/// What the automaton expects next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    Value,
    ValueOrClose,
    Key,
    KeyOrClose,
    Colon,
    CommaOrClose,
    End,
}

struct Automaton {
    expect: Expect,
    /// Open containers, innermost last: true for an object.
    stack: Vec<bool>,
}

impl Automaton {
    fn after_value(&mut self) {
        self.expect = if self.stack.is_empty() {
            Expect::End
        } else {
            Expect::CommaOrClose
        };
    }

    /// Reads `t`; false when JSON does not allow it here.
    fn step(&mut self, t: Tok) -> bool {
        let top = self.stack.last().copied();
        match (self.expect, t) {
            (Expect::Value | Expect::ValueOrClose, Tok::Str | Tok::Value) => self.after_value(),
            (Expect::Value | Expect::ValueOrClose, Tok::Open(object)) => {
                self.stack.push(object);
                self.expect = if object {
                    Expect::KeyOrClose
                } else {
                    Expect::ValueOrClose
                };
            }
            (Expect::Key | Expect::KeyOrClose, Tok::Str) => self.expect = Expect::Colon,
            (Expect::Key | Expect::KeyOrClose, Tok::Pair) => self.expect = Expect::CommaOrClose,
            (Expect::Colon, Tok::Colon) => self.expect = Expect::Value,
            (Expect::CommaOrClose, Tok::Comma) => {
                self.expect = if top == Some(true) {
                    Expect::Key
                } else {
                    Expect::Value
                };
            }
            (Expect::ValueOrClose | Expect::KeyOrClose | Expect::CommaOrClose, Tok::Close(c))
                if top == Some(c) =>
            {
                self.stack.pop();
                self.after_value();
            }
            _ => return false,
        }
        true
    }

    /// What was expected, in words.
    fn expected(&self) -> &'static str {
        let object = self.stack.last() == Some(&true);
        match self.expect {
            Expect::Value => "a value",
            Expect::ValueOrClose => "a value or `]`",
            Expect::Key => "a key (a string)",
            Expect::KeyOrClose => "a key (a string) or `}`",
            Expect::Colon => "`:`",
            Expect::CommaOrClose if object => "`,` or `}`",
            Expect::CommaOrClose => "`,` or `]`",
            Expect::End => "the end of the file",
        }
    }
}

/// A string node whose text runs past its line: tree-sitter-json lets a
/// string take the next line's text up to the next `"`.
fn multiline_string(n: TsNode, text: &str) -> bool {
    n.kind() == "string" && text[n.start_byte()..n.end_byte()].contains('\n')
}

/// For a lone `"` token (a string the parser did not take whole): the end
/// of its string, past the closing `"` on the same line, if any.
fn string_end(n: TsNode, text: &str) -> Option<usize> {
    let start = n.start_byte();
    let mut escaped = false;
    for (i, c) in text[start + 1..].char_indices() {
        match c {
            '\n' | '\r' => return None,
            '"' if !escaped => return Some(start + 1 + i + 1),
            '\\' => escaped = !escaped,
            _ => escaped = false,
        }
    }
    None
}

fn tok(n: TsNode, text: &str) -> Tok {
    if n.is_error() {
        return Tok::Bad;
    }
    match n.kind() {
        "{" => Tok::Open(true),
        "[" => Tok::Open(false),
        "}" => Tok::Close(true),
        "]" => Tok::Close(false),
        "," => Tok::Comma,
        ":" => Tok::Colon,
        // The opening quote of a string the parser did not take whole: a
        // string when it closes on its line.
        "\"" if string_end(n, text).is_some() => Tok::Str,
        "\"" => Tok::Unterminated,
        "string" if multiline_string(n, text) => Tok::Unterminated,
        "string" => Tok::Str,
        "pair" => match n.child_by_field_name("value") {
            Some(v) if multiline_string(v, text) => Tok::Unterminated,
            _ => Tok::Pair,
        },
        "number" | "true" | "false" | "null" | "object" | "array" => Tok::Value,
        _ => Tok::Bad,
    }
}

/// The node to point at for `n`: a pair's key, an unterminated string's
/// opening quote to the end of its line, else `n`, all cut to their first
/// line.
fn point_at(n: TsNode, t: Tok, text: &str) -> Span {
    let n = match (t, n.kind()) {
        (Tok::Unterminated, "pair") => n.child_by_field_name("value").unwrap_or(n),
        (_, "pair") => n.child_by_field_name("key").unwrap_or(n),
        _ => n,
    };
    let start = n.start_byte();
    let end = if let Some(end) = (n.kind() == "\"").then(|| string_end(n, text)).flatten() {
        end
    } else if t == Tok::Unterminated {
        // To the end of the line: the rest of the line is the string's.
        text[start..]
            .find(['\n', '\r'])
            .map_or(text.len(), |i| start + i)
    } else {
        let end = n.end_byte();
        text[start..end].find('\n').map_or(end, |i| start + i)
    };
    Span::new(start, end.max(start))
}

/// Whether `n` takes no part in the grammar (a comment, in JSONC).
fn extra(n: TsNode) -> bool {
    n.kind() == "comment"
}

/// The automaton's state right after `prev`, in `parent`; `None` when the
/// state cannot be told from them (another ERROR node before this one).
fn state_after(parent: Option<TsNode>, prev: Option<TsNode>, text: &str) -> Option<Automaton> {
    let mut a = Automaton {
        expect: Expect::Value,
        stack: Vec::new(),
    };
    match parent.map(|p| p.kind()) {
        None | Some("document") => {}
        Some("object") => a.stack.push(true),
        Some("array") => a.stack.push(false),
        Some("pair") => {
            a.stack.push(true);
            a.expect = Expect::Key;
        }
        Some(_) => return None,
    }
    let Some(prev) = prev else {
        // The first child: an object's or array's is its bracket.
        return (a.stack.is_empty() || parent.is_some_and(|p| p.kind() == "pair")).then_some(a);
    };
    match (parent.map(|p| p.kind()), tok(prev, text)) {
        (Some("object"), Tok::Open(true)) => a.expect = Expect::KeyOrClose,
        (Some("array"), Tok::Open(false)) => a.expect = Expect::ValueOrClose,
        (Some("object"), Tok::Comma) => a.expect = Expect::Key,
        (Some("array"), Tok::Comma) => a.expect = Expect::Value,
        (Some("object"), Tok::Pair) | (Some("array"), Tok::Str | Tok::Value) => {
            a.expect = Expect::CommaOrClose;
        }
        (Some("pair"), Tok::Str) => a.expect = Expect::Colon,
        (Some("pair"), Tok::Colon) => a.expect = Expect::Value,
        (None | Some("document"), Tok::Str | Tok::Value) => a.expect = Expect::End,
        _ => return None,
    }
    Some(a)
}

/// The fault of the ERROR node `n`, or `None` when the tokens around it
/// do not tell (the caller then points at the node).
pub(crate) fn fault(n: TsNode, text: &str) -> Option<Fault> {
    let parent = n.parent();
    let mut prev = n.prev_sibling();
    while let Some(p) = prev.filter(|p| extra(*p)) {
        prev = p.prev_sibling();
    }
    let mut a = state_after(parent, prev, text)?;
    // The ERROR node's tokens, nested ERROR nodes opened, in order.
    let mut tokens = Vec::new();
    let mut stack = vec![n];
    while let Some(m) = stack.pop() {
        if m.is_error() && m.child_count() > 0 {
            let mut c = m.walk();
            let children: Vec<TsNode> = m.children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        } else if !extra(m) {
            tokens.push(m);
        }
    }
    let mut next = n.next_sibling();
    while let Some(s) = next.filter(|s| extra(*s)) {
        next = s.next_sibling();
    }
    // Nothing after the node but white space: the file was cut short.
    let cut_short = next.is_none() && text[n.end_byte()..].trim().is_empty();
    let mut last: Option<(TsNode, Tok)> = None;
    // The end of a string read from its opening `"`: its other tokens are in it.
    let mut inside = 0;
    for m in tokens.into_iter().chain(next) {
        if m.start_byte() < inside {
            continue;
        }
        let t = tok(m, text);
        if m.kind() == "\"" {
            inside = string_end(m, text).unwrap_or(0);
        }
        if t == Tok::Unterminated {
            return Some(Fault {
                span: point_at(m, t, text),
                kind: FaultKind::Unterminated,
            });
        }
        if !a.step(t) {
            if let (Tok::Close(_), Some((comma, Tok::Comma))) = (t, last) {
                return Some(Fault {
                    span: point_at(comma, Tok::Comma, text),
                    kind: FaultKind::TrailingComma,
                });
            }
            return Some(Fault {
                span: point_at(m, t, text),
                kind: FaultKind::Unexpected(a.expected()),
            });
        }
        last = Some((m, t));
    }
    if cut_short && a.expect != Expect::End {
        return Some(Fault {
            span: Span::empty(text.trim_end().len()),
            kind: FaultKind::End(a.expected()),
        });
    }
    None
}
