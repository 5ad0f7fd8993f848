//! SYN018 `unclosed-code-fence`.

use crate::rules::sec::{AGENT_MARKDOWN, body_range, is_agent_markdown};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SYN018",
    name: "unclosed-code-fence",
    severity: Severity::Warning,
    summary: "a fenced code block is never closed, so the rest of the Markdown file is code",
    doc: include_str!("unclosed_code_fence.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: AGENT_MARKDOWN,
};

/// An opening code fence: its character (`` ` `` or `~`), its length, and
/// its span (the fence run and its info string).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fence {
    mark: u8,
    len: usize,
    span: Span,
}

/// Where the content of `line` starts once the container markers a fence
/// may follow on its line are skipped: up to three spaces of indentation,
/// then block quote markers (`>`) and list markers (`-`, `*`, `+`, `1.`,
/// `1)`) each with the blanks after it. `None` when the line is indented
/// four columns or more before its first marker (an indented code block's
/// line). Returns the rest, its column (bytes before it) and whether a
/// block quote marker was skipped.
fn after_markers(line: &str) -> Option<(&str, usize, bool)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 || line[indent..].starts_with('\t') {
        return None;
    }
    let mut rest = &line[indent..];
    let mut quoted = false;
    loop {
        let marker = if rest.starts_with('>') {
            quoted = true;
            1
        } else if rest.starts_with(['-', '*', '+']) && rest[1..].starts_with([' ', '\t']) {
            1
        } else {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if (1..=9).contains(&digits)
                && rest[digits..].starts_with(['.', ')'])
                && rest[digits + 1..].starts_with([' ', '\t'])
            {
                digits + 1
            } else {
                break;
            }
        };
        rest = rest[marker..].trim_start_matches([' ', '\t']);
    }
    Some((rest, line.len() - rest.len(), quoted))
}

/// The fence that `rest` (a line after its markers, at byte `at`) opens,
/// by CommonMark's rule: three or more backticks or tildes, and for
/// backticks an info string without a backtick.
fn opening(rest: &str, at: usize) -> Option<Fence> {
    let mark = *rest.as_bytes().first()?;
    if mark != b'`' && mark != b'~' {
        return None;
    }
    let len = rest.bytes().take_while(|&b| b == mark).count();
    if len < 3 || (mark == b'`' && rest[len..].contains('`')) {
        return None;
    }
    let end = rest.trim_end().len();
    Some(Fence {
        mark,
        len,
        span: Span::new(at, at + end),
    })
}

/// Whether `line` closes `open`: the same character, at least as many,
/// then only blanks. Any indentation and container markers are allowed
/// (a fence in a list item or block quote is closed inside it), so that
/// no closed fence is taken for an open one.
fn closes(line: &str, open: Fence) -> bool {
    let mut rest = line.trim_start_matches([' ', '\t']);
    while let Some(r) = rest.strip_prefix('>') {
        rest = r.trim_start_matches([' ', '\t']);
    }
    let len = rest.bytes().take_while(|&b| b == open.mark).count();
    len >= open.len && rest[len..].trim().is_empty()
}

/// Whether the container a fence was opened in (a list item whose content
/// starts at column `col`, or a block quote when `quoted`) ends before
/// `line`: a block quote at a line without `>`, a list item at a non-blank
/// line indented less than its content. A fenced code block ends with its
/// container (CommonMark 0.31.2, 5.1 and 5.2: code is never a lazy
/// continuation line).
fn container_ends(line: &str, col: usize, quoted: bool) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if quoted {
        return !line[indent..].starts_with('>');
    }
    col > 0 && !line.trim().is_empty() && indent < col
}

/// Whether `rest` (a line after its markers) may start an HTML block,
/// which a fence line cannot interrupt: `<` and a letter, `/` or `!`
/// (CommonMark 0.31.2, 4.6). Such a block is taken to end at a blank line;
/// a line that only looks like one (inline HTML opening a paragraph) makes
/// the rule miss a fence, never report one.
fn starts_html_block(rest: &str) -> bool {
    let mut b = rest.bytes();
    b.next() == Some(b'<')
        && b.next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == b'/' || c == b'!')
}

