//! `Links` edges: what the bodies of Markdown artifacts point at (issue 4).
//!
//! Every Markdown artifact's body was read with the agentmd grammar
//! ([`skein_syntax::MarkdownBody`], `queries/agentmd/references.scm`). Its
//! relative link targets become edges to the node of the file they name (a
//! skill's `SKILL.md` or its folder, another artifact) or to a
//! [`NodeKind::File`] node for any other path, existing or not (the
//! `broken-link` rule checks existence). In a skilldrop `LOOP.md`, code
//! spans, strong emphasis and table cells that equal a gate id of the loop
//! link to that gate, and those that equal the name of a skill in the
//! repository link to that skill.
//!
//! A link in a skill's reference (`references/api.md`) that names no
//! artifact from the reference's folder is read again from the skill's
//! folder, where the Agent Skills specification roots a skill's file
//! references, and links that file when it is an artifact there.
//!
//! The edge's span is the link destination or the naming text. Links never
//! count as loading a skill (orphan-skill ignores them, DESIGN.md §5).

use super::HashMap;
use super::{EdgeKind, NodeIndex, NodeKind, RepoGraph, dir_of, join};
use crate::decode::Artifact;
use crate::format::Format;
use rayon::prelude::*;
use skein_syntax::{BodyLink, LinkKind, SourceMap, Span};

/// A body link's target as a repository path, or `None` when it is not a
/// relative path skein can resolve: empty or an in-page anchor (`#x`), a URL
/// or any `scheme:` target, a protocol-relative `//host`, a root-relative
/// `/path` (whose root depends on where the file is rendered), a target
/// that climbs above the analyzed root, or a template placeholder
/// (`{url}`, `{{ url }}`, `$URL`, `[Description]`).
///
/// `dir` is the Markdown file's folder with a trailing `/`. The `#fragment`
/// and `?query` are dropped and `%XX` escapes decoded.
pub fn resolve_link(dir: &str, target: &str) -> Option<String> {
    let target = target.trim();
    let end = target.find(['#', '?']).unwrap_or(target.len());
    let path = &target[..end];
    if path.is_empty() || path.starts_with(['/', '[']) || path.contains(['{', '}', '$']) {
        return None;
    }
    if let Some(colon) = path.find(':') {
        let scheme = &path[..colon];
        if !scheme.is_empty()
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
        {
            return None;
        }
    }
    let decoded = percent_decode(path)?;
    let joined = join(dir, &decoded)?;
    (!joined.is_empty()).then_some(joined)
}

/// Decodes `%XX` escapes; `None` when the result is not UTF-8.
fn percent_decode(s: &str) -> Option<std::borrow::Cow<'_, str>> {
    if !s.contains('%') {
        return Some(std::borrow::Cow::Borrowed(s));
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(std::borrow::Cow::Owned)
}

