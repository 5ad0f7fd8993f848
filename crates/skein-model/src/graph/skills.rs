//! Skill nodes: one per Agent Skill (`SKILL.md` and its folder; Agent Skills
//! specification, agentskills.io), and the index the other builders resolve
//! skills by: by folder, by name (the frontmatter `name`, and the folder's name
//! when it differs), and the folders in order for prefix (range) queries.

use super::HashMap;
use super::{NodeKind, RepoGraph, dir_of};
use crate::decode::Artifact;
use crate::format::Format;
use crate::models::Model;
use petgraph::graph::NodeIndex;
use skein_syntax::SourceMap;
use std::collections::BTreeMap;

/// The skills of the repository, indexed for resolution. Folders and names
/// are borrowed from the paths and the models (the index lives only while
/// the graph is built, but holds every skill: no copies).
pub(super) struct Skills<'a> {
    /// Skill node by folder (repo-relative, with trailing `/`).
    pub(super) skill_by_dir: HashMap<&'a str, NodeIndex>,
    /// Skill nodes by name, each with its folder.
    pub(super) skill_by_name: BTreeMap<&'a str, Vec<(&'a str, NodeIndex)>>,
    /// Skill folders in order, for prefix (range) queries.
    pub(super) skill_dirs: BTreeMap<&'a str, NodeIndex>,
}

/// Adds a node per Agent Skill and indexes them.
pub(super) fn index<'a>(
    g: &mut RepoGraph,
    artifacts: &'a [Artifact],
    sources: &'a SourceMap,
) -> Skills<'a> {
    let path = |a: &Artifact| sources.get(a.file).path();

    // Skills, by folder and by name.
    let mut skill_by_dir: HashMap<&'a str, NodeIndex> = HashMap::default();
    let mut skill_by_name: BTreeMap<&'a str, Vec<(&'a str, NodeIndex)>> = BTreeMap::new();
    for a in artifacts.iter().filter(|a| a.format == Format::AgentSkill) {
        let p = path(a);
        let dir = dir_of(p);
        let folder = dir.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        let (name, span) = match &a.model {
            Model::Frontmatter(fm) => match &fm.name {
                Some(n) => (n.value.as_str(), n.span),
                None => (folder, a.frontmatter.map(|f| f.open).unwrap_or_default()),
            },
            _ => (folder, a.frontmatter.map(|f| f.open).unwrap_or_default()),
        };
        let n = g.add(NodeKind::Skill, name, a.file, span);
        g.skills.push(n);
        skill_by_dir.insert(dir, n);
        skill_by_name.entry(name).or_default().push((dir, n));
        if name_differs(folder, name) {
            skill_by_name.entry(folder).or_default().push((dir, n));
        }
    }
    // Skill folders in order, for prefix (range) queries.
    let skill_dirs: BTreeMap<&'a str, NodeIndex> =
        skill_by_dir.iter().map(|(&d, &n)| (d, n)).collect();
    Skills {
        skill_by_dir,
        skill_by_name,
        skill_dirs,
    }
}

/// The entries of `map` whose key starts with `prefix`, in key order.
pub(super) fn under<'m, 'a: 'm>(
    map: &'m BTreeMap<&'a str, NodeIndex>,
    prefix: &'m str,
) -> impl Iterator<Item = (&'a str, NodeIndex)> + 'm {
    map.range::<str, _>((
        std::ops::Bound::Included(prefix),
        std::ops::Bound::Unbounded,
    ))
    .take_while(move |(d, _)| d.starts_with(prefix))
    .map(|(&d, &n)| (d, n))
}

/// Nearest skill of a name to a folder: longest common prefix.
pub(super) fn nearest(
    by: &BTreeMap<&str, Vec<(&str, NodeIndex)>>,
    name: &str,
    from: &str,
) -> Option<NodeIndex> {
    let cands = by.get(name)?;
    cands
        .iter()
        .max_by_key(|&&(d, _)| (common_prefix(d, from), std::cmp::Reverse(d)))
        .map(|&(_, n)| n)
}

fn name_differs(folder: &str, name: &str) -> bool {
    !folder.is_empty() && folder != name
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}
