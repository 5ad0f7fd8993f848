//! SETTINGS012 `root-anchored-path-rule`.

use super::{permissions, rules_of, settings_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS012",
    name: "root-anchored-path-rule",
    severity: Severity::Warning,
    summary: "a `Read`/`Edit` rule with a single-slash path that looks absolute but anchors at the project",
    doc: include_str!("root_anchored_path_rule.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// First path segments that name a filesystem-root folder, not a project's.
const SYSTEM: &[&str] = &[
    "Users", "home", "root", "etc", "var", "tmp", "opt", "usr", "private", "Volumes", "mnt",
    "Library", "System",
];

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
            if !matches!(tool, "Read" | "Edit") {
                continue;
            }
            let Some(path) = rest.strip_suffix(')') else {
                continue;
            };
            let Some(tail) = path.strip_prefix('/') else {
                continue;
            };
            if tail.starts_with('/') {
                continue;
            }
            let first = tail.split('/').next().unwrap_or_default();
            if !SYSTEM.contains(&first) {
                continue;
            }
            let span = doc.node(node).span;
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "{} in `permissions.{list}` anchors `{path}` at the project root, not the filesystem root",
                        quote(src.slice(span))
                    ),
                )
                .with_label(format!("matches `<project>/{tail}`, not `{path}`"))
                .with_help(format!("write `{tool}(/{path})` for an absolute path")),
            );
        }
    }
    out
}
