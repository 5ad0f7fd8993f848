//! PLUGIN: Claude Code plugin manifests (`.claude-plugin/plugin.json`),
//! from the Claude Code plugins reference
//! (<https://docs.claude.com/en/docs/claude-code/plugins-reference>).
//!
//! These rules read the manifest's document as written: the embedded schema
//! no longer types `name`, `version`, `repository` or the component paths,
//! so each fault is reported once, here. A Codex manifest
//! (`.codex-plugin/plugin.json`) is another format: only
//! `PLUGIN018 ignored-codex-manifest-path` and
//! `PLUGIN019 misplaced-codex-plugin-file` read it here.

pub mod channel_without_server;
pub mod duplicate_default_hooks;
pub mod ignored_codex_manifest_path;
pub mod invalid_component_path;
pub mod invalid_dependency_version;
pub mod invalid_lsp_server;
pub mod invalid_plugin_metadata;
pub mod invalid_plugin_name;
pub mod invalid_plugin_version;
pub mod invalid_repository;
pub mod invalid_user_config;
pub mod misplaced_codex_plugin_file;
pub mod misplaced_plugin_manifest;
pub mod shadowed_default_folder;
pub mod unbraced_plugin_variable;
pub mod unknown_plugin_field;
pub mod unknown_user_config_field;
pub mod unsupported_plugin_setting;
pub mod user_config_in_monitor_command;

use crate::Context;
use skein_model::{Artifact, Format};
use skein_syntax::{Document, FileId, NodeId, NodeKind, Span};

/// The Claude Code plugin manifests, in path order: every `plugin.json` of
/// the Claude format except Cursor's `.cursor-plugin/plugin.json` (Cursor's
/// manifest has fields of its own, such as `displayName`).
pub(crate) fn manifests<'a>(cx: &'a Context) -> impl Iterator<Item = &'a Artifact> {
    cx.artifacts
        .iter()
        .filter(|a| a.format == Format::ClaudePlugin && !is_cursor(cx.path(a.file)))
}

/// Whether a manifest path is Cursor's (`.cursor-plugin/plugin.json`).
pub(crate) fn is_cursor(path: &str) -> bool {
    path == ".cursor-plugin/plugin.json" || path.ends_with("/.cursor-plugin/plugin.json")
}

/// The source text of `span` in `file`, as written.
pub(crate) fn written<'a>(cx: &'a Context, file: FileId, span: Span) -> &'a str {
    cx.sources.get(file).slice(span)
}

/// Lowercase letters and digits in words joined by single `-`.
pub(crate) fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// `My_Plugin Name` -> `my-plugin-name` (empty when nothing is left).
pub(crate) fn to_kebab(s: &str) -> String {
    s.to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// The root mapping of a JSON document, if it is one.
pub(crate) fn root_mapping(doc: &Document) -> Option<NodeId> {
    doc.root()
        .filter(|&r| matches!(doc.kind(r), NodeKind::Mapping(_)))
}

/// Where a missing top-level key is reported: the document's first byte.
pub(crate) fn opening(doc: &Document) -> Span {
    match doc.root() {
        Some(r) => {
            let s = doc.node(r).span;
            Span::new(s.start as usize, (s.start as usize + 1).min(s.end as usize))
        }
        None => Span::empty(0),
    }
}

/// What kind of value a node is, for messages.
pub(crate) fn kind_name(doc: &Document, id: NodeId) -> &'static str {
    match doc.kind(id) {
        NodeKind::Null => "null",
        NodeKind::Bool(_) => "a boolean",
        NodeKind::Number(_) => "a number",
        NodeKind::String(_) => "a string",
        NodeKind::Sequence(_) => "an array",
        NodeKind::Mapping(_) => "an object",
        _ => "a value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab() {
        assert!(is_kebab("code-review2"));
        assert!(!is_kebab("Code-Review"));
        assert!(!is_kebab("a--b"));
        assert!(!is_kebab("-a"));
        assert!(!is_kebab("a_b"));
        assert_eq!(to_kebab("My_Plugin Name"), "my-plugin-name");
    }
}
