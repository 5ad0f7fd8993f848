//! SETTINGS009 `path-rule-never-consulted`.

use super::{permissions, rules_of, settings_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS009",
    name: "path-rule-never-consulted",
    severity: Severity::Warning,
    summary: "a permission rule with a path for `Write`, `NotebookEdit`, `MultiEdit` or `Glob`, which file permission checks never consult",
    doc: include_str!("path_rule_never_consulted.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// The tool whose rules Claude Code consults in place of `tool`'s, for the
/// tools whose path rules it never consults.
fn consulted_instead(tool: &str) -> Option<&'static str> {
    match tool {
        "Write" | "NotebookEdit" | "MultiEdit" => Some("Edit"),
        "Glob" => Some("Read"),
        _ => None,
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let Some(perms) = permissions(doc, root) else {
        return Vec::new();
    };
    let src = cx.sources.get(a.file);
    let mut out = Vec::new();
    for list in ["allow", "ask", "deny"] {
        for (node, rule) in rules_of(doc, perms, list) {
            let Some((tool, rest)) = rule.split_once('(') else {
                continue;
            };
            let Some(spec) = rest.strip_suffix(')') else {
                continue;
            };
            let Some(instead) = consulted_instead(tool) else {
                continue;
            };
            // `Write(file_path:...)` is a parameter rule (SETTINGS011's).
            let param = spec.split_once(':').is_some_and(|(p, _)| {
                let p = p.trim();
                !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            if spec.trim().is_empty() || param {
                continue;
            }
            let span = doc.node(node).span;
            let fixed = format!("{instead}({spec})");
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "permission rule {} in `permissions.{list}` is never consulted: file permission checks read only `Edit(...)` and `Read(...)` rules",
                        quote(src.slice(span))
                    ),
                )
                .with_label("Claude Code accepts this rule but never matches a path against it")
                .with_help(format!("write {} instead", quote(&fixed))),
            );
        }
    }
    out
}
