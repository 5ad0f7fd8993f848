//! Plugin marketplaces: one [`NodeKind::Marketplace`] node per
//! `marketplace.json`, its entries read from the document as written, and a
//! [`EdgeKind::Lists`] edge from the marketplace to the plugin each local
//! entry registers.
//!
//! Where a local source points: a path is relative to the marketplace root
//! (the folder above `.claude-plugin/`, `.cursor-plugin/`, `.github/plugin/`
//! or `.agents/plugins/`); a path that does not start with `./` gets the
//! marketplace's `metadata.pluginRoot` in front when it has one. Remote
//! sources (`github`, `url`, `git`, `git-subdir`, `npm`, ... objects) are
//! recorded and not followed; the Codex `{"source": "local", "path": ...}`
//! object is local. Which manifest is the plugin depends on the marketplace's
//! tool ([`MarketFlavour`]).

use super::{EdgeKind, NodeKind, RepoGraph, dir_of, join, plugin_root};
use crate::decode::Artifact;
use crate::format::Format;
use petgraph::graph::NodeIndex;
use skein_syntax::{Document, FileId, NodeId, NodeKind as DocKind, SourceMap, Span};
use std::collections::BTreeMap;

/// Which tool reads a marketplace, from where it lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarketFlavour {
    /// Claude Code, `.claude-plugin/marketplace.json` (or found by shape).
    Claude,
    /// Cursor, `.cursor-plugin/marketplace.json` (Claude's format).
    Cursor,
    /// GitHub Copilot, `.github/plugin/marketplace.json`.
    Copilot,
    /// Codex, `.agents/plugins/marketplace.json`.
    Codex,
}

impl MarketFlavour {
    /// The manifest paths (below a plugin root) this tool reads, in order.
    pub fn manifests(self) -> &'static [&'static str] {
        match self {
            MarketFlavour::Claude => &[".claude-plugin/plugin.json"],
            MarketFlavour::Cursor => &[".cursor-plugin/plugin.json", ".claude-plugin/plugin.json"],
            MarketFlavour::Copilot => &[
                "plugin.json",
                ".github/plugin/plugin.json",
                ".claude-plugin/plugin.json",
            ],
            MarketFlavour::Codex => &[".codex-plugin/plugin.json"],
        }
    }

    /// Whether local sources must be written `./...` (Claude's rule).
    pub fn dot_slash(self) -> bool {
        matches!(self, MarketFlavour::Claude | MarketFlavour::Cursor)
    }

    /// Whether `owner` is required.
    pub fn needs_owner(self) -> bool {
        self != MarketFlavour::Codex
    }
}

/// Where an entry's plugin comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum EntrySource {
    /// No `source`.
    Missing,
    /// A value that is neither a string nor an object (its span).
    Invalid(Span),
    /// A path in this repository.
    Local {
        /// The path as written.
        written: String,
        /// Its span.
        span: Span,
        /// Repo-relative target folder (no trailing `/`, `""` for the root);
        /// `None` when it climbs out of the repository.
        target: Option<String>,
        /// Whether `metadata.pluginRoot` was put in front.
        via_plugin_root: bool,
    },
    /// A remote source object (not followed): its `source` kind as written.
    Remote(String),
}

/// One entry of `plugins`.
#[derive(Debug, Clone, PartialEq)]
pub struct MarketEntry {
    /// The entry value (an object when valid).
    pub node: NodeId,
    /// The entry's span.
    pub span: Span,
    /// `name` when it is a string, with its span.
    pub name: Option<(String, Span)>,
    /// Where the plugin comes from.
    pub source: EntrySource,
    /// `strict` as written (`false`: the entry is the whole manifest).
    pub strict: Option<bool>,
    /// The plugin node the local source resolves to, if a manifest is there.
    pub plugin: Option<NodeIndex>,
}

