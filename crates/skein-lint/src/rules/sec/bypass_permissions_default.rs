//! SEC014 `bypass-permissions-default`.

use crate::rules::settings::{permissions, settings_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC014",
    name: "bypass-permissions-default",
    severity: Severity::Warning,
    summary: "project settings start every session with permission checks off (`defaultMode: bypassPermissions`)",
    doc: include_str!("bypass_permissions_default.md"),
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
    let mut out = Vec::new();
    if let Some(m) = permissions(doc, root).and_then(|p| doc.get(p, "defaultMode"))
        && doc.as_str(m) == Some("bypassPermissions")
    {
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(m).span,
                "`permissions.defaultMode: bypassPermissions` skips every permission prompt for everyone who opens the project",
            )
            .with_label("permission checks off")
            .with_help("use `acceptEdits` or `default`, and allow the commands the project needs with `permissions.allow` rules"),
        );
    }
    // Claude Code reads this key from user, local and managed settings, not
    // from the shared `.claude/settings.json` (SETTINGS008 says so there):
    // only a local settings file is reported here.
    if cx.path(a.file).ends_with("settings.local.json")
        && let Some(s) = doc.get(root, "skipDangerousModePermissionPrompt")
        && matches!(doc.kind(s), skein_syntax::NodeKind::Bool(true))
    {
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(s).span,
                "`skipDangerousModePermissionPrompt: true` enters bypass-permissions mode without the confirmation prompt",
            )
            .with_label("confirmation off")
            .with_help("remove the setting from the project's settings"),
        );
    }
    out
}
