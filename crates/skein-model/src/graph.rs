//! RepoGraph: one petgraph graph of the whole repository (DESIGN.md §4).
//!
//! Built once from the decoded artifacts, then frozen: passes only read it.
//! Every node keeps the file and span that define it. Reference resolution is
//! explicit per format (see [`build`]); references that do not resolve are kept
//! as [`Unresolved`] records for the REF rules, never silently dropped.
//!
//! One builder file per format family, each naming the format document it
//! implements: `graph/skills.rs` (Agent Skills), `graph/skilldrop.rs` (packs,
//! loops as state graphs, catalogues), `graph/plugins.rs` (plugin manifests
//! and their parts), `graph/loom.rs` (Loom agent specs), `graph/bailey.rs`
//! (Bailey assistants), `graph/opencode.rs` (OpenCode contracts, agents and
//! configs), `graph/loopmaster.rs` (Loopmaster manifests),
//! `graph/skill_files.rs` (the references and scripts of a skill's folder),
//! and [`mcp`], [`market`], [`links`].

use crate::decode::Artifact;
use crate::models::Model;
use petgraph::graph::{DiGraph, NodeIndex};
use skein_syntax::{FileId, SourceMap, Span, Spanned};
/// The hash maps and sets of the graph and its builders: keys are paths,
/// names and ids, hashed with foldhash's fast hasher (SipHash, std's
/// default, was a seventh of an incremental run's instructions). Seeded per
/// process, like std's.
pub(crate) type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// See [`HashMap`].
pub(crate) type HashSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

mod bailey;
pub mod links;
pub mod loom;
mod loopmaster;
pub mod market;
pub mod mcp;
mod opencode;
mod plugins;
mod skill_files;
mod skilldrop;
mod skills;
pub use market::{EntrySource, MarketEntry, MarketFlavour, MarketplaceInfo};
pub use mcp::{AssistantMcp, ServerDecl};
pub use skills::skill_name;

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
    /// A Markdown file bundled in a skill's folder (`references/*.md`),
    /// named by its path from the skill's folder ([`skill_files`]).
    Reference,
    /// A script bundled in a skill's folder (`scripts/*`), named by its
    /// path from the skill's folder ([`skill_files`]).
    Script,
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
///
/// 48 bytes: a large repository has hundreds of thousands of nodes (issue
/// #17), and few have a cap, kept out of line ([`GNode::cap`]).
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
    /// A cap on how often the node may run again.
    cap: Option<Box<u64>>,
}

impl GNode {
    /// A cap on how often the node may run again (Loom `policies.max_iterations`).
    pub fn cap(&self) -> Option<u64> {
        self.cap.as_deref().copied()
    }
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
///
/// 24 bytes: a large repository has hundreds of thousands of edges (issue
/// #17), and only the flow edges of a verdict have a verdict or a cap,
/// kept out of line ([`GEdge::verdict`], [`GEdge::cap`]).
#[derive(Debug, Clone, PartialEq)]
pub struct GEdge {
    /// What it means.
    pub kind: EdgeKind,
    /// File and span of the declaration (the verdict, the skill name, ...).
    pub file: FileId,
    /// Span in `file`.
    pub span: Span,
    /// The verdict and the cap, when the edge has either.
    flow: Option<Box<(Option<String>, Option<u64>)>>,
}

impl GEdge {
    /// An edge of `kind` declared at `span` of `file`, taken on `verdict`
    /// (flow edges) at most `cap` times.
    pub fn new(
        kind: EdgeKind,
        file: FileId,
        span: Span,
        verdict: Option<String>,
        cap: Option<u64>,
    ) -> GEdge {
        GEdge {
            kind,
            file,
            span,
            flow: (verdict.is_some() || cap.is_some()).then(|| Box::new((verdict, cap))),
        }
    }

    /// The verdict word for flow edges.
    pub fn verdict(&self) -> Option<&str> {
        self.flow.as_ref().and_then(|f| f.0.as_deref())
    }

