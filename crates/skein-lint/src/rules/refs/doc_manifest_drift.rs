//! REF008 `doc-manifest-drift`.

use super::dir_of;
use crate::{Context, Pass};
use rayon::prelude::*;
use skein_model::graph::links::{gate_id_shaped, resolve_link};
use skein_model::graph::skill_name;
use skein_model::{Artifact, Format, Model};
use skein_syntax::{Diagnostic, LinkKind, Rule, Severity, Span, quote};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF008",
    name: "doc-manifest-drift",
    severity: Severity::Warning,
    summary: "a skilldrop LOOP.md that disagrees with its loop.json on skills or gates",
    doc: "## What it does\nCompares a skilldrop loop's `LOOP.md` with the `loop.json` beside it \
(skilldrop loop format, `entrypoint`):\n\
- a skill the document links (a link to `…/skills/<name>/SKILL.md` or to the skill's folder) \
or names in its stage table (a table cell, or a code span or strong emphasis in one, equal to \
the name of a skill in the repository) that no stage of `loop.json` runs; names in prose are \
cross-references (\"gaps go to `runbook-generator` in the next loop\") and are not reported;\n\
- a skill a stage of `loop.json` runs that the document never mentions (in a link, a code \
span, strong emphasis, a heading or a table cell; mentions in fenced code do not count);\n\
- a gate id the document names (a code span, strong emphasis or table cell shaped like a gate \
id: capitals then a number, `G2`, `G2.1`) that the loop does not have.\n\
Each finding is reported once per name, at its first place.\n\n## Why is this bad?\n\
`LOOP.md` is what the agent reads to run the loop; `loop.json` is what tools check and draw. \
When they drift, the agent runs a skill the loop no longer has, skips one it added, or waits \
for a gate that does not exist, and every check on `loop.json` describes a loop nobody runs.\n\n\
## Example\n```markdown\n| 3 | `verify` | [`pre-merge-review`](../../skills/pre-merge-review/SKILL.md) | **G3** |\n```\n\
when the `verify` stage of `loop.json` runs `code-review` behind gate `G2`. Use instead: make \
the table and the manifest say the same.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// The skill a link path names: `…/skills/<name>/SKILL.md` or `…/skills/<name>`.
fn skill_of_path(path: &str) -> Option<&str> {
    let p = path.strip_suffix("/SKILL.md").unwrap_or(path);
    let (parent, name) = p.rsplit_once('/')?;
    (parent == "skills" || parent.ends_with("/skills")).then_some(name)
}

/// Where LOOP.md mentions a name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mention {
    /// A link to the skill's `SKILL.md` or folder.
    Link,
    /// A code span, strong emphasis or text in a table cell (the stage table).
    Cell,
    /// Anywhere else: a code span, strong emphasis or heading in prose.
    Prose,
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let docs: HashMap<&str, &Artifact> = cx
        .artifacts
        .iter()
        .filter(|a| a.format == Format::SkilldropLoopDoc && a.body.is_some())
        .map(|a| (dir_of(cx.path(a.file)), a))
        .collect();
    // The names of the graph's skills, without the graph (this pass runs
    // while it is built).
    let skill_names: HashSet<&str> = cx
        .artifacts
        .iter()
        .filter(|a| a.format == Format::AgentSkill)
        .map(|a| skill_name(a, cx.path(a.file)).0)
        .collect();
    // Loops on every thread (each may read its LOOP.md again from disk),
    // their findings joined in artifact order.
    cx.artifacts
        .par_iter()
        .flat_map_iter(|a| {
            let mut out = Vec::new();
            // A loop read in part (it fails its schema) may lack a gate or a
            // skill its LOOP.md rightly names: not drift.
            if let Model::SkilldropLoop(l) = &a.model
                && !l.partial
            {
                let dir = dir_of(cx.path(a.file));
                if let Some(doc) = docs.get(dir)
                    && let Some(body) = &doc.body
                {
                    // The text a lean run dropped is read for this loop and
                    // let go.
                    cx.sources.get(doc.file).with_text(|text| {
                        drift(a, l, doc, body, text, dir, &skill_names, &mut out)
                    });
                }
            }
            out
        })
        .collect()
}

