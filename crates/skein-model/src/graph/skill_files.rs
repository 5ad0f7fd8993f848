//! The files bundled in a skill's folder: a node per reference
//! ([`NodeKind::Reference`], a `*.md` other than `SKILL.md`) and per script
//! ([`NodeKind::Script`]), named by its path from the skill's folder, and a
//! `Contains` edge from the skill whose folder holds it (the nearest folder
//! above it with a `SKILL.md`, so a nested skill's files are its own).
//! `links.rs` then adds the `Links` edges from `SKILL.md` and from each
//! reference to the references and scripts they link.
//!
//! Source: Agent Skills specification, "Optional directories" and "File
//! references" (<https://agentskills.io/specification>): `scripts/`,
//! `references/`, `assets/`, named by relative paths from `SKILL.md`.

use super::skills::Skills;
use super::{EdgeKind, NodeKind, RepoGraph};
use crate::decode::Artifact;
use crate::format::Format;
use skein_syntax::{SourceMap, Span};

/// Adds the nodes of the references and scripts, each contained by its skill.
pub(super) fn files(
    g: &mut RepoGraph,
    artifacts: &[Artifact],
    sources: &SourceMap,
    skills: &Skills,
) {
    for a in artifacts {
        let kind = match a.format {
            Format::SkillReference => NodeKind::Reference,
            Format::SkillScript => NodeKind::Script,
            _ => continue,
        };
        let path = sources.get(a.file).path();
        let skill = crate::classify::skill_folder_of(path, |probe| {
            probe
                .strip_suffix("SKILL.md")
                .is_some_and(|d| skills.skill_dirs.contains(d))
        })
        .and_then(|d| Some((d.len(), skills.skill_dirs.get(d)?)));
        let name = skill.map_or(path, |(len, _)| &path[len..]);
        let n = g.add(kind, name, a.file, Span::empty(0));
        if let Some((_, s)) = skill {
            g.edge(s, n, EdgeKind::Contains, a.file, Span::empty(0));
            g.skill_files.entry(s).or_default().push(n);
        }
    }
}