/// The fence of `text[start..]` still open at its end, if any, with the
/// number of lines after its opening line.
fn unclosed(text: &str, start: usize) -> Option<(Fence, usize)> {
    // The open fence, the lines after it, and its container's content
    // column and quoting.
    let mut open: Option<(Fence, usize, usize, bool)> = None;
    let mut html = false;
    let mut at = start;
    for line in text[start..].split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let blank = content.trim().is_empty();
        let mut fresh = true;
        if let Some((fence, after, col, quoted)) = &mut open {
            if closes(content, *fence) {
                open = None;
                fresh = false;
            } else if container_ends(content, *col, *quoted) {
                // The block ended with its container: this line is read anew.
                open = None;
            } else {
                *after += 1;
                fresh = false;
            }
        }
        if fresh {
            if html {
                html = !blank;
            } else if let Some((rest, col, quoted)) = after_markers(content) {
                if let Some(f) = opening(rest, at + col) {
                    open = Some((f, 0, col, quoted));
                } else if starts_html_block(rest) {
                    html = true;
                }
            }
        }
        at += line.len();
    }
    open.map(|(f, after, _, _)| (f, after))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if !is_agent_markdown(cx, a) {
        return Vec::new();
    }
    let text = cx.sources.get(a.file).text();
    let (start, _) = body_range(a, text);
    let Some((fence, after)) = unclosed(text, start) else {
        return Vec::new();
    };
    let written = &text[fence.span.range()];
    let info = written[fence.len..].trim();
    let name = if fence.mark == b'`' {
        "backticks"
    } else {
        "tildes"
    };
    let opened = if info.is_empty() {
        format!("{} {name}", fence.len)
    } else {
        format!("{} {name} and {}", fence.len, quote(info))
    };
    let rest = match after {
        0 => "nothing follows it".to_string(),
        1 => "the 1 line after it is code".to_string(),
        n => format!("the {n} lines after it are code"),
    };
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        fence.span,
        format!(
            "the code block opened by {opened} is never closed: {rest}, to the end of the file"
        ),
    )
    .with_label("opened here, never closed")
    .with_help(format!(
        "end the code block with a line of {} {name}",
        fence.len
    ));
    if info.is_empty() {
        // A bare fence is often meant to close a block that an inner
        // fence closed early.
        d = d.with_note(format!(
            "if this line was meant to close an outer block, a fence inside that block closed it earlier: open the outer block with more {name} than any inside it"
        ));
    }
    vec![d]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of the unclosed fence of `text`, and the lines after it.
    fn open(text: &str) -> Option<(&str, usize)> {
        unclosed(text, 0).map(|(f, n)| (&text[f.span.range()], n))
    }

    #[test]
    fn closed_fences_are_not_reported() {
        for text in [
            "```sh\nnpm test\n```\n",
            "~~~\ncode\n~~~~\n",
            "````md\n```sh\ninner\n```\n````\n",
            "- ```bash\n  npm i\n  ```\nAfter.\n",
            "1. Run:\n   ```bash\n   npm i\n   ```\n",
            "> ```\n> quoted\n> ```\n",
            "    ```\n    indented code, not a fence\n",
            "Use ```inline``` code.\n",
            "```js` is not a fence\n",
            "```sh\ncode\n```   \r\nText\r\n",
            // The block ends with its list item or block quote.
            "1. Step:\n   ```\n   code\n## Next\nText\n",
            "> ```\n> quoted\nNot quoted.\n",
            // In an HTML block a fence line is HTML.
            "<div>\n```\n</div>\n",
        ] {
            assert_eq!(open(text), None, "{text:?}");
        }
    }

    #[test]
    fn an_unclosed_fence_is_found_with_the_lines_after_it() {
        assert_eq!(
            open("Intro\n```bash\nnpm i\n\n## Usage\nRun it.\n"),
            Some(("```bash", 4))
        );
        assert_eq!(open("```\n"), Some(("```", 0)));
        // A shorter run or another character does not close it.
        assert_eq!(open("````\n```\n~~~~\n"), Some(("````", 2)));
        // An info string after the closing run makes it content.
        assert_eq!(open("```\ncode\n```sh\n"), Some(("```", 2)));
        // The second of two fences, the first closed.
        assert_eq!(open("```\na\n```\n~~~ text\nb\n"), Some(("~~~ text", 1)));
    }
}
