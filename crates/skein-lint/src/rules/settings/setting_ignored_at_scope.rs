//! SETTINGS008 `setting-ignored-at-scope`.

use super::settings_of;
use super::shapes::{SCOPES, Scope, at};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS008",
    name: "setting-ignored-at-scope",
    severity: Severity::Info,
    summary: "a key in a project settings file that Claude Code reads only from user, managed or global settings",
    doc: include_str!("setting_ignored_at_scope.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let local = cx.path(a.file).ends_with("settings.local.json");
    let file = if local {
        "`.claude/settings.local.json`"
    } else {
        "`.claude/settings.json`"
    };
    let mut out = Vec::new();
    for &(path, scope) in SCOPES {
        let (read, help) = match scope {
            Scope::Managed => (
                "only from managed settings",
                "deploy it in managed settings (`managed-settings.json`, MDM or server-managed settings)",
            ),
            Scope::UserOrManaged => (
                "only from user and managed settings, never from a project's files",
                "move it to `~/.claude/settings.json` or to managed settings",
            ),
            Scope::UserLocalOrManaged if !local => (
                "from user, local and managed settings, not from the shared `.claude/settings.json`",
                "move it to `.claude/settings.local.json` or `~/.claude/settings.json`",
            ),
            Scope::UserLocalOrManaged => continue,
            Scope::GlobalConfig => (
                "from `~/.claude.json`, not from a settings file",
                "set it with `/config` or in `~/.claude.json`",
            ),
        };
        for (key, node) in at(doc, root, path) {
            let span = doc
                .key_of(node)
                .map_or(doc.node(node).span, |k| doc.node(k).span);
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "{} has no effect in {file}: Claude Code reads it {read}",
                        quote(&key)
                    ),
                )
                .with_label("ignored in a project settings file")
                .with_help(help),
            );
        }
    }
    out
}
