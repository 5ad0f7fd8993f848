//! HOOK018 `unknown-matcher-value`.

use super::hooks_of;
use crate::rules::refs::closest;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK018",
    name: "unknown-matcher-value",
    severity: Severity::Warning,
    summary: "a hook matcher naming a value that its event never reports (a notification type, session source, compaction trigger, ...)",
    doc: include_str!("unknown_matcher_value.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// The events whose matcher filters a fixed set of values, with the set.
const VALUES: &[(&str, &[&str])] = &[
    (
        "SessionStart",
        &["startup", "resume", "clear", "compact", "fork"],
    ),
    ("Setup", &["init", "maintenance"]),
    (
        "SessionEnd",
        &["clear", "resume", "logout", "prompt_input_exit", "other"],
    ),
    (
        "Notification",
        &[
            "permission_prompt",
            "idle_prompt",
            "auth_success",
            "elicitation_dialog",
            "elicitation_url_dialog",
            "elicitation_complete",
            "elicitation_response",
            "agent_needs_input",
            "agent_completed",
        ],
    ),
    ("PreCompact", &["manual", "auto"]),
    ("PostCompact", &["manual", "auto"]),
    (
        "ConfigChange",
        &[
            "user_settings",
            "project_settings",
            "local_settings",
            "policy_settings",
            "skills",
        ],
    ),
    ("DirectoryAdded", &["slash_command", "register_repo_root"]),
    (
        "StopFailure",
        &[
            "rate_limit",
            "overloaded",
            "authentication_failed",
            "oauth_org_not_allowed",
            "billing_error",
            "invalid_request",
            "model_not_found",
            "server_error",
            "max_output_tokens",
            "unknown",
        ],
    ),
    (
        "InstructionsLoaded",
        &[
            "session_start",
            "nested_traversal",
            "path_glob_match",
            "include",
            "compact",
        ],
    ),
];

/// The alternatives of an exact-match matcher (`a|b`, `a,b`), or `None`
/// when the matcher is a regular expression (any other character).
fn alternatives(m: &str, comma: bool) -> Option<Vec<&str>> {
    let plain = m.chars().all(|c| {
        c.is_ascii_alphanumeric() || c == '_' || c == '|' || (comma && (c == ',' || c == ' '))
    });
    if !plain || m.is_empty() {
        return None;
    }
    Some(
        m.split(|c| c == '|' || (comma && c == ','))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for e in h.events() {
        let Some(&(_, values)) = VALUES.iter().find(|(ev, _)| *ev == e.name) else {
            continue;
        };
        for &g in &e.groups {
            let Some(m) = doc.get(g, "matcher") else {
                continue;
            };
            let Some(text) = doc.as_str(m) else { continue };
            let Some(alts) = alternatives(text, e.name != "StopFailure") else {
                continue;
            };
            let unknown: Vec<&str> = alts.into_iter().filter(|v| !values.contains(v)).collect();
            if unknown.is_empty() {
                continue;
            }
            let list = values
                .iter()
                .map(|v| quote(v))
                .collect::<Vec<_>>()
                .join(", ");
            for u in unknown {
                let mut d = Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(m).span,
                    format!(
                        "`matcher` names {}, which {} never reports",
                        quote(u),
                        quote(&e.name)
                    ),
                )
                .with_label("matches nothing, so these hooks never run")
                .with_secondary(
                    a.file,
                    doc.node(e.key).span,
                    "the event whose values the matcher filters",
                );
                d = match closest(u, values.iter().copied()) {
                    Some((near, _)) => d.with_help(format!(
                        "did you mean {}? the values are {list}",
                        quote(near)
                    )),
                    None => d.with_help(format!("the values are {list}")),
                };
                out.push(d);
            }
        }
    }
    out
}
