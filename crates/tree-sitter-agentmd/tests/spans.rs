//! Exact byte spans of the nodes skein reads: the frontmatter (same rules
//! as skein-syntax's `locate_frontmatter`), link targets, code spans,
//! headings, table cells, comments.

use tree_sitter::{Node, Parser, Tree};

fn parse(text: &str) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_agentmd::LANGUAGE.into())
        .unwrap();
    parser.parse(text, None).unwrap()
}

fn find_all<'t>(node: Node<'t>, kind: &str, out: &mut Vec<Node<'t>>) {
    if node.kind() == kind {
        out.push(node);
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        find_all(child, kind, out);
    }
}

/// Byte ranges of every node of `kind`.
fn spans(text: &str, kind: &str) -> Vec<(usize, usize)> {
    let tree = parse(text);
    let mut nodes = Vec::new();
    find_all(tree.root_node(), kind, &mut nodes);
    nodes
        .iter()
        .map(|n| (n.start_byte(), n.end_byte()))
        .collect()
}

/// Texts of every node of `kind`.
fn texts(text: &str, kind: &str) -> Vec<String> {
    spans(text, kind)
        .into_iter()
        .map(|(s, e)| text[s..e].to_string())
        .collect()
}

/// A byte range.
type Span = (usize, usize);

/// (opening delimiter, content, closing delimiter) spans, as
/// `locate_frontmatter` gives them.
fn frontmatter(text: &str) -> Option<(Span, Span, Span)> {
    let tree = parse(text);
    let root = tree.root_node();
    let fm = root.child(0).filter(|n| n.kind() == "frontmatter")?;
    assert!(!root.has_error(), "{}", root.to_sexp());
    let delims: Vec<_> = spans(text, "frontmatter_delimiter");
    let content = spans(text, "frontmatter_content");
    assert_eq!(delims.len(), 2);
    assert_eq!(content.len(), 1);
    assert_eq!((fm.start_byte(), fm.end_byte()), (delims[0].0, delims[1].1));
    Some((delims[0], content[0], delims[1]))
}

#[test]
fn frontmatter_spans_follow_locate_frontmatter() {
    // BOM and CRLF, as skein-syntax's own test
    let text = "\u{feff}---\r\nname: x\r\n---\r\n# body\r\n";
    assert_eq!(frontmatter(text), Some(((3, 6), (8, 17), (17, 20))));
    assert_eq!(&text[8..17], "name: x\r\n");
    // empty content: a zero-width node where the closing line starts
    assert_eq!(frontmatter("---\n---\n"), Some(((0, 3), (4, 4), (4, 7))));
    // `...` closes; spaces and tabs after delimiters
    assert_eq!(
        frontmatter("--- \t\na: 1\n... \nx\n"),
        Some(((0, 3), (6, 11), (11, 14)))
    );
    // closing line at the end of the file, with and without CR
    assert_eq!(
        frontmatter("---\na: 1\n---"),
        Some(((0, 3), (4, 9), (9, 12)))
    );
    assert_eq!(
        frontmatter("---\na: 1\n---\r"),
        Some(((0, 3), (4, 9), (9, 12)))
    );
    // a CR not before LF is part of the line: not a delimiter
    assert_eq!(
        frontmatter("---\na\n---\rx\n---\n"),
        Some(((0, 3), (4, 12), (12, 15)))
    );
    // no frontmatter
    assert_eq!(frontmatter("# title\n---\nx: 1\n---\n"), None);
    assert_eq!(frontmatter(""), None);
    assert_eq!(frontmatter("----\n---\n"), None);
    assert_eq!(frontmatter("--- x\n---\n"), None);
    assert_eq!(frontmatter("\n---\nx: 1\n---\n"), None);
    assert_eq!(frontmatter(" ---\nx: 1\n---\n"), None);
}

#[test]
fn unterminated_frontmatter_is_a_local_error() {
    let text = "---\nname: x\n# body\n";
    let tree = parse(text);
    let root = tree.root_node();
    assert_eq!(
        root.to_sexp(),
        "(document (ERROR (frontmatter_delimiter)) (paragraph) (atx_heading (atx_h1_marker) (heading_content)))"
    );
    let error = root.child(0).unwrap();
    assert_eq!((error.start_byte(), error.end_byte()), (0, 3));
    assert_eq!(texts(text, "heading_content"), ["body"]);
}

#[test]
fn link_targets_are_the_destinations() {
    let text = "[a](b.md) [c](<d e.md> \"t\") ![i](j.png 'k') [l](m(n).md) <https://o.p/q> [r]: s\n\n\
                [t]: <u v.md> (w)\n";
    assert_eq!(
        texts(text, "link_destination"),
        [
            "b.md",
            "d e.md",
            "j.png",
            "m(n).md",
            "https://o.p/q",
            "u v.md"
        ]
    );
    assert_eq!(texts(text, "link_title"), ["\"t\"", "'k'", "(w)"]);
    assert_eq!(texts(text, "link_text"), ["a", "c", "i", "l"]);
    assert_eq!(texts(text, "link_label"), ["[t]"]);
}

#[test]
fn inline_spans() {
    let text = "# Title `x` [y](z)\n\nA ``co`de`` and **bold _it_** <!-- c -->\n\n| a | [b](c) |\n|---|---|\n|  d  |   |\n";
    assert_eq!(texts(text, "heading_content"), ["Title `x` [y](z)"]);
    assert_eq!(texts(text, "code_span"), ["`x`", "``co`de``"]);
    assert_eq!(texts(text, "code_span_delimiter"), ["`", "`", "``", "``"]);
    assert_eq!(texts(text, "strong_emphasis"), ["**bold _it_**"]);
    assert_eq!(texts(text, "emphasis"), ["_it_"]);
    assert_eq!(texts(text, "html_comment"), ["<!-- c -->"]);
    assert_eq!(texts(text, "table_cell"), ["a", "[b](c)", "d", ""]);
    assert_eq!(texts(text, "table_delimiter_row"), ["|---|---|"]);
}

#[test]
fn block_spans_end_at_their_last_byte() {
    let text = "para one\nline two  \n\n> quote\n> more\n\n- item\n\n  cont\n\nend";
    assert_eq!(
        texts(text, "paragraph"),
        ["para one\nline two", "quote\n> more", "item", "cont", "end"]
    );
    assert_eq!(texts(text, "block_quote"), ["> quote\n> more"]);
    assert_eq!(texts(text, "list_item"), ["- item\n\n  cont"]);
    assert_eq!(texts(text, "list_marker"), ["- "]);
}

#[test]
fn code_content_is_the_lines_between_the_fences() {
    let text = "```sh\nmake\n\n  test\n```\n~~~\n~~~\n    indented\n";
    assert_eq!(texts(text, "code_content"), ["make\n\n  test\n"]);
    assert_eq!(texts(text, "language"), ["sh"]);
    assert_eq!(texts(text, "indented_code_block"), ["indented"]);
}