/// A marketplace with its entries.
#[derive(Debug, Clone, PartialEq)]
pub struct MarketplaceInfo {
    /// The marketplace node.
    pub node: NodeIndex,
    /// The `marketplace.json` file.
    pub file: FileId,
    /// The tool that reads it.
    pub flavour: MarketFlavour,
    /// The marketplace root (repo-relative folder with trailing `/`).
    pub root: String,
    /// `metadata.pluginRoot` as written, with its span.
    pub plugin_root: Option<(String, Span)>,
    /// The `plugins` entries in order (empty when `plugins` is not an array).
    pub entries: Vec<MarketEntry>,
}

/// The flavour and root of a marketplace at `path`.
fn flavour_and_root(path: &str) -> (MarketFlavour, String) {
    let dir = dir_of(path);
    let up = |d: &str| dir_of(d.trim_end_matches('/')).to_string();
    if dir.ends_with(".agents/plugins/") {
        (MarketFlavour::Codex, up(&up(dir)))
    } else if dir.ends_with(".github/plugin/") {
        (MarketFlavour::Copilot, up(&up(dir)))
    } else if dir.ends_with(".cursor-plugin/") {
        (MarketFlavour::Cursor, up(dir))
    } else if dir.ends_with(".claude-plugin/") {
        (MarketFlavour::Claude, up(dir))
    } else {
        (MarketFlavour::Claude, dir.to_string())
    }
}

fn str_at<'a>(doc: &'a Document, obj: NodeId, key: &str) -> Option<(&'a str, Span)> {
    let v = doc.get(obj, key)?;
    Some((doc.as_str(v)?, doc.node(v).span))
}

fn local(root: &str, plugin_root: Option<&str>, written: &str, span: Span) -> EntrySource {
    // `pluginRoot` is "prepended to relative plugin source paths", `./x`
    // included; a bare `.` still names the marketplace root itself.
    let rel_root = match plugin_root {
        Some(pr) if written != "." => Some(pr),
        _ => None,
    };
    let target = match rel_root {
        Some(pr) => join(root, pr).and_then(|base| {
            let base = if base.is_empty() {
                String::new()
            } else {
                format!("{base}/")
            };
            join(&base, written)
        }),
        None => join(root, written),
    };
    EntrySource::Local {
        written: written.to_string(),
        span,
        target,
        via_plugin_root: rel_root.is_some(),
    }
}

