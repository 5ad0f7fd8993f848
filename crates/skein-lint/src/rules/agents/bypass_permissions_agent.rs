//! AGENT010 `bypass-permissions-agent`.

use super::{project_agent, subagent};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT010",
    name: "bypass-permissions-agent",
    severity: Severity::Warning,
    summary: "a project subagent with `permissionMode: bypassPermissions` (every permission check off)",
    doc: include_str!("bypass_permissions_agent.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if !project_agent(cx.path(a.file)) {
        return Vec::new();
    }
    let Some(agent) = subagent(cx, a) else {
        return Vec::new();
    };
    match agent.str_field("permissionMode") {
        Some(("bypassPermissions", span)) => vec![
            Diagnostic::new(
                RULE,
                a.file,
                span,
                "subagent runs with `permissionMode: bypassPermissions`: every permission prompt is skipped",
            )
            .with_label("permission checks off")
            .with_note("the agent can edit any file and run any command without asking; this file is committed, so everyone who runs the agent gets that")
            .with_help("use `acceptEdits` to allow file edits only, or `default`, and allow the commands it needs with `permissions.allow` rules"),
        ],
        _ => Vec::new(),
    }
}
