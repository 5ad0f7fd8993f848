//! SETTINGS006 `invalid-enabled-plugins`.

use super::settings_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS006",
    name: "invalid-enabled-plugins",
    severity: Severity::Error,
    summary: "an `enabledPlugins` that is not an object of `\"plugin@marketplace\": true|false`",
    doc: include_str!("invalid_enabled_plugins.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// Whether `id` has the form `plugin@marketplace`.
fn plugin_id(id: &str) -> bool {
    matches!(id.split_once('@'), Some((p, m)) if !p.trim().is_empty() && !m.trim().is_empty() && !m.contains('@'))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let Some(plugins) = doc.get(root, "enabledPlugins") else {
        return Vec::new();
    };
    let src = cx.sources.get(a.file);
    let Some(entries) = doc.entries(plugins) else {
        let span = doc.node(plugins).span;
        return vec![
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "`enabledPlugins` is {}, not an object",
                    quote(src.slice(span))
                ),
            )
            .with_label("not an object of plugin ids to booleans")
            .with_help("write `\"enabledPlugins\": {\"plugin@marketplace\": true}`"),
        ];
    };
    let mut out = Vec::new();
    for e in entries {
        let id = doc.key_text(e.key).unwrap_or_default();
        if !plugin_id(&id) {
            let span = doc.node(e.key).span;
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "enabled plugin {} is not of the form `plugin@marketplace`",
                        quote(src.slice(span))
                    ),
                )
                .with_label("no marketplace")
                .with_help("name the plugin with the marketplace it is installed from, e.g. `\"formatter@team-tools\"`"),
            );
        }
        // Older settings listed a plugin's parts in an array; still read.
        let ok = match doc.kind(e.value) {
            NodeKind::Bool(_) | NodeKind::Alias(_) => true,
            NodeKind::Sequence(items) => items.iter().all(|&i| doc.as_str(i).is_some()),
            _ => false,
        };
        if !ok {
            let span = doc.node(e.value).span;
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "enabled plugin {} is set to {}, not `true` or `false`",
                        quote(&id),
                        quote(src.slice(span))
                    ),
                )
                .with_label("not a boolean")
                .with_help("write `true` to enable the plugin or `false` to disable it"),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::plugin_id;

    #[test]
    fn ids() {
        assert!(plugin_id("formatter@anthropic-tools"));
        assert!(!plugin_id("formatter"));
        assert!(!plugin_id("@tools"));
        assert!(!plugin_id("a@b@c"));
    }
}
