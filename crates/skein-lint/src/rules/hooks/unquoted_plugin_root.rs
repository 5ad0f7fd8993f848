//! HOOK008 `unquoted-plugin-root`.

use super::{Quote, chars_of, hooks_of, scan};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK008",
    name: "unquoted-plugin-root",
    severity: Severity::Warning,
    summary: "`${CLAUDE_PLUGIN_ROOT}` or `$CLAUDE_PROJECT_DIR` unquoted in a hook command",
    doc: include_str!("unquoted_plugin_root.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

const VARS: &[&str] = &[
    "${CLAUDE_PLUGIN_ROOT}",
    "$CLAUDE_PLUGIN_ROOT",
    "${CLAUDE_PROJECT_DIR}",
    "$CLAUDE_PROJECT_DIR",
];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let Some(c) = doc.get(handler, "command") else {
            continue;
        };
        let Some(chars) = chars_of(cx, a, c) else {
            continue;
        };
        let (states, _) = scan(&chars);
        let text: Vec<char> = chars.iter().map(|c| c.0).collect();
        let mut i = 0;
        while i < text.len() {
            // Every variable starts with `$`: no other character is compared
            // with them.
            if text[i] != '$' {
                i += 1;
                continue;
            }
            let escaped = i > 0 && text[i - 1] == '\\';
            let hit = VARS.iter().find(|v| {
                let v: Vec<char> = v.chars().collect();
                text[i..].starts_with(&v)
                    && (v.ends_with(&['}'])
                        || text
                            .get(i + v.len())
                            .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == '_')))
            });
            let Some(v) = hit else {
                i += 1;
                continue;
            };
            let n = v.chars().count();
            if states[i] == Quote::None && !escaped {
                let span = Span::new(chars[i].1.start as usize, chars[i + n - 1].1.end as usize);
                let name = v
                    .trim_start_matches("${")
                    .trim_start_matches('$')
                    .trim_end_matches('}');
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        span,
                        format!("`{v}` is unquoted in a hook command; a path with a space splits into several words"),
                    )
                    .with_label("unquoted")
                    .with_help(format!("quote it: `\"${{{name}}}\"/...`")),
                );
            }
            i += n;
        }
    }
    out
}
