//! SEC004 `rm-rf-root-or-home`.

use super::{shell, shell_findings};
use crate::{Context, FilePass, On, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC004",
    name: "rm-rf-root-or-home",
    severity: Severity::Error,
    summary: "a hook, MCP server or setting deletes `/` or the home folder recursively",
    doc: include_str!("rm_rf_root_or_home.md"),
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
    shell_findings(cx, a, shell::rm_root, |site, f, span| {
        Diagnostic::new(RULE, a.file, span, format!("{} deletes {} recursively: {}", site.whose, quote(&f.detail), quote(&f.shown)))
            .with_label("deletes every file it can reach")
            .with_help("name the folder the command should clean (`rm -rf ./build`), never `/`, `~` or `$HOME`")
    })
}
