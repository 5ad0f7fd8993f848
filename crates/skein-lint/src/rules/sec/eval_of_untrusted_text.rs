//! SEC005 `eval-of-untrusted-text`.

use super::{shell, shell_findings};
use crate::{Context, FilePass, On, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC005",
    name: "eval-of-untrusted-text",
    severity: Severity::Warning,
    summary: "a hook, MCP server or setting evaluates fetched or decoded text as code",
    doc: include_str!("eval_of_untrusted_text.md"),
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
    shell_findings(cx, a, shell::eval_untrusted, |site, f, span| {
        Diagnostic::new(RULE, a.file, span, format!("{} runs {} text as code: {}", site.whose, f.detail, quote(&f.shown)))
            .with_label("runs text nobody reviewed")
            .with_help("run a script file of the repository instead; encoded or downloaded code cannot be reviewed in a pull request")
    })
}
