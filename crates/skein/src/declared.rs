//! Component files that plugin manifests name by path.
//!
//! A Claude Code plugin's `.claude-plugin/plugin.json` may point its
//! `hooks`, `mcpServers` and `lspServers` at files anywhere in the plugin
//! (`"hooks": "./config/hooks.json"`, or a list of such paths), beside or
//! instead of the default `hooks/hooks.json`, `.mcp.json` and `.lsp.json`
//! (Claude Code plugins reference, "Plugin manifest schema", "Component
//! path fields": https://code.claude.com/docs/en/plugins-reference). A
//! Codex plugin's `.codex-plugin/plugin.json` may do the same with its
//! `hooks` (a `./` path or a list of them, each read as a Codex hooks file
//! instead of the default `hooks/hooks.json`: openai/codex
//! `codex-rs/core-plugins/src/manifest.rs`, `RawPluginManifestHooks`; Codex
//! hooks documentation, <https://developers.openai.com/codex/hooks>).
//! skein's path conventions do not know those files, so before anything is
//! read the manifests are, and each file they name that exists, stays
//! inside its plugin and is not an artifact already is declared to the
//! configuration as its format ([`Config::declare`]): from then on it is an
//! artifact like any other, in every kind of run.
//!
//! A manifest that is not valid JSON declares nothing (it has its own
//! finding); a path that escapes the plugin or names nothing is
//! `PLUGIN004 invalid-component-path`'s finding, not read.

use crate::config::Config;
use skein_model::graph::{join, plugin_root};
use skein_model::{Format, classify_in_repo};

/// The Claude Code manifest members that name component files, and the
/// format of each.
const CLAUDE_MEMBERS: &[(&str, Format)] = &[
    ("hooks", Format::ClaudeHooks),
    ("mcpServers", Format::McpConfig),
    ("lspServers", Format::ClaudeLspServers),
];

/// The Codex manifest members that name files skein reads, and the format
/// of each.
const CODEX_MEMBERS: &[(&str, Format)] = &[("hooks", Format::CodexHooks)];

/// The members of the manifest at `rel` that name component files: a
/// Claude Code plugin manifest's or a Codex one's; `None` for any other
/// path.
fn members(rel: &str) -> Option<&'static [(&'static str, Format)]> {
    let is = |folder: &str| {
        rel.strip_suffix("plugin.json")
            .and_then(|d| d.strip_suffix(folder))
            .is_some_and(|d| d.is_empty() || d.ends_with('/'))
    };
    if is(".claude-plugin/") {
        Some(CLAUDE_MEMBERS)
    } else if is(".codex-plugin/") {
        Some(CODEX_MEMBERS)
    } else {
        None
    }
}

/// Whether `rel` is the path of a plugin manifest that may name component
/// files: a Claude Code one or a Codex one.
pub(crate) fn is_manifest(rel: &str) -> bool {
    members(rel).is_some()
}

/// The files the manifest at `rel` (project-relative), whose bytes are
/// `bytes`, names by path, with their formats: project-relative paths,
/// normalised, inside the plugin's folder. Empty for a manifest that is
/// not a JSON object.
pub(crate) fn named_by(rel: &str, bytes: &[u8]) -> Vec<(String, Format)> {
    let Some(members) = members(rel) else {
        return Vec::new();
    };
    let Ok(serde_json::Value::Object(manifest)) = serde_json::from_slice(bytes) else {
        return Vec::new();
    };
    // The manifest's folder with its `/`, as `plugin_root` takes it.
    let dir = &rel[..rel.rfind('/').map_or(0, |i| i + 1)];
    let root = plugin_root(dir).trim_end_matches('/');
    let mut out = Vec::new();
    for &(member, format) in members {
        let paths: Vec<&str> = match manifest.get(member) {
            Some(serde_json::Value::String(p)) => vec![p.as_str()],
            Some(serde_json::Value::Array(items)) => {
                items.iter().filter_map(serde_json::Value::as_str).collect()
            }
            _ => Vec::new(),
        };
        for p in paths {
            let Some(rest) = p.strip_prefix("./") else {
                continue;
            };
            let Some(path) = join(root, rest) else {
                continue;
            };
            let inside = root.is_empty() || path.starts_with(&format!("{root}/"));
            if inside && !path.split('/').any(|s| s == "..") {
                out.push((path, format));
            }
        }
    }
    out
}

