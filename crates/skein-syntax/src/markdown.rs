//! Markdown artifacts read with skein's own grammar, `tree-sitter-agentmd`
//! (issue 4; `crates/tree-sitter-agentmd`, `queries/agentmd/references.scm`).
//!
//! One parse gives the frontmatter (located by the grammar, then parsed as
//! YAML in place with included ranges by [`crate::Parsers::parse_markdown`])
//! and the facts of the body the passes read: link targets, code spans,
//! strong emphasis, headings, table cells and HTML comments. Fenced and
//! indented code blocks are opaque to the grammar, so a link or a name in an
//! example never counts as a reference.
//!
//! The facts are those the extraction query `references.scm` captures; the
//! engine collects them with one walk of the tree ([`body_of`]), which costs
//! a fraction of running the query, and the query is kept as the reference
//! the walk is tested against on the whole real corpus
//! ([`body_by_query`], `tests/body_walk.rs`).

use crate::frontmatter::Frontmatter;
use crate::span::Span;
use std::sync::LazyLock;
use tree_sitter::{Language, Node, Parser, Query, QueryCursor, StreamingIterator, Tree};

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

/// Whether the body of `text` (from byte `from`) may hold what the readers
/// of a Markdown artifact's body other than a `LOOP.md` read: a link whose
/// destination may name a file, a link title, or an HTML comment. A literal
/// prefilter (ripgrep-style) on `](` (an inline link or image), a `]:` on a
/// line that may open a link reference definition ([`may_open_definition`])
/// and `<!--`. An inline link whose destination is a web address or an
/// in-page anchor with nothing after it (`](https://…)`, `](#usage)`: no
/// space, parenthesis, `<`, `>`, `|` or backslash before the `)`) names no
/// file and has no title; a reference link `[text][label]` has no
/// destination of its own, and a `]:` after other text on its line
/// (`-> List[str]:`, `{d["k"]: v}`) opens no definition. When it says no,
/// none of those constructs is there, so a caller that reads only them
/// ([`crate::Parsers::parse_markdown_links`]) can skip the body's parse.
///
/// A body with any `](`, `][` or `]:` still counts when it also has the
/// shape of an autolink (`<scheme:…>`, `<user@host>`): such bodies were
/// parsed before this prefilter looked past the brackets, and the one
/// reader of autolinks (the link titles of SEC011) sees them as it did.
pub fn may_link(text: &str, from: usize) -> bool {
    let body = &text.as_bytes()[from.min(text.len())..];
    let mut brackets = false;
    for i in memchr::memchr_iter(b']', body) {
        match body.get(i + 1) {
            Some(b'(') if !plain_web_destination(&body[i + 2..]) => return true,
            Some(b':') if may_open_definition(body, i) => return true,
            Some(b'(' | b':' | b'[') => brackets = true,
            _ => {}
        }
    }
    memchr::memmem::find(body, b"<!--").is_some() || (brackets && autolink_shaped(body))
}

/// Whether `rest` (after a `](`) is a web address or an in-page anchor
/// closed by `)` with nothing else: `http://` or `https://` or `#`, then
/// bytes that can only continue a destination without a title (no white
/// space or control character, no parenthesis, `<`, `>`, `|` or
/// backslash), then `)`. The grammar reads such a destination whole
/// (`scan_dest`), and `graph::links` resolves no file from it.
fn plain_web_destination(rest: &[u8]) -> bool {
    let tail = if let Some(t) = rest.strip_prefix(b"https://") {
        t
    } else if let Some(t) = rest.strip_prefix(b"http://") {
        t
    } else if let Some(t) = rest.strip_prefix(b"#") {
        t
    } else {
        return false;
    };
    for &b in tail {
        match b {
            b')' => return true,
            0..=b' ' | 0x7f | b'(' | b'<' | b'>' | b'|' | b'\\' => return false,
            _ => {}
        }
    }
    false
}

