//! Skill nodes: one per Agent Skill (`SKILL.md` and its folder; Agent Skills
//! specification, agentskills.io), and the index the other builders resolve
//! skills by: by folder, by name (the frontmatter `name`, and the folder's name
//! when it differs), and the folders in order for prefix (range) queries.

use super::{NodeKind, RepoGraph, dir_of};
use crate::decode::Artifact;
use crate::format::Format;
use crate::models::Model;
use petgraph::graph::NodeIndex;
use rayon::slice::ParallelSliceMut;
use skein_syntax::{SourceMap, Span};

/// The skills of the repository, indexed for resolution. Folders and names
/// are borrowed from the paths and the models (the index lives only while
/// the graph is built, but holds every skill: no copies). Both indexes are
/// sorted lists searched by bisection: a hash map, a second ordered map of
/// the same folders and a map of small lists were 9.7 MB at the graph
/// build's peak on the generated 100k-file tree (issue #17).
pub(super) struct Skills<'a> {
    /// Skill nodes by folder (repo-relative, with trailing `/`).
    pub(super) skill_dirs: SkillDirs<'a>,
    /// Skill nodes by name, each with its folder.
    pub(super) skill_by_name: ByName<'a>,
}

/// Skill nodes by folder (repo-relative, with a trailing `/`), sorted by
/// folder, one per folder (the last skill indexed in it).
pub(super) struct SkillDirs<'a>(Vec<(&'a str, NodeIndex)>);

impl<'a> SkillDirs<'a> {
    /// The skill node of folder `dir`, if one is indexed.
    pub(super) fn get(&self, dir: &str) -> Option<NodeIndex> {
        let i = self.0.binary_search_by(|&(d, _)| d.cmp(dir)).ok()?;
        Some(self.0[i].1)
    }

    /// Whether folder `dir` holds an indexed skill.
    pub(super) fn contains(&self, dir: &str) -> bool {
        self.get(dir).is_some()
    }

    /// Every folder with its skill node, in folder order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&'a str, NodeIndex)> + '_ {
        self.0.iter().copied()
    }

    /// The folders that start with `prefix`, with their skill nodes, in
    /// folder order.
    pub(super) fn under<'m>(
        &'m self,
        prefix: &'m str,
    ) -> impl Iterator<Item = (&'a str, NodeIndex)> + 'm {
        let from = self.0.partition_point(|&(d, _)| d < prefix);
        self.0[from..]
            .iter()
            .take_while(move |(d, _)| d.starts_with(prefix))
            .copied()
    }
}

/// Skill nodes by name (a skill's frontmatter `name`, and its folder's name
/// when that differs), each with its folder: `(name, folder, node)` sorted
/// by name, one name's entries side by side.
pub(super) struct ByName<'a>(Vec<(&'a str, &'a str, NodeIndex)>);

impl<'a> ByName<'a> {
    /// The `(folder, node)` of each skill named `name`; `None` when none is.
    pub(super) fn get(
        &self,
        name: &str,
    ) -> Option<impl Iterator<Item = (&'a str, NodeIndex)> + '_> {
        let from = self.0.partition_point(|&(n, _, _)| n < name);
        let len = self.0[from..].partition_point(|&(n, _, _)| n == name);
        (len > 0).then(|| self.0[from..from + len].iter().map(|&(_, d, n)| (d, n)))
    }
}

/// The name of the skill node of Agent Skill `a`, whose file is at `path`,
/// and where it is written: its frontmatter's `name`, else its folder's
/// name at the frontmatter's opening line (the graph's skills are named so;
/// [`crate::RepoGraph::skills`]).
pub fn skill_name<'a>(a: &'a Artifact, path: &'a str) -> (&'a str, Span) {
    let folder = dir_of(path)
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("");
    match &a.model {
        Model::Frontmatter(fm) => match &fm.name {
            Some(n) => (n.value.as_str(), n.span),
            None => (folder, a.frontmatter.map(|f| f.open).unwrap_or_default()),
        },
        _ => (folder, a.frontmatter.map(|f| f.open).unwrap_or_default()),
    }
}

/// Adds a node per Agent Skill and indexes them.
pub(super) fn index<'a>(
    g: &mut RepoGraph,
    artifacts: &'a [Artifact],
    sources: &'a SourceMap,
) -> Skills<'a> {
    let path = |a: &Artifact| sources.get(a.file).path();

    // Skills, by folder and by name.
    let mut by_dir: Vec<(&'a str, NodeIndex)> = Vec::new();
    let mut by_name: Vec<(&'a str, &'a str, NodeIndex)> = Vec::new();
    for a in artifacts.iter().filter(|a| a.format == Format::AgentSkill) {
        let p = path(a);
        let dir = dir_of(p);
        let folder = dir.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        let (name, span) = skill_name(a, p);
        let n = g.add(NodeKind::Skill, name, a.file, span);
        g.skills.push(n);
        by_dir.push((dir, n));
        by_name.push((name, dir, n));
        if name_differs(folder, name) {
            by_name.push((folder, dir, n));
        }
    }
    // Stable (rayon's merge sort, on every thread): a folder indexed twice
    // keeps its last skill, a name keeps its skills in artifact order.
    by_dir.par_sort_by_key(|&(d, _)| d);
    let mut dirs: Vec<(&'a str, NodeIndex)> = Vec::with_capacity(by_dir.len());
    for e in by_dir {
        match dirs.last_mut() {
            Some(last) if last.0 == e.0 => *last = e,
            _ => dirs.push(e),
        }
    }
    by_name.par_sort_by_key(|&(n, _, _)| n);
    Skills {
        skill_dirs: SkillDirs(dirs),
        skill_by_name: ByName(by_name),
    }
}

/// Nearest skill of a name to a folder: longest common prefix.
pub(super) fn nearest(by: &ByName<'_>, name: &str, from: &str) -> Option<NodeIndex> {
    by.get(name)?
        .max_by_key(|&(d, _)| (common_prefix(d, from), std::cmp::Reverse(d)))
        .map(|(_, n)| n)
}

fn name_differs(folder: &str, name: &str) -> bool {
    !folder.is_empty() && folder != name
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}
