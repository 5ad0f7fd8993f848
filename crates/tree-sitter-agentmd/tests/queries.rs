//! Every query in `queries/agentmd/` compiles against the grammar, and the
//! extraction queries capture exactly what the engine expects.

use std::path::Path;
use tree_sitter::{Language, Parser, Query, QueryCursor, StreamingIterator};

fn language() -> Language {
    tree_sitter_agentmd::LANGUAGE.into()
}

#[test]
fn every_query_file_compiles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../queries/agentmd");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("queries/agentmd exists") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_some_and(|x| x == "scm") {
            let source = std::fs::read_to_string(&path).expect("query is UTF-8");
            if let Err(e) = Query::new(&language(), &source) {
                panic!("{}: {e}", path.display());
            }
            names.push(path.file_name().unwrap().to_string_lossy().to_string());
        }
    }
    names.sort();
    assert_eq!(
        names,
        ["highlights.scm", "injections.scm", "references.scm"]
    );
}

#[test]
fn exported_queries_are_the_files() {
    for (name, exported) in [
        ("highlights.scm", tree_sitter_agentmd::HIGHLIGHTS_QUERY),
        ("injections.scm", tree_sitter_agentmd::INJECTIONS_QUERY),
        ("references.scm", tree_sitter_agentmd::REFERENCES_QUERY),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../queries/agentmd")
            .join(name);
        assert_eq!(std::fs::read_to_string(path).unwrap(), exported, "{name}");
        Query::new(&language(), exported).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// (capture name, captured text) in document order.
fn captures(query_source: &str, text: &str) -> Vec<(String, String)> {
    let mut parser = Parser::new();
    parser.set_language(&language()).unwrap();
    let tree = parser.parse(text, None).unwrap();
    assert!(
        !tree.root_node().has_error(),
        "{}",
        tree.root_node().to_sexp()
    );
    let query = Query::new(&language(), query_source).unwrap();
    let mut cursor = QueryCursor::new();
    let mut found = Vec::new();
    let mut it = cursor.captures(&query, tree.root_node(), text.as_bytes());
    while let Some((m, i)) = it.next() {
        let c = m.captures()[*i];
        let name = query.capture_names()[c.index as usize].to_string();
        found.push((
            c.node.start_byte(),
            name,
            text[c.node.byte_range()].to_string(),
        ));
    }
    found.sort_by_key(|(start, _, _)| *start);
    found.into_iter().map(|(_, n, t)| (n, t)).collect()
}

#[test]
fn references_query_captures() {
    let text = "---\nname: x\n---\n\
                # Use [the guide](docs/guide.md)\n\n\
                Run `[not](a-link.md)` with **care** and ![logo](<img/logo.png> \"Logo\").\n\
                See [the spec][spec], [spec][] and <https://example.com>.\n\n\
                <!-- skein: ignore[REF001] -->\n\n\
                | tool | doc |\n|---|---|\n| Edit | [edit](tools/edit.md) |\n\n\
                ```md\n[in](fence.md)\n```\n\n\
                [spec]: specs/spec.md \"Spec\"\n";
    let got = captures(tree_sitter_agentmd::REFERENCES_QUERY, text);
    let expected: Vec<(String, String)> = [
        ("heading", "Use [the guide](docs/guide.md)"),
        ("link.target", "docs/guide.md"),
        ("code", "`[not](a-link.md)`"),
        ("strong", "**care**"),
        ("link.target", "img/logo.png"),
        ("link.label", "[spec]"),
        ("link.label", "[]"),
        ("link.target", "https://example.com"),
        ("comment", "<!-- skein: ignore[REF001] -->"),
        ("table.cell", "tool"),
        ("table.cell", "doc"),
        ("table.cell", "Edit"),
        ("table.cell", "[edit](tools/edit.md)"),
        ("link.target", "tools/edit.md"),
        ("link.label", "[spec]"),
        ("link.target", "specs/spec.md"),
    ]
    .into_iter()
    .map(|(n, t)| (n.to_string(), t.to_string()))
    .collect();
    assert_eq!(got, expected);
}

#[test]
fn injections_query_captures() {
    let text = "---\nname: x\n---\n```python\nprint(1)\n```\n";
    let got = captures(tree_sitter_agentmd::INJECTIONS_QUERY, text);
    assert_eq!(
        got,
        [
            ("injection.content".to_string(), "name: x\n".to_string()),
            ("injection.language".to_string(), "python".to_string()),
            ("injection.content".to_string(), "print(1)\n".to_string()),
        ]
    );
}
