//! HOOK024 `unknown-codex-hooks-key`.

use crate::rules::refs::closest;
use crate::{Context, FilePass, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK024",
    name: "unknown-codex-hooks-key",
    severity: Severity::Error,
    summary: "a top-level key of `.codex/hooks.json` other than `hooks` and `description`, which makes Codex skip the whole file",
    doc: include_str!("unknown_codex_hooks_key.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
};

/// The keys Codex's `hooks.json` may have at its top level.
const KEYS: &[&str] = &["hooks", "description"];

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::CodexHooks || a.damaged || a.document.is_dropped() {
        return Vec::new();
    }
    let doc = &a.document;
    let Some(entries) = doc.root().and_then(|r| doc.entries(r)) else {
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
        let d = Diagnostic::new(
            RULE,
            a.file,
            doc.node(e.key).span,
            format!(
                "unknown key {} in Codex's hooks.json: Codex refuses the file and runs none of its hooks",
                quote(key)
            ),
        )
        .with_label("Codex accepts only `hooks` and `description` here")
        .with_note("Codex logs \"failed to parse hooks config\" and goes on without every hook of this file");
        out.push(match closest(key, KEYS.iter().copied()) {
            Some((s, _)) => d.with_help(format!("did you mean {}?", quote(s))),
            None => d.with_help("remove the key (an editor's `$schema` included)"),
        });
    }
    out
}
