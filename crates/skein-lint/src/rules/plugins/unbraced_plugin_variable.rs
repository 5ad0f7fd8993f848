//! PLUGIN014 `unbraced-plugin-variable`.

use super::manifests;
use crate::{Context, Pass};
use skein_model::Format;
use skein_model::graph::plugin_root;
use skein_syntax::{Diagnostic, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN014",
    name: "unbraced-plugin-variable",
    severity: Severity::Warning,
    summary: "`$CLAUDE_PLUGIN_ROOT` or `$CLAUDE_PLUGIN_DATA` without braces in a plugin's skill, agent or command, where only `${...}` is substituted",
    doc: include_str!("unbraced_plugin_variable.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

const VARS: &[&str] = &["CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

/// What every finding's text starts with.
pub(crate) const PLUGIN_VARIABLE: &[u8] = b"$CLAUDE_PLUGIN_";

fn check(cx: &Context) -> Vec<Diagnostic> {
    let roots: Vec<String> = manifests(cx)
        .map(|a| {
            let path = cx.path(a.file);
            let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
            plugin_root(dir).to_string()
        })
        .collect();
    if roots.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for a in cx.artifacts {
        if !matches!(
            a.format,
            Format::AgentSkill | Format::PluginAgent | Format::PluginCommand
        ) {
            continue;
        }
        // A lean run keeps the text of every file that names a variable
        // (`crate::retain::keep`): one whose text it dropped names none.
        let src = cx.sources.get(a.file);
        if !src.is_held() {
            continue;
        }
        // Most files name neither variable: one search before the roots.
        let text = src.text();
        if memchr::memmem::find(text.as_bytes(), PLUGIN_VARIABLE).is_none() {
            continue;
        }
        let path = cx.path(a.file);
        if !roots.iter().any(|r| path.starts_with(r.as_str())) {
            continue;
        }
        for var in VARS {
            let needle = format!("${var}");
            let mut from = 0;
            while let Some(i) = text[from..].find(&needle).map(|i| i + from) {
                from = i + needle.len();
                // Only the variable used as a path (`$CLAUDE_PLUGIN_ROOT/...`):
                // a bare mention names the variable hooks and scripts see.
                if !text[from..].starts_with('/') {
                    continue;
                }
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        Span::new(i, from),
                        format!(
                            "`${var}` is not substituted in plugin content; only `${{{var}}}` is"
                        ),
                    )
                    .with_label("left as written: the Bash tool's environment does not define it")
                    .with_help(format!("write `\"${{{var}}}\"`"))
                    .with_fix(skein_syntax::Fix::unsafe_(
                        format!("write `${{{var}}}`"),
                        vec![skein_syntax::Edit::replace(
                            Span::new(i, from),
                            format!("${{{var}}}"),
                        )],
                    )),
                );
            }
        }
    }
    out
}
