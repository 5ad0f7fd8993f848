//! Runs the grammar corpus (`corpus/grammar/*.txt` at the workspace root,
//! tree-sitter's test format) as `tree-sitter test` does, so `cargo test`
//! needs neither node nor the tree-sitter CLI.
//!
//! The format: a header (a line of `=`, the test name, a line of `=`,
//! optionally attribute lines such as `:skip` or `:error`), the input, a
//! divider (a line of `-`; the longest one in the body wins), the expected
//! S-expression. One trailing line break (LF, then CR) is removed from the
//! input. The expected output is compared after whitespace normalization,
//! with fields shown only when it has some (`name: (node)`), as the CLI does.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One example of the corpus.
struct Example {
    file: String,
    name: String,
    input: Vec<u8>,
    expected: String,
    has_fields: bool,
    skip: bool,
    error: bool,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/grammar")
}

/// `===`/`---` delimiter line: (length of the run, suffix).
fn delimiter(line: &str, c: char) -> Option<(usize, &str)> {
    let len = line.len() - line.trim_start_matches(c).len();
    (len >= 3).then(|| (len, line[len..].trim_end_matches(['\r', '\n'])))
}

fn suffix_matches(first: Option<&str>, suffix: &str) -> bool {
    match first {
        Some(f) => suffix == f,
        None => suffix.is_empty(),
    }
}

/// A test header starting at `start`: (name, skip, error, first body line).
fn header(
    lines: &[&str],
    first: Option<&str>,
    start: usize,
) -> Option<(String, bool, bool, usize)> {
    let (_, suffix) = delimiter(lines[start], '=')?;
    if !suffix_matches(first, suffix) {
        return None;
    }
    let (mut name, mut skip, mut error, mut seen_marker) = (String::new(), false, false, false);
    let mut i = start + 1;
    while i < lines.len() {
        if let Some((_, s)) = delimiter(lines[i], '=')
            && suffix_matches(first, s)
        {
            break;
        }
        let trimmed = lines[i].trim();
        if trimmed.is_empty() && !seen_marker {
            return None;
        }
        match trimmed.split('(').next().unwrap_or_default() {
            ":skip" => (seen_marker, skip) = (true, true),
            ":error" => (seen_marker, error) = (true, true),
            ":fail-fast" | ":cst" | ":platform" | ":language" => seen_marker = true,
            _ if !seen_marker => name.push_str(lines[i]),
            _ => {}
        }
        i += 1;
    }
    if i >= lines.len() {
        return None;
    }
    Some((name.trim().to_string(), skip, error, i + 1))
}

/// Collapses whitespace, drops `;` comment lines and spaces before `)`.
fn normalize(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut space = false;
    for line in raw.lines() {
        if line.trim_start().starts_with(';') {
            continue;
        }
        for ch in line.chars() {
            if ch.is_whitespace() {
                if !space && !out.is_empty() {
                    out.push(' ');
                    space = true;
                }
            } else {
                if ch == ')' && space {
                    out.pop();
                }
                out.push(ch);
                space = false;
            }
        }
        if !out.is_empty() && !space {
            out.push(' ');
            space = true;
        }
    }
    out.trim_end().to_string()
}

/// Removes `field: ` prefixes from a `to_sexp()` string.
fn strip_fields(sexp: &str) -> String {
    let mut out = String::with_capacity(sexp.len());
    let mut rest = sexp;
    while let Some(pos) = rest.find(": (") {
        if let Some(space) = rest[..pos].rfind(' ') {
            let word = &rest[space + 1..pos];
            if !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                out.push_str(&rest[..=space]);
                out.push('(');
                rest = &rest[pos + 3..];
                continue;
            }
        }
        out.push_str(&rest[..pos + 3]);
        rest = &rest[pos + 3..];
    }
    out.push_str(rest);
    out
}

