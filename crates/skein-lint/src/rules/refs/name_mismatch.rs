//! REF005 `name-mismatch`.

use super::dir_of;
use crate::{Context, Pass};
use skein_model::{Format, Model};
use skein_syntax::{Applicability, Diagnostic, Edit, FileId, Fix, Rule, Severity, Span, quote};
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
file system stored decomposed (`e` + U+0301) matches the same name written with `é`. When the name only differs from its folder by case and spacing (`Cloudinary Automation` in \
`cloudinary-automation/`), the help suggests the folder name, which is also a valid skill name.\n\n\
## Why is this bad?\nTools find artifacts by folder and refer to them by name. The agentskills \
specification requires a skill's name to equal its folder; skilldrop resolves stage skills by \
folder and shows loops by name. When they disagree, a reference by one name misses the artifact \
known by the other, and installers copy it under a name nobody references.\n\n## Example\n```yaml\n\
# skills/video-downloader/SKILL.md\n---\nname: youtube-downloader\n---\n```\nUse instead: rename \
the folder to `youtube-downloader/`, or set `name: video-downloader`.",
};

/// The pass.
pub const PASS: Pass = Pass { rule: RULE, check };

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

/// `Cloudinary Automation` -> `cloudinary-automation`.
fn normalise(name: &str) -> String {
    name.trim()
        .to_lowercase()
        .split(|c: char| c.is_whitespace() || c == '_' || c == '-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-")
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
                // The fix when the name is the folder's, written otherwise:
                // the value becomes the folder name (unsafe: whatever refers to
                // the skill by the old name no longer finds it).
                let mut fix = None;
                let help = if normalise(folder) != folder {
                    // The folder itself is not a valid skill name.
                    format!("rename the folder to {}", quote(&name.value))
                } else if normalise(&name.value) == folder {
                    fix = Some(Fix::new(
                        format!("set `name: {folder}`"),
                        Applicability::Unsafe,
                        vec![Edit::replace(name.span, folder)],
                    ));
                    format!(
                        "set `name: {folder}`: skill names are lowercase words joined by `-`, and equal the folder"
                    )
                } else {
                    format!(
                        "rename the folder to {} or set `name: {folder}`",
                        quote(&name.value)
                    )
                };
                let d = Diagnostic::new(
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
                .with_help(help);
                out.push(match fix {
                    Some(f) => d.with_fix(f),
                    None => d,
                });
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
