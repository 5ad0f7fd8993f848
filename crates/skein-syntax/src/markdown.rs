//! Markdown artifacts read with skein's own grammar, `tree-sitter-agentmd`
//! (issue 4; `crates/tree-sitter-agentmd`, `queries/agentmd/references.scm`).
//!
//! One parse gives the frontmatter (located by the grammar, then parsed as
//! YAML in place with included ranges by [`crate::Parsers::parse_markdown`])
//! and the facts of the body the passes read: link targets, code spans,
//! strong emphasis, headings, table cells and HTML comments. Fenced and
//! indented code blocks are opaque to the grammar, so a link or a name in an
//! example never counts as a reference.

use crate::frontmatter::Frontmatter;
use crate::span::Span;
use std::sync::LazyLock;
use tree_sitter::{Language, Node, Query, QueryCursor, StreamingIterator, Tree};

/// What kind of construct a [`BodyLink`] comes from.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum LinkKind {
    /// `[text](target)`.
    Inline,
    /// `![alt](target)`.
    Image,
    /// `[label]: target` (a link reference definition).
    Definition,
    /// `<https://…>`.
    Autolink,
}

/// A link of a Markdown body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BodyLink {
    /// Where it comes from.
    pub kind: LinkKind,
    /// The destination as written: without `<>` and without the title.
    pub target: Span,
}

/// The facts of a Markdown body that passes read, each a byte span of the
/// `.md` file, in source order (`queries/agentmd/references.scm`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MarkdownBody {
    /// Links, images, reference definitions and autolinks.
    pub links: Vec<BodyLink>,
    /// Code spans: the code between the backtick runs, trimmed of the one
    /// space CommonMark strips on each side.
    pub code_spans: Vec<Span>,
    /// Strong emphasis: the text between the `**`/`__` delimiters.
    pub strong: Vec<Span>,
    /// Heading texts (ATX and setext), without the `#` markers.
    pub headings: Vec<Span>,
    /// Table cells (header and body rows), trimmed.
    pub table_cells: Vec<Span>,
    /// HTML comments, `<!--` and `-->` included.
    pub comments: Vec<Span>,
}

impl MarkdownBody {
    /// Every span that may name something (a skill, a gate id): code spans,
    /// strong emphasis, headings and table cells, with `text` their text.
    pub fn names<'a>(&'a self, text: &'a str) -> impl Iterator<Item = (Span, &'a str)> + 'a {
        self.code_spans
            .iter()
            .chain(&self.strong)
            .chain(&self.headings)
            .chain(&self.table_cells)
            .map(move |s| (*s, &text[s.start as usize..s.end as usize]))
    }
}

/// Whether the body of `text` (from byte `from`) may hold a link, an image,
/// a reference link or definition, or an HTML comment: a literal prefilter
/// (ripgrep-style) on `](`, `][`, `]:` and `<!--`. When it says no, none of
/// those constructs is there, so a caller that reads only them
/// ([`crate::Parsers::parse_markdown_links`]) can skip the body's parse.
pub fn may_link(text: &str, from: usize) -> bool {
    let body = &text.as_bytes()[from.min(text.len())..];
    memchr::memchr_iter(b']', body).any(|i| matches!(body.get(i + 1), Some(b'(' | b'[' | b':')))
        || memchr::memmem::find(body, b"<!--").is_some()
}

/// The agentmd language.
pub(crate) fn language() -> Language {
    tree_sitter_agentmd::LANGUAGE.into()
}

/// The extraction query, compiled once, and its capture indices.
struct References {
    query: Query,
    target: u32,
    code: u32,
    strong: u32,
    heading: u32,
    comment: u32,
    cell: u32,
}

static REFERENCES: LazyLock<References> = LazyLock::new(|| {
    let query = Query::new(&language(), tree_sitter_agentmd::REFERENCES_QUERY)
        .expect("references.scm compiles against the agentmd grammar (tested)");
    let index = |name: &str| {
        query
            .capture_index_for_name(name)
            .unwrap_or_else(|| panic!("references.scm has a @{name} capture"))
    };
    References {
        target: index("link.target"),
        code: index("code"),
        strong: index("strong"),
        heading: index("heading"),
        comment: index("comment"),
        cell: index("table.cell"),
        query,
    }
});