    /// How many times it may be taken (a loop's `cap` on revise edges).
    pub fn cap(&self) -> Option<u64> {
        self.flow.as_ref().and_then(|f| f.1)
    }
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
    /// The reference and script nodes of each skill, in path order.
    skill_files: HashMap<NodeIndex, Vec<NodeIndex>>,
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

    /// The references and scripts bundled in the folder of skill `skill`
    /// ([`NodeKind::Reference`], [`NodeKind::Script`]), in path order.
    pub fn skill_files(&self, skill: NodeIndex) -> &[NodeIndex] {
        self.skill_files
            .get(&skill)
            .map(Vec::as_slice)
            .unwrap_or(&[])
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
        self.graph
            .add_edge(from, to, GEdge::new(kind, file, span, None, None));
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
    // One buffer, segments joined by `/` as they come; `..` cuts the last.
    // Most folders have nothing to normalise (names only): copied whole.
    let d = dir.strip_suffix('/').unwrap_or(dir);
    let mut out = String::with_capacity(dir.len() + rel.len() + 1);
    let push = |out: &mut String, p: &str| {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(p);
    };
    if d.is_empty() || plain_segments(d) {
        out.push_str(d);
    } else {
        for p in d.split('/').filter(|p| !p.is_empty()) {
            push(&mut out, p);
        }
    }
    if plain_segments(rel) {
        push(&mut out, rel);
        return Some(out);
    }
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                if out.is_empty() {
                    return None;
                }
                out.truncate(out.rfind('/').unwrap_or(0));
            }
            p => push(&mut out, p),
        }
    }
    Some(out)
}

/// Whether every `/`-separated segment of `p` is a name: none is empty,
/// `.` or `..` (so `p` is not empty and has no leading, trailing or double `/`).
fn plain_segments(p: &str) -> bool {
    let p = p.as_bytes();
    let mut start = 0;
    for i in 0..=p.len() {
        if i == p.len() || p[i] == b'/' {
            let seg = &p[start..i];
            if seg.is_empty() || seg == b"." || seg == b".." {
                return false;
            }
            start = i + 1;
        }
    }
    true
}

