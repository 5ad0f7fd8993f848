//! Every Markdown file of the real corpus (`../shared/corpus/real` next to
//! the workspace) parses, and only the reviewed files listed in
//! [`MALFORMED`] contain ERROR or MISSING nodes.

/// Files (relative to the corpus root) that are truly malformed and so
/// parse with an error. Empty: every real file parses cleanly.
const MALFORMED: &[&str] = &[];

#[test]
fn every_real_markdown_file_parses() {
    let Some(root) = skein_test_support::real_corpus() else {
        return;
    };
    let files = skein_test_support::files_under(&root, Some("md"));

    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_agentmd::LANGUAGE.into())
        .expect("the agentmd grammar loads");

    let (mut bytes, mut with_errors) = (0usize, Vec::new());
    for path in &files {
        let text = std::fs::read(path).expect("readable corpus file");
        bytes += text.len();
        let tree = parser.parse(&text, None).expect("parse");
        let root_node = tree.root_node();
        assert_eq!(
            root_node.end_byte(),
            text.len(),
            "{}: tree ends early",
            path.display()
        );
        if root_node.has_error() {
            let rel = path.strip_prefix(&root).unwrap_or(path);
            with_errors.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    eprintln!(
        "real corpus: {} Markdown files ({bytes} bytes) parsed, {} with errors",
        files.len(),
        with_errors.len()
    );
    assert!(
        files.len() > 5000,
        "expected over 5,000 Markdown files, found {}",
        files.len()
    );
    assert_eq!(
        with_errors, MALFORMED,
        "files with ERROR/MISSING nodes changed"
    );
}