/// Where the grammar found the frontmatter: `Ok(None)` when there is none,
/// `Err(open)` with the opening delimiter's span when it is never closed.
/// The spans are those of [`crate::locate_frontmatter`] (tested on the
/// whole real corpus).
pub(crate) fn frontmatter_of(tree: &Tree, text: &str) -> Result<Option<Frontmatter>, Span> {
    let root = tree.root_node();
    let Some(fm) = root.child(0) else {
        return Ok(None);
    };
    // Unterminated: the grammar recovers locally, an ERROR holding the
    // opening delimiter, and parses the rest as body.
    if fm.is_error() {
        return match fm.child(0).filter(|d| d.kind() == "frontmatter_delimiter") {
            Some(d) => Err(Span::new(d.start_byte(), d.start_byte() + 3)),
            None => Ok(None),
        };
    }
    if fm.kind() != "frontmatter" {
        return Ok(None);
    }
    let mut open = None;
    let mut close = None;
    let mut content = None;
    let mut cursor = fm.walk();
    for child in fm.children(&mut cursor) {
        match child.kind() {
            "frontmatter_delimiter" if open.is_none() => open = Some(child),
            "frontmatter_delimiter" => close = Some(child),
            "frontmatter_content" => content = Some(child),
            _ => {}
        }
    }
    let Some(open) = open else {
        return Ok(None);
    };
    let open_span = Span::new(open.start_byte(), open.start_byte() + 3);
    let close = match close {
        Some(c) if !c.is_missing() && c.end_byte() > c.start_byte() => c,
        _ => return Err(open_span),
    };
    let content_start =
        content.map_or_else(|| line_after(text, open.end_byte()), |c| c.start_byte());
    let close_start = close.start_byte();
    Ok(Some(Frontmatter {
        open: open_span,
        content: Span::new(content_start.min(close_start), close_start),
        close: Span::new(close_start, close_start + 3),
        body_start: line_after(text, close_start) as u32,
    }))
}

/// The start of the line after the one holding `at`.
fn line_after(text: &str, at: usize) -> usize {
    text[at.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |i| at + i + 1)
}

/// Runs the extraction query over `tree`.
pub(crate) fn body_of(tree: &Tree, text: &str) -> MarkdownBody {
    let r = &*REFERENCES;
    let mut body = MarkdownBody::default();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(&r.query, tree.root_node(), text.as_bytes());
    while let Some(m) = matches.next() {
        for c in m.captures() {
            let n = c.node;
            let span = Span::new(n.start_byte(), n.end_byte());
            if c.index == r.target {
                body.links.push(BodyLink {
                    kind: link_kind(n),
                    target: span,
                });
            } else if c.index == r.code {
                body.code_spans.push(code_text(n, text));
            } else if c.index == r.strong {
                body.strong.push(trim_delims(span, 2));
            } else if c.index == r.heading {
                body.headings.push(trim(span, text));
            } else if c.index == r.comment {
                body.comments.push(span);
            } else if c.index == r.cell {
                body.table_cells.push(trim(span, text));
            }
        }
    }
    // Matches come in document order; sorting makes "in source order" an
    // invariant callers may binary-search on.
    body.links.sort_by_key(|l| l.target);
    for list in [
        &mut body.code_spans,
        &mut body.strong,
        &mut body.headings,
        &mut body.table_cells,
        &mut body.comments,
    ] {
        list.sort();
    }
    body
}

fn link_kind(target: Node) -> LinkKind {
    match target.parent().map(|p| p.kind()) {
        Some("image") => LinkKind::Image,
        Some("link_reference_definition") => LinkKind::Definition,
        Some("autolink") => LinkKind::Autolink,
        _ => LinkKind::Inline,
    }
}

/// The code of a code span: between its backtick runs, one space stripped
/// on each side when both are there and the code is not all spaces.
fn code_text(n: Node, text: &str) -> Span {
    let s = &text[n.start_byte()..n.end_byte()];
    let ticks = s.bytes().take_while(|&b| b == b'`').count();
    let close = s.bytes().rev().take_while(|&b| b == b'`').count();
    if ticks + close > s.len() {
        return Span::new(n.end_byte(), n.end_byte());
    }
    let (mut a, mut b) = (n.start_byte() + ticks, n.end_byte() - close);
    let inner = &text[a..b];
    if inner.len() >= 2
        && inner.starts_with(' ')
        && inner.ends_with(' ')
        && !inner.bytes().all(|c| c == b' ')
    {
        a += 1;
        b -= 1;
    }
    Span::new(a, b)
}

fn trim_delims(span: Span, n: u32) -> Span {
    if span.end - span.start >= 2 * n {
        Span::new((span.start + n) as usize, (span.end - n) as usize)
    } else {
        span
    }
}

fn trim(span: Span, text: &str) -> Span {
    let s = &text[span.start as usize..span.end as usize];
    let lead = s.len() - s.trim_start().len();
    let t = s.trim();
    let start = span.start as usize + lead;
    Span::new(start, start + t.len())
}
