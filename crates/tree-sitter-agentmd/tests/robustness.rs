//! Arbitrary input parses: no panic, no hang, and no ERROR or MISSING node
//! (Markdown has no syntax errors; the one deliberate error, an
//! unterminated frontmatter, is excluded by never starting with `---`).
//!
//! Inputs are generated deterministically (xorshift) from Markdown-heavy
//! fragments, random bytes (including invalid UTF-8, NUL and lone CR), and
//! large pathological documents.

use tree_sitter::{Node, Parser};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const FRAGMENTS: &[&str] = &[
    "\n",
    "\n",
    "\n",
    "\r\n",
    "\r",
    " ",
    "  ",
    "    ",
    "\t",
    "text",
    "word ",
    "x",
    "*",
    "**",
    "***",
    "_",
    "__",
    "`",
    "``",
    "```",
    "~~~",
    "[",
    "]",
    "](",
    "(",
    ")",
    "![",
    "<",
    ">",
    "<!--",
    "-->",
    "|",
    "\\",
    "\\|",
    "#",
    "## ",
    "- ",
    "* ",
    "+ ",
    "1. ",
    "2) ",
    "> ",
    ">",
    "---",
    "===",
    "- - -",
    ":",
    "\"",
    "'",
    "[a]: b",
    "<https://x.y>",
    "<a@b.c>",
    "[t](u)",
    "[t][l]",
    "[l]: <d> \"t\"",
    "|---|",
    "| a | b |",
    ":-:",
    "é",
    "\u{feff}",
    "\0",
    "\u{a0}",
];

fn generate(rng: &mut Rng, max_len: usize) -> Vec<u8> {
    let mut out = b"x\n".to_vec();
    let target = 1 + rng.below(max_len);
    while out.len() < target {
        if rng.below(10) == 0 {
            out.push(rng.next() as u8);
        } else {
            out.extend_from_slice(FRAGMENTS[rng.below(FRAGMENTS.len())].as_bytes());
        }
    }
    out
}

fn first_error(node: Node) -> Option<Node> {
    if node.is_error() || node.is_missing() {
        return Some(node);
    }
    if !node.has_error() {
        return None;
    }
    let mut cursor = node.walk();
    let children: Vec<Node> = node.children(&mut cursor).collect();
    children.into_iter().find_map(first_error)
}

fn check(parser: &mut Parser, input: &[u8]) {
    let tree = parser.parse(input, None).expect("parse");
    let root = tree.root_node();
    if let Some(e) = first_error(root) {
        panic!(
            "error node {} at {}..{} for input {:?}",
            e.to_sexp(),
            e.start_byte(),
            e.end_byte(),
            String::from_utf8_lossy(input)
        );
    }
    assert!(root.end_byte() <= input.len());
}

fn parser() -> Parser {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_agentmd::LANGUAGE.into())
        .unwrap();
    parser
}

#[test]
fn generated_markdown_never_has_errors() {
    let mut parser = parser();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..4000 {
        let input = generate(&mut rng, 300);
        check(&mut parser, &input);
    }
}

#[test]
fn random_bytes_never_have_errors() {
    let mut parser = parser();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..1000 {
        let len = rng.below(400);
        let mut input = b"x\n".to_vec();
        input.extend((0..len).map(|_| rng.next() as u8));
        check(&mut parser, &input);
    }
}

#[test]
fn pathological_documents_parse() {
    let mut parser = parser();
    let n = 20_000;
    let cases: Vec<Vec<u8>> = vec![
        "[".repeat(n).into_bytes(),
        "]".repeat(n).into_bytes(),
        "*a ".repeat(n).into_bytes(),
        "_a ".repeat(n).into_bytes(),
        "**a ".repeat(n).into_bytes(),
        format!("{}b*", "*a ".repeat(n)).into_bytes(),
        "`".repeat(n).into_bytes(),
        "` ".repeat(n).into_bytes(),
        "<!--".repeat(n).into_bytes(),
        "<a".repeat(n).into_bytes(),
        "<http:".repeat(n).into_bytes(),
        "[a](".repeat(n).into_bytes(),
        "[a]".repeat(n).into_bytes(),
        "![".repeat(n).into_bytes(),
        "[\n".repeat(n).into_bytes(),
        "*\n".repeat(n).into_bytes(),
        ">".repeat(n).into_bytes(),
        "> ".repeat(n).into_bytes(),
        (0..2000)
            .map(|i| format!("{}- item\n", "  ".repeat(i % 100)))
            .collect::<String>()
            .into_bytes(),
        format!("- a\n{}b\n", "\n".repeat(n)).into_bytes(),
        format!("> - a\n{}", ">\n".repeat(n)).into_bytes(),
        "| a |\n|---|\n".repeat(n / 10).into_bytes(),
        "|".repeat(n).into_bytes(),
        "```\n".repeat(n).into_bytes(),
        "    x\n\n".repeat(n).into_bytes(),
        "#".repeat(n).into_bytes(),
        "\r".repeat(n).into_bytes(),
        "\\".repeat(n).into_bytes(),
        vec![0xff; n],
    ];
    for (i, mut input) in cases.into_iter().enumerate() {
        input.splice(0..0, b"x\n\n".iter().copied());
        let start = std::time::Instant::now();
        check(&mut parser, &input);
        eprintln!(
            "pathological case {i}: {} bytes in {:?}",
            input.len(),
            start.elapsed()
        );
    }
}

#[test]
fn parsing_is_deterministic_and_incremental_reparse_agrees() {
    let mut parser = parser();
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for _ in 0..300 {
        let input = generate(&mut rng, 200);
        let a = parser.parse(&input, None).unwrap();
        let b = parser.parse(&input, Some(&a)).unwrap();
        assert_eq!(a.root_node().to_sexp(), b.root_node().to_sexp());
    }
}

/// A frontmatter delimiter line as skein-syntax's `locate_frontmatter` sees
/// it (`---`/`...` then spaces or tabs, one CR allowed before the LF).
fn is_delimiter_line(line: &[u8]) -> bool {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    (line.starts_with(b"---") || line.starts_with(b"..."))
        && line[3..].iter().all(|&b| b == b' ' || b == b'\t')
}

#[test]
fn unterminated_frontmatter_is_one_local_error() {
    let mut parser = parser();
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut checked = 0;
    for _ in 0..1500 {
        let body = generate(&mut rng, 200);
        let mut input = b"---\n".to_vec();
        input.extend_from_slice(&body[2..]);
        if input.split(|&b| b == b'\n').skip(1).any(is_delimiter_line) {
            continue;
        }
        checked += 1;
        let tree = parser.parse(&input, None).expect("parse");
        let root = tree.root_node();
        let first = root.child(0).expect("a first child");
        assert_eq!(
            (
                first.kind(),
                first.start_byte(),
                first.end_byte(),
                first.to_sexp().as_str()
            ),
            ("ERROR", 0, 3, "(ERROR (frontmatter_delimiter))"),
            "input {:?}",
            String::from_utf8_lossy(&input)
        );
        let mut cursor = root.walk();
        for child in root.children(&mut cursor).skip(1) {
            if let Some(e) = first_error(child) {
                panic!(
                    "second error {} at {} for input {:?}",
                    e.to_sexp(),
                    e.start_byte(),
                    String::from_utf8_lossy(&input)
                );
            }
        }
    }
    assert!(checked > 1000, "only {checked} inputs checked");
}
