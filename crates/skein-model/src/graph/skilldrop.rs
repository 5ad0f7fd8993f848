//! skilldrop (packs era): packs and their skills, verdict vocabularies, loops
//! as state graphs, and catalogues. Implements `shared/formats/skilldrop-loop.schema.json`
//! (skilldrop `contracts/loop.schema.json`, RFC-0028) and skilldrop's
//! `contracts/pack.schema.json`, `contracts/terminals.json` and
//! `contracts/catalogue.schema.json` (corpus `sananthanarayan__skilldrop/packs-era/contracts/`).
//!
//! # Loop flow (skilldrop)
//! Each `loop.json` becomes a state graph: its stages in order (the first is the
//! entry), a gate per gated stage, and four terminals (done, conditional,
//! redirected, blocked). A stage without a gate advances (`Next`) to the next
//! stage, or to `done` after the last. A gate's verdicts are classified by the
//! nearest `contracts/terminals.json` above the loop:
//! `pass` advances (to the next stage, or `done`); `conditional` advances (to the
//! next stage, or the `conditional` terminal); `revise` returns (`Revise`) to the
//! stage named by `revise_to`, capped by the loop's `cap` (default 3,
//! skilldrop loop schema); `redirect` exits to `redirected`; `blocked` exits to
//! `blocked`.

use super::HashMap;
use super::{
    EdgeKind, GEdge, GateInfo, LoopFlow, NodeKind, RepoGraph, SKILLDROP_DEFAULT_CAP, TerminalKind,
    Unresolved, VerdictClass, dir_of, skills::Skills,
};
use crate::decode::Artifact;
use crate::models::{self, Model};
use petgraph::graph::NodeIndex;
use skein_syntax::{FileId, SourceMap, Span, Spanned};