/// Whether the `]` at byte `at` of `text` (followed by `:`) may close the
/// label of a link reference definition: the agentmd grammar reads one only
/// at a block start, `[label]: destination` alone on its line with no `[`
/// in the label, so the label's `[` opens the line after its container
/// prefixes (indentation, block quote `>`, list markers). A `[` after
/// anything else on the line opens no definition.
pub fn may_open_definition(text: &[u8], at: usize) -> bool {
    let start = memchr::memrchr(b'\n', &text[..at]).map_or(0, |i| i + 1);
    let line = &text[start..at];
    // The BOM, as UTF-8, may stand before the first line's content.
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    line.iter().find(|&&b| {
        !matches!(
            b,
            b' ' | b'\t' | b'>' | b'-' | b'*' | b'+' | b'.' | b')' | b'0'..=b'9'
        )
    }) == Some(&b'[')
}

/// Whether `body` has something shaped like an autolink: a `<`, then on
/// the same line, without white space or another `<`, a `:` or `@` and a
/// `>` (the grammar's autolinks, `<scheme:…>` and `<user@host>`, all have
/// that shape).
fn autolink_shaped(body: &[u8]) -> bool {
    memchr::memchr_iter(b'<', body).any(|i| {
        let mut mark = false;
        for &b in &body[i + 1..] {
            match b {
                b'>' => return mark,
                b':' | b'@' => mark = true,
                b'<' | 0..=b' ' | 0x7f => return false,
                _ => {}
            }
        }
        false
    })
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

/// What a node of the agentmd tree is to [`body_of`], by kind id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fact {
    /// Nothing captured; its children may be.
    Walk,
    /// Nothing captured at or under it: code, frontmatter, link parts.
    Opaque,
    /// `link_destination`, a target when its parent is a link kind.
    Destination,
    /// A node whose `target` field is a link's destination.
    Link(LinkKind),
    Code,
    Strong,
    Heading,
    Comment,
    Cell,
}

/// [`Fact`] per kind id of the agentmd language, and the `target` field.
struct Kinds {
    fact: Vec<Fact>,
    target: u16,
}

static KINDS: LazyLock<Kinds> = LazyLock::new(|| {
    let lang = language();
    // Named kinds by name, aliases included (a block HTML comment is an
    // alias of its own token with the name `html_comment`): every id that
    // carries a name gets that name's fact, as a query's node pattern
    // matches every id with its name.
    let fact = (0..lang.node_kind_count() as u16)
        .map(|id| {
            if !lang.node_kind_is_named(id) {
                return Fact::Walk;
            }
            match lang.node_kind_for_id(id).unwrap_or("") {
                "link_destination" => Fact::Destination,
                "link" => Fact::Link(LinkKind::Inline),
                "image" => Fact::Link(LinkKind::Image),
                "link_reference_definition" => Fact::Link(LinkKind::Definition),
                "autolink" => Fact::Link(LinkKind::Autolink),
                "code_span" => Fact::Code,
                "strong_emphasis" => Fact::Strong,
                "heading_content" => Fact::Heading,
                "html_comment" => Fact::Comment,
                "table_cell" => Fact::Cell,
                // Their subtrees hold only delimiters, code and titles.
                "fenced_code_block"
                | "indented_code_block"
                | "frontmatter"
                | "link_title"
                | "link_label" => Fact::Opaque,
                _ => Fact::Walk,
            }
        })
        .collect();
    let target = lang
        .field_id_for_name("target")
        .expect("the agentmd grammar has a `target` field")
        .get();
    Kinds { fact, target }
});

