//! HOOK014 `exec-command-with-arguments`.

use super::{handler_type, hooks_of};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK014",
    name: "exec-command-with-arguments",
    severity: Severity::Error,
    summary: "an exec-form command hook (with `args`) whose `command` is a whole command line",
    doc: include_str!("exec_command_with_arguments.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        if handler_type(doc, handler) != Some("command") {
            continue;
        }
        let Some(args) = doc.get(handler, "args").filter(|&l| doc.items(l).is_some()) else {
            continue;
        };
        let Some(c) = doc.get(handler, "command") else {
            continue;
        };
        let Some(cmd) = doc.as_str(c) else { continue };
        let mut words = cmd.split_whitespace();
        let (Some(program), Some(_)) = (words.next(), words.next()) else {
            continue;
        };
        // A path with a space in it (`/Users/A B/x.sh`) is one executable.
        if program.contains(['/', '\\']) {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(c).span,
                format!(
                    "`command` is {}, but with `args` Claude Code runs it as the name of one executable, without a shell",
                    quote(cmd)
                ),
            )
            .with_label("not an executable name")
            .with_secondary(a.file, doc.node(args).span, "`args` makes this an exec-form hook, run without a shell")
            .with_help(format!(
                "set `\"command\": \"{program}\"` and move the rest into `args`, or drop `args` to run `command` through the shell"
            )),
        );
    }
    out
}