/// Verdict vocabularies, packs (containing the skills of their `skills/`
/// folder) and loops with their stages, gates, terminals and flow edges.
pub(super) fn packs_and_loops(
    g: &mut RepoGraph,
    artifacts: &[Artifact],
    sources: &SourceMap,
    skills: &Skills,
) {
    let path = |a: &Artifact| sources.get(a.file).path();
    let Skills { skill_dirs, .. } = skills;

    // Vocabularies: `<prefix>contracts/terminals.json`.
    let mut vocabularies: Vec<(String, FileId, &models::SkilldropTerminals)> = Vec::new();
    for a in artifacts {
        if let Model::SkilldropTerminals(t) = &a.model {
            let p = path(a);
            let prefix = p
                .strip_suffix("contracts/terminals.json")
                .unwrap_or("")
                .to_string();
            vocabularies.push((prefix, a.file, t));
        }
    }
    // One Verdict node per vocabulary word, at the word's key.
    let mut verdict_nodes: HashMap<(FileId, &str), NodeIndex> = HashMap::default();
    for a in artifacts {
        let Model::SkilldropTerminals(t) = &a.model else {
            continue;
        };
        let doc = &a.document;
        let words = doc.root().and_then(|r| doc.get(r, "verdicts"));
        for word in t.verdicts.keys() {
            let span = words
                .and_then(|m| doc.get_entry(m, word))
                .map(|e| doc.node(e.key).span)
                .unwrap_or_default();
            let n = g.add(NodeKind::Verdict, word.clone(), a.file, span);
            verdict_nodes.insert((a.file, word.as_str()), n);
        }
    }

    // Packs and their `requires`.
    let mut packs: HashMap<(String, String), (NodeIndex, Vec<String>)> = HashMap::default();
    for a in artifacts {
        if let Model::SkilldropPack(p) = &a.model
            && let Some((prefix, pack, "pack.json")) = pack_path(path(a))
        {
            let n = g.add(NodeKind::Pack, pack, a.file, Span::default());
            let requires = p.requires.iter().map(|r| r.value.clone()).collect();
            packs.insert((prefix.to_string(), pack.to_string()), (n, requires));
        }
    }
    for (dir_key, skill) in skill_dirs.iter() {
        if let Some((prefix, pack, rest)) = pack_path(dir_key)
            && rest.starts_with("skills/")
            && let Some(&(pn, _)) = packs.get(&(prefix.to_string(), pack.to_string()))
        {
            let file = g.graph[skill].file;
            g.edge(pn, skill, EdgeKind::Contains, file, Span::default());
        }
    }

    // Loops: nodes first, so stages can name loops of other packs.
    let mut loop_nodes: HashMap<(String, String, String), NodeIndex> = HashMap::default();
    for a in artifacts {
        if let Model::SkilldropLoop(l) = &a.model {
            let n = g.add(NodeKind::Loop, l.name.value.clone(), a.file, l.name.span);
            let (prefix, pack) = pack_path(path(a))
                .map(|(x, p, _)| (x.to_string(), p.to_string()))
                .unwrap_or_default();
            loop_nodes.insert((prefix, pack, l.name.value.clone()), n);
        }
    }
    for a in artifacts {
        let Model::SkilldropLoop(l) = &a.model else {
            continue;
        };
        let p = path(a);
        let (prefix, pack) = pack_path(p)
            .map(|(x, pk, _)| (x.to_string(), pk.to_string()))
            .unwrap_or_default();
        let node = loop_nodes[&(prefix.clone(), pack.clone(), l.name.value.clone())];
        let vocab = vocabularies
            .iter()
            .filter(|(vp, _, _)| p.starts_with(vp.as_str()))
            .max_by_key(|(vp, _, _)| vp.len());
        let mut search_packs = vec![pack.clone()];
        if let Some((_, req)) = packs.get(&(prefix.clone(), pack.clone())) {
            search_packs.extend(req.iter().cloned());
        }
        let wrapper = l.kind.as_ref().is_some_and(|k| k.value == "wrapper");
        let cap = match &l.cap {
            Some(c) => (c.value, Some(c.span)),
            None => (SKILLDROP_DEFAULT_CAP, None),
        };
        let term = |g: &mut RepoGraph, k: TerminalKind, name: &str| {
            g.add(NodeKind::Terminal(k), name, a.file, l.name.span)
        };
        let terminals = [
            term(g, TerminalKind::Done, "done"),
            term(g, TerminalKind::Conditional, "conditional"),
            term(g, TerminalKind::Redirected, "redirected"),
            term(g, TerminalKind::Blocked, "blocked"),
        ];
        let stages: Vec<NodeIndex> = l
            .stages
            .iter()
            .map(|s| {
                let n = g.add(NodeKind::Stage, s.id.value.clone(), a.file, s.id.span);
                g.edge(node, n, EdgeKind::Contains, a.file, s.id.span);
                n
            })
            .collect();
        // Stage skills.
        for (s, &sn) in l.stages.iter().zip(&stages) {
            for skill in &s.skills {
                if skill.value == "*" {
                    continue; // any generator; FLOW rules check it is in a wrapper
                }
                let found = search_packs.iter().find_map(|pk| {
                    skill_dirs.get(format!("{prefix}packs/{pk}/skills/{}/", skill.value).as_str())
                });
                if let Some(sk) = found {
                    g.uses_skill(sn, sk, a.file, skill.span);
                    continue;
                }
                let lp = search_packs.iter().find_map(|pk| {
                    loop_nodes
                        .get(&(prefix.clone(), pk.clone(), skill.value.clone()))
                        .copied()
                });
                if let Some(ln) = lp {
                    g.edge(sn, ln, EdgeKind::Uses, a.file, skill.span);
                    continue;
                }
                g.unresolved.push(Unresolved {
                    expected: "skill",
                    name: skill.value.clone(),
                    file: a.file,
                    span: skill.span,
                    searched: if pack.is_empty() {
                        // Analyzed below the skilldrop root (a subfolder or
                        // the loop file alone): there is no pack to look in.
                        "a skill folder in the loop's pack, but the loop is not under \
                         `packs/<pack>/loops/` in the analyzed folder (analyze the folder that \
                         holds `packs/`)"
                            .to_string()
                    } else {
                        search_packs
                            .iter()
                            .map(|pk| format!("{prefix}packs/{pk}/skills/{}/", skill.value))
                            .collect::<Vec<_>>()
                            .join(", ")
                    },
                });
            }
        }
        // Flow edges.
        let mut gates = Vec::with_capacity(stages.len());
        for (i, s) in l.stages.iter().enumerate() {
            let sn = stages[i];
            let next_or = |t: usize| stages.get(i + 1).copied().unwrap_or(terminals[t]);
            let Some(gate) = &s.gate else {
                let to = next_or(0);
                g.edge(sn, to, EdgeKind::Next, a.file, s.id.span);
                gates.push(None);
                continue;
            };
            let gn = g.add(NodeKind::Gate, gate.id.value.clone(), a.file, gate.id.span);
            g.edge(sn, gn, EdgeKind::Contains, a.file, gate.id.span);
            let revise_target = gate
                .revise_to
                .as_ref()
                .and_then(|r| l.stages.iter().position(|st| st.id.value == r.value))
                .map(|j| stages[j]);
            let mut classified = Vec::new();
            for v in &gate.verdicts {
                let class = vocab
                    .and_then(|(_, _, t)| t.verdicts.get(&v.value))
                    .and_then(|d| VerdictClass::parse(&d.class.value));
                classified.push((v.clone(), class));
                if let Some(&vn) =
                    vocab.and_then(|(_, f, _)| verdict_nodes.get(&(*f, v.value.as_str())))
                {
                    g.edge(gn, vn, EdgeKind::Emits, a.file, v.span);
                }
                let (to, kind, cap) = match class {
                    Some(VerdictClass::Pass) => (next_or(0), EdgeKind::Next, None),
                    Some(VerdictClass::Conditional) => (next_or(1), EdgeKind::Next, None),
                    Some(VerdictClass::Revise) => match revise_target {
                        Some(t) => (t, EdgeKind::Revise, Some(cap.0)),
                        None => continue,
                    },
                    Some(VerdictClass::Redirect) => (terminals[2], EdgeKind::Exit, None),
                    Some(VerdictClass::Blocked) => (terminals[3], EdgeKind::Exit, None),
                    None => continue,
                };
                g.graph.add_edge(
                    sn,
                    to,
                    GEdge::new(kind, a.file, v.span, Some(v.value.clone()), cap),
                );
            }
            gates.push(Some(GateInfo {
                node: gn,
                id: gate.id.clone(),
                verdicts: classified,
                revise_to: gate.revise_to.clone(),
                kind: gate.kind.clone(),
                script: gate.script.clone(),
            }));
        }
        g.loops.push(LoopFlow {
            node,
            file: a.file,
            name: l.name.value.clone(),
            wrapper,
            cap,
            stages,
            gates,
            terminals,
            vocabulary: vocab.map(|(_, f, _)| *f),
            root: prefix.clone(),
        });
        // A loop whose stages could not be read (it fails its schema) loads
        // nothing that can be seen: it does not make other skills orphans.
        if !(l.partial && l.stages.is_empty()) {
            g.loader_root(prefix, NodeKind::Loop);
        }
    }
}