fn example(
    file: &str,
    body: &[&str],
    first: Option<&str>,
    head: (String, bool, bool),
) -> Option<Example> {
    let mut best: Option<usize> = None;
    let mut best_len = 0;
    for (j, line) in body.iter().enumerate() {
        if let Some((len, suffix)) = delimiter(line, '-')
            && suffix_matches(first, suffix)
            && len + suffix.len() >= best_len
        {
            best = Some(j);
            best_len = len + suffix.len();
        }
    }
    let divider = best?;
    let mut input: Vec<u8> = body[..divider].iter().flat_map(|l| l.bytes()).collect();
    if input.last() == Some(&b'\n') {
        input.pop();
    }
    if input.last() == Some(&b'\r') {
        input.pop();
    }
    let expected = normalize(&body[divider + 1..].concat());
    let has_fields = expected.contains(": (");
    let (name, skip, error) = head;
    Some(Example {
        file: file.to_string(),
        name,
        input,
        expected,
        has_fields,
        skip,
        error,
    })
}

fn parse_corpus_file(file: &str, content: &str) -> Vec<Example> {
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let first = lines.iter().find_map(|l| match delimiter(l, '=') {
        Some((_, s)) if !s.is_empty() => Some(s.to_string()),
        _ => None,
    });
    let first = first.as_deref();
    let mut out = Vec::new();
    let mut pending: Option<((String, bool, bool), usize)> = None;
    let mut i = 0;
    while i < lines.len() {
        let Some((name, skip, error, body_start)) = header(&lines, first, i) else {
            i += 1;
            continue;
        };
        if let Some((head, start)) = pending.take()
            && let Some(e) = example(file, &lines[start..i], first, head)
        {
            out.push(e);
        }
        pending = Some(((name, skip, error), body_start));
        i = body_start;
    }
    if let Some((head, start)) = pending
        && let Some(e) = example(file, &lines[start..], first, head)
    {
        out.push(e);
    }
    out
}

/// Indents a normalized S-expression one node per line, for failure output.
fn pretty(sexp: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for (i, ch) in sexp.char_indices() {
        match ch {
            '(' => {
                if i > 0 {
                    out.push('\n');
                    out.push_str(&"  ".repeat(depth));
                }
                depth += 1;
                out.push('(');
            }
            ')' => {
                depth = depth.saturating_sub(1);
                out.push(')');
            }
            ' ' if sexp[i + 1..].starts_with('(') => {}
            _ => out.push(ch),
        }
    }
    out
}

#[test]
fn grammar_corpus() {
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus files in {}", dir.display());

    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_agentmd::LANGUAGE.into())
        .expect("the agentmd grammar loads");

    let (mut run, mut failures) = (0, String::new());
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let content = std::fs::read_to_string(path).expect("corpus file is UTF-8");
        let examples = parse_corpus_file(&file, &content);
        assert!(!examples.is_empty(), "{file}: no examples");
        for e in examples {
            if e.skip {
                continue;
            }
            run += 1;
            let tree = parser.parse(&e.input, None).expect("parse");
            let root = tree.root_node();
            if e.error {
                if !root.has_error() {
                    let _ = writeln!(failures, "{}: {}: expected an error", e.file, e.name);
                }
                continue;
            }
            let sexp = root.to_sexp();
            let actual = if e.has_fields {
                sexp
            } else {
                strip_fields(&sexp)
            };
            if actual != e.expected {
                let _ = writeln!(
                    failures,
                    "{}: {}\n--- expected\n{}\n--- actual\n{}\n",
                    e.file,
                    e.name,
                    pretty(&e.expected),
                    pretty(&actual)
                );
            }
        }
    }
    assert!(failures.is_empty(), "grammar corpus failures:\n{failures}");
    assert!(run >= 80, "only {run} corpus examples ran");
    eprintln!(
        "grammar corpus: {run} examples in {} files passed",
        files.len()
    );
}

#[test]
fn corpus_format_matches_the_cli() {
    let text = "=====\nfirst\n=====\nab\n\n---\n\n(document\n  ; comment\n  f: (x) )\n\n\
                =====\nsecond\n:skip\n=====\nline\n---\n(document)\n";
    let examples = parse_corpus_file("t.txt", text);
    assert_eq!(examples.len(), 2);
    assert_eq!(examples[0].name, "first");
    assert_eq!(examples[0].input, b"ab\n");
    assert_eq!(examples[0].expected, "(document f: (x))");
    assert!(examples[0].has_fields);
    assert_eq!(examples[1].input, b"line");
    assert!(examples[1].skip);
    assert_eq!(strip_fields("(a f: (b) g: (c d: (e)))"), "(a (b) (c (e)))");
}