/// The findings of loop `a` (model `l`) against its `LOOP.md` `doc`, whose
/// body is `body` and text `text`, in folder `dir`.
#[allow(clippy::too_many_arguments)]
fn drift(
    a: &Artifact,
    l: &skein_model::models::SkilldropLoop,
    doc: &Artifact,
    body: &skein_syntax::MarkdownBody,
    text: &str,
    dir: &str,
    skill_names: &HashSet<&str>,
    out: &mut Vec<Diagnostic>,
) {
    // What loop.json runs, first place of each name.
    let mut run: BTreeMap<&str, (Span, &str)> = BTreeMap::new();
    for st in &l.stages {
        for sk in &st.skills {
            run.entry(sk.value.as_str())
                .or_insert((sk.span, st.id.value.as_str()));
        }
    }
    let gates: Vec<&str> = l
        .stages
        .iter()
        .filter_map(|s| s.gate.as_ref().map(|g| g.id.value.as_str()))
        .collect();

    // What LOOP.md mentions: (name, span, linked?) in source order.
    let mut mentions: Vec<(Span, &str, Mention)> = Vec::new();
    for link in &body.links {
        if link.kind == LinkKind::Autolink {
            continue;
        }
        let written = &text[link.target.range()];
        let Some(resolved) = resolve_link(dir, written) else {
            continue;
        };
        if let Some(name) = skill_of_path(&resolved)
            && let Some(i) = written.find(name)
        {
            // The name as written (the resolved path ends the same way).
            mentions.push((link.target, &written[i..i + name.len()], Mention::Link));
        }
    }
    // Table cells are disjoint and in source order: the one that may
    // hold a span is the last starting at or before it (a binary search,
    // not a scan of every cell per name: a huge table stays linear).
    let cells = &body.table_cells;
    for (span, name) in body.names(text) {
        let i = cells.partition_point(|c| c.start <= span.start);
        let in_cell = i > 0 && span.end <= cells[i - 1].end;
        let how = if in_cell {
            Mention::Cell
        } else {
            Mention::Prose
        };
        mentions.push((span, name, how));
    }
    mentions.sort_by_key(|m| m.0);
    let linked: BTreeSet<&str> = mentions
        .iter()
        .filter(|m| m.2 == Mention::Link)
        .map(|m| m.1)
        .collect();

    // Stage ids share the table with skills and may spell the same.
    let stage_ids: BTreeSet<&str> = l.stages.iter().map(|s| s.id.value.as_str()).collect();
    let mut said: BTreeSet<&str> = BTreeSet::new();
    for &(span, name, how) in &mentions {
        // Stage ids share the table with skills and may spell the same.
        if run.contains_key(name) || stage_ids.contains(name) || said.contains(name) {
            continue;
        }
        let declared = how == Mention::Link || (how == Mention::Cell && skill_names.contains(name));
        if declared {
            said.insert(name);
            let how = if linked.contains(name) {
                "links"
            } else {
                "names"
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    doc.file,
                    span,
                    format!(
                        "LOOP.md {how} skill {}, which no stage of loop.json runs",
                        quote(name)
                    ),
                )
                .with_label("not in loop.json")
                .with_secondary(a.file, l.name.span, "the loop's manifest")
                .with_help(format!(
                    "add {} to a stage's `skills` in loop.json, or drop it from LOOP.md",
                    quote(name)
                )),
            );
        } else if gate_id_shaped(name) && !gates.contains(&name) {
            said.insert(name);
            let have = if gates.is_empty() {
                "the loop has no gates".to_string()
            } else {
                format!(
                    "its gates are {}",
                    gates
                        .iter()
                        .map(|g| quote(g))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    doc.file,
                    span,
                    format!(
                        "LOOP.md names gate {}, which this loop does not have",
                        quote(name)
                    ),
                )
                .with_label("no such gate in loop.json")
                .with_secondary(a.file, l.name.span, have),
            );
        }
    }
    let mentioned: BTreeSet<&str> = mentions.iter().map(|m| m.1).collect();
    for (name, (span, stage)) in &run {
        if *name == "*" || mentioned.contains(name) {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                *span,
                format!(
                    "stage {} runs skill {}, which LOOP.md never mentions",
                    quote(stage),
                    quote(name)
                ),
            )
            .with_label("not in LOOP.md")
            .with_secondary(
                doc.file,
                doc.frontmatter.map_or(Span::empty(0), |f| f.open),
                "the loop's document",
            )
            .with_help(format!(
                "name {} in LOOP.md's stage table, or remove it from the stage",
                quote(name)
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::skill_of_path;

    #[test]
    fn skill_paths() {
        assert_eq!(skill_of_path("packs/dev/skills/a/SKILL.md"), Some("a"));
        assert_eq!(skill_of_path("skills/a"), Some("a"));
        assert_eq!(skill_of_path("packs/dev/loops/a/LOOP.md"), None);
        assert_eq!(skill_of_path("docs/skills.md"), None);
    }
}