/// Catalogue outcomes: skills by name in any pack beside `catalogue.json`.
pub(super) fn catalogues(
    g: &mut RepoGraph,
    artifacts: &[Artifact],
    sources: &SourceMap,
    skills: &Skills,
) {
    let path = |a: &Artifact| sources.get(a.file).path();
    let Skills { skill_by_name, .. } = skills;

    for a in artifacts {
        let Model::SkilldropCatalogue(c) = &a.model else {
            continue;
        };
        if c.outcomes.is_empty() {
            continue;
        }
        let prefix = dir_of(path(a)).to_string();
        let n = g.add(NodeKind::Catalogue, path(a), a.file, Span::default());
        let mut names: Vec<&Spanned<String>> =
            c.outcomes.values().flat_map(|o| &o.skills).collect();
        names.sort_by_key(|s| s.span);
        for s in names {
            let found = skill_by_name.get(s.value.as_str()).and_then(|cands| {
                cands
                    .filter(|(d, _)| {
                        pack_path(d).is_some_and(|(x, _, rest)| {
                            x == prefix && rest == format!("skills/{}/", s.value)
                        })
                    })
                    .min_by(|x, y| x.0.cmp(y.0))
                    .map(|(_, sk)| sk)
            });
            match found {
                Some(sk) => g.uses_skill(n, sk, a.file, s.span),
                None => g.unresolved.push(Unresolved {
                    expected: "skill",
                    name: s.value.clone(),
                    file: a.file,
                    span: s.span,
                    searched: format!("{prefix}packs/*/skills/{}/", s.value),
                }),
            }
        }
        g.loader_root(prefix, NodeKind::Catalogue);
    }
}

/// Splits `<prefix>packs/<pack>/<rest>` into (prefix, pack, rest).
fn pack_path(path: &str) -> Option<(&str, &str, &str)> {
    let i = if path.starts_with("packs/") {
        0
    } else {
        path.find("/packs/")? + 1
    };
    let after = &path[i + "packs/".len()..];
    let (pack, rest) = after.split_once('/')?;
    Some((&path[..i], pack, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(
            pack_path("x/packs/core/skills/a/"),
            Some(("x/", "core", "skills/a/"))
        );
        assert_eq!(
            pack_path("packs/core/pack.json"),
            Some(("", "core", "pack.json"))
        );
    }
}
