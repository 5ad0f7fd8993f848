//! REF007 `broken-link`.

use super::{closest, dir_of, exists};
use crate::RepoFiles;
use crate::{Context, Pass};
use skein_model::graph::{EdgeKind, NodeKind};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF007",
    name: "broken-link",
    severity: Severity::Warning,
    summary: "a relative link in a Markdown body to a file that is not in the repository",
    doc: "## What it does\nChecks every relative link, image and link reference definition in \
the body of a Markdown artifact (`SKILL.md`, `LOOP.md`, `agents/*.md`, `commands/*.md`, ...) \
against the files of the repository. The target is resolved from the Markdown file's folder, \
and in a Markdown file bundled in a skill's folder (`references/*.md`) also from the skill's \
folder, the root Agent Skills resolves a skill's file references from (a link is broken when \
neither reading names a file), with its `#fragment` and `?query` dropped and `%20`-style escapes decoded; a link to a folder \
is fine when the folder holds a file. Links inside code spans and fenced or indented code \
blocks are examples, not links (the agentmd grammar never reads them as links). When a file \
of a close name exists in the target's folder, the help names it.\n\n## Why is this bad?\n\
Agents follow these links: a skill that says \"read [the checklist](references/checklist.md)\" \
sends the agent after a file that is not there, and it carries on without the instructions \
the author meant it to have. Readers of the repository hit the same dead end.\n\n## Example\n\
```markdown\nSee [the rubric](rubrics/scoring.md) before grading.\n```\nwith no \
`rubrics/scoring.md` beside the file. Use instead: add the file, or fix the path.\n\n\
## Known problems\nURLs, `mailto:` and other `scheme:` targets, in-page anchors (`#usage`), \
root-relative targets (`/docs/x.md`, whose root depends on where the file is rendered), \
targets that climb above the analyzed folder, and template placeholders are not checked. \
Files excluded by `.gitignore` count as absent.\n\n## Source\nCommonMark 0.31.2, \
\"Links\" (destinations, titles, reference definitions); Agent Skills specification, \
\"File references\" (agentskills.io/specification): paths relative to the skill root.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

/// Broken links reported per file; the rest are counted in one more
/// diagnostic (the bound on output per file, ARCHITECTURE.md invariants).
pub const MAX_PER_FILE: usize = 50;

fn check(cx: &Context) -> Vec<Diagnostic> {
    let g = cx.graph.graph();
    let mut out = Vec::new();
    for e in g.edge_indices() {
        let edge = &g[e];
        if edge.kind != EdgeKind::Links {
            continue;
        }
        let (_, to) = g.edge_endpoints(e).expect("an edge of the graph");
        let target = &g[to];
        if target.kind != NodeKind::File || exists(cx.repo_files, &target.name) {
            continue;
        }
        let written = cx.sources.get(edge.file).slice(edge.span);
        if exists_from_skill(cx, edge.file, written) {
            continue;
        }
        let mut d = Diagnostic::new(
            RULE,
            edge.file,
            edge.span,
            format!("link target {} does not exist", quote(written)),
        )
        .with_label(format!("no file `{}` in the repository", target.name));
        if let Some(near) = near_file(cx.repo_files, &target.name) {
            d = d.with_help(format!("did you mean {}?", quote(&near)));
        }
        out.push(d);
    }
    bound_per_file(out)
}

/// Whether the link `written` in `file`, a Markdown file bundled in a
/// skill's folder (`skill-reference`), names a file or a folder holding
/// one when read from the skill's folder (the nearest folder above with a
/// `SKILL.md`). The graph reads a reference's links both ways when they
/// name one of the skill's own artifacts; this is the same reading for any
/// other file (`assets/logo.png`, `templates/t.txt`).
fn exists_from_skill(cx: &Context, file: skein_syntax::FileId, written: &str) -> bool {
    let path = cx.path(file);
    if cx
        .artifact_at(path)
        .is_none_or(|a| a.format != skein_model::Format::SkillReference)
    {
        return false;
    }
    skein_model::skill_folder_of(path, |p| cx.repo_files.contains(p))
        .filter(|dir| dir.len() < dir_of(path).len())
        .and_then(|dir| skein_model::graph::links::resolve_link(dir, written))
        .is_some_and(|p| exists(cx.repo_files, &p))
}

/// Keeps the first [`MAX_PER_FILE`] diagnostics of each file in source
/// order and says how many more there are.
fn bound_per_file(mut all: Vec<Diagnostic>) -> Vec<Diagnostic> {
    all.sort_by_key(|d| (d.primary.file, d.primary.span));
    let mut out = Vec::with_capacity(all.len().min(4096));
    let mut i = 0;
    while i < all.len() {
        let file = all[i].primary.file;
        let end = all[i..]
            .iter()
            .position(|d| d.primary.file != file)
            .map_or(all.len(), |n| i + n);
        let n = end - i;
        out.extend(all[i..end.min(i + MAX_PER_FILE)].iter().cloned());
        if n > MAX_PER_FILE {
            let last = all[i + MAX_PER_FILE - 1].primary.span;
            out.push(
                Diagnostic::new(
                    RULE,
                    file,
                    skein_syntax::Span::empty(last.end as usize),
                    format!(
                        "{} more broken links in this file are not shown",
                        n - MAX_PER_FILE
                    ),
                )
                .with_label(format!("the first {MAX_PER_FILE} are reported")),
            );
        }
        i = end;
    }
    out
}

/// A file in the target's folder whose name is within edit distance 2 of
/// the target's name, as a repo-relative path.
fn near_file(files: &RepoFiles, target: &str) -> Option<String> {
    let dir = dir_of(target);
    let name = &target[dir.len()..];
    let siblings = files
        .starting_with(dir)
        .map(|f| &f[dir.len()..])
        .filter(|f| !f.contains('/'))
        .take(10_000);
    closest(name, siblings).map(|(n, _)| format!("{dir}{n}"))
}