/// The files the plugin manifests among `found` name ([`named_by`]), each
/// manifest read (at most `max` bytes) and parsed on the rayon pool.
pub(crate) fn named_in(found: &[crate::walk::Found], max: u64) -> Vec<(String, Format)> {
    use rayon::prelude::*;
    found
        .par_iter()
        .filter(|f| is_manifest(&f.rel) && f.kind == crate::walk::EntryKind::Regular)
        .filter(|f| std::fs::metadata(&f.path).is_ok_and(|m| m.len() <= max))
        .flat_map_iter(|f| {
            std::fs::read(&f.path)
                .map(|bytes| named_by(&f.rel, &bytes))
                .unwrap_or_default()
        })
        .collect()
}

/// The files the plugin manifests among `found` name by path, declared to
/// `config` ([`named_in`], then [`declare`]): what `check` reads beside
/// the walk's artifacts and `--show-files` lists. Manifests over the size
/// limit of `options` (or of `config`) are not read.
pub(crate) fn declare_named(
    config: &mut Config,
    all: &skein_lint::RepoFiles,
    found: &[crate::walk::Found],
    options: &crate::Options,
) -> Vec<String> {
    let max = options
        .max_file_size
        .or(config.max_file_size)
        .unwrap_or(crate::DEFAULT_MAX_FILE_SIZE);
    declare(config, all, named_in(found, max))
}

/// Declares to `config` the files of `named` (what plugin manifests name,
/// [`named_by`]) that exist (`all`, every repository path), are not
/// excluded and are no artifact by skein's own conventions; returns those
/// paths, sorted.
pub(crate) fn declare(
    config: &mut Config,
    all: &skein_lint::RepoFiles,
    mut named: Vec<(String, Format)>,
) -> Vec<String> {
    named.sort();
    named.dedup_by(|a, b| a.0 == b.0);
    let mut out = Vec::new();
    for (path, format) in named {
        if !all.contains(&path)
            || config.excluded(&path)
            || classify_in_repo(&path, |p| config.format_for(p), |q| all.contains(q)).is_some()
        {
            continue;
        }
        config.declare(path.clone(), format);
        out.push(path);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_resolved_inside_the_plugin() {
        let manifest = br#"{"name": "p", "hooks": "./config/hooks.json",
            "mcpServers": ["./mcp/a.json", "./../escape.json", "mcp/no-dot.json"],
            "lspServers": {"inline": {}}}"#;
        assert_eq!(
            named_by("plugins/p/.claude-plugin/plugin.json", manifest),
            [
                (
                    "plugins/p/config/hooks.json".to_string(),
                    Format::ClaudeHooks
                ),
                ("plugins/p/mcp/a.json".to_string(), Format::McpConfig),
            ]
        );
        assert_eq!(
            named_by(".claude-plugin/plugin.json", br#"{"hooks": ["./h.json"]}"#),
            [("h.json".to_string(), Format::ClaudeHooks)]
        );
        assert_eq!(named_by(".claude-plugin/plugin.json", b"{not json"), []);
        assert!(is_manifest("a/.claude-plugin/plugin.json"));
        assert!(is_manifest(".codex-plugin/plugin.json"));
        assert!(!is_manifest("a/claude-plugin/plugin.json"));
        assert!(!is_manifest("a/x.claude-plugin/plugin.json"));
    }

    /// A Codex manifest names hooks files (Codex's format) by path; its
    /// inline hooks and its other members name nothing skein reads.
    #[test]
    fn codex_manifests_name_hooks_files() {
        let manifest = br#"{"name": "p", "hooks": ["./config/h.json", "no-dot.json"],
            "mcpServers": "./mcp.json", "skills": "./skills"}"#;
        assert_eq!(
            named_by("plugins/p/.codex-plugin/plugin.json", manifest),
            [("plugins/p/config/h.json".to_string(), Format::CodexHooks)]
        );
        assert_eq!(
            named_by(
                ".codex-plugin/plugin.json",
                br#"{"hooks": {"hooks": {"Stop": []}}}"#
            ),
            []
        );
    }
}
