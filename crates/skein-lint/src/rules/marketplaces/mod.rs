//! MKT: plugin marketplaces (`.claude-plugin/marketplace.json` and its
//! Cursor, Copilot and Codex equivalents), from the Claude Code
//! plugin-marketplaces documentation
//! (<https://docs.claude.com/en/docs/claude-code/plugin-marketplaces>).
//!
//! The rules read the marketplaces of the graph
//! ([`skein_model::graph::MarketplaceInfo`]): entries with their sources
//! resolved and the plugin each local entry registers.

pub mod duplicate_marketplace_entry;
pub mod invalid_marketplace_field;
pub mod invalid_marketplace_source;
pub mod marketplace_name_mismatch;
pub mod missing_entry_component;
pub mod reserved_marketplace_name;
pub mod unknown_marketplace_field;
pub mod unlisted_plugin;

use crate::Context;
use crate::RepoFiles;
use skein_model::Artifact;
use skein_model::graph::MarketFlavour;
use skein_model::graph::market::MarketplaceInfo;
use skein_syntax::{NodeId, NodeKind};

/// Every Claude Code marketplace (`.claude-plugin/marketplace.json`) of the
/// graph with its artifact and, when the file's top level is a mapping, that
/// mapping: what the rules reading the file's own keys walk.
pub(crate) fn claude_marketplaces<'a>(
    cx: &'a Context,
) -> impl Iterator<Item = (&'a MarketplaceInfo, &'a Artifact, Option<NodeId>)> {
    cx.graph
        .marketplaces()
        .iter()
        .filter(|m| m.flavour == MarketFlavour::Claude)
        .filter_map(|m| {
            let a = cx.artifact(m.file)?;
            let doc = &a.document;
            let root = doc
                .root()
                .filter(|&r| matches!(doc.kind(r), NodeKind::Mapping(_)));
            Some((m, a, root))
        })
}

/// Whether `path` (repo-relative, no trailing `/`) is a folder holding a file.
pub(crate) fn is_folder(files: &RepoFiles, path: &str) -> bool {
    if path.is_empty() {
        return !files.is_empty();
    }
    let dir = format!("{path}/");
    files.starting_with(&dir).next().is_some()
}

/// `a/b` -> `a/b/`, `""` -> `""`.
pub(crate) fn as_dir(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("{path}/")
    }
}
