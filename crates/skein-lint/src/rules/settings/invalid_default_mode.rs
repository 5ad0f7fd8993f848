//! SETTINGS003 `invalid-default-mode`.

use super::{PERMISSION_MODES, UNDOCUMENTED_MODES, permissions, settings_of};
use crate::rules::refs::closest;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS003",
    name: "invalid-default-mode",
    severity: Severity::Error,
    summary: "a `permissions.defaultMode` that is not a Claude Code permission mode",
    doc: include_str!("invalid_default_mode.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// The mode `mode` was probably meant to be.
fn suggestion(mode: &str) -> Option<&'static str> {
    let squash = |s: &str| {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase()
    };
    let m = squash(mode);
    PERMISSION_MODES
        .iter()
        .copied()
        .find(|p| squash(p) == m)
        .or_else(|| closest(mode, PERMISSION_MODES.iter().copied()).map(|(c, _)| c))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let Some(mode) = permissions(doc, root).and_then(|p| doc.get(p, "defaultMode")) else {
        return Vec::new();
    };
    let value = doc.as_str(mode);
    if value.is_some_and(|v| PERMISSION_MODES.contains(&v) || UNDOCUMENTED_MODES.contains(&v)) {
        return Vec::new();
    }
    let span = doc.node(mode).span;
    let written = quote(cx.sources.get(a.file).slice(span));
    let modes = PERMISSION_MODES
        .iter()
        .map(|m| quote(m))
        .collect::<Vec<_>>()
        .join(", ");
    let d = match value {
        None => Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("`permissions.defaultMode` is {written}, not a string; the modes are {modes}"),
        )
        .with_label("not a permission mode"),
        Some(v) => match suggestion(v) {
            Some(s) => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "unknown permission mode {written}; did you mean {}?",
                    quote(s)
                ),
            )
            .with_label("not a permission mode (modes are case-sensitive)")
            .with_help(format!("write {}; the modes are {modes}", quote(s)))
            .with_fix_opt(
                crate::fix::near(v, s)
                    .then(|| {
                        crate::fix::replace_string(doc, mode, cx.sources.get(a.file).text(), s)
                    })
                    .flatten()
                    .map(|e| skein_syntax::Fix::unsafe_(format!("replace with `{s}`"), vec![e])),
            ),
            None => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("unknown permission mode {written}; the modes are {modes}"),
            )
            .with_label("not a permission mode"),
        },
    };
    vec![d]
}
