//! SEC003 `download-piped-to-shell`.

use super::{shell, shell_findings};
use crate::{Context, FilePass, On, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC003",
    name: "download-piped-to-shell",
    severity: Severity::Warning,
    summary: "a hook, MCP server or setting pipes a download into a shell",
    doc: include_str!("download_piped_to_shell.md"),
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
    shell_findings(cx, a, shell::pipe_to_shell, |site, f, span| {
        Diagnostic::new(RULE, a.file, span, format!("{} runs {} on text fetched from the network: {}", site.whose, quote(&f.detail), quote(&f.shown)))
            .with_label("downloaded code runs unreviewed")
            .with_help("download the script to a file in the repository (or pin a release by checksum), review it, and run that file")
    })
}
