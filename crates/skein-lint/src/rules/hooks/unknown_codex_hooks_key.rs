//! HOOK024 `unknown-codex-hooks-key`.

use super::CODEX_HOOK_EVENTS;
use crate::rules::refs::closest;
use crate::{Context, FilePass, Reads};
use skein_model::models::HOOK_EVENTS;
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK024",
    name: "unknown-codex-hooks-key",
    severity: Severity::Error,
    summary: "a top-level key of a Codex hooks file (or of one written inline in a Codex plugin manifest) other than `hooks` and `description`, which makes Codex skip the file's hooks",
    doc: include_str!("unknown_codex_hooks_key.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::CODEX_ON,
};

/// The keys Codex's `hooks.json` may have at its top level.
const KEYS: &[&str] = &["hooks", "description"];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.damaged || a.document.is_dropped() {
        return Vec::new();
    }
    let doc = &a.document;
    let Some(root) = doc.root() else {
        return Vec::new();
    };
    match a.format {
        Format::CodexHooks => file_keys(a, root, Place::File),
        Format::CodexPlugin if cx.path(a.file).ends_with(".codex-plugin/plugin.json") => {
            // `hooks` written inline: one hooks file, or a list of them.
            let Some(hooks) = doc.get(root, "hooks") else {
                return Vec::new();
            };
            let files = match doc.items(hooks) {
                Some(items) => items.to_vec(),
                None => vec![hooks],
            };
            files
                .into_iter()
                .flat_map(|f| file_keys(a, f, Place::Manifest))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Where a hooks file is written.
#[derive(Clone, Copy)]
enum Place {
    /// A file of its own (`.codex/hooks.json`, a plugin's hooks file):
    /// Codex refuses the file.
    File,
    /// Inline in a Codex plugin manifest: Codex ignores the manifest's
    /// whole `hooks`.
    Manifest,
}

/// The findings on the keys of the hooks file `file` (a mapping; nothing
/// for another node).
fn file_keys(a: &Artifact, file: skein_syntax::NodeId, place: Place) -> Vec<Diagnostic> {
    let doc = &a.document;
    let Some(entries) = doc.entries(file) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries {
        let Some(key) = doc.as_str(e.key) else {
            continue;
        };
        if KEYS.contains(&key) {
            continue;
        }
        let (message, note) = match place {
            Place::File => (
                format!(
                    "unknown key {} in a Codex hooks file: Codex refuses the file and runs none of its hooks",
                    quote(key)
                ),
                "Codex logs \"failed to parse hooks config\" and goes on without every hook of this file",
            ),
            Place::Manifest => (
                format!(
                    "unknown key {} in a hooks file written in a Codex plugin manifest: Codex ignores the manifest's `hooks`",
                    quote(key)
                ),
                "Codex logs \"ignoring hooks: expected a string, string array, object, or object array\" and loads none of the plugin's hooks",
            ),
        };
        let d = Diagnostic::new(RULE, a.file, doc.node(e.key).span, message)
            .with_label("Codex accepts only `hooks` and `description` here")
            .with_note(note);
        let event = CODEX_HOOK_EVENTS.contains(&key) || HOOK_EVENTS.contains(&key);
        out.push(if event {
            d.with_help(format!(
                "{} is a hook event: put the events under `\"hooks\": {{...}}`",
                quote(key)
            ))
        } else {
            match closest(key, KEYS.iter().copied()) {
                Some((s, _)) => d.with_help(format!("did you mean {}?", quote(s))),
                None => d.with_help("remove the key (an editor's `$schema` included)"),
            }
        });
    }
    out
}
