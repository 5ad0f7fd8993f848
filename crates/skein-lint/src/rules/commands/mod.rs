//! CMD: Claude Code slash commands, a plugin's `commands/*.md` and a
//! project's `.claude/commands/**/*.md` (format `plugin-command`): the
//! frontmatter fields, the argument placeholders of the body and the name
//! the command is typed by.

pub mod argument_hint_without_arguments;
pub mod arguments_without_hint;
pub mod command_string_boolean;
pub mod invalid_command_name;
pub mod unknown_command_field;
pub mod unknown_command_tool;

use crate::Context;
use skein_model::{Artifact, Format};
use skein_syntax::{Document, Entry, NodeId, NodeKind, Span};

/// The frontmatter fields Claude Code reads in a command. Commands and
/// skills share one frontmatter since commands were merged into skills, so
/// this is the skills frontmatter reference, the Agent Skills fields
/// (`license`, `compatibility`, `metadata`) and `hide-from-slash-command-tool`,
/// which Anthropic's own plugins set.
pub(crate) const COMMAND_FIELDS: &[&str] = &[
    "agent",
    "allowed-tools",
    "argument-hint",
    "arguments",
    "background",
    "compatibility",
    "context",
    "description",
    "disable-model-invocation",
    "disallowed-tools",
    "effort",
    "hide-from-slash-command-tool",
    "hooks",
    "license",
    "metadata",
    "model",
    "name",
    "paths",
    "shell",
    "user-invocable",
    "when_to_use",
];

/// One command file.
pub(crate) struct Command<'a> {
    /// The frontmatter document.
    pub doc: &'a Document,
    /// The frontmatter mapping, when there is one.
    pub fields: Option<NodeId>,
    /// The whole file.
    pub text: &'a str,
    /// Where the body starts.
    pub body_start: usize,
    /// The file name.
    pub file_name: &'a str,
}

/// The command of `a`, when it is one.
pub(crate) fn command_of<'a>(cx: &'a Context, a: &'a Artifact) -> Option<Command<'a>> {
    if a.format != Format::PluginCommand {
        return None;
    }
    let doc = &a.document;
    let fields = doc
        .root()
        .filter(|&r| matches!(doc.kind(r), NodeKind::Mapping(_)));
    let path = cx.path(a.file);
    Some(Command {
        doc,
        fields,
        text: cx.sources.get(a.file).text(),
        body_start: a.frontmatter.map_or(0, |f| f.body_start as usize),
        file_name: path.rsplit('/').next().unwrap_or(path),
    })
}

impl Command<'_> {
    /// The frontmatter entries, in file order.
    pub fn entries(&self) -> &[Entry] {
        self.fields
            .and_then(|f| self.doc.entries(f))
            .unwrap_or_default()
    }

    /// The entry of field `key`.
    pub fn field(&self, key: &str) -> Option<Entry> {
        self.fields.and_then(|f| self.doc.get_entry(f, key))
    }

    /// The body's argument placeholders, in file order.
    pub fn placeholders(&self) -> Vec<Placeholder> {
        let start = self.body_start.min(self.text.len());
        placeholders(&self.text[start..], start)
    }
}

/// What a placeholder stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// `$ARGUMENTS` or `$ARGUMENTS[N]`.
    Arguments,
    /// `$0` … `$9`.
    Positional,
}

/// One argument placeholder of a command body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placeholder {
    /// Its bytes.
    pub span: Span,
    /// Its kind.
    pub slot: Slot,
    /// Whether it is inside a fenced code block.
    pub fenced: bool,
}

/// The fence a line opens or closes: its character and length.
pub(crate) fn fence(line: &str) -> Option<(char, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let c = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = rest.len() - rest.trim_start_matches(c).len();
    (n >= 3).then(|| (c, n, &rest[n..]))
}