/// Builds the graph. `artifacts` in path order, `sources` for their paths.
///
/// Resolution rules, per format (each implemented in the builder file named):
/// - skilldrop stage skill `name` (`graph/skilldrop.rs`):
///   `<prefix>packs/<pack>/skills/<name>/SKILL.md` in the loop's own pack,
///   then in each pack of its `pack.json` `requires`; else a loop of that name
///   in those packs (a loop running a loop); `*` in a wrapper stands for any
///   generator and resolves to nothing.
/// - Agent Skills in `<plugin root>/skills/*/` are contained by the plugin
///   (`graph/plugins.rs`; Claude Code auto-loads that folder); the plugin root
///   is the folder of `plugin.json`, or its parent when that folder is
///   `.claude-plugin`. When an OpenCode config sits at the plugin root (an
///   OpenCode kit), the config's agents load the skills and the plugin only
///   contains them.
/// - OpenCode config `agent.<name>.skills` (`graph/opencode.rs`): skills by
///   name, nearest the config's folder first.
/// - skilldrop catalogue outcome `skills` (`graph/skilldrop.rs`):
///   `<prefix>packs/*/skills/<name>/` beside `catalogue.json`.
/// - Bailey `skills[].path` and `instructions` (`graph/bailey.rs`): a path
///   relative to `assistant.json` naming a `SKILL.md` or its folder.
/// - Loom `skills` capability `library: ./name` (`graph/loom.rs`): the folder
///   beside the spec, all its skills (or those in `include`); `a2a` `agent`:
///   the Loom spec of that `name` anywhere in the repository.
/// - OpenCode contract `applicable_skills`, and OpenCode agent frontmatter
///   `skills` (`graph/opencode.rs`): skills by name, nearest folder first.
/// - The references and scripts of a skill's folder
///   (`graph/skill_files.rs`): contained by the skill whose folder is the
///   nearest above them; `SKILL.md` and each reference link them
///   (`graph/links.rs`).
/// - MCP: servers of every MCP config; Bailey `mcp` relative to
///   `assistant.json`, and a plugin's root `.mcp.json` / `mcp.json` (see [`mcp`]).
///
/// Skills by name resolve through the index of `graph/skills.rs`. The
/// builders run in a fixed order, which fixes the node and edge indices.
pub fn build(artifacts: &[Artifact], sources: &SourceMap) -> RepoGraph {
    let mut g = RepoGraph::default();
    // Room for the usual count at once (a generated monorepo has about 1.8
    // nodes and 4.5 edges per artifact): a list that doubles holds its old
    // and new buffers together, at the run's peak (issue #17). Room not
    // used is never touched, and `shrink_to_fit` below gives it back.
    g.graph.reserve_nodes(artifacts.len() * 2);
    g.graph.reserve_edges(artifacts.len() * 5);

    let skills = skills::index(&mut g, artifacts, sources);
    skilldrop::packs_and_loops(&mut g, artifacts, sources, &skills);
    let part_nodes = plugins::plugins(&mut g, artifacts, sources, &skills);
    loom::agents(&mut g, artifacts, sources, &skills);
    bailey::assistants(&mut g, artifacts, sources, &skills);
    opencode::contracts_and_agents(&mut g, artifacts, sources, &skills, &part_nodes);
    opencode::configs(&mut g, artifacts, sources, &skills);
    skilldrop::catalogues(&mut g, artifacts, sources, &skills);

    mcp::link(&mut g, artifacts, sources);
    market::link(&mut g, artifacts, sources);
    skill_files::files(&mut g, artifacts, sources, &skills);
    // The skill index is not needed past this point: let it go before the
    // link maps are built, the peak of a large run (issue #17).
    drop(skills);
    links::link(&mut g, artifacts, sources);

    lifecycles(&mut g, artifacts);

    g.loader_roots.sort();
    g.loader_roots.dedup();
    g.loader_scopes.sort();
    g.loader_scopes.dedup();
    g.unresolved.sort_by_key(|u| (u.file, u.span));
    // Built by pushing: up to half of each list is slack, and the graph
    // lives as long as the report (issue #17).
    g.graph.shrink_to_fit();
    g.unresolved.shrink_to_fit();
    g
}

/// Flow of the formats whose lifecycle is not a skilldrop loop, in artifact
/// order: an OpenCode contract ([`opencode::lifecycle`]) and a Loopmaster
/// manifest ([`loopmaster::lifecycle`]).
fn lifecycles(g: &mut RepoGraph, artifacts: &[Artifact]) {
    for a in artifacts {
        match &a.model {
            Model::OpenCodeContract(c) => opencode::lifecycle(g, a, c),
            Model::LoopmasterManifest(m) => loopmaster::lifecycle(g, a, m),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(join("a/b/", "../c/./d"), Some("a/c/d".into()));
        assert_eq!(join("a/", "../../x"), None);
        // The fast path (names only) and the normalising one agree.
        assert_eq!(join("a/b/", "c/d.md"), Some("a/b/c/d.md".into()));
        assert_eq!(join("", "c/d.md"), Some("c/d.md".into()));
        assert_eq!(join("a/b", "c"), Some("a/b/c".into()));
        assert_eq!(join("a//b/", "c"), Some("a/b/c".into()));
        assert_eq!(join("a/b/", "c/"), Some("a/b/c".into()));
        assert_eq!(join("a/b/", ""), Some("a/b".into()));
        assert_eq!(join("./a/", "c"), Some("./a/c".into()));
        assert_eq!(join("a/b/", ".hidden/x"), Some("a/b/.hidden/x".into()));
        assert_eq!(dir_of("a/b/c.json"), "a/b/");
    }
}
