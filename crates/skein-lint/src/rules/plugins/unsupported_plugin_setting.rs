//! PLUGIN015 `unsupported-plugin-setting`.

use super::{kind_name, root_mapping};
use crate::rules::refs::closest;
use crate::{Context, Pass};
use skein_model::Format;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN015",
    name: "unsupported-plugin-setting",
    severity: Severity::Warning,
    summary: "a key in a plugin's default `settings.json` that Claude Code does not apply (only `agent` and `subagentStatusLine` are)",
    doc: include_str!("unsupported_plugin_setting.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// The keys a plugin's `settings.json` may set (plugins reference, "File
/// locations reference", Settings row).
pub(crate) const SUPPORTED: &[&str] = &["agent", "subagentStatusLine"];

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in cx
        .artifacts
        .iter()
        .filter(|a| a.format == Format::ClaudePluginSettings)
    {
        let doc = &a.document;
        let Some(root) = doc.root() else {
            continue;
        };
        if root_mapping(doc).is_none() {
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(root).span,
                    format!(
                        "a plugin's settings.json is {}, not an object",
                        kind_name(doc, root)
                    ),
                )
                .with_label("expected an object with `agent` or `subagentStatusLine`"),
            );
            continue;
        }
        for e in doc.entries(root).unwrap_or(&[]) {
            let Some(key) = doc.key_text(e.key) else {
                continue;
            };
            if SUPPORTED.contains(&key.as_str()) || key == "$schema" {
                continue;
            }
            let mut d = Diagnostic::new(
                RULE,
                a.file,
                doc.node(e.key).span,
                format!(
                    "plugin setting {} is not applied: a plugin's settings.json supports only `agent` and `subagentStatusLine`",
                    quote(&key)
                ),
            )
            .with_label("Claude Code drops this key when it enables the plugin");
            d = match closest(&key, SUPPORTED.iter().copied()) {
                Some((near, _)) => d.with_help(format!("did you mean {}?", quote(near))),
                None => d.with_help(
                    "set it in the project's `.claude/settings.json`, or ask users to set it in theirs",
                ),
            };
            out.push(d);
        }
    }
    out
}
