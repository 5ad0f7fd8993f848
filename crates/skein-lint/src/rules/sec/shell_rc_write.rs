//! SEC007 `shell-rc-write`.

use super::{shell, shell_findings};
use crate::{Context, FilePass, On, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC007",
    name: "shell-rc-write",
    severity: Severity::Warning,
    summary: "a hook, MCP server or setting writes a shell startup file (`~/.bashrc`, `~/.zshrc`, ...)",
    doc: include_str!("shell_rc_write.md"),
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
    shell_findings(cx, a, shell::rc_write, |site, f, span| {
        Diagnostic::new(RULE, a.file, span, format!("{} writes the shell startup file {}: {}", site.whose, quote(&f.detail), quote(&f.shown)))
            .with_label("runs in every shell the user opens from now on")
            .with_help("document the line for users to add themselves, or set the variable in the settings `env`")
    })
}
