//! A skill's reference is parsed only when its text hints at a relative
//! link (`decode::relative_link_hint`), since the graph reads a reference's
//! links only for the files of its skill. Skipping a body loses nothing:
//! on every Markdown file of `../shared/corpus/real`, read as a reference
//! (LF and CRLF), a body the hint skips holds, by the grammar's full parse,
//! no link other than an autolink whose target resolves to a repository
//! path from any folder (`graph::links::resolve_link`), and a parsed body
//! is the full parse's.

use skein_model::graph::links::resolve_link;
use skein_model::{Candidate, Format, Syntax, decode};
use skein_syntax::{FileId, LinkKind, Parsers};

const REFERENCE: Candidate = Candidate {
    syntax: Syntax::Markdown,
    format: Format::SkillReference,
    certain: true,
    jsonc: false,
};

/// Deep enough that no relative target climbs above it.
const DIR: &str = "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/";

/// `(parsed, skipped)` after checking `text`.
fn check(parsers: &mut Parsers, text: &str, what: &str) -> (usize, usize) {
    let decoded = decode(parsers, FileId(0), REFERENCE, text.as_bytes());
    let artifact = decoded.artifact.expect("a UTF-8 reference is an artifact");
    let full = parsers.parse_markdown(FileId(0), text);
    let full_body = full.body.expect("a full parse has a body");
    match artifact.body {
        Some(body) => {
            assert_eq!(*body, full_body, "{what}");
            assert_eq!(decoded.comments, full.comments, "{what}");
            (1, 0)
        }
        None => {
            for l in &full_body.links {
                let target = &text[l.target.range()];
                assert!(
                    l.kind == LinkKind::Autolink || resolve_link(DIR, target).is_none(),
                    "{what}: skipped, but links {target:?} ({:?})",
                    l.kind
                );
            }
            assert!(decoded.comments.is_empty(), "{what}");
            (0, 1)
        }
    }
}

#[test]
fn skipped_reference_bodies_link_no_file() {
    let Some(root) = skein_test_support::real_corpus() else {
        return;
    };
    let files = skein_test_support::files_under(&root, Some("md"));
    let mut parsers = Parsers::new();
    let (mut parsed, mut skipped) = (0, 0);
    for v in skein_test_support::lf_and_crlf(&files) {
        let (p, s) = check(&mut parsers, &v.text, &v.name());
        parsed += p;
        skipped += s;
    }
    println!("{parsed} bodies parsed, {skipped} skipped");
    assert!(
        parsed > 500 && skipped > 5000,
        "{parsed} parsed, {skipped} skipped"
    );
}

#[test]
fn definitions_in_containers_are_read_and_code_colons_are_not() {
    let mut parsers = Parsers::new();
    for (text, links) in [
        ("[a]: a.md\n", true),
        ("  [a]: <a.md>\n", true),
        ("> [a]: a.md\n", true),
        ("- [a]: a.md\n", true),
        ("1. > [a]: a.md\n", true),
        ("\t[a]: a.md\n", true),
        ("see [a](a.md)\n", true),
        (
            "```py\ndef f() -> List[str]:\n    return {d[\"k\"]: v}\n```\n",
            false,
        ),
        ("[a]: https://example.com\n", false),
        ("x [a]: a.md\n", false),
    ] {
        let decoded = decode(&mut parsers, FileId(0), REFERENCE, text.as_bytes());
        let body = decoded.artifact.and_then(|a| a.body);
        assert_eq!(body.is_some(), links, "{text:?}");
        check(&mut parsers, text, text);
    }
}
