//! Plugins: a node per Claude Code plugin (`.claude-plugin/plugin.json`,
//! Claude Code plugins reference), Codex plugin and Agent Plugins 1.0.0
//! manifest (`plugin.schema.json`), and a node per part file (`agents/*.md`,
//! `commands/*.md`, `hooks/hooks.json`). A plugin contains the parts and the
//! Agent Skills of its root.

use super::{EdgeKind, NodeKind, RepoGraph, dir_of, plugin_root, skills::Skills};
use super::{HashMap, HashSet};
use crate::decode::Artifact;
use crate::format::Format;
use crate::models::Model;
use petgraph::graph::NodeIndex;
use skein_syntax::{FileId, SourceMap, Span};
use std::collections::BTreeMap;

/// Plugin parts and manifests; returns the part node of each part file.
pub(super) fn plugins(
    g: &mut RepoGraph,
    artifacts: &[Artifact],
    sources: &SourceMap,
    skills: &Skills,
) -> HashMap<FileId, NodeIndex> {
    let path = |a: &Artifact| sources.get(a.file).path();
    let Skills { skill_dirs, .. } = skills;

    // Plugin agents, commands and hooks files: one node each.
    let mut part_nodes: HashMap<FileId, NodeIndex> = HashMap::default();
    for a in artifacts {
        let kind = match a.format {
            Format::PluginAgent => NodeKind::Agent,
            Format::PluginCommand => NodeKind::Command,
            Format::ClaudeHooks => NodeKind::Hook,
            _ => continue,
        };
        let p = path(a);
        let name = p
            .rsplit('/')
            .next()
            .unwrap_or(p)
            .trim_end_matches(".md")
            .to_string();
        let span = match &a.model {
            Model::Frontmatter(fm) => fm.name.as_ref().map(|n| n.span).unwrap_or_default(),
            _ => Span::default(),
        };
        part_nodes.insert(a.file, g.add(kind, name, a.file, span));
    }
    // The same by path, sorted, for the per-plugin range queries below (a
    // scan of every artifact per plugin is quadratic in a monorepo).
    let part_paths: BTreeMap<&str, NodeIndex> = artifacts
        .iter()
        .filter_map(|o| part_nodes.get(&o.file).map(|&n| (path(o), n)))
        .collect();
    let opencode_dirs: HashSet<&str> = artifacts
        .iter()
        .filter(|o| o.format == Format::OpenCodeConfig)
        .map(|o| dir_of(path(o)))
        .collect();

    // Plugins contain the skills of their `skills/` folder.
    for a in artifacts.iter().filter(|a| {
        matches!(
            a.format,
            Format::ClaudePlugin | Format::CodexPlugin | Format::AgentPluginsManifest
        )
    }) {
        let p = path(a);
        let root = plugin_root(dir_of(p));
        let name = match &a.model {
            Model::Plugin(m) if m.name_str().is_some() => m.name_str().unwrap_or("").to_string(),
            _ => root
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or("")
                .to_string(),
        };
        let span = match &a.model {
            Model::Plugin(m) => m.name.as_ref().map(|n| n.span).unwrap_or_default(),
            _ => Span::default(),
        };
        let pn = g.add(NodeKind::Plugin, name, a.file, span);
        let skills_dir = format!("{root}skills/");
        let inside: Vec<(&str, NodeIndex)> = skill_dirs
            .under(&skills_dir)
            .filter(|(d, _)| {
                d[skills_dir.len()..]
                    .trim_end_matches('/')
                    .split('/')
                    .count()
                    == 1
            })
            .collect();
        // An OpenCode kit (an OpenCode config at the plugin root) attaches its
        // skills to agents in that config; the manifest only describes the
        // package, so it contains the skills without loading them.
        let opencode_kit = opencode_dirs.contains(root);
        for (_, sk) in inside {
            g.edge(pn, sk, EdgeKind::Contains, a.file, span);
            if !opencode_kit {
                g.loaded_by.entry(sk).or_default().push(pn);
            }
        }
        // Its agents, commands and hooks: `agents/*.md`, `commands/*.md`, `hooks/hooks.json`.
        let parts: Vec<(&str, NodeIndex)> = part_paths
            .range(root..)
            .take_while(|(p, _)| p.starts_with(root))
            .map(|(&p, &n)| (p, n))
            .filter(|(p, _)| {
                let rest = &p[root.len()..];
                rest == "hooks/hooks.json"
                    || ["agents/", "commands/"]
                        .iter()
                        .any(|d| rest.strip_prefix(d).is_some_and(|f| !f.contains('/')))
            })
            .collect();
        for (_, part) in parts {
            g.edge(pn, part, EdgeKind::Contains, a.file, span);
        }
    }
    part_nodes
}