/// Adds the marketplace nodes, their entries and `Lists` edges.
pub(super) fn link(g: &mut RepoGraph, artifacts: &[Artifact], sources: &SourceMap) {
    // Plugin manifests by path, for the lookup of an entry's manifest.
    let manifests: BTreeMap<&str, NodeIndex> = g
        .graph
        .node_indices()
        .filter(|&n| g.graph[n].kind == NodeKind::Plugin)
        .map(|n| (sources.get(g.graph[n].file).path(), n))
        .collect();
    let mut out = Vec::new();
    for a in artifacts
        .iter()
        .filter(|a| a.format == Format::ClaudeMarketplace)
    {
        let path = sources.get(a.file).path();
        let (flavour, root) = flavour_and_root(path);
        let doc = &a.document;
        let top = doc
            .root()
            .filter(|&r| matches!(doc.kind(r), DocKind::Mapping(_)));
        let name = top
            .and_then(|r| str_at(doc, r, "name"))
            .map(|(s, _)| s.to_string())
            .unwrap_or_else(|| path.to_string());
        let name_span = top
            .and_then(|r| doc.get(r, "name"))
            .map(|v| doc.node(v).span)
            .unwrap_or_default();
        let node = g.add(NodeKind::Marketplace, name, a.file, name_span);
        let plugin_root_decl = top
            .and_then(|r| doc.get(r, "metadata"))
            .and_then(|m| str_at(doc, m, "pluginRoot"))
            .map(|(s, sp)| (s.to_string(), sp));
        let pr = plugin_root_decl.as_ref().map(|(s, _)| s.as_str());
        let items: Vec<NodeId> = top
            .and_then(|r| doc.get(r, "plugins"))
            .and_then(|p| doc.items(p))
            .map(<[NodeId]>::to_vec)
            .unwrap_or_default();
        // The plugin node whose manifest sits in a local source's folder.
        let plugin_of = |src: &EntrySource| match src {
            EntrySource::Local {
                target: Some(t), ..
            } => {
                let base = if t.is_empty() {
                    String::new()
                } else {
                    format!("{t}/")
                };
                flavour
                    .manifests()
                    .iter()
                    .find_map(|m| manifests.get(format!("{base}{m}").as_str()).copied())
            }
            _ => None,
        };
        let mut entries = Vec::new();
        for item in items {
            let span = doc.node(item).span;
            let is_obj = matches!(doc.kind(item), DocKind::Mapping(_));
            let name = if is_obj {
                str_at(doc, item, "name").map(|(s, sp)| (s.to_string(), sp))
            } else {
                None
            };
            let strict = if is_obj {
                doc.get(item, "strict").and_then(|v| match doc.kind(v) {
                    DocKind::Bool(b) => Some(*b),
                    _ => None,
                })
            } else {
                None
            };
            let source = match is_obj.then(|| doc.get(item, "source")).flatten() {
                None => EntrySource::Missing,
                Some(v) => match (doc.as_str(v), doc.kind(v)) {
                    (Some(s), _) => {
                        let sp = doc.node(v).span;
                        let with_root = local(&root, pr, s, sp);
                        // A source that already names the folder from the
                        // marketplace root (`./plugins/x` beside a pluginRoot
                        // of `./plugins`) is read as written, and so is one
                        // where only that reading finds a plugin manifest.
                        let holds_manifest = |src: &EntrySource| plugin_of(src).is_some();
                        let bare =
                            |p: &str| p.trim_start_matches("./").trim_end_matches('/').to_string();
                        let prefixed = pr.is_some_and(|pr| {
                            let pr = bare(pr);
                            !pr.is_empty()
                                && !pr.starts_with('.')
                                && bare(s).starts_with(&format!("{pr}/"))
                        });
                        if prefixed {
                            local(&root, None, s, sp)
                        } else if pr.is_some() && !holds_manifest(&with_root) {
                            let as_written = local(&root, None, s, sp);
                            if holds_manifest(&as_written) {
                                as_written
                            } else {
                                with_root
                            }
                        } else {
                            with_root
                        }
                    }
                    (None, DocKind::Mapping(_)) => {
                        let kind = str_at(doc, v, "source").map(|(s, _)| s).unwrap_or("");
                        match (kind, str_at(doc, v, "path")) {
                            ("local", Some((p, sp))) => local(&root, None, p, sp),
                            _ => EntrySource::Remote(kind.to_string()),
                        }
                    }
                    _ => EntrySource::Invalid(doc.node(v).span),
                },
            };
            let plugin = plugin_of(&source);
            if let Some(p) = plugin {
                g.edge(node, p, EdgeKind::Lists, a.file, span);
            }
            entries.push(MarketEntry {
                node: item,
                span,
                name,
                source,
                strict,
                plugin,
            });
        }
        out.push(MarketplaceInfo {
            node,
            file: a.file,
            flavour,
            root,
            plugin_root: plugin_root_decl,
            entries,
        });
    }
    g.marketplaces = out;
}

/// The root folder (trailing `/`) of the plugin whose manifest is at `path`.
pub fn manifest_root(path: &str) -> &str {
    plugin_root(dir_of(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_by_location() {
        assert_eq!(
            flavour_and_root("m/.claude-plugin/marketplace.json"),
            (MarketFlavour::Claude, "m/".into())
        );
        assert_eq!(
            flavour_and_root(".agents/plugins/marketplace.json"),
            (MarketFlavour::Codex, "".into())
        );
        assert_eq!(
            flavour_and_root("r/.github/plugin/marketplace.json"),
            (MarketFlavour::Copilot, "r/".into())
        );
    }
}
