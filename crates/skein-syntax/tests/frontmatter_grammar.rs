//! The agentmd grammar locates frontmatter exactly where the line-based
//! locator ([`locate_frontmatter`], the reference kept for this test) does,
//! on every Markdown file of `../shared/corpus/real` and on a CRLF copy of
//! each (issue 4, acceptance: "the frontmatter spans from the grammar equal
//! the ones the earlier locator produced on the whole corpus").
//!
//! Outcomes compared per file: no frontmatter; a closed frontmatter (all
//! four spans: opening line, YAML content, closing line, body start); an
//! unterminated one (SYN003 at the opening delimiter).

use skein_syntax::{FileId, Frontmatter, LinkKind, Parsers, Span, locate_frontmatter};

#[derive(Debug, PartialEq, Eq)]
enum Located {
    None,
    Closed(Frontmatter),
    Unterminated(Span),
}

fn by_grammar(parsers: &mut Parsers, text: &str) -> Located {
    let parsed = parsers.parse_markdown(FileId(0), text);
    if let Some(fm) = parsed.frontmatter {
        return Located::Closed(fm);
    }
    match parsed
        .diagnostics
        .iter()
        .find(|d| d.rule.code == skein_syntax::rules::UNTERMINATED_FRONTMATTER.code)
    {
        Some(d) => Located::Unterminated(d.primary.span),
        None => Located::None,
    }
}

fn by_locator(text: &str) -> Located {
    match locate_frontmatter(text) {
        Ok(None) => Located::None,
        Ok(Some(fm)) => Located::Closed(fm),
        Err(open) => Located::Unterminated(open),
    }
}

#[test]
fn grammar_frontmatter_equals_locator_on_the_real_corpus() {
    let Some(root) = skein_test_support::real_corpus() else {
        return;
    };
    let files = skein_test_support::files_under(&root, Some("md"));
    let mut parsers = Parsers::new();
    let (mut closed, mut none, mut unterminated, mut compared) = (0, 0, 0, 0);
    let mut mismatches = Vec::new();
    for v in skein_test_support::lf_and_crlf(&files) {
        let expected = by_locator(&v.text);
        let got = by_grammar(&mut parsers, &v.text);
        compared += 1;
        if !v.crlf {
            match expected {
                Located::None => none += 1,
                Located::Closed(_) => closed += 1,
                Located::Unterminated(_) => unterminated += 1,
            }
        }
        if got != expected && mismatches.len() < 20 {
            mismatches.push(format!(
                "{}: grammar {got:?}, locator {expected:?}",
                v.name()
            ));
        }
    }
    println!(
        "{} Markdown files ({compared} texts with CRLF copies): {closed} with frontmatter, \
         {none} without, {unterminated} unterminated",
        files.len()
    );
    assert!(
        files.len() > 5000,
        "expected the whole corpus, found {}",
        files.len()
    );
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn grammar_frontmatter_edge_cases_equal_locator() {
    let cases = [
        "---\nname: x\n---\nbody\n",
        "\u{feff}---\nname: x\n---\n",
        "---\r\nname: x\r\n---\r\n# t\r\n",
        "---\n---\n",
        "---  \nname: x\n...\t\n",
        "---\nname: x\n",
        "---\nname: x",
        "# title\n---\nx: 1\n---\n",
        "",
        "---",
        "--- \n---",
        "----\nx: 1\n----\n",
        "---\nname: x\n---",
        "---\nkey: |\n  ---\n---\n",
    ];
    let mut parsers = Parsers::new();
    for text in cases {
        assert_eq!(
            by_grammar(&mut parsers, text),
            by_locator(text),
            "on {text:?}"
        );
    }
}

/// Skipping a body's parse loses nothing a rule reads: on every real
/// Markdown file whose body the prefilter (`markdown::may_link`) rules out,
/// the full parse finds no HTML comment and no link other than autolinks
/// and inline links to a web address or an in-page anchor (`http://`,
/// `https://`, `#`) with no title (the destination is followed by its
/// `)`); in a body with a `](`, `][` or `]:`, which the prefilter once
/// parsed for, no autolink either. And `parse_markdown_links` returns the
/// same frontmatter, value tree and diagnostics as `parse_markdown`.
#[test]
fn skipped_bodies_hold_nothing_a_rule_reads() {
    let Some(root) = skein_test_support::real_corpus() else {
        return;
    };
    let files = skein_test_support::files_under(&root, Some("md"));
    let mut parsers = Parsers::new();
    let (mut skipped, mut parsed, mut brackets, mut web_links) = (0, 0, 0, 0);
    for path in &files {
        let Ok(text) = String::from_utf8(std::fs::read(path).unwrap()) else {
            continue;
        };
        let full = parsers.parse_markdown(FileId(0), &text);
        let lite = parsers.parse_markdown_links(FileId(0), &text);
        assert_eq!(lite.frontmatter, full.frontmatter, "{}", path.display());
        assert_eq!(lite.diagnostics, full.diagnostics, "{}", path.display());
        assert_eq!(lite.comments, full.comments, "{}", path.display());
        assert_eq!(
            format!("{:?}", lite.document),
            format!("{:?}", full.document),
            "{}",
            path.display()
        );
        if lite.body.is_some() {
            parsed += 1;
            continue;
        }
        skipped += 1;
        let body = full.body.expect("a full parse has a body");
        for l in &body.links {
            let target = &text[l.target.range()];
            let web = l.kind == LinkKind::Inline || l.kind == LinkKind::Image;
            assert!(
                l.kind == LinkKind::Autolink
                    || web
                        && ["http://", "https://", "#"]
                            .iter()
                            .any(|p| target.starts_with(p))
                        && text[l.target.end as usize..].starts_with(')'),
                "{}: a link {target:?} in a skipped body",
                path.display()
            );
            web_links += usize::from(web);
        }
        assert!(body.comments.is_empty(), "{}", path.display());
        // A body skipped although it holds a `](`, `][` or `]:` (which the
        // prefilter once parsed for) has no autolink.
        let from = full.frontmatter.map_or(0, |f| f.body_start as usize);
        if ["](", "][", "]:"].iter().any(|b| text[from..].contains(b)) {
            assert!(
                body.links.iter().all(|l| l.kind != LinkKind::Autolink),
                "{}",
                path.display()
            );
            brackets += 1;
        }
    }
    println!(
        "{skipped} bodies skipped ({brackets} with brackets, {web_links} web links), {parsed} parsed"
    );
    assert!(
        skipped > 3000 && parsed > 500 && brackets > 300 && web_links > 1000,
        "{skipped} skipped ({brackets} with brackets, {web_links} web links), {parsed} parsed"
    );
}
