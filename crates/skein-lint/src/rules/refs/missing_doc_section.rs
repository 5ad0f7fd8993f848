//! REF009 `missing-doc-section`.

use crate::{Context, Pass};
use skein_model::Format;
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF009",
    name: "missing-doc-section",
    severity: Severity::Warning,
    summary: "a skilldrop LOOP.md without the sections skilldrop's validator requires",
    doc: "## What it does\nChecks that every skilldrop `LOOP.md` has a heading \"Quality bar\" and \
a heading that starts with \"Anti-patterns\" (any level, case-insensitive), the two sections \
skilldrop's own validator requires of a loop's document. Headings inside fenced code are not \
headings.\n\n## Why is this bad?\nThe quality bar is what the agent checks its work against \
before a gate, and the anti-patterns are the known ways a run goes wrong: a loop document \
without them leaves the agent to guess both, and skilldrop's validator rejects the loop.\n\n\
## Example\n```markdown\n# build\n## Stages\n...\n## Verdicts\n...\n```\nUse instead: add \
`## Quality bar` and `## Anti-patterns to avoid` sections.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// Whether a lowercased heading opens a required section.
type Present = fn(&str) -> bool;

/// Required sections: (shown name, test on a lowercased heading).
const SECTIONS: &[(&str, Present)] = &[
    ("Quality bar", |h| h == "quality bar"),
    ("Anti-patterns", |h| h.starts_with("anti-patterns")),
];

/// Whether the heading `text` (as written) opens a required section.
pub(crate) fn required(text: &str) -> bool {
    let h = text.trim().to_lowercase();
    SECTIONS.iter().any(|(_, present)| present(&h))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in cx
        .artifacts
        .iter()
        .filter(|a| a.format == Format::SkilldropLoopDoc)
    {
        let Some(body) = &a.body else { continue };
        // A lean run keeps the headings that open a required section when
        // it drops the text (`required`): the others open none.
        let src = cx.sources.get(a.file);
        let headings: Vec<String> = match src.pieces() {
            Some(kept) => kept
                .filter(|(s, _)| body.headings.binary_search(s).is_ok())
                .map(|(_, h)| h.trim().to_lowercase())
                .collect(),
            None => body
                .headings
                .iter()
                .map(|h| src.slice(*h).trim().to_lowercase())
                .collect(),
        };
        // Anchor: the first heading, else the frontmatter's opening line.
        let anchor = body
            .headings
            .first()
            .copied()
            .or(a.frontmatter.map(|f| f.open))
            .unwrap_or(Span::empty(0));
        for (name, present) in SECTIONS {
            if headings.iter().any(|h| present(h)) {
                continue;
            }
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    anchor,
                    format!("LOOP.md has no {} section", quote(name)),
                )
                .with_label(format!("this document needs a {} heading", quote(name)))
                .with_help(format!(
                    "add a `## {name}` section: skilldrop's validator requires it of every loop document"
                )),
            );
        }
    }
    out
}
