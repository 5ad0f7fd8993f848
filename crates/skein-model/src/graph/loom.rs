//! Loom agent specs (`shared/formats/loom-agent-spec-v1.schema-emitter.py.txt`,
//! loom-py `loom/ai/declarative/_schema.py`): a node per agent, `a2a`
//! delegation between agents, and `skills` capability libraries.

use super::{EdgeKind, NodeKind, RepoGraph, Unresolved, dir_of, join, skills::Skills};
use crate::decode::Artifact;
use crate::models::{LoomAgentSpec, Model};
use petgraph::graph::NodeIndex;
use skein_syntax::SourceMap;
use std::collections::BTreeMap;

/// The pointer of the `agent` of capability `ci` (an a2a delegation).
fn agent_pointer(ci: usize) -> String {
    format!("/capabilities/{ci}/agent")
}

/// The pointer of item `ii` of the `include` list of capability `ci`.
fn include_pointer(ci: usize, ii: usize) -> String {
    format!("/capabilities/{ci}/include/{ii}")
}

/// Every pointer whose span the graph may ask of the document of `spec`
/// ([`Document::pointer_span`](skein_syntax::Document::pointer_span)):
/// each capability's `agent` and `include` items. All the graph reads of
/// a Loom spec's tree, so a run that keeps these spans need not keep the
/// tree (issue #17).
pub fn spans_read(spec: &LoomAgentSpec) -> Vec<String> {
    let mut out = Vec::new();
    for (ci, cap) in spec.capabilities.iter().enumerate() {
        out.push(agent_pointer(ci));
        let includes = cap
            .value
            .get("include")
            .and_then(|v| v.as_array())
            .map_or(0, Vec::len);
        out.extend((0..includes).map(|ii| include_pointer(ci, ii)));
    }
    out
}

/// Loom agents: a2a delegation and skill libraries.
pub(super) fn agents(
    g: &mut RepoGraph,
    artifacts: &[Artifact],
    sources: &SourceMap,
    skills: &Skills,
) {
    let path = |a: &Artifact| sources.get(a.file).path();
    let Skills { skill_dirs, .. } = skills;

    let mut loom_by_name: BTreeMap<String, Vec<NodeIndex>> = BTreeMap::new();
    let mut loom_nodes = Vec::new();
    for a in artifacts {
        if let Model::LoomAgentSpec(spec) = &a.model {
            let n = g.add(
                NodeKind::Agent,
                spec.name.value.clone(),
                a.file,
                spec.name.span,
            );
            g.graph[n].cap = spec
                .policies
                .as_ref()
                .and_then(|p| p.get("max_iterations"))
                .and_then(|v| v.as_u64())
                .map(Box::new);
            loom_by_name
                .entry(spec.name.value.clone())
                .or_default()
                .push(n);
            loom_nodes.push((a, spec, n));
        }
    }
    for (a, spec, n) in &loom_nodes {
        let dir = dir_of(path(a)).to_string();
        for (ci, cap) in spec.capabilities.iter().enumerate() {
            match cap.value.get("kind").and_then(|k| k.as_str()) {
                Some("a2a") => {
                    let Some(agent) = cap.value.get("agent").and_then(|v| v.as_str()) else {
                        continue;
                    };
                    // Point at the `agent` value, not the whole capability.
                    let span = a
                        .document
                        .pointer_span(&agent_pointer(ci))
                        .unwrap_or(cap.span);
                    match loom_by_name.get(agent).and_then(|v| v.first()) {
                        Some(&to) => g.edge(*n, to, EdgeKind::Delegates, a.file, span),
                        None => g.unresolved.push(Unresolved {
                            expected: "agent",
                            name: agent.to_string(),
                            file: a.file,
                            span,
                            searched: "Loom agent specs in the repository".into(),
                        }),
                    }
                }
                Some("skills") => {
                    let Some(lib) = cap.value.get("library").and_then(|v| v.as_str()) else {
                        continue;
                    };
                    let Some(rel) = lib.strip_prefix("./") else {
                        continue;
                    }; // under ai.skills_root: outside the repo's view
                    let Some(lib_dir) = join(&dir, rel) else {
                        continue;
                    };
                    let lib_dir = format!("{lib_dir}/");
                    let include: Vec<&str> = cap
                        .value
                        .get("include")
                        .and_then(|v| v.as_array())
                        .map(|v| v.iter().filter_map(|x| x.as_str()).collect())
                        .unwrap_or_default();
                    let found: Vec<(&str, NodeIndex)> = skill_dirs.under(&lib_dir).collect();
                    // An `include` name (not a glob) names a skill of the
                    // library: one the library lacks does not resolve. A
                    // library absent altogether is LOOM006's finding.
                    if !found.is_empty() {
                        for (ii, name) in include.iter().enumerate() {
                            if name.contains(['*', '?', '[']) {
                                continue;
                            }
                            let hit = found.iter().any(|(d, s)| {
                                d.trim_end_matches('/').rsplit('/').next() == Some(*name)
                                    || g.graph[*s].name == *name
                            });
                            if hit {
                                continue;
                            }
                            let span = a
                                .document
                                .pointer_span(&include_pointer(ci, ii))
                                .unwrap_or(cap.span);
                            g.unresolved.push(Unresolved {
                                expected: "skill",
                                name: name.to_string(),
                                file: a.file,
                                span,
                                searched: format!("skill folders under `{lib_dir}`"),
                            });
                        }
                    }
                    for (d, s) in found {
                        let folder = d.trim_end_matches('/').rsplit('/').next().unwrap_or("");
                        if include.is_empty()
                            || include.contains(&folder)
                            || include.contains(&g.graph[s].name.as_str())
                        {
                            g.uses_skill(*n, s, a.file, cap.span);
                        }
                    }
                    g.loader_root(dir.clone(), NodeKind::Agent);
                }
                _ => {}
            }
        }
    }
}
