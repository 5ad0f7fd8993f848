//! PLUGIN013 `user-config-in-monitor-command`.

use super::{manifests, root_mapping};
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN013",
    name: "user-config-in-monitor-command",
    severity: Severity::Error,
    summary: "a `${user_config.KEY}` placeholder in a plugin monitor's `command`",
    doc: include_str!("user_config_in_monitor_command.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

const OPEN: &str = "${user_config.";

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(root) = root_mapping(doc) else {
            continue;
        };
        let lists = [
            doc.get(root, "experimental")
                .and_then(|e| doc.get(e, "monitors")),
            doc.get(root, "monitors"),
        ];
        let src = cx.sources.get(a.file);
        for list in lists.into_iter().flatten() {
            for &m in doc.items(list).unwrap_or_default() {
                let Some(c) = doc.get(m, "command") else {
                    continue;
                };
                if doc.as_str(c).is_none_or(|s| !s.contains(OPEN)) {
                    continue;
                }
                let span = doc.node(c).span;
                // Point at the placeholder as written (JSON strings without
                // escapes before it keep their offsets).
                let raw = src.slice(span);
                let at = raw.find(OPEN).map(|i| {
                    let end = raw[i..].find('}').map_or(raw.len(), |j| i + j + 1);
                    Span::new(span.start as usize + i, span.start as usize + end)
                });
                let span = at.unwrap_or(span);
                let placeholder = src.slice(span).to_string();
                let key = placeholder
                    .trim_start_matches(OPEN)
                    .trim_end_matches('}')
                    .to_string();
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        span,
                        format!("monitor command uses `{placeholder}`, which Claude Code rejects in a monitor command"),
                    )
                    .with_label("a configured value substituted into a shell command")
                    .with_help(format!(
                        "read the value in the script instead, from a config file or the `CLAUDE_PLUGIN_OPTION_{}` variable",
                        key.to_ascii_uppercase()
                    )),
                );
            }
        }
    }
    out
}
