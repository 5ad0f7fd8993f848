//! HOOK016 `powershell-env-var`.

use super::{chars_of, env_refs, handler_type, hooks_of, span_of};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK016",
    name: "powershell-env-var",
    severity: Severity::Error,
    summary: "a PowerShell hook command that reads a Claude Code environment variable as `$NAME`",
    doc: include_str!("powershell_env_var.md"),
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
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        if handler_type(doc, handler) != Some("command")
            || doc.get(handler, "shell").and_then(|s| doc.as_str(s)) != Some("powershell")
        {
            continue;
        }
        let Some(chars) = doc.get(handler, "command").and_then(|c| chars_of(cx, a, c)) else {
            continue;
        };
        let cs: Vec<char> = chars.iter().map(|c| c.0).collect();
        for (name, from, to) in env_refs(&cs) {
            // `${NAME}` may be a placeholder Claude Code substitutes; `$NAME`
            // is always PowerShell's own variable.
            if !name.starts_with("CLAUDE_") || cs.get(from + 1) == Some(&'{') {
                continue;
            }
            let Some(span) = span_of(&chars, from, to) else {
                continue;
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "{} in a PowerShell hook is a PowerShell variable, not the environment variable; it expands to nothing",
                        quote(&format!("${name}"))
                    ),
                )
                .with_label("empty in PowerShell")
                .with_help(format!("write `$env:{name}`")),
            );
        }
    }
    out
}
