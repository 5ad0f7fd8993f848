//! SEC009 `bidi-control-character`.

use crate::{Context, FilePass, On, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, Span};
use std::borrow::Cow;

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC009",
    name: "bidi-control-character",
    severity: Severity::Warning,
    summary: "a bidirectional control character reorders how the text is displayed (Trojan Source)",
    doc: include_str!("bidi_control_character.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Any,
};

/// The class of a character these rules report, with its Unicode name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hidden {
    /// U+202A–U+202E, U+2066–U+2069.
    Bidi(&'static str),
    /// Zero-width characters, the word joiner, a BOM past the start, tags.
    Invisible(&'static str),
}

/// What `c` is, if it is a character these rules report.
pub(crate) fn hidden(c: char) -> Option<Hidden> {
    use Hidden::*;
    Some(match c {
        '\u{202a}' => Bidi("LEFT-TO-RIGHT EMBEDDING"),
        '\u{202b}' => Bidi("RIGHT-TO-LEFT EMBEDDING"),
        '\u{202c}' => Bidi("POP DIRECTIONAL FORMATTING"),
        '\u{202d}' => Bidi("LEFT-TO-RIGHT OVERRIDE"),
        '\u{202e}' => Bidi("RIGHT-TO-LEFT OVERRIDE"),
        '\u{2066}' => Bidi("LEFT-TO-RIGHT ISOLATE"),
        '\u{2067}' => Bidi("RIGHT-TO-LEFT ISOLATE"),
        '\u{2068}' => Bidi("FIRST STRONG ISOLATE"),
        '\u{2069}' => Bidi("POP DIRECTIONAL ISOLATE"),
        '\u{200b}' => Invisible("ZERO WIDTH SPACE"),
        '\u{200c}' => Invisible("ZERO WIDTH NON-JOINER"),
        '\u{200d}' => Invisible("ZERO WIDTH JOINER"),
        '\u{2060}' => Invisible("WORD JOINER"),
        '\u{feff}' => Invisible("ZERO WIDTH NO-BREAK SPACE"),
        '\u{e0000}'..='\u{e007f}' => Invisible("TAG"),
        _ => return None,
    })
}

/// Whether `b` may hold a character [`hidden`] reports: the UTF-8 encodings
/// of U+200B–U+200D and U+202A–U+202E (`e2 80 ..`), U+2060 and U+2066–U+2069
/// (`e2 81 ..`), U+FEFF (`ef bb bf`) and the tags (`f3 a0 80..81 ..`),
/// found with `memchr` on their lead bytes. Every SEC009/SEC010 pass asks it
/// of every file, and most files (dashes and curly quotes are `e2 80 ..` too)
/// hold none, so it is exact on the bytes, not only on the lead byte.
fn may_hold_hidden(b: &[u8]) -> bool {
    memchr::memchr3_iter(0xe2, 0xef, 0xf3, b).any(|i| {
        let (b1, b2) = (
            b.get(i + 1).copied().unwrap_or(0),
            b.get(i + 2).copied().unwrap_or(0),
        );
        match b[i] {
            0xe2 => {
                (b1 == 0x80 && matches!(b2, 0x8b..=0x8d | 0xaa..=0xae))
                    || (b1 == 0x81 && matches!(b2, 0xa0 | 0xa6..=0xa9))
            }
            0xef => b1 == 0xbb && b2 == 0xbf,
            _ => b1 == 0xa0 && matches!(b2, 0x80 | 0x81),
        }
    })
}

/// A run of reported characters of one class: its span, the first
/// character and how many.
#[derive(Debug, Clone)]
pub(crate) struct Run {
    pub span: Span,
    pub first: char,
    pub class: Hidden,
    pub count: usize,
}

/// Whether a joiner after `prev` is part of writing rather than hidden: a
/// zero-width joiner in an emoji sequence, a joiner or non-joiner between
/// letters of a script that uses them (Arabic, Persian, Indic scripts).
fn in_writing(c: char, prev: Option<char>, next: Option<char>) -> bool {
    let emoji = |p: char| {
        let u = p as u32;
        (0x1f000..=0x1faff).contains(&u) || (0x2600..=0x27bf).contains(&u) || u == 0xfe0f
    };
    let letter = |p: char| !p.is_ascii() && p.is_alphabetic();
    match c {
        '\u{200d}' => {
            prev.is_some_and(|p| emoji(p) || letter(p))
                && next.is_some_and(|n| emoji(n) || letter(n))
        }
        '\u{200c}' => prev.is_some_and(letter) && next.is_some_and(letter),
        _ => false,
    }
}

/// [`runs`] of the text of `a`, found once per artifact of the context
/// ([`crate::Memo`]): this rule and `invisible-character` both read them.
pub(crate) fn runs_of<'a>(cx: &'a Context, a: &Artifact) -> Cow<'a, [Run]> {
    let text = cx.sources.get(a.file).text();
    let i = cx.artifacts.binary_search_by_key(&a.file, |x| x.file).ok();
    match i.and_then(|i| cx.memo.hidden_runs(i)) {
        Some(cell) => Cow::Borrowed(cell.get_or_init(|| runs(text))),
        None => Cow::Owned(runs(text)),
    }
}

