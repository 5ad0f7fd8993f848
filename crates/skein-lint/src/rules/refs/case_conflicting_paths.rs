//! REF010 `case-conflicting-paths`.

use crate::{Context, Pass};
use skein_syntax::{Diagnostic, FileId, Rule, Severity, Span, quote};
use std::borrow::Cow;
use std::collections::HashMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF010",
    name: "case-conflicting-paths",
    severity: Severity::Error,
    summary: "two artifacts whose paths differ only in letter case, of which a case-insensitive checkout (macOS, Windows) keeps one",
    doc: include_str!("case_conflicting_paths.md"),
    fix: None,
};

/// The pass: it reads the artifacts' paths, not the graph.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    // Artifacts come in path order: the first of a group is kept as the
    // one the others clash with.
    let mut first: HashMap<Cow<'_, str>, FileId> = HashMap::with_capacity(cx.artifacts.len());
    let mut out = Vec::new();
    for a in cx.artifacts {
        let path = cx.path(a.file);
        // Most paths are lowercase ASCII already: those are compared as
        // they are, borrowed (no copy of every artifact's path).
        let folded: Cow<'_, str> =
            if path.bytes().any(|b| b.is_ascii_uppercase()) || !path.is_ascii() {
                Cow::Owned(path.to_lowercase())
            } else {
                Cow::Borrowed(path)
            };
        let Some(&other) = first.get(&folded) else {
            first.insert(folded, a.file);
            continue;
        };
        let other_path = cx.path(other);
        if other_path == path {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                Span::empty(0),
                format!(
                    "{} and {} differ only in letter case: a checkout on macOS or Windows keeps one of them",
                    quote(path),
                    quote(other_path)
                ),
            )
            .with_label("this file")
            .with_secondary(other, Span::empty(0), "clashes with this one")
            .with_note("macOS and Windows file systems ignore case by default: git writes both files to one path there, and one overwrites the other (git warns that the paths have collided)")
            .with_help("rename or remove one of them with `git mv` or `git rm`, so that no two paths differ only in case"),
        );
    }
    out
}
