//! SETTINGS001 `unknown-setting`.

use super::{SETTING_KEYS, settings_of};
use crate::rules::refs::closest;
use crate::similar::fold;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS001",
    name: "unknown-setting",
    severity: Severity::Warning,
    summary: "a top-level key of a Claude Code settings file that Claude Code does not read",
    doc: include_str!("unknown_setting.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// The key `key` was probably meant to be.
pub(crate) fn suggestion(key: &str) -> Option<&'static str> {
    let folded = fold(key);
    SETTING_KEYS
        .iter()
        .copied()
        .find(|k| fold(k) == folded)
        .or_else(|| closest(key, SETTING_KEYS.iter().copied()).map(|(c, _)| c))
}

/// Where a key of another file belongs, for the keys people put in
/// settings by mistake.
fn elsewhere(key: &str) -> Option<&'static str> {
    match key {
        "mcpServers" => Some(
            "MCP servers are declared in the project's `.mcp.json` (or `~/.claude.json`), not in a settings file",
        ),
        "allow" | "deny" | "ask" | "defaultMode" | "additionalDirectories" => {
            Some("permission lists and modes belong under `permissions`")
        }
        _ => None,
    }
}

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in doc.entries(root).unwrap_or_default() {
        let Some(key) = doc.key_text(e.key) else {
            continue;
        };
        if SETTING_KEYS.contains(&key.as_str()) {
            continue;
        }
        let span = doc.node(e.key).span;
        let d = if let Some(place) = elsewhere(&key) {
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("{} is not a top-level setting", quote(&key)),
            )
            .with_label("Claude Code does not read this key here")
            .with_help(place)
        } else if let Some(s) = suggestion(&key) {
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "unknown setting {}; did you mean {}?",
                    quote(&key),
                    quote(s)
                ),
            )
            .with_label("Claude Code does not read this key (keys are case-sensitive)")
            .with_help(format!("rename the key to {}", quote(s)))
        } else {
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("unknown setting {}", quote(&key)),
            )
            .with_label("Claude Code does not read this key")
            .with_help("see the settings reference for the keys Claude Code reads; remove the key if it is not one")
        };
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::suggestion;

    #[test]
    fn suggestions() {
        assert_eq!(suggestion("Permissions"), Some("permissions"));
        assert_eq!(
            suggestion("include_co_authored_by"),
            Some("includeCoAuthoredBy")
        );
        assert_eq!(suggestion("enabledPlugin"), Some("enabledPlugins"));
        assert_eq!(suggestion("zzzzzz"), None);
    }
}