/// Whether `text` looks like a gate id: capital letters then a number with
/// optional dotted parts (`G2`, `G2.1`, `QG10`).
pub fn gate_id_shaped(text: &str) -> bool {
    let letters = text.bytes().take_while(u8::is_ascii_uppercase).count();
    let rest = &text[letters..];
    letters > 0
        && !rest.is_empty()
        && rest
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Adds the `Links` edges of every Markdown artifact.
pub(super) fn link(g: &mut RepoGraph, artifacts: &[Artifact], sources: &SourceMap) {
    // The node each artifact file defines first (skill, agent, command, loop...).
    let mut node_of_path: HashMap<&str, NodeIndex> = HashMap::default();
    // By file id (ids are dense): a tenth of a map's memory at the graph
    // build's peak (issue #17).
    let ids = sources.iter().last().map_or(0, |(id, _)| id.0 as usize + 1);
    let mut node_of_file: Vec<Option<NodeIndex>> = vec![None; ids];
    for i in g.graph.node_indices() {
        let n = &g.graph[i];
        if matches!(
            n.kind,
            NodeKind::Stage
                | NodeKind::Gate
                | NodeKind::Terminal(_)
                | NodeKind::Verdict
                | NodeKind::Tool
        ) {
            continue;
        }
        if let Some(slot @ None) = node_of_file.get_mut(n.file.0 as usize) {
            *slot = Some(i);
        }
        node_of_path.entry(sources.get(n.file).path()).or_insert(i);
    }
    // Loops by folder, for their LOOP.md.
    let loop_of_dir: HashMap<&str, usize> = g
        .loops
        .iter()
        .enumerate()
        .map(|(k, l)| (dir_of(sources.get(l.file).path()), k))
        .collect();
    let mut skills_by_name: HashMap<String, NodeIndex> = HashMap::default();
    for &s in &g.skills {
        skills_by_name.entry(g.graph[s].name.clone()).or_insert(s);
    }
    // What each artifact links, worked out on every thread (reading a
    // `LOOP.md` again, resolving paths); then the nodes and edges are added
    // in artifact order, so the graph is the same whatever the threads
    // (issue #17: this was a serial tenth of the repository half). A plan
    // reads only nodes made before this step, so planning a chunk after the
    // one before was added gives the same plans; chunks keep the plans
    // alive at once few (all of them were 6 MB at the graph build's peak on
    // the generated 100k-file tree).
    let mut file_nodes: HashMap<String, NodeIndex> = HashMap::default();
    for chunk in artifacts.chunks(PLAN_CHUNK) {
        let view = View {
            g: &*g,
            sources,
            node_of_path: &node_of_path,
            node_of_file: &node_of_file,
            loop_of_dir: &loop_of_dir,
            skills_by_name: &skills_by_name,
        };
        let planned: Vec<Planned> = chunk.par_iter().filter_map(|a| view.plan(a)).collect();
        for p in planned {
            let owner = match p.owner {
                Target::Node(n) => n,
                Target::Path(path) => file_node(g, &mut file_nodes, &path, p.file, Span::empty(0)),
            };
            for (to, span) in p.links {
                let to = match to {
                    Target::Node(n) => n,
                    Target::Path(path) => file_node(g, &mut file_nodes, &path, p.file, span),
                };
                g.edge(owner, to, EdgeKind::Links, p.file, span);
            }
        }
    }
}

/// Artifacts planned at once by [`link`]: enough work per chunk for every
/// thread, few plans alive at once.
const PLAN_CHUNK: usize = 4096;

/// A link's end: a node of the graph, or a path whose
/// [`NodeKind::File`] node is made (once) when the links are added.
enum Target {
    Node(NodeIndex),
    Path(String),
}

/// The `Links` edges of one artifact, in the order they are added.
struct Planned {
    file: skein_syntax::FileId,
    owner: Target,
    links: Vec<(Target, Span)>,
}

/// What [`link`] resolves against, read only.
struct View<'a> {
    g: &'a RepoGraph,
    sources: &'a SourceMap,
    node_of_path: &'a HashMap<&'a str, NodeIndex>,
    node_of_file: &'a [Option<NodeIndex>],
    loop_of_dir: &'a HashMap<&'a str, usize>,
    skills_by_name: &'a HashMap<String, NodeIndex>,
}

