//! Bailey assistants (`shared/formats/bailey-assistant.schema.json`,
//! sigrix-io/bailey `schemas/0.1/assistant.schema.json`): a node per
//! `assistant.json`, using the skills its `skills[].path` and `instructions`
//! name. Its MCP wiring is in [`super::mcp`].

use super::{NodeKind, RepoGraph, Unresolved, dir_of, join, skills::Skills};
use crate::decode::Artifact;
use crate::models::Model;
use skein_syntax::{SourceMap, Spanned};

/// Bailey assistants: skills[].path and instructions.
pub(super) fn assistants(
    g: &mut RepoGraph,
    artifacts: &[Artifact],
    sources: &SourceMap,
    skills: &Skills,
) {
    let path = |a: &Artifact| sources.get(a.file).path();
    let Skills { skill_dirs, .. } = skills;

    for a in artifacts {
        let Model::BaileyAssistant(b) = &a.model else {
            continue;
        };
        let dir = dir_of(path(a)).to_string();
        let n = g.add(
            NodeKind::Assistant,
            b.name.value.clone(),
            a.file,
            b.name.span,
        );
        let mut refs: Vec<&Spanned<String>> =
            b.skills.iter().filter_map(|s| s.path.as_ref()).collect();
        refs.extend(b.instructions.as_ref());
        for r in refs {
            // A path that is not `skills/<name>/SKILL.md` is the schema's
            // finding (`skill_path`), not also an unknown skill.
            let shaped = r
                .value
                .strip_prefix("skills/")
                .and_then(|x| x.strip_suffix("/SKILL.md"))
                .is_some_and(|n| !n.is_empty() && !n.contains('/') && !n.starts_with('.'));
            if !shaped {
                continue;
            }
            let Some(target) = join(&dir, &r.value) else {
                continue;
            };
            let folder = format!(
                "{}/",
                target
                    .strip_suffix("/SKILL.md")
                    .or_else(|| target.strip_suffix("SKILL.md"))
                    .unwrap_or(&target)
                    .trim_end_matches('/')
            );
            match skill_dirs.get(folder.as_str()) {
                Some(s) => g.uses_skill(n, s, a.file, r.span),
                None => g.unresolved.push(Unresolved {
                    expected: "skill",
                    name: r.value.clone(),
                    file: a.file,
                    span: r.span,
                    searched: format!("{folder}SKILL.md"),
                }),
            }
        }
        g.loader_root(dir, NodeKind::Assistant);
    }
}
