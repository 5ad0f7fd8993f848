//! Locating YAML frontmatter in a Markdown artifact.
//!
//! Frontmatter is the block between a first line `---` and the next line
//! `---` or `...` (the convention of Agent Skills `SKILL.md`, Claude Code
//! `agents/*.md` and `commands/*.md`, and skilldrop `LOOP.md`). A UTF-8 BOM
//! before the opening line is allowed; lines end in LF or CRLF; trailing
//! spaces or tabs after a delimiter are allowed. A file whose first line is
//! not `---` has no frontmatter.

use crate::span::Span;

/// Where a Markdown file's frontmatter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Frontmatter {
    /// The opening `---` line, without its line break.
    pub open: Span,
    /// The YAML between the delimiters: from the start of the line after the
    /// opening one to the start of the closing line (may be empty).
    pub content: Span,
    /// The closing `---`/`...` line, without its line break.
    pub close: Span,
    /// Byte offset where the Markdown body starts (after the closing line).
    pub body_start: u32,
}

/// The note for a Markdown artifact found without frontmatter whose first
/// line holds a lone CR (classic Mac OS line endings): `Some` with the
/// words to add to the finding, `None` when the first line has none. A
/// lone CR is no line break for skein, nor for the `---` lines of
/// frontmatter as clients read it (LF or CRLF), so such a file is one long
/// line with no frontmatter.
pub fn lone_cr_note(text: &str) -> Option<&'static str> {
    let first = text.split('\n').next().unwrap_or("");
    let first = first.strip_suffix('\r').unwrap_or(first);
    first.contains('\r').then_some(
        "the lines of this file end in a lone CR (classic Mac OS line endings): frontmatter is read only from lines that end in LF or CRLF, so the file is one line with no frontmatter",
    )
}

/// Finds the frontmatter of `text`.
///
/// Returns `Ok(None)` when the file has none, `Ok(Some(_))` when it has one,
/// and `Err(open)` with the span of the opening `---` when it is never closed.
pub fn locate_frontmatter(text: &str) -> Result<Option<Frontmatter>, Span> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut lines = LineIter { text, pos: start };
    let Some((open_start, open_end, next)) = lines.next() else {
        return Ok(None);
    };
    if !is_delimiter(&text[open_start..open_end], false) {
        return Ok(None);
    }
    let open = Span::new(open_start, open_start + 3);
    let content_start = next;
    for (ls, le, after) in lines {
        if is_delimiter(&text[ls..le], true) {
            return Ok(Some(Frontmatter {
                open,
                content: Span::new(content_start, ls),
                close: Span::new(ls, ls + 3),
                body_start: after as u32,
            }));
        }
    }
    Err(open)
}

/// `---` (or, when closing, `...`) followed only by spaces or tabs.
fn is_delimiter(line: &str, closing: bool) -> bool {
    let rest = if let Some(r) = line.strip_prefix("---") {
        r
    } else if closing && line.starts_with("...") {
        &line[3..]
    } else {
        return false;
    };
    rest.bytes().all(|b| b == b' ' || b == b'\t')
}

/// Iterates lines as (start, end without line break, start of next line).
struct LineIter<'a> {
    text: &'a str,
    pos: usize,
}

impl Iterator for LineIter<'_> {
    type Item = (usize, usize, usize);
    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.text.len() {
            return None;
        }
        let start = self.pos;
        let (end, next) = match self.text[start..].find('\n') {
            Some(i) => (start + i, start + i + 1),
            None => (self.text.len(), self.text.len()),
        };
        let end = if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        self.pos = next;
        Some((start, end, next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_frontmatter_with_bom_and_crlf() {
        let text = "\u{feff}---\r\nname: x\r\n---\r\n# body\r\n";
        let fm = locate_frontmatter(text).unwrap().unwrap();
        assert_eq!(fm.open, Span::new(3, 6));
        assert_eq!(&text[fm.content.range()], "name: x\r\n");
        assert_eq!(fm.close, Span::new(17, 20));
        assert_eq!(&text[fm.body_start as usize..], "# body\r\n");
    }

    #[test]
    fn no_frontmatter_and_unterminated() {
        assert_eq!(locate_frontmatter("# title\n---\nx: 1\n---\n"), Ok(None));
        assert_eq!(locate_frontmatter(""), Ok(None));
        assert_eq!(
            locate_frontmatter("---\nname: x\n# body\n"),
            Err(Span::new(0, 3))
        );
        let fm = locate_frontmatter("---\n---\n").unwrap().unwrap();
        assert!(fm.content.is_empty());
    }
}
