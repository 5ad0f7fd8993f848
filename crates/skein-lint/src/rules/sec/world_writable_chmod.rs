//! SEC006 `world-writable-chmod`.

use super::{shell, shell_findings};
use crate::{Context, FilePass, On, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC006",
    name: "world-writable-chmod",
    severity: Severity::Warning,
    summary: "a hook, MCP server or setting makes files writable by every user (`chmod 777`)",
    doc: include_str!("world_writable_chmod.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Any,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    shell_findings(cx, a, shell::world_writable, |site, f, span| {
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!(
                "{} makes files writable by every user with mode {}: {}",
                site.whose,
                quote(&f.detail),
                quote(&f.shown)
            ),
        )
        .with_label("every user of the machine may change these files")
        .with_help("grant only the owner write access (`chmod 755`, `chmod u+w`)")
    })
}