/// Scans `body` (starting at byte `base` of its file) for `$ARGUMENTS`,
/// `$ARGUMENTS[N]` and `$0`…`$9`. A `$` after a word character, a `$` or a
/// backslash is not a placeholder, nor is a digit run longer than one or an
/// amount (`$5.00`, `$1,000`, `$1-5`).
pub(crate) fn placeholders(body: &str, base: usize) -> Vec<Placeholder> {
    let mut out = Vec::new();
    let all = body.as_bytes();
    // Every placeholder starts with `$`: most bodies have none. The `$`s
    // and the line ends are each found by one SIMD scan of the body
    // (memchr), not by a search per line.
    let mut dollars = memchr::memchr_iter(b'$', all).peekable();
    if dollars.peek().is_none() {
        return out;
    }
    let mut ends = memchr::memchr_iter(b'\n', all);
    let mut open: Option<(char, usize)> = None;
    let mut at = 0;
    // Past the last `$`, the rest of the body holds no placeholder.
    while at < body.len() && dollars.peek().is_some() {
        let here = at;
        at = ends.next().map_or(body.len(), |i| i + 1);
        let line = &body[here..at];
        let content = line.trim_end_matches(['\n', '\r']);
        if let Some((c, n, rest)) = fence(content) {
            match open {
                None => {
                    if c == '~' || !rest.contains('`') {
                        open = Some((c, n));
                    }
                    continue;
                }
                Some((oc, on)) if oc == c && n >= on && rest.trim().is_empty() => {
                    open = None;
                    continue;
                }
                Some(_) => {}
            }
        }
        let bytes = content.as_bytes();
        // The `$`s of this line's content (those of lines skipped above
        // are passed over here).
        while dollars.next_if(|&d| d < here).is_some() {}
        while let Some(d) = dollars.next_if(|&d| d < here + content.len()) {
            let i = d - here;
            let before = i.checked_sub(1).map(|j| bytes[j]);
            if before
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'\\')
            {
                continue;
            }
            let rest = &content[i + 1..];
            let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
            let (len, slot) = if let Some(r) = rest.strip_prefix("ARGUMENTS") {
                let mut len = 1 + "ARGUMENTS".len();
                if let Some(idx) = r.strip_prefix('[')
                    && let Some(end) = idx.find(']')
                    && end > 0
                    && idx[..end].bytes().all(|b| b.is_ascii_digit())
                {
                    len += end + 2;
                } else if r.bytes().next().is_some_and(word) {
                    continue;
                }
                (len, Slot::Arguments)
            } else {
                let r = rest.as_bytes();
                let digit = r.first().is_some_and(u8::is_ascii_digit);
                let longer = r.get(1).is_some_and(|&b| word(b));
                // `$5.00`, `$1,000`, `$1-5`, `$0-$50`: amounts, not arguments.
                let amount = matches!(r.get(1), Some(b'.' | b',' | b'-'))
                    && r.get(2).is_some_and(|&b| b.is_ascii_digit() || b == b'$');
                if !digit || longer || amount {
                    continue;
                }
                (2, Slot::Positional)
            };
            let start = base + here + i;
            out.push(Placeholder {
                span: Span::new(start, start + len),
                slot,
                fenced: open.is_some(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_and_fences() {
        let body = "Fix $ARGUMENTS and $ARGUMENTS[1] for $1.\n\
                    Costs $5.00 or $1-5, not $10 or a$2 or $$3 or $ARGUMENTSX.\n\
                    ```sh\nawk '{print $1}' $ARGUMENTS\n```\nthen $0\n";
        let got: Vec<_> = placeholders(body, 100)
            .iter()
            .map(|p| {
                (
                    &body[p.span.start as usize - 100..p.span.end as usize - 100],
                    p.fenced,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("$ARGUMENTS", false),
                ("$ARGUMENTS[1]", false),
                ("$1", false),
                ("$1", true),
                ("$ARGUMENTS", true),
                ("$0", false),
            ]
        );
    }
}
