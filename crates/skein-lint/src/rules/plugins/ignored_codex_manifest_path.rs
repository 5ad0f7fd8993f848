//! PLUGIN018 `ignored-codex-manifest-path`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeId, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN018",
    name: "ignored-codex-manifest-path",
    severity: Severity::Error,
    summary: "a path in a Codex plugin manifest that Codex ignores: not `./`-relative, `./` alone, or climbing out with `..`",
    doc: include_str!("ignored_codex_manifest_path.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CodexPlugin]),
};

/// The members of a Codex manifest that hold paths (a string, or a list of
/// strings where Codex takes one), as JSON pointers' parent and key:
/// `RawPluginManifest` and `RawPluginManifestInterface` in openai/codex
/// `codex-rs/core-plugins/src/manifest.rs`.
const MEMBERS: &[(Option<&str>, &str)] = &[
    (None, "skills"),
    (None, "mcpServers"),
    (None, "apps"),
    (None, "hooks"),
    (Some("interface"), "composerIcon"),
    (Some("interface"), "logo"),
    (Some("interface"), "logoDark"),
    (Some("interface"), "screenshots"),
];

/// Why Codex ignores the manifest path `p`, or `None` when it resolves it
/// (`resolve_manifest_path` in openai/codex
/// `codex-rs/core-plugins/src/manifest.rs`). An empty path is ignored
/// without a warning and is left to the schema.
fn why_ignored(p: &str) -> Option<&'static str> {
    if p.is_empty() {
        return None;
    }
    let Some(rest) = p.strip_prefix("./") else {
        return Some("a manifest path must start with `./`");
    };
    if rest.is_empty() {
        return Some("a manifest path must name something below the plugin root, not `./` itself");
    }
    if rest.split('/').any(|c| c == "..") {
        return Some("a manifest path must not contain `..`");
    }
    if rest.starts_with('/') || rest.split('/').any(|c| c == ".") {
        return Some("a manifest path must stay within the plugin root");
    }
    None
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::CodexPlugin
        || a.damaged
        || a.document.is_dropped()
        || !cx.path(a.file).ends_with(".codex-plugin/plugin.json")
    {
        return Vec::new();
    }
    let doc = &a.document;
    let Some(root) = doc.root() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &(parent, member) in MEMBERS {
        let holder = match parent {
            Some(p) => doc.get(root, p),
            None => Some(root),
        };
        let Some(value) = holder.and_then(|h| doc.get(h, member)) else {
            continue;
        };
        let items: Vec<NodeId> = match doc.items(value) {
            Some(items) => items.to_vec(),
            None => vec![value],
        };
        for i in items {
            let Some(p) = doc.as_str(i) else {
                continue;
            };
            // An interface asset may be a web address.
            if parent.is_some() && (p.starts_with("https://") || p.starts_with("http://")) {
                continue;
            }
            let Some(why) = why_ignored(p) else {
                continue;
            };
            let field = match parent {
                Some(parent) => format!("{parent}.{member}"),
                None => member.to_string(),
            };
            let mut d = Diagnostic::new(
                RULE,
                a.file,
                doc.node(i).span,
                format!(
                    "Codex ignores the {} path {}: {why}",
                    quote(&field),
                    quote(p)
                ),
            )
            .with_label("Codex skips this path")
            .with_note(format!(
                "Codex logs \"ignoring {field}: ...\" and loads the plugin without it"
            ));
            if !p.starts_with("./") && !p.starts_with('/') && !p.split('/').any(|c| c == "..") {
                d = d.with_help(format!(
                    "write it relative to the plugin root: {}",
                    quote(&format!("./{p}"))
                ));
            } else {
                d = d.with_help(
                    "keep the file inside the plugin and name it from the plugin root with `./`",
                );
            }
            out.push(d);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::why_ignored;

    #[test]
    fn paths_codex_resolves() {
        assert_eq!(why_ignored("./hooks/h.json"), None);
        assert_eq!(why_ignored("./skills"), None);
        assert_eq!(why_ignored(""), None);
        assert_eq!(
            why_ignored("hooks/h.json"),
            Some("a manifest path must start with `./`")
        );
        assert_eq!(
            why_ignored("/etc/h.json"),
            Some("a manifest path must start with `./`")
        );
        assert_eq!(
            why_ignored("./"),
            Some("a manifest path must name something below the plugin root, not `./` itself")
        );
        assert_eq!(
            why_ignored("./a/../../b"),
            Some("a manifest path must not contain `..`")
        );
        assert_eq!(
            why_ignored(".//etc"),
            Some("a manifest path must stay within the plugin root")
        );
    }
}
