//! RepoGraph: one petgraph graph of the whole repository (DESIGN.md §4).
//!
//! Built once from the decoded artifacts, then frozen: passes only read it.
//! Every node keeps the file and span that define it. Reference resolution is
//! explicit per format (see [`build`]); references that do not resolve are kept
//! as [`Unresolved`] records for the REF rules, never silently dropped.
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

use crate::decode::Artifact;
use crate::format::Format;
use crate::models::{self, Model};
use petgraph::graph::{DiGraph, NodeIndex};
use serde_json::Value;
use skein_syntax::{FileId, SourceMap, Span, Spanned};
use std::collections::{BTreeMap, HashMap, HashSet};

pub mod links;
pub mod market;
pub mod mcp;
pub use market::{EntrySource, MarketEntry, MarketFlavour, MarketplaceInfo};
pub use mcp::{AssistantMcp, ServerDecl};

/// What a node stands for (DESIGN.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum NodeKind {
    Skill,
    Pack,
    Loop,
    Stage,
    Gate,
    /// A loop's exit.
    Terminal(TerminalKind),
    /// Loom spec, plugin agent, OpenCode agent.
    Agent,
    Contract,
    /// skilldrop `catalogue.json` (its outcomes list skills).
    Catalogue,
    /// Loopmaster manifest.
    LoopManifest,
    Plugin,
    Assistant,
    McpServer,
    Tool,
    /// Plugin slash command (`commands/*.md`).
    Command,
    /// A word of a skilldrop verdict vocabulary (`contracts/terminals.json`).
    Verdict,
    /// A plugin's hooks file (`hooks/hooks.json`).
    Hook,
    /// A plugin marketplace (`marketplace.json`).
    Marketplace,
    /// A repository path linked from a Markdown body that is not an
    /// artifact node (a reference document, a script, a missing file); its
    /// name is the repo-relative path, its file and span those of the first
    /// link to it ([`links`]).
    File,
}

/// The four exits of a skilldrop loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum TerminalKind {
    Done,
    Conditional,
    Redirected,
    Blocked,
}

/// A verdict class of the skilldrop vocabulary (`contracts/terminals.json` `classes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum VerdictClass {
    Pass,
    Conditional,
    Revise,
    Redirect,
    Blocked,
}

impl VerdictClass {
    /// Parses a class name; `None` for a class skein does not know.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "pass" => VerdictClass::Pass,
            "conditional" => VerdictClass::Conditional,
            "revise" => VerdictClass::Revise,
            "redirect" => VerdictClass::Redirect,
            "blocked" => VerdictClass::Blocked,
            _ => return None,
        })
    }

    /// True for classes that move a loop forward (pass, conditional).
    pub fn advances(self) -> bool {
        matches!(self, VerdictClass::Pass | VerdictClass::Conditional)
    }
}

/// A node: its kind, name, and the span that defines it.
#[derive(Debug, Clone, PartialEq)]
pub struct GNode {
    /// What it is.
    pub kind: NodeKind,
    /// Its name (skill name, stage id, gate id, agent name, ...).
    pub name: String,
    /// The file that defines it.
    pub file: FileId,
    /// The defining span (the name's value where there is one).
    pub span: Span,
    /// A cap on how often the node may run again (Loom `policies.max_iterations`).
    pub cap: Option<u64>,
}

/// What an edge means (DESIGN.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum EdgeKind {
    /// pack -> skill, plugin -> skill/agent/command, loop -> stage, stage -> gate.
    Contains,
    /// stage -> stage or terminal, on a pass/conditional verdict or with no gate.
    Next,
    /// stage -> earlier stage on a revise verdict.
    Revise,
    /// stage -> terminal on a redirect/blocked verdict.
    Exit,
    /// stage/agent/assistant/contract -> skill or loop.
    Uses,
    /// agent -> agent (a2a).
    Delegates,
    /// gate -> verdict word it can emit.
    Emits,
    /// agent/assistant/plugin -> MCP server.
    Connects,
    /// MCP server -> tool.
    Provides,
    /// assistant -> tool it declares; `write` for a Bailey `write_tools` entry.
    Declares {
        /// The tool is declared as a write.
        write: bool,
    },
    /// marketplace -> the plugin a local entry registers ([`market`]).
    Lists,
    /// Markdown body -> what it links or names: a skill, an artifact, a
    /// gate of its loop, a [`NodeKind::File`] ([`links`]).
    Links,
}

