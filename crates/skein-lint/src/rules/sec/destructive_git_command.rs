//! SEC018 `destructive-git-command`.

use super::{shell, shell_findings};
use crate::{Context, FilePass, On, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC018",
    name: "destructive-git-command",
    severity: Severity::Warning,
    summary: "a hook, MCP server or setting runs a git command that throws away work (`git reset --hard`, `git clean -fd`, `git push --force`)",
    doc: include_str!("destructive_git_command.md"),
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
    shell_findings(cx, a, shell::destructive_git, |site, f, span| {
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("{} runs {}: it {}", site.whose, quote(&f.shown), f.detail),
        )
        .with_label("runs without asking, every time the event fires")
        .with_help("leave discarding work to the user; stash (`git stash`) or use `--force-with-lease` if the hook must")
    })
}
