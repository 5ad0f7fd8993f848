//! PLUGIN003 `unknown-plugin-field`.

use super::{manifests, root_mapping};
use crate::rules::refs::closest;
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN003",
    name: "unknown-plugin-field",
    severity: Severity::Warning,
    summary: "a plugin manifest key that Claude Code does not know",
    doc: include_str!("unknown_plugin_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// Top-level manifest keys of the plugins and manifest references.
pub(crate) const KNOWN: &[&str] = &[
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "commands",
    "agents",
    "skills",
    "hooks",
    "mcpServers",
    "outputStyles",
    "lspServers",
    "userConfig",
    "channels",
    "monitors",
    "themes",
    "dependencies",
    "displayName",
    "defaultEnabled",
    "metadata",
    "workflows",
    "experimental",
    "settings",
    // Agent Plugins v1.0.0 vendor data, which a manifest in `.claude-plugin/`
    // may carry too: Bailey solutions name their `assistant.json` in
    // `extensions["org.sigrix"].assistant` (formats/bailey-assistant.schema.json).
    "extensions",
];

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(root) = root_mapping(doc) else {
            continue;
        };
        for e in doc.entries(root).unwrap_or(&[]) {
            let Some(key) = doc.key_text(e.key) else {
                continue;
            };
            if KNOWN.contains(&key.as_str()) {
                continue;
            }
            let mut d = Diagnostic::new(
                RULE,
                a.file,
                doc.node(e.key).span,
                format!("unknown plugin manifest field {}", quote(&key)),
            )
            .with_label("Claude Code does not read this key");
            d = match closest(&key, KNOWN.iter().copied()) {
                Some((near, _)) => d.with_help(format!("did you mean {}?", quote(near))),
                None if key == "lsp" => d.with_help("did you mean `lspServers`?"),
                None if key == "category" || key == "tags" => d.with_help(
                    "`category` and `tags` belong in the plugin's marketplace entry, not in plugin.json",
                ),
                None => d.with_note("known fields: name, version, description, author, homepage, repository, license, keywords and the component paths"),
            };
            out.push(d);
        }
    }
    out
}