/// An edge with the verdict that takes it, its cap, and the span that declares it.
#[derive(Debug, Clone, PartialEq)]
pub struct GEdge {
    /// What it means.
    pub kind: EdgeKind,
    /// The verdict word for flow edges.
    pub verdict: Option<String>,
    /// How many times it may be taken (a loop's `cap` on revise edges).
    pub cap: Option<u64>,
    /// File and span of the declaration (the verdict, the skill name, ...).
    pub file: FileId,
    /// Span in `file`.
    pub span: Span,
}

/// A reference that names nothing in the repository.
#[derive(Debug, Clone, PartialEq)]
pub struct Unresolved {
    /// What kind of thing was expected ("skill", "agent", "stage").
    pub expected: &'static str,
    /// The name or path as written.
    pub name: String,
    /// Where it is written.
    pub file: FileId,
    /// Its span.
    pub span: Span,
    /// Where skein looked, for the message.
    pub searched: String,
}

/// A gate of a skilldrop loop with its classified verdicts.
#[derive(Debug, Clone, PartialEq)]
pub struct GateInfo {
    /// The gate node.
    pub node: NodeIndex,
    /// Gate id as written.
    pub id: Spanned<String>,
    /// Verdicts with their class (`None`: not in the vocabulary, or no vocabulary).
    pub verdicts: Vec<(Spanned<String>, Option<VerdictClass>)>,
    /// `revise_to` as written.
    pub revise_to: Option<Spanned<String>>,
    /// `kind` as written (`mechanical`, `review`, `human`).
    pub kind: Option<Spanned<String>>,
    /// `script` as written.
    pub script: Option<Spanned<String>>,
}

/// A skilldrop loop as a state graph.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopFlow {
    /// The loop node.
    pub node: NodeIndex,
    /// The `loop.json` file.
    pub file: FileId,
    /// Loop name.
    pub name: String,
    /// `kind: wrapper`.
    pub wrapper: bool,
    /// The revise cap (explicit or the default 3) and its span when explicit.
    pub cap: (u64, Option<Span>),
    /// Stage nodes in order; `stages[0]` is the entry.
    pub stages: Vec<NodeIndex>,
    /// The gate of each stage.
    pub gates: Vec<Option<GateInfo>>,
    /// Terminal nodes: done, conditional, redirected, blocked.
    pub terminals: [NodeIndex; 4],
    /// The vocabulary file used to classify verdicts, if any.
    pub vocabulary: Option<FileId>,
    /// The skilldrop root: the folder that holds `packs/` (repo-relative, with
    /// trailing `/`, `""` at the analyzed root). Gate ids are unique within it.
    pub root: String,
}

/// The default revise cap of a skilldrop loop (`cap` default in the loop schema).
pub const SKILLDROP_DEFAULT_CAP: u64 = 3;

/// The repository graph. Immutable once built.
#[derive(Debug, Default)]
pub struct RepoGraph {
    graph: DiGraph<GNode, GEdge>,
    loops: Vec<LoopFlow>,
    unresolved: Vec<Unresolved>,
    skills: Vec<NodeIndex>,
    /// Skill nodes referenced by something that loads skills, with how.
    loaded_by: HashMap<NodeIndex, Vec<NodeIndex>>,
    /// Folders that hold a skill loader (for orphan scope), sorted.
    loader_roots: Vec<String>,
    /// The same folders with the kind of loader each holds, sorted.
    loader_scopes: Vec<(String, NodeKind)>,
    /// Bailey assistants with their MCP wiring ([`mcp`]).
    assistant_mcp: Vec<mcp::AssistantMcp>,
    /// Plugin marketplaces with their resolved entries ([`market`]).
    marketplaces: Vec<market::MarketplaceInfo>,
}

