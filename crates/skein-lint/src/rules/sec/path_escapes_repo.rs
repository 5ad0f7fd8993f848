//! SEC002 `path-escapes-repo`.

use super::servers;
use crate::{Context, FilePass, On, Reads};
use skein_model::graph::{join, plugin_root};
use skein_model::{Artifact, Format, Model};
use skein_syntax::{Diagnostic, Document, NodeId, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC002",
    name: "path-escapes-repo",
    severity: Severity::Warning,
    summary: "a path in an artifact points outside the repository",
    doc: include_str!("path_escapes_repo.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Any,
};

/// One path field to check: the node, the folder it resolves against
/// (repo-relative, with trailing `/`), what it is, and whether an absolute
/// path is acceptable there (a program of the machine).
struct Field {
    node: NodeId,
    base: String,
    what: String,
    absolute_ok: bool,
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let doc = &a.document;
    let Some(root) = doc.root() else {
        return Vec::new();
    };
    // A file of none of the formats below that runs no MCP server (every
    // skill, agent and command) has no field to judge: answered before the
    // folder names are made.
    let servers = servers(a);
    if servers.is_empty()
        && !matches!(
            a.format,
            Format::ClaudePlugin
                | Format::CodexPlugin
                | Format::AgentPluginsManifest
                | Format::ClaudeMarketplace
                | Format::SkilldropLoop
                | Format::BaileyAssistant
                | Format::LoomAgentSpec
                | Format::OpenCodeConfig
        )
    {
        return Vec::new();
    }
    let path = cx.path(a.file);
    let dir = dir_of(path).to_string();
    let mut fields = Vec::new();
    let mut add = |node: NodeId, base: &str, what: String, absolute_ok: bool| {
        fields.push(Field {
            node,
            base: base.to_string(),
            what,
            absolute_ok,
        })
    };
    let plugin = plugin_root(&dir).to_string();
    match a.format {
        Format::ClaudePlugin | Format::CodexPlugin | Format::AgentPluginsManifest => {
            for key in [
                "skills",
                "agents",
                "commands",
                "hooks",
                "mcpServers",
                "outputStyles",
                "lspServers",
            ] {
                for n in strings(doc, doc.get(root, key)) {
                    add(n, &plugin, format!("`{key}`"), false);
                }
            }
        }
        Format::ClaudeMarketplace => {
            for p in doc
                .get(root, "plugins")
                .and_then(|p| doc.items(p))
                .unwrap_or_default()
            {
                if let Some(s) = doc.get(*p, "source").filter(|&s| doc.as_str(s).is_some()) {
                    add(s, &plugin, "`source`".into(), false);
                }
            }
        }
        Format::SkilldropLoop => {
            if let Model::SkilldropLoop(_) = &a.model {
                // The skilldrop repository: the folder that holds `packs/`.
                let prefix = if path.starts_with("packs/") {
                    ""
                } else {
                    path.find("/packs/").map_or("", |i| &path[..=i])
                };
                if let Some(e) = doc.get(root, "entrypoint") {
                    add(e, &dir, "`entrypoint`".into(), false);
                }
                for stage in doc
                    .get(root, "stages")
                    .and_then(|s| doc.items(s))
                    .unwrap_or_default()
                {
                    if let Some(script) = doc.get(*stage, "gate").and_then(|g| doc.get(g, "script"))
                    {
                        add(script, prefix, "gate `script`".into(), false);
                    }
                }
            }
        }
        Format::BaileyAssistant => {
            for key in ["instructions", "persona", "mcp"] {
                if let Some(n) = doc.get(root, key) {
                    add(n, &dir, format!("`{key}`"), false);
                }
            }
            for s in doc
                .get(root, "skills")
                .and_then(|s| doc.items(s))
                .unwrap_or_default()
            {
                if let Some(p) = doc.get(*s, "path") {
                    add(p, &dir, "skill `path`".into(), false);
                }
            }
        }
        Format::LoomAgentSpec => {
            for c in doc
                .get(root, "capabilities")
                .and_then(|c| doc.items(c))
                .unwrap_or_default()
            {
                if let Some(l) = doc.get(*c, "library") {
                    add(l, &dir, "`library`".into(), false);
                }
            }
        }
        Format::OpenCodeConfig => {
            for n in strings(
                doc,
                doc.get(root, "skills").and_then(|s| doc.get(s, "paths")),
            ) {
                add(n, &dir, "`skills.paths`".into(), false);
            }
            for n in strings(doc, doc.get(root, "instructions")) {
                add(n, &dir, "`instructions`".into(), false);
            }
        }
        _ => {}
    }
    // MCP servers: relative paths in `command`, `args`, `cwd`.
    let server_base = match a.format {
        Format::ClaudePlugin
        | Format::CodexPlugin
        | Format::AgentPluginsManifest
        | Format::ClaudeMarketplace => plugin.clone(),
        _ => dir.clone(),
    };
    for server in servers {
        for key in ["command", "args", "cwd"] {
            let items = strings(doc, doc.get(server.node, key));
            for (i, &n) in items.iter().enumerate() {
                let v = doc.as_str(n).unwrap_or("");
                // `args` are opaque strings: one is a path only when the
                // flag before it says so (`--config`, `--dir`, ...), or it
                // is rooted at the plugin root.
                let rooted =
                    v.starts_with("${CLAUDE_PLUGIN_ROOT}/") || v.starts_with("${PLUGIN_ROOT}/");
                let flagged = i > 0 && path_flag(doc.as_str(items[i - 1]).unwrap_or(""));
                if key == "args" && !rooted && !flagged {
                    continue;
                }
                let relative = v.starts_with("./")
                    || v.starts_with("../")
                    || v.contains("/../")
                    || v.starts_with("${CLAUDE_PLUGIN_ROOT}/")
                    || v.starts_with("${PLUGIN_ROOT}/")
                    || data_dir(v).is_some();
                if relative || (key == "cwd" && !v.is_empty()) {
                    add(
                        n,
                        &server_base,
                        format!("`{key}` of MCP server {}", quote(&server.name)),
                        key == "command",
                    );
                }
            }
        }
    }
    fields
        .into_iter()
        .filter_map(|f| diagnose(a, doc, &f, &plugin))
        .collect()
}

/// Whether `arg` is a command-line flag whose name says its value is a
/// path: `--config`, `--dir`, `--root`, `-f`, ...
fn path_flag(arg: &str) -> bool {
    let Some(name) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) else {
        return false;
    };
    if name.contains('=') {
        return false;
    }
    let name = name.to_ascii_lowercase();
    matches!(name.as_str(), "c" | "d" | "f" | "p")
        || [
            "path",
            "dir",
            "file",
            "config",
            "root",
            "cwd",
            "folder",
            "workspace",
            "cache",
            "data",
            "db",
            "database",
            "output",
            "input",
            "log",
        ]
        .iter()
        .any(|w| name.contains(w))
}

