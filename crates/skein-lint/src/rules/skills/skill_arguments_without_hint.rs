//! SKILL014 `skill-arguments-without-hint`.

use super::{Skill, body};
use crate::rules::commands::{Slot, placeholders};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};
use std::collections::BTreeSet;

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL014",
    name: "skill-arguments-without-hint",
    severity: Severity::Info,
    summary: "a skill whose body uses its arguments but has no `argument-hint`",
    doc: include_str!("skill_arguments_without_hint.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    if skill.entry("argument-hint").is_some() || skill.entry("arguments").is_some() {
        return Vec::new();
    }
    let (text, base) = body(cx, a);
    let all = placeholders(text, base);
    let src = cx.sources.get(a.file);
    // As CMD003: `$ARGUMENTS` anywhere; positional `$N` outside fenced code
    // when the body uses two different ones (a lone `$0` is often a price).
    // A `$N` in fenced code is SKILL015's.
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
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        first.span,
        format!(
            "the skill uses its arguments ({}) but has no `argument-hint`",
            quote(src.slice(first.span))
        ),
    )
    .with_label("the skill's input")
    .with_help("add `argument-hint:` to the frontmatter (e.g. `argument-hint: <path>`) so the `/` menu shows what to type after the skill's name");
    if uses.len() > 1 {
        d = d.with_note(format!("{} argument placeholders in the body", uses.len()));
    }
    vec![d]
}
