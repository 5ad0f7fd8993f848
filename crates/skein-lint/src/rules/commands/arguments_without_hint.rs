//! CMD003 `arguments-without-hint`.

use super::{Slot, command_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};
use std::collections::BTreeSet;

/// The rule.
pub const RULE: Rule = Rule {
    code: "CMD003",
    name: "arguments-without-hint",
    severity: Severity::Info,
    summary: "a slash command that uses its arguments but has no `argument-hint`",
    doc: include_str!("arguments_without_hint.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::PluginCommand]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(cmd) = command_of(cx, a) else {
        return Vec::new();
    };
    // A repaired frontmatter may lack the hint the parser set aside (an
    // unquoted `argument-hint: [pr] [priority]` is a YAML error, SYN001).
    if a.damaged || cmd.field("argument-hint").is_some() || cmd.field("arguments").is_some() {
        return Vec::new();
    }
    // `$1` in a fenced shell script is the script's own parameter, and a
    // lone `$0` in prose is more often a price ("Idle: $0") than an argument:
    // positional placeholders count outside fenced code, and only when the
    // body uses at least two different ones.
    let src = cx.sources.get(a.file);
    let all = cmd.placeholders();
    let positional: BTreeSet<&str> = all
        .iter()
        .filter(|p| p.slot == Slot::Positional && !p.fenced)
        .map(|p| src.slice(p.span))
        .collect();
    let uses: Vec<_> = all
        .iter()
        .filter(|p| p.slot == Slot::Arguments || (!p.fenced && positional.len() >= 2))
        .collect();
    let Some(first) = uses.first() else {
        return Vec::new();
    };
    let written = src.slice(first.span);
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        first.span,
        format!(
            "the command uses its arguments ({}) but has no `argument-hint`",
            quote(written)
        ),
    )
    .with_label("the command's input")
    .with_help("add `argument-hint:` to the frontmatter (e.g. `argument-hint: <file> [focus]`) so the `/` menu shows what to type");
    if uses.len() > 1 {
        d = d.with_note(format!("{} argument placeholders in the body", uses.len()));
    }
    vec![d]
}
