//! HOOK011 `invalid-hook-field-value`.

use super::{handler_type, hooks_of, type_fields};
use crate::rules::refs::closest;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK011",
    name: "invalid-hook-field-value",
    severity: Severity::Error,
    summary: "a hook handler's `shell`, `if`, `once`, `async` or `asyncRewake` with a value Claude Code does not accept",
    doc: include_str!("invalid_hook_field_value.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// The shells a command hook may name.
const SHELLS: &[&str] = &["bash", "powershell"];

/// The boolean fields, and the handler types that have them (`None`: all).
const FLAGS: &[(&str, Option<&str>)] = &[
    ("once", None),
    ("async", Some("command")),
    ("asyncRewake", Some("command")),
];

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let src = cx.sources.get(a.file);
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let ty = handler_type(doc, handler);
        // A field of another type is `unsupported-hook-field`'s.
        let has = |f: &str| ty.and_then(type_fields).is_none_or(|own| own.contains(&f));
        for &(flag, of) in FLAGS {
            let Some(v) = doc.get(handler, flag) else {
                continue;
            };
            if of.is_some() && !has(flag) {
                continue;
            }
            if matches!(doc.kind(v), NodeKind::Bool(_) | NodeKind::Alias(_)) {
                continue;
            }
            let span = doc.node(v).span;
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "hook `{flag}` is {}, not a boolean; expected `true` or `false`",
                        quote(src.slice(span))
                    ),
                )
                .with_label("not a boolean")
                .with_help(format!("write `{flag}: true` or `{flag}: false`, unquoted")),
            );
        }
        if let Some(v) = doc.get(handler, "shell")
            && has("shell")
        {
            let span = doc.node(v).span;
            let written = src.slice(span);
            let near = match doc.kind(v) {
                NodeKind::String(s) if SHELLS.contains(&s.as_str()) => continue,
                NodeKind::Alias(_) => continue,
                NodeKind::String(s) => SHELLS
                    .iter()
                    .copied()
                    .find(|v| v.eq_ignore_ascii_case(s))
                    .or_else(|| (s.eq_ignore_ascii_case("pwsh")).then_some("powershell"))
                    .or_else(|| {
                        closest(s, SHELLS.iter().copied())
                            .filter(|&(_, d)| d <= 1)
                            .map(|(c, _)| c)
                    }),
                _ => None,
            };
            let msg = match near {
                Some(n) => format!(
                    "hook `shell` is {}; did you mean {}?",
                    quote(written),
                    quote(n)
                ),
                None => format!(
                    "hook `shell` is {}; Claude Code accepts `bash` or `powershell`",
                    quote(written)
                ),
            };
            out.push(
                Diagnostic::new(RULE, a.file, span, msg)
                    .with_label("not a hook shell")
                    .with_help(format!(
                        "set `\"shell\": \"{}\"`, or remove `shell` for the default (`bash`)",
                        near.unwrap_or("bash")
                    )),
            );
        }
        if let Some(v) = doc.get(handler, "if") {
            let span = doc.node(v).span;
            let why = match doc.kind(v) {
                NodeKind::String(s) if !s.trim().is_empty() => continue,
                NodeKind::Alias(_) => continue,
                NodeKind::String(_) => "hook `if` is empty".to_string(),
                _ => format!("hook `if` is {}, not a string", quote(src.slice(span))),
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("{why}; it must hold one permission rule such as `Bash(git *)`"),
                )
                .with_label("not a permission rule")
                .with_help("write one permission rule, e.g. `\"if\": \"Edit(*.ts)\"`, or remove `if` to run on every match"),
            );
        }
    }
    out
}
