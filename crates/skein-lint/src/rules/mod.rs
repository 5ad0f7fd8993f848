//! Rules by category. Each module lists one file per rule.

pub mod agents;
pub mod bailey;
pub mod commands;
pub mod copilot;
pub mod cursor;
pub mod flow;
pub(crate) mod frontmatter;
pub mod hooks;
pub mod kiro;
pub mod loom;
pub mod loopmaster;
pub mod markdown;
pub mod marketplaces;
pub mod mcp;
pub mod memory;
pub mod opencode;
pub mod perm;
pub mod plugins;
pub mod refs;
pub mod sec;
pub mod settings;
pub mod skills;
pub mod windsurf;
pub mod yaml;

/// When `text` has more than `max` lines: how many it has, and the span of
/// line `max + 1` (without its line break), where the long-file rules
/// (SKILL021, MEM003, CUR008) point. A last line without a line break
/// counts, as `str::lines` counts it.
pub(crate) fn lines_over(text: &str, max: usize) -> Option<(usize, skein_syntax::Span)> {
    let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count()
        + usize::from(!text.is_empty() && !text.ends_with('\n'));
    if lines <= max {
        return None;
    }
    let at: usize = text.split_inclusive('\n').take(max).map(str::len).sum();
    let first = text[at..].lines().next().unwrap_or("");
    Some((lines, skein_syntax::Span::new(at, at + first.len())))
}

/// When `text` has more than `max` characters: how many it has, and the
/// span from character `max + 1` to the end of its line, where the
/// character-limit rules (WIND001, COP012) point.
pub(crate) fn chars_over(text: &str, max: usize) -> Option<(usize, skein_syntax::Span)> {
    // A text of at most as many bytes has at most as many characters.
    if text.len() <= max {
        return None;
    }
    let (at, _) = text.char_indices().nth(max)?;
    let chars = max + text[at..].chars().count();
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    Some((chars, skein_syntax::Span::new(at, end)))
}

/// The lines of `text` from byte `from` (a Markdown body) that are outside
/// fenced code blocks, each with the byte offset where it starts in
/// `text`, line break included. A fence is a run of at least three
/// backticks or tildes indented at most three spaces; a block is closed by
/// a fence of the same character at least as long as its opening one
/// (CommonMark, "Fenced code blocks"). Indented code blocks are not told
/// apart from indented text.
pub(crate) fn unfenced_lines(text: &str, from: usize) -> impl Iterator<Item = (usize, &str)> {
    // The fence a line opens: its character and length.
    let fence = |line: &str| -> Option<(u8, usize)> {
        let t = line.trim_start_matches(' ');
        let c = *t.as_bytes().first()?;
        if line.len() - t.len() > 3 || (c != b'`' && c != b'~') {
            return None;
        }
        let n = t.bytes().take_while(|&b| b == c).count();
        (n >= 3).then_some((c, n))
    };
    let mut open: Option<(u8, usize)> = None;
    let mut at = from;
    text.get(from..)
        .unwrap_or("")
        .split_inclusive('\n')
        .filter_map(move |line| {
            let start = at;
            at += line.len();
            match (open, fence(line)) {
                (None, Some(f)) => {
                    open = Some(f);
                    None
                }
                (Some((c, n)), Some((c2, n2)))
                    if c == c2 && n2 >= n && line.trim().bytes().all(|b| b == c) =>
                {
                    open = None;
                    None
                }
                (Some(_), _) => None,
                (None, None) => Some((start, line)),
            }
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_outside_fences() {
        let text = "a\n```sh\nb\n```\n   ~~~\nc\n~~~\n    ```\nd\n";
        let got: Vec<(usize, &str)> = super::unfenced_lines(text, 0).collect();
        assert_eq!(got, [(0, "a\n"), (27, "    ```\n"), (35, "d\n")]);
        // A shorter fence or the other character does not close a block.
        let text = "````md\n```\nx\n~~~\n````\ny\n";
        let got: Vec<(usize, &str)> = super::unfenced_lines(text, 0).collect();
        assert_eq!(got, [(22, "y\n")]);
    }
}