/// Every run of hidden characters of `text`, in order. A BOM at the start
/// of the file (the byte-order-mark rule's) and the tag characters of an
/// emoji flag sequence (U+1F3F4 followed by tags ending in U+E007F) are
/// writing, not hidden text.
pub(crate) fn runs(text: &str) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    if !may_hold_hidden(text.as_bytes()) {
        return out;
    }
    let mut it = text.char_indices().peekable();
    let mut prev: Option<char> = None;
    let mut flag = false;
    while let Some((i, c)) = it.next() {
        let next = it.peek().map(|x| x.1);
        let before = prev.replace(c);
        if c == '\u{1f3f4}' {
            flag = true;
            continue;
        }
        let Some(class) = hidden(c) else {
            flag = false;
            continue;
        };
        if (c == '\u{feff}' && i == 0) || in_writing(c, before, next) {
            continue;
        }
        if flag && ('\u{e0000}'..='\u{e007f}').contains(&c) {
            continue;
        }
        let end = i + c.len_utf8();
        if let Some(last) = out.last_mut()
            && last.span.end as usize == i
            && std::mem::discriminant(&last.class) == std::mem::discriminant(&class)
        {
            last.span = Span::new(last.span.start as usize, end);
            last.count += 1;
            continue;
        }
        out.push(Run {
            span: Span::new(i, end),
            first: c,
            class,
            count: 1,
        });
    }
    out
}

/// The line around `span`, each hidden character written `<U+XXXX>`, at
/// most 60 characters either side.
pub(crate) fn excerpt(text: &str, span: Span) -> String {
    // The line, at most 200 bytes either side (linear time on a long line).
    let mut lo = (span.start as usize).saturating_sub(200);
    while !text.is_char_boundary(lo) {
        lo += 1;
    }
    let mut hi = (span.end as usize + 200).min(text.len());
    while !text.is_char_boundary(hi) {
        hi -= 1;
    }
    let start = text[lo..span.start as usize]
        .rfind('\n')
        .map_or(lo, |i| lo + i + 1);
    let end = text[span.end as usize..hi]
        .find('\n')
        .map_or(hi, |i| span.end as usize + i);
    let before: Vec<char> = text[start..span.start as usize]
        .chars()
        .rev()
        .take(31)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let after: Vec<char> = text[span.end as usize..end].chars().take(31).collect();
    let mut s = String::new();
    if before.len() > 30 {
        s.push('…');
    }
    let esc = |c: char| match hidden(c) {
        Some(_) => format!("<U+{:04X}>", c as u32),
        None if c.is_control() => format!("<U+{:04X}>", c as u32),
        None => c.to_string(),
    };
    for &c in &before[before.len().saturating_sub(30)..] {
        s.push_str(&esc(c));
    }
    for c in text[span.range()].chars() {
        s.push_str(&esc(c));
    }
    for &c in after.iter().take(30) {
        s.push_str(&esc(c));
    }
    if after.len() > 30 {
        s.push('…');
    }
    s.trim().to_string()
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let text = cx.sources.get(a.file).text();
    let mut line_reported: Option<usize> = None;
    let runs = runs_of(cx, a);
    runs.iter()
        .filter(|r| matches!(r.class, Hidden::Bidi(_)))
        .filter(|r| {
            // A pop that closes a control already reported on its line is
            // part of that finding.
            let line = text[..r.span.start as usize]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let pop = matches!(r.first, '\u{202c}' | '\u{2069}');
            let skip = pop && line_reported == Some(line);
            line_reported = Some(line);
            !skip
        })
        .take(50)
        .map(|r| {
            let Hidden::Bidi(name) = r.class else {
                unreachable!()
            };
            let more = if r.count > 1 {
                format!(" (and {} more)", r.count - 1)
            } else {
                String::new()
            };
            Diagnostic::new(
                RULE,
                a.file,
                r.span,
                format!(
                    "U+{:04X} {name}{more} changes the order the text is displayed in: `{}`",
                    r.first as u32,
                    excerpt(text, r.span)
                ),
            )
            .with_label("invisible direction control")
            .with_note(
                "a reviewer reads the text reordered; the agent reads the characters in file order",
            )
            .with_help("remove the character; write right-to-left text without explicit overrides")
            .with_fix(skein_syntax::Fix::unsafe_(
                if r.count > 1 {
                    "remove the characters"
                } else {
                    "remove the character"
                },
                vec![skein_syntax::Edit::delete(r.span)],
            ))
        })
        .collect()
}