impl RepoGraph {
    /// The petgraph graph.
    pub fn graph(&self) -> &DiGraph<GNode, GEdge> {
        &self.graph
    }

    /// A node.
    pub fn node(&self, i: NodeIndex) -> &GNode {
        &self.graph[i]
    }

    /// skilldrop loops, in path order.
    pub fn loops(&self) -> &[LoopFlow] {
        &self.loops
    }

    /// References that resolved to nothing, in path order.
    pub fn unresolved(&self) -> &[Unresolved] {
        &self.unresolved
    }

    /// Plugin marketplaces with their entries, in path order.
    pub fn marketplaces(&self) -> &[market::MarketplaceInfo] {
        &self.marketplaces
    }

    /// Skill nodes, in path order.
    pub fn skills(&self) -> &[NodeIndex] {
        &self.skills
    }

    /// The nodes that load skill `skill` (loop stages, agents, assistants,
    /// contracts, plugins); empty for an orphan.
    pub fn loaders_of(&self, skill: NodeIndex) -> &[NodeIndex] {
        self.loaded_by.get(&skill).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Folders (repo-relative, with trailing `/`, or `""` for the root) that
    /// hold an artifact which loads skills by reference.
    pub fn loader_roots(&self) -> &[String] {
        &self.loader_roots
    }

    /// [`Self::loader_roots`] with the kind of loader that makes each one
    /// (`Loop`, `Agent`, `Assistant`, `Contract`, `Catalogue`), sorted.
    pub fn loader_scopes(&self) -> &[(String, NodeKind)] {
        &self.loader_scopes
    }

    fn loader_root(&mut self, dir: String, kind: NodeKind) {
        self.loader_scopes.push((dir.clone(), kind));
        self.loader_roots.push(dir);
    }

    fn add(
        &mut self,
        kind: NodeKind,
        name: impl Into<String>,
        file: FileId,
        span: Span,
    ) -> NodeIndex {
        self.graph.add_node(GNode {
            kind,
            name: name.into(),
            file,
            span,
            cap: None,
        })
    }

    fn edge(&mut self, from: NodeIndex, to: NodeIndex, kind: EdgeKind, file: FileId, span: Span) {
        self.graph.add_edge(
            from,
            to,
            GEdge {
                kind,
                verdict: None,
                cap: None,
                file,
                span,
            },
        );
    }

    /// `from` uses the skill `found` by name `name`, or the name is unresolved.
    fn use_skill_by_name(
        &mut self,
        found: Option<NodeIndex>,
        from: NodeIndex,
        name: &Spanned<String>,
        file: FileId,
    ) {
        match found {
            Some(sk) => self.uses_skill(from, sk, file, name.span),
            None => self.unresolved.push(Unresolved {
                expected: "skill",
                name: name.value.clone(),
                file,
                span: name.span,
                searched: "skills by name in the repository".into(),
            }),
        }
    }

    fn uses_skill(&mut self, from: NodeIndex, skill: NodeIndex, file: FileId, span: Span) {
        self.edge(from, skill, EdgeKind::Uses, file, span);
        self.loaded_by.entry(skill).or_default().push(from);
    }
}

/// The entries of `map` whose key starts with `prefix`, in key order.
fn under<'a>(
    map: &'a BTreeMap<String, NodeIndex>,
    prefix: &'a str,
) -> impl Iterator<Item = (&'a String, NodeIndex)> + 'a {
    map.range::<str, _>((
        std::ops::Bound::Included(prefix),
        std::ops::Bound::Unbounded,
    ))
    .take_while(move |(d, _)| d.starts_with(prefix))
    .map(|(d, &n)| (d, n))
}

/// Folder of a repo-relative path, with trailing `/` (`""` at the root).
fn dir_of(path: &str) -> &str {
    match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "",
    }
}