impl View<'_> {
    /// The links of artifact `a`; `None` when it has no Markdown body.
    fn plan(&self, a: &Artifact) -> Option<Planned> {
        let g = self.g;
        let body = a.body.as_ref()?;
        let src = self.sources.get(a.file);
        let path = src.path();
        let dir = dir_of(path);
        let loop_k = (a.format == Format::SkilldropLoopDoc)
            .then(|| self.loop_of_dir.get(dir).copied())
            .flatten();
        let owner = match loop_k {
            Some(k) => Target::Node(g.loops[k].node),
            None => match self.node_of_file.get(a.file.0 as usize).copied().flatten() {
                Some(n) => Target::Node(n),
                None => Target::Path(path.to_string()),
            },
        };
        let mut planned = Planned {
            file: a.file,
            owner,
            links: Vec::new(),
        };
        // A skill's reference names the skill's other files by their path
        // from the skill's folder (Agent Skills, "File references") as often
        // as from its own: the skill's folder, for the second reading. (A
        // file node is named by its path: no folder.)
        let skill_dir = match &planned.owner {
            Target::Node(n) if a.format == Format::SkillReference => {
                path.strip_suffix(g.graph[*n].name.as_str())
            }
            _ => None,
        }
        // A reference of no skill is named by its whole path.
        .filter(|d| !d.is_empty() && d.len() < dir.len());
        if loop_k.is_none() && body.links.iter().all(|l| l.kind == LinkKind::Autolink) {
            return Some(planned);
        }
        // The links and a `LOOP.md`'s names are read as written. A lean
        // run keeps the link destinations of a text it drops, but not the
        // many names of a `LOOP.md`: that text is read for them once and
        // let go.
        let text: Option<std::borrow::Cow<str>> = loop_k.map(|_| {
            if src.is_held() {
                std::borrow::Cow::Borrowed(src.text())
            } else {
                std::borrow::Cow::Owned(src.with_text(str::to_owned))
            }
        });
        let at = |s: Span| match &text {
            Some(t) => &t[s.range()],
            None => src.slice(s),
        };
        for BodyLink { kind, target } in &body.links {
            if *kind == LinkKind::Autolink {
                continue;
            }
            let written = at(*target);
            let Some(resolved) = resolve_link(dir, written) else {
                continue;
            };
            let from_skill = || {
                let d = skill_dir?;
                let r = resolve_link(d, written)?;
                self.node_of_path.get(r.as_str()).copied()
            };
            let to = self
                .node_of_path
                .get(resolved.as_str())
                .or_else(|| {
                    self.node_of_path
                        .get(format!("{resolved}/SKILL.md").as_str())
                })
                .copied()
                .or_else(from_skill)
                .map_or(Target::Path(resolved), Target::Node);
            planned.links.push((to, *target));
        }
        if let Some(k) = loop_k {
            let gates: Vec<(&str, NodeIndex)> = g.loops[k]
                .gates
                .iter()
                .flatten()
                .map(|gi| (gi.id.value.as_str(), gi.node))
                .collect();
            let text = text.as_deref().unwrap_or_default();
            for (span, name) in body.names(text) {
                if let Some((_, gate)) = gates.iter().find(|(id, _)| *id == name) {
                    planned.links.push((Target::Node(*gate), span));
                } else if let Some(&skill) = self.skills_by_name.get(name) {
                    planned.links.push((Target::Node(skill), span));
                }
            }
        }
        Some(planned)
    }
}

/// The [`NodeKind::File`] node of `path`, made on first use (defined where
/// it is first linked from).
fn file_node(
    g: &mut RepoGraph,
    nodes: &mut HashMap<String, NodeIndex>,
    path: &str,
    file: skein_syntax::FileId,
    span: Span,
) -> NodeIndex {
    if let Some(&n) = nodes.get(path) {
        return n;
    }
    let n = g.add(NodeKind::File, path, file, span);
    nodes.insert(path.to_string(), n);
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_targets_only() {
        let d = "packs/dev/loops/build/";
        assert_eq!(
            resolve_link(d, "../../skills/a/SKILL.md").as_deref(),
            Some("packs/dev/skills/a/SKILL.md")
        );
        assert_eq!(
            resolve_link(d, "./ref%20guide.md#usage").as_deref(),
            Some("packs/dev/loops/build/ref guide.md")
        );
        assert_eq!(
            resolve_link(d, "x.md?plain=1").as_deref(),
            Some("packs/dev/loops/build/x.md")
        );
        for t in [
            "#anchor",
            "",
            "https://example.com/a.md",
            "mailto:a@b.c",
            "//host/x",
            "/docs/a.md",
            "../../../../../x.md",
            "{{ url }}",
            "{get_url(name)}",
            "[Description]",
        ] {
            assert_eq!(resolve_link(d, t), None, "{t}");
        }
    }

    #[test]
    fn gate_id_shapes() {
        for t in ["G2", "G2.1", "QG10", "G0"] {
            assert!(gate_id_shaped(t), "{t}");
        }
        for t in ["G", "g2", "G2.", "2", "READY", "G-2", "G2a"] {
            assert!(!gate_id_shaped(t), "{t}");
        }
    }
}
