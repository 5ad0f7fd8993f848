//! Byte spans and the line index that turns them into line:column positions.
//!
//! Spans are half-open byte ranges `start..end` into the original bytes of a
//! file (DESIGN.md §2, "Spans are byte ranges into the original file"). They
//! are stored as `u32`, which bounds an analyzed file at 4 GiB; the CLI's size
//! limit is far below that. Line and column are computed only when rendering.

use std::ops::Range;

/// A half-open byte range `start..end` in one source file.
///
/// Invariant: `start <= end`, and both lie on UTF-8 character boundaries of
/// the file's text.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Span {
    /// First byte of the range.
    pub start: u32,
    /// One past the last byte of the range.
    pub end: u32,
}

impl Span {
    /// Builds a span from byte offsets. Panics in debug builds if `start > end`.
    pub fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end, "span start {start} after end {end}");
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The empty span at `offset`.
    pub fn empty(offset: usize) -> Self {
        Span::new(offset, offset)
    }

    /// The span as a `usize` range, for slicing the file's text.
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// True when the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl From<Range<usize>> for Span {
    fn from(r: Range<usize>) -> Self {
        Span::new(r.start, r.end)
    }
}

/// A 1-based line and column. Columns count Unicode scalar values (characters),
/// as rustc and codespan-reporting print them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

/// Start offsets of every line of a text, for offset -> line:column lookups.
///
/// A line ends after `\n`; a lone `\r` is not a line break (as in codespan-reporting
/// and GitHub's SARIF reader).
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<u32>,
    /// The lines that hold a non-ASCII byte, in order, each with the byte
    /// offset where its ASCII prefix ends (its first non-ASCII byte): a
    /// column before it is a byte count, so the many findings of one long
    /// minified line cost O(1) each, not a rescan of the line. Every other
    /// line is ASCII to its end; most texts have few such lines.
    non_ascii: Vec<(u32, u32)>,
    /// The text's length.
    len: u32,
}

impl LineIndex {
    /// Indexes `text`. O(n) in its length.
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = Vec::with_capacity(bytes.len() / 32 + 1);
        starts.push(0u32);
        starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| (i + 1) as u32));
        let mut non_ascii = Vec::new();
        // `is_ascii` checks a word at a time; only a line that is not ASCII
        // gets the byte-by-byte search.
        if !bytes.is_ascii() {
            for (i, &s) in starts.iter().enumerate() {
                let end = starts.get(i + 1).map_or(bytes.len(), |&e| e as usize);
                let line = &bytes[s as usize..end];
                if !line.is_ascii() {
                    let n = line
                        .iter()
                        .position(|b| !b.is_ascii())
                        .unwrap_or(line.len());
                    non_ascii.push((i as u32, s + n as u32));
                }
            }
        }
        LineIndex {
            starts,
            non_ascii,
            len: bytes.len() as u32,
        }
    }

    /// The byte offset where the ASCII prefix of 0-based `line` ends: up to
    /// there, characters, UTF-16 units and bytes count alike.
    pub fn ascii_until(&self, line: usize) -> usize {
        match self
            .non_ascii
            .binary_search_by_key(&(line as u32), |&(l, _)| l)
        {
            Ok(k) => self.non_ascii[k].1 as usize,
            Err(_) => self.starts.get(line + 1).map_or(self.len, |&e| e) as usize,
        }
    }

    /// Byte offsets where each line starts; the first is always 0.
    pub fn line_starts(&self) -> &[u32] {
        &self.starts
    }

    /// 0-based line containing byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&(offset as u32)) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// The 1-based line and character column of byte `offset` in `text`
    /// (the text this index was built from). An offset inside a multi-byte
    /// character counts as that character.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.starts[line] as usize;
        let mut end = offset;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let ascii = self.ascii_until(line);
        let column = if end <= ascii {
            end - start + 1
        } else {
            ascii - start + text[ascii..end].chars().count() + 1
        };
        LineCol {
            line: line as u32 + 1,
            column: column as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_prefix_shortcut_agrees_with_counting() {
        let text = "ab\u{e9}c \u{1f600} d\nplain ascii line\n\u{e9}\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.ascii_until(0), 2);
        assert_eq!(idx.ascii_until(1), text.find("\n\u{e9}").unwrap() + 1);
        for text in [
            text,
            "",
            "ascii only\r\nno break at the end",
            "x\n\ny\u{301}z\n  \u{200b}\t\nlast \u{e9}",
        ] {
            let idx = LineIndex::new(text);
            for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
                let line = idx.line_of(offset);
                let start = idx.line_starts()[line] as usize;
                let counted = text[start..offset].chars().count() as u32 + 1;
                assert_eq!(
                    idx.line_col(text, offset).column,
                    counted,
                    "offset {offset} of {text:?}"
                );
            }
        }
    }

    #[test]
    fn line_col_counts_characters() {
        let text = "a: 1\nbé: x\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 0), LineCol { line: 1, column: 1 });
        // 'x' is at byte 10: "bé: " is 5 bytes but 4 characters.
        assert_eq!(idx.line_col(text, 10), LineCol { line: 2, column: 5 });
        assert_eq!(
            idx.line_col(text, text.len()),
            LineCol { line: 3, column: 1 }
        );
    }
}