/// Collects the body's facts: the captures of `references.scm`
/// (`@link.target`, `@code`, `@strong`, `@heading`, `@comment`,
/// `@table.cell`), found by one walk of the tree instead of the query
/// ([`body_by_query`] runs the query; the two agree on every real file).
pub(crate) fn body_of(tree: &Tree, text: &str) -> MarkdownBody {
    let kinds = &*KINDS;
    let fact = |id: u16| kinds.fact.get(id as usize).copied().unwrap_or(Fact::Walk);
    let mut body = MarkdownBody::default();
    let mut cursor = tree.walk();
    // The kind ids of the current node's ancestors, innermost last.
    let mut parents: Vec<u16> = Vec::new();
    loop {
        let n = cursor.node();
        let id = n.kind_id();
        let f = fact(id);
        match f {
            Fact::Walk | Fact::Opaque | Fact::Link(_) => {}
            Fact::Destination => {
                let parent = parents.last().map(|&p| fact(p));
                if let Some(Fact::Link(kind)) = parent
                    && cursor.field_id().map(|f| f.get()) == Some(kinds.target)
                {
                    body.links.push(BodyLink {
                        kind,
                        target: Span::new(n.start_byte(), n.end_byte()),
                    });
                }
            }
            Fact::Code => body.code_spans.push(code_text(n, text)),
            Fact::Strong => body
                .strong
                .push(trim_delims(Span::new(n.start_byte(), n.end_byte()), 2)),
            Fact::Heading => body
                .headings
                .push(trim(Span::new(n.start_byte(), n.end_byte()), text)),
            Fact::Comment => body.comments.push(Span::new(n.start_byte(), n.end_byte())),
            Fact::Cell => body
                .table_cells
                .push(trim(Span::new(n.start_byte(), n.end_byte()), text)),
        }
        // A code span, a comment and a destination hold no capture either;
        // nor does a node without visible children (a token, a paragraph
        // of plain text), which `child_count` tells in O(1) where
        // `goto_first_child` would step through every hidden child.
        let leaf = matches!(
            f,
            Fact::Opaque | Fact::Destination | Fact::Code | Fact::Comment
        ) || n.child_count() == 0;
        if !leaf && cursor.goto_first_child() {
            parents.push(id);
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                sort(&mut body);
                return body;
            }
            parents.pop();
        }
    }
}

/// The reference [`body_of`] is tested against: parses `text` and runs
/// the extraction query `references.scm` over the tree. `None` when the
/// parser gives no tree.
pub fn body_by_query(text: &str) -> Option<MarkdownBody> {
    let mut parser = Parser::new();
    parser.set_language(&language()).ok()?;
    let tree = parser.parse(text, None)?;
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
    sort(&mut body);
    Some(body)
}

/// Puts every list in source order, an invariant callers may binary-search
/// on.
fn sort(body: &mut MarkdownBody) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefilter_cases() {
        for (text, expected) in [
            ("see [a](a.md)\n", true),
            ("![i](i.png)\n", true),
            ("[a]: a.md\n", true),
            ("  > - 1. [a]: <a.md>\n", true),
            ("\u{feff}[a]: a.md\n", true),
            ("<!-- note -->\n", true),
            ("plain text, `code`, **strong**\n", false),
            ("[text][label] and [shortcut]\n", false),
            ("def f() -> List[str]:\n    return {d[\"k\"]: v}\n", false),
            ("x [a]: a.md\n", false),
            ("[text][label] <https://example.com> \"t\"\n", true),
            ("-> List[str]: see <a@b.c>\n", true),
            ("[text][label] <not an autolink> <a:b c>\n", false),
            ("[web](https://example.com/a_(b)) \n", true),
            (
                "[web](https://example.com/a?b=c#d) [top](#top) ![i](http://x/i.png)\n",
                false,
            ),
            ("[web](https://example.com \"a title\")\n", true),
            ("[web](https://example.com\\)\n", true),
            ("[web](\nhttps://example.com)\n", true),
            ("[rel](./a.md) [web](https://example.com)\n", true),
            (
                "[web](https://example.com) <https://example.com> (t)\n",
                true,
            ),
            ("| [web](https://a|b) |\n", true),
        ] {
            assert_eq!(may_link(text, 0), expected, "{text:?}");
        }
    }
}