/// The root folder of a plugin whose manifest is in `manifest_dir` (with
/// trailing `/`): the folder itself, or its parent when it is a hidden
/// `.<tool>-plugin/` folder (`.claude-plugin/`, `.cursor-plugin/`,
/// `.codex-plugin/`), where Claude Code and its peers keep `plugin.json`.
pub fn plugin_root(manifest_dir: &str) -> &str {
    let last = manifest_dir
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("");
    if last.starts_with('.') && last.ends_with("-plugin") {
        &manifest_dir[..manifest_dir.len() - last.len() - 1]
    } else {
        manifest_dir
    }
}

/// Joins a folder (`a/b/`) and a relative path (`./x/../y`), normalising `.`
/// and `..`; `None` when it climbs above the root.
pub fn join(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
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

/// Builds the graph. `artifacts` in path order, `sources` for their paths.
///
/// Resolution rules, per format:
/// - skilldrop stage skill `name`: `<prefix>packs/<pack>/skills/<name>/SKILL.md`
///   in the loop's own pack, then in each pack of its `pack.json` `requires`;
///   else a loop of that name in those packs (a loop running a loop); `*` in a
///   wrapper stands for any generator and resolves to nothing.
/// - Agent Skills in `<plugin root>/skills/*/` are contained by the plugin
///   (Claude Code auto-loads that folder); the plugin root is the folder of
///   `plugin.json`, or its parent when that folder is `.claude-plugin`. When
///   an OpenCode config sits at the plugin root (an OpenCode kit), the config's
///   agents load the skills and the plugin only contains them.
/// - OpenCode config `agent.<name>.skills`: skills by name, nearest the
///   config's folder first.
/// - skilldrop catalogue outcome `skills`: `<prefix>packs/*/skills/<name>/`
///   beside `catalogue.json`.
/// - Bailey `skills[].path` and `instructions`: a path relative to
///   `assistant.json` naming a `SKILL.md` or its folder.
/// - Loom `skills` capability `library: ./name`: the folder beside the spec,
///   all its skills (or those in `include`); `a2a` `agent`: the Loom spec of
///   that `name` anywhere in the repository.
/// - OpenCode contract `applicable_skills`, and OpenCode agent frontmatter
///   `skills`: skills by name, nearest folder first.
/// - MCP: servers of every MCP config; Bailey `mcp` relative to
///   `assistant.json`, and a plugin's root `.mcp.json` / `mcp.json` (see [`mcp`]).
pub fn build(artifacts: &[Artifact], sources: &SourceMap) -> RepoGraph {
    let mut g = RepoGraph::default();
    let path = |a: &Artifact| sources.get(a.file).path();

    // Skills, by folder and by name.
    let mut skill_by_dir: HashMap<String, NodeIndex> = HashMap::new();
    let mut skill_by_name: BTreeMap<String, Vec<(String, NodeIndex)>> = BTreeMap::new();
    for a in artifacts.iter().filter(|a| a.format == Format::AgentSkill) {
        let p = path(a);
        let dir = dir_of(p).to_string();
        let folder = dir
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or("")
            .to_string();
        let (name, span) = match &a.model {
            Model::Frontmatter(fm) => match &fm.name {
                Some(n) => (n.value.clone(), n.span),
                None => (
                    folder.clone(),
                    a.frontmatter.map(|f| f.open).unwrap_or_default(),
                ),
            },
            _ => (
                folder.clone(),
                a.frontmatter.map(|f| f.open).unwrap_or_default(),
            ),
        };
        let n = g.add(NodeKind::Skill, name.clone(), a.file, span);
        g.skills.push(n);
        skill_by_dir.insert(dir.clone(), n);
        skill_by_name
            .entry(name)
            .or_default()
            .push((dir.clone(), n));
        if name_differs(&folder, &g.graph[n].name) {
            skill_by_name.entry(folder).or_default().push((dir, n));
        }
    }
    // Nearest skill of a name to a folder: longest common prefix.
    let nearest = |by: &BTreeMap<String, Vec<(String, NodeIndex)>>,
                   name: &str,
                   from: &str|
     -> Option<NodeIndex> {
        let cands = by.get(name)?;
        cands
            .iter()
            .max_by_key(|(d, _)| (common_prefix(d, from), std::cmp::Reverse(d.clone())))
            .map(|&(_, n)| n)
    };

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
    let mut verdict_nodes: HashMap<(FileId, &str), NodeIndex> = HashMap::new();
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
    let mut packs: HashMap<(String, String), (NodeIndex, Vec<String>)> = HashMap::new();
    for a in artifacts {
        if let Model::SkilldropPack(p) = &a.model
            && let Some((prefix, pack, "pack.json")) = pack_path(path(a))
        {
            let n = g.add(NodeKind::Pack, pack, a.file, Span::default());
            let requires = p.requires.iter().map(|r| r.value.clone()).collect();
            packs.insert((prefix.to_string(), pack.to_string()), (n, requires));
        }
    }
    // Skill folders in order, for prefix (range) queries.
    let skill_dirs: BTreeMap<String, NodeIndex> =
        skill_by_dir.iter().map(|(d, &n)| (d.clone(), n)).collect();
    for (dir_key, &skill) in &skill_dirs {
        if let Some((prefix, pack, rest)) = pack_path(dir_key)
            && rest.starts_with("skills/")
            && let Some(&(pn, _)) = packs.get(&(prefix.to_string(), pack.to_string()))
        {
            let file = g.graph[skill].file;
            g.edge(pn, skill, EdgeKind::Contains, file, Span::default());
        }
    }

    // Loops: nodes first, so stages can name loops of other packs.
    let mut loop_nodes: HashMap<(String, String, String), NodeIndex> = HashMap::new();
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
            term(&mut g, TerminalKind::Done, "done"),
            term(&mut g, TerminalKind::Conditional, "conditional"),
            term(&mut g, TerminalKind::Redirected, "redirected"),
            term(&mut g, TerminalKind::Blocked, "blocked"),
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
                    skill_by_dir
                        .get(&format!("{prefix}packs/{pk}/skills/{}/", skill.value))
                        .copied()
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
                    GEdge {
                        kind,
                        verdict: Some(v.value.clone()),
                        cap,
                        file: a.file,
                        span: v.span,
                    },
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
        g.loader_root(prefix, NodeKind::Loop);
    }

    // Plugin agents, commands and hooks files: one node each.
    let mut part_nodes: HashMap<FileId, NodeIndex> = HashMap::new();
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
        let inside: Vec<(&String, NodeIndex)> = under(&skill_dirs, &skills_dir)
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

    // Loom agents: a2a delegation and skill libraries.
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
                .and_then(|v| v.as_u64());
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
                    let span = match a.document.pointer(&format!("/capabilities/{ci}/agent")) {
                        Some((id, true)) => a.document.node(id).span,
                        _ => cap.span,
                    };
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
                    let found: Vec<(String, NodeIndex)> = under(&skill_dirs, &lib_dir)
                        .map(|(d, s)| (d.clone(), s))
                        .collect();
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

    // Bailey assistants: skills[].path and instructions.
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
            match skill_by_dir.get(&folder) {
                Some(&s) => g.uses_skill(n, s, a.file, r.span),
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

    // OpenCode: contract `applicable_skills` (anywhere in the contract) and
    // agent frontmatter `skills`, by name.
    for a in artifacts {
        let dir = dir_of(path(a)).to_string();
        let (n, names): (NodeIndex, Vec<Spanned<String>>) = match (&a.model, a.format) {
            (Model::OpenCodeContract(_), _) => {
                let n = g.add(NodeKind::Contract, path(a), a.file, Span::default());
                (n, collect_named(&a.document, "applicable_skills"))
            }
            (Model::Frontmatter(fm), Format::PluginAgent) => {
                if fm.skills.is_none() {
                    continue;
                }
                // Each skill at its own list item or comma-separated piece.
                let text = sources.get(a.file).text();
                (part_nodes[&a.file], name_list(&a.document, text, "skills"))
            }
            _ => continue,
        };
        // An OpenCode agent's folder is `agents/`; its skills are looked up from the repo folder above.
        let from = dir.strip_suffix("agents/").unwrap_or(&dir).to_string();
        for s in &names {
            g.use_skill_by_name(nearest(&skill_by_name, &s.value, &from), n, s, a.file);
        }
        let kind = g.graph[n].kind;
        g.loader_root(from, kind);
    }

    // OpenCode config: each `agent.<name>.skills`, by name, nearest the config.
    for a in artifacts {
        let Model::OpenCodeConfig(c) = &a.model else {
            continue;
        };
        let dir = dir_of(path(a)).to_string();
        let doc = &a.document;
        let agents = doc.root().and_then(|r| doc.get(r, "agent"));
        for (name, agent) in &c.agent {
            let span = agents
                .and_then(|m| doc.get_entry(m, name))
                .map(|e| doc.node(e.key).span)
                .unwrap_or_default();
            let n = g.add(NodeKind::Agent, name.clone(), a.file, span);
            for s in &agent.skills {
                g.use_skill_by_name(nearest(&skill_by_name, &s.value, &dir), n, s, a.file);
            }
        }
        g.loader_root(dir, NodeKind::Agent);
    }

    // skilldrop catalogue outcomes: skills by name in any pack beside it.
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
            let found = skill_by_name.get(&s.value).and_then(|cands| {
                cands
                    .iter()
                    .filter(|(d, _)| {
                        pack_path(d).is_some_and(|(x, _, rest)| {
                            x == prefix && rest == format!("skills/{}/", s.value)
                        })
                    })
                    .min_by(|x, y| x.0.cmp(&y.0))
                    .map(|&(_, sk)| sk)
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

    mcp::link(&mut g, artifacts, sources);
    market::link(&mut g, artifacts, sources);
    links::link(&mut g, artifacts, sources);

    lifecycles(&mut g, artifacts);

    g.loader_roots.sort();
    g.loader_roots.dedup();
    g.loader_scopes.sort();
    g.loader_scopes.dedup();
    g.unresolved.sort_by_key(|u| (u.file, u.span));
    g
}

/// Flow of the formats whose lifecycle is not a skilldrop loop:
/// - an OpenCode contract (`formats/opencode-contract.schema.json`, `state`):
///   phases PLAN -> EXECUTE -> REVIEW -> COMPLETE (or BLOCKED); a review scored
///   under `retry.score_threshold` sends the work round again (one RETRY
///   back-edge REVIEW -> PLAN), capped by `retry.max_attempts` (no cap when
///   `retry` is given without it; no retry edge when the contract has no `retry`);
/// - a Loopmaster manifest (spec v0.1 §10): a run retried on failure up to
///   `failure_policy.retry` times (a required integer, so always capped).
fn lifecycles(g: &mut RepoGraph, artifacts: &[Artifact]) {
    for a in artifacts {
        match &a.model {
            Model::OpenCodeContract(c) => {
                let span = c
                    .retry
                    .as_ref()
                    .map(|r| r.span)
                    .or(c.state.as_ref().map(|s| s.span))
                    .unwrap_or_default();
                let phases: Vec<NodeIndex> = ["PLAN", "EXECUTE", "REVIEW"]
                    .iter()
                    .map(|p| g.add(NodeKind::Stage, *p, a.file, span))
                    .collect();
                let done = g.add(
                    NodeKind::Terminal(TerminalKind::Done),
                    "COMPLETE",
                    a.file,
                    span,
                );
                let blocked = g.add(
                    NodeKind::Terminal(TerminalKind::Blocked),
                    "BLOCKED",
                    a.file,
                    span,
                );
                for (i, &p) in phases.iter().enumerate() {
                    let next = phases.get(i + 1).copied().unwrap_or(done);
                    g.edge(p, next, EdgeKind::Next, a.file, span);
                    g.edge(p, blocked, EdgeKind::Exit, a.file, span);
                }
                if let Some(retry) = &c.retry {
                    let cap = retry.value.get("max_attempts").and_then(Value::as_u64);
                    g.graph.add_edge(
                        phases[2],
                        phases[0],
                        GEdge {
                            kind: EdgeKind::Revise,
                            verdict: Some("RETRY".into()),
                            cap,
                            file: a.file,
                            span: retry.span,
                        },
                    );
                }
            }
            Model::LoopmasterManifest(m) => {
                let n = g.add(
                    NodeKind::LoopManifest,
                    m.id.value.clone(),
                    a.file,
                    m.id.span,
                );
                let cap = m
                    .failure_policy
                    .as_ref()
                    .and_then(|f| f.get("retry"))
                    .and_then(Value::as_u64);
                if let Some(cap) = cap {
                    g.graph.add_edge(
                        n,
                        n,
                        GEdge {
                            kind: EdgeKind::Revise,
                            verdict: Some("retry".into()),
                            cap: Some(cap),
                            file: a.file,
                            span: m.id.span,
                        },
                    );
                }
            }
            _ => {}
        }
    }
}

fn name_differs(folder: &str, name: &str) -> bool {
    !folder.is_empty() && folder != name
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// Every string in arrays under key `key`, anywhere in the document, with spans.
fn collect_named(doc: &skein_syntax::Document, key: &str) -> Vec<Spanned<String>> {
    let mut out = Vec::new();
    let Some(root) = doc.root() else { return out };
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if let Some(entries) = doc.entries(id) {
            for e in entries.iter().rev() {
                if doc.as_str(e.key) == Some(key)
                    && let Some(items) = doc.items(e.value)
                {
                    for &i in items {
                        if let Some(s) = doc.as_str(i) {
                            out.push(Spanned {
                                span: doc.node(i).span,
                                value: s.to_string(),
                            });
                        }
                    }
                }
                stack.push(e.value);
            }
        } else if let Some(items) = doc.items(id) {
            stack.extend(items.iter().rev());
        }
    }
    out.sort_by_key(|s| s.span);
    out
}

/// The names of a top-level frontmatter field written as a list or as a
/// comma-separated string, each with its own span: the list item, or the
/// piece of the string (the whole scalar when its text is not the value
/// byte for byte, as with escapes or folded lines).
fn name_list(doc: &skein_syntax::Document, text: &str, key: &str) -> Vec<Spanned<String>> {
    let Some(node) = doc.root().and_then(|r| doc.get(r, key)) else {
        return Vec::new();
    };
    // Where `value` starts inside the scalar at `span`, if written as is.
    let offset = |span: Span, value: &str| -> Option<usize> {
        let raw = text.get(span.start as usize..span.end as usize)?;
        if raw == value {
            return Some(0);
        }
        let quoted = raw.len() >= 2
            && ((raw.starts_with('"') && raw.ends_with('"'))
                || (raw.starts_with('\'') && raw.ends_with('\'')));
        (quoted && &raw[1..raw.len() - 1] == value).then_some(1)
    };
    let mut out = Vec::new();
    let mut push = |span: Span, value: &str| {
        let at = offset(span, value);
        let mut start = 0;
        let pieces: Vec<&str> = if doc.items(node).is_some() {
            vec![value]
        } else {
            value.split(',').collect()
        };
        for piece in pieces {
            let name = piece.trim();
            let lead = piece.len() - piece.trim_start().len();
            if !name.is_empty() {
                let span = match at {
                    Some(o) => {
                        let s = span.start as usize + o + start + lead;
                        Span::new(s, s + name.len())
                    }
                    None => span,
                };
                out.push(Spanned {
                    span,
                    value: name.to_string(),
                });
            }
            start += piece.len() + 1;
        }
    };
    match doc.items(node) {
        Some(items) => {
            for &i in items {
                if let Some(v) = doc.as_str(i) {
                    push(doc.node(i).span, v);
                }
            }
        }
        None => {
            if let Some(v) = doc.as_str(node) {
                push(doc.node(node).span, v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(join("a/b/", "../c/./d"), Some("a/c/d".into()));
        assert_eq!(join("a/", "../../x"), None);
        assert_eq!(
            pack_path("x/packs/core/skills/a/"),
            Some(("x/", "core", "skills/a/"))
        );
        assert_eq!(
            pack_path("packs/core/pack.json"),
            Some(("", "core", "pack.json"))
        );
        assert_eq!(dir_of("a/b/c.json"), "a/b/");
    }
}
