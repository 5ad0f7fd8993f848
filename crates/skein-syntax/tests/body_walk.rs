//! The tree walk that collects a Markdown body's facts (`markdown::body_of`,
//! what `Parsers::parse_markdown` returns) finds exactly what the
//! extraction query `queries/agentmd/references.scm` captures
//! (`markdown::body_by_query`, the reference kept for this test): the same
//! links with the same kinds and target spans, code spans, strong emphasis,
//! headings, table cells and HTML comments, on every Markdown file of
//! `../shared/corpus/real` and a CRLF copy of each, on the rule fixtures'
//! Markdown and on the grammar's test corpus read whole as Markdown.

use skein_syntax::markdown::body_by_query;
use skein_syntax::{FileId, MarkdownBody, Parsers};

/// Compares the two on `text`; the number of facts found.
fn agree(parsers: &mut Parsers, text: &str, what: &str) -> usize {
    let walked = parsers
        .parse_markdown(FileId(0), text)
        .body
        .expect("a full parse has a body");
    let queried = body_by_query(text).expect("the grammar parses any text");
    assert_eq!(walked, queried, "{what}");
    let MarkdownBody {
        links,
        code_spans,
        strong,
        headings,
        table_cells,
        comments,
    } = walked;
    links.len()
        + code_spans.len()
        + strong.len()
        + headings.len()
        + table_cells.len()
        + comments.len()
}

#[test]
fn walk_equals_query_on_the_real_corpus() {
    let Some(root) = skein_test_support::real_corpus() else {
        return;
    };
    let files = skein_test_support::files_under(&root, Some("md"));
    let mut parsers = Parsers::new();
    let (mut compared, mut facts) = (0, 0);
    for v in skein_test_support::lf_and_crlf(&files) {
        facts += agree(&mut parsers, &v.text, &v.name());
        compared += 1;
    }
    println!("{compared} texts, {facts} facts");
    assert!(
        compared > 8000 && facts > 100_000,
        "{compared} texts, {facts} facts"
    );
}

#[test]
fn walk_equals_query_on_fixtures_and_the_grammar_corpus() {
    let root = skein_test_support::workspace_root();
    let mut files = skein_test_support::files_under(&root.join("corpus/rules"), Some("md"));
    files.extend(skein_test_support::files_under(
        &root.join("corpus/examples"),
        Some("md"),
    ));
    files.extend(skein_test_support::files_under(
        &root.join("corpus/grammar"),
        Some("txt"),
    ));
    let mut parsers = Parsers::new();
    let mut facts = 0;
    for path in &files {
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        facts += agree(&mut parsers, &text, &path.display().to_string());
    }
    assert!(
        files.len() > 100 && facts > 1000,
        "{} files, {facts} facts",
        files.len()
    );
}

#[test]
fn walk_equals_query_on_small_cases() {
    let cases = [
        "",
        "[a](b.md) ![i](img.png) <https://x.y> [r]: ./r.md \"t\"\n",
        "---\nname: x\n---\n# T **b** `c`\n\n| a | [l](x.md) |\n|---|---|\n| `c` | d |\n",
        "```\n[not](a link)\n```\n<!-- c -->\n> [q](q.md)\n- [l](l.md) **s**\n",
        "[x]: <a b.md>\n[y][x] [z]\n\nSetext **h**\n---\n",
        "[unclosed](a.md\n[nested [brackets]](n.md) [e](<>) [t](t.md 'title')",
        "---\nunterminated: [a](b.md)\n",
    ];
    let mut parsers = Parsers::new();
    for text in cases {
        agree(&mut parsers, text, text);
    }
}
