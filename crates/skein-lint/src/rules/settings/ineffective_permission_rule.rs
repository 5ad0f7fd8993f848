//! SETTINGS011 `ineffective-permission-rule`.

use super::{permissions, rules_of, settings_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS011",
    name: "ineffective-permission-rule",
    severity: Severity::Warning,
    summary: "a permission rule Claude Code skips: a parameter rule on a tool's primary content field, or an allow rule with an unanchored tool-name glob",
    doc: include_str!("ineffective_permission_rule.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// The primary content field of each tool that has one, and the rule form
/// that matches it.
fn content_field(tool: &str) -> Option<(&'static str, &'static str)> {
    match tool {
        "Bash" => Some(("command", "Bash(rm *)")),
        "PowerShell" => Some(("command", "PowerShell(Remove-Item *)")),
        "Read" => Some(("file_path", "Read(./path)")),
        "Edit" => Some(("file_path", "Edit(./path)")),
        "Write" => Some(("file_path", "Edit(./path)")),
        "Grep" => Some(("path", "Read(./path)")),
        "Glob" => Some(("path", "Read(./path)")),
        "NotebookEdit" => Some(("notebook_path", "Edit(./path)")),
        "WebFetch" => Some(("url", "WebFetch(domain:host)")),
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
            let span = doc.node(node).span;
            let written = quote(src.slice(span));
            let (tool, spec) = match rule.split_once('(') {
                Some((t, rest)) => (t, rest.strip_suffix(')')),
                None => (rule, None),
            };
            if let (Some(spec), Some((field, instead))) = (spec, content_field(tool))
                && let Some((param, _)) = spec.split_once(':')
                && param.trim() == field
            {
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        span,
                        format!(
                            "permission rule {written} in `permissions.{list}` matches `{tool}`'s `{field}` parameter, which Claude Code ignores"
                        ),
                    )
                    .with_label("skipped with a startup warning: a parameter rule cannot match a tool's primary content")
                    .with_help(format!("write the specifier in the tool's own form, e.g. `{instead}`")),
                );
                continue;
            }
            if list == "allow" && tool.contains('*') {
                // Allowed only after a literal, glob-free `mcp__<server>__`.
                let anchored = tool
                    .strip_prefix("mcp__")
                    .and_then(|rest| rest.split_once("__"))
                    .is_some_and(|(server, _)| !server.is_empty() && !server.contains('*'));
                if anchored {
                    continue;
                }
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        span,
                        format!(
                            "allow rule {written} has an unanchored tool-name glob, which Claude Code skips"
                        ),
                    )
                    .with_label("skipped with a warning: auto-approves nothing")
                    .with_help("name the tool, or glob only after a literal server prefix, e.g. `mcp__github__*`"),
                );
            }
        }
    }
    out
}
