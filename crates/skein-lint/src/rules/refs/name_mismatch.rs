//! REF005 `name-mismatch`.

use super::dir_of;
use crate::rules::skills::invalid_skill_name::{is_valid, suggested};
use crate::{Context, Pass};
use skein_model::{Format, Model};
use skein_syntax::{Diagnostic, FileId, Rule, Severity, Span, quote};
use std::collections::HashMap;
use unicode_normalization::UnicodeNormalization;

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF005",
    name: "name-mismatch",
    severity: Severity::Error,
    summary: "folder, manifest and frontmatter names that disagree",
    doc: "## What it does\nChecks that the names of one artifact agree: a `SKILL.md` frontmatter \
`name` equals its folder name; a skilldrop `loop.json` `name` equals its folder name, and the \
sibling `LOOP.md` frontmatter `name` equals the `loop.json` name (the other name is shown beside \
it). Names are compared after Unicode NFC normalisation, so a folder whose accents a \
file system stored decomposed (`e` + U+0301) matches the same name written with `é`. The help \
suggests only valid skill names (`invalid-skill-name`'s judgement): the `name` for the folder \
when the name is valid, the folder's name for `name` when the folder's is, and one name for \
both when neither is (`Customer.io Automation` in `Customer.io/`: `customer-io-automation`).\n\n\
## Why is this bad?\nTools find artifacts by folder and refer to them by name. The agentskills \
specification requires a skill's name to equal its folder; skilldrop resolves stage skills by \
folder and shows loops by name. When they disagree, a reference by one name misses the artifact \
known by the other, and installers copy it under a name nobody references.\n\n## Example\n```yaml\n\
# skills/video-downloader/SKILL.md\n---\nname: youtube-downloader\n---\n```\nUse instead: rename \
the folder to `youtube-downloader/`, or set `name: video-downloader`.\n\n## Fix\nUnsafe, \
and only for a skill whose folder is itself a valid name: the fix sets `name` to the folder's \
name. Whatever referred to the skill by its old `name` (a loop stage, an agent's `skills`, a \
user typing `/youtube-downloader`) no longer finds it; renaming the folder instead may be what \
was meant, and is not a text edit.",
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

fn folder_of(path: &str) -> &str {
    dir_of(path)
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
}

/// Whether two names are equal after Unicode NFC normalisation: a folder
/// written by a file system that decomposes accents (`e` + U+0301) names the
/// same skill as `é` in the frontmatter.
fn same_nfc(a: &str, b: &str) -> bool {
    a == b || a.nfc().eq(b.nfc())
}

/// The help of a skill whose `name` is not its folder's: it suggests only
/// names that are valid skill names (SKILL002's judgement), so following
/// it never trades this finding for that one.
fn skill_help(name: &str, folder: &str) -> String {
    match (is_valid(name), is_valid(folder)) {
        (true, true) => format!(
            "rename the folder to {} or set `name: {folder}`",
            quote(name)
        ),
        (true, false) => format!("rename the folder to {}", quote(name)),
        (false, true) => format!(
            "set `name: {folder}`: skill names are lowercase words joined by `-`, and equal the folder"
        ),
        (false, false) => {
            let both = Some(suggested(name))
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| suggested(folder));
            if both.is_empty() {
                "give the folder and `name` one valid skill name: lowercase words joined by `-`"
                    .to_string()
            } else {
                format!(
                    "neither {} nor {} is a valid skill name: rename the folder to `{both}` and set `name: {both}`",
                    quote(name),
                    quote(folder)
                )
            }
        }
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // LOOP.md frontmatter names by folder.
    let mut docs: HashMap<&str, (FileId, Span, &str)> = HashMap::new();
    for a in cx
        .artifacts
        .iter()
        .filter(|a| a.format == Format::SkilldropLoopDoc)
    {
        let doc = &a.document;
        if let Some(n) = doc.root().and_then(|r| doc.get(r, "name"))
            && let Some(s) = doc.as_str(n)
        {
            docs.insert(dir_of(cx.path(a.file)), (a.file, doc.node(n).span, s));
        }
    }
    for a in cx.artifacts {
        let path = cx.path(a.file);
        let folder = folder_of(path);
        match (&a.model, a.format) {
            (Model::Frontmatter(fm), Format::AgentSkill) => {
                let Some(name) = &fm.name else { continue };
                if folder.is_empty() || name.value.is_empty() || same_nfc(&name.value, folder) {
                    continue;
                }
                let help = skill_help(&name.value, folder);
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        name.span,
                        format!(
                            "skill name {} does not match its folder {}",
                            quote(&name.value),
                            quote(folder)
                        ),
                    )
                    .with_label(format!("the folder is {}", quote(folder)))
                    .with_help(help)
                    .with_fix_opt(
                        // Only to a folder that is itself a valid name.
                        is_valid(folder)
                            .then(|| {
                                crate::fix::replace_literal_at(
                                    cx.sources.get(a.file).text(),
                                    name.span,
                                    &name.value,
                                    folder,
                                )
                            })
                            .flatten()
                            .map(|e| {
                                skein_syntax::Fix::unsafe_(format!("set `name: {folder}`"), vec![e])
                            }),
                    ),
                );
            }
            (Model::SkilldropLoop(l), _) => {
                let name = &l.name;
                let doc = docs.get(dir_of(path));
                // A `name` that is not a string (read as "") is the schema's finding.
                let unread = l.partial && name.value.is_empty();
                if !folder.is_empty() && !unread && name.value != folder {
                    let mut d = Diagnostic::new(
                        RULE,
                        a.file,
                        name.span,
                        format!(
                            "loop name {} does not match its folder {}",
                            quote(&name.value),
                            quote(folder)
                        ),
                    )
                    .with_label(format!("the folder is {}", quote(folder)));
                    if let Some(&(f, span, md)) = doc {
                        d = d.with_secondary(f, span, format!("LOOP.md says {}", quote(md)));
                    }
                    out.push(d.with_help(format!(
                        "rename the folder to {} or set `\"name\": \"{folder}\"`",
                        quote(&name.value)
                    )));
                }
                if let Some(&(f, span, md)) = doc
                    && md != name.value
                    && (folder.is_empty() || md != folder)
                {
                    out.push(
                        Diagnostic::new(
                            RULE,
                            f,
                            span,
                            format!(
                                "LOOP.md name {} does not match its loop.json name {}",
                                quote(md),
                                quote(&name.value)
                            ),
                        )
                        .with_label("the documentation's name")
                        .with_secondary(a.file, name.span, "the manifest's name")
                        .with_help(format!("set `name: {}` in LOOP.md", name.value)),
                    );
                }
            }
            _ => {}
        }
    }
    out
}