/// The rest of `v` after a plugin data directory variable
/// (`${CLAUDE_PLUGIN_DATA}`, Agent Plugins' `${PLUGIN_DATA}`).
fn data_dir(v: &str) -> Option<&str> {
    v.strip_prefix("${CLAUDE_PLUGIN_DATA}")
        .or_else(|| v.strip_prefix("${PLUGIN_DATA}"))
        .filter(|r| r.is_empty() || r.starts_with('/'))
}

/// The diagnostic for one field, if its path leaves the repository.
fn diagnose(a: &Artifact, doc: &Document, f: &Field, plugin: &str) -> Option<Diagnostic> {
    let written = doc.as_str(f.node)?;
    let v = written.trim();
    // A plugin's data directory is outside the repository: only a path that
    // climbs above that directory itself is reported.
    if let Some(rest) = data_dir(v) {
        let rest = rest.trim_start_matches('/').replace('\\', "/");
        if rest.contains("${") || join("", &rest).is_some() {
            return None;
        }
        return Some(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(doc.resolve(f.node)).span,
                format!(
                    "{} climbs out of the plugin's data directory: {}",
                    f.what,
                    quote(written)
                ),
            )
            .with_label("`..` leaves the directory the variable names")
            .with_help("keep the path inside the plugin's data directory"),
        );
    }
    // `${CLAUDE_PLUGIN_ROOT}` (Agent Plugins: `${PLUGIN_ROOT}`) is the plugin
    // root; other variables are not ours to resolve.
    let (v, base) = match v
        .strip_prefix("${CLAUDE_PLUGIN_ROOT}")
        .or_else(|| v.strip_prefix("${PLUGIN_ROOT}"))
    {
        Some(rest) => (rest.trim_start_matches('/'), plugin),
        None => (v, f.base.as_str()),
    };
    if v.is_empty() || v.contains("${") || v.starts_with('$') || v.contains("://") {
        return None;
    }
    let span = doc.node(doc.resolve(f.node)).span;
    let absolute = v.starts_with('/')
        || v.starts_with('\\')
        || v.starts_with("~/")
        || v == "~"
        || (v.len() >= 3
            && v.as_bytes()[1] == b':'
            && v.as_bytes()[0].is_ascii_alphabetic()
            && matches!(v.as_bytes()[2], b'\\' | b'/'));
    if absolute {
        if f.absolute_ok {
            return None;
        }
        return Some(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "{} is an absolute path outside the repository: {}",
                    f.what,
                    quote(written)
                ),
            )
            .with_label("not a file of the repository")
            .with_help("refer to a file of the repository by a path relative to it"),
        );
    }
    let normal = v.replace('\\', "/");
    if join(base, &normal).is_some() {
        return None;
    }
    let from = if base.is_empty() {
        "the repository root".to_string()
    } else {
        format!("`{base}`")
    };
    Some(
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!(
                "{} climbs out of the repository: {}",
                f.what,
                quote(written)
            ),
        )
        .with_label(format!("resolved from {from}, this leaves the repository"))
        .with_help(
            "keep the file inside the repository and refer to it by a path that stays inside",
        ),
    )
}

/// The string nodes of `id`: itself when a string, its string items when a sequence.
fn strings(doc: &Document, id: Option<NodeId>) -> Vec<NodeId> {
    let Some(id) = id else { return Vec::new() };
    if doc.as_str(id).is_some() {
        return vec![id];
    }
    doc.items(id)
        .unwrap_or_default()
        .iter()
        .copied()
        .filter(|&i| doc.as_str(i).is_some())
        .collect()
}

/// Folder of a repo-relative path, with trailing `/` (`""` at the root).
fn dir_of(path: &str) -> &str {
    match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "",
    }
}
