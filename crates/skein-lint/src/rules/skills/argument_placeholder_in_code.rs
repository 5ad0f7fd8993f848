//! SKILL015 `argument-placeholder-in-code`.

use super::{Skill, body, claude_loads};
use crate::rules::commands::{Slot, placeholders};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL015",
    name: "argument-placeholder-in-code",
    severity: Severity::Warning,
    summary: "a shell `$1` in a skill's code block that Claude Code replaces with a skill argument",
    doc: include_str!("argument_placeholder_in_code.md"),
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
    // The substitution is Claude Code's: other clients show `$1` as written.
    if !claude_loads(cx, a) {
        return Vec::new();
    }
    // A skill that declares arguments means its placeholders.
    if skill.entry("argument-hint").is_some() || skill.entry("arguments").is_some() {
        return Vec::new();
    }
    let (text, base) = body(cx, a);
    let all = placeholders(text, base);
    // Nor does one whose body uses `$ARGUMENTS` anywhere, or `$N` in prose.
    if all.iter().any(|p| p.slot == Slot::Arguments || !p.fenced) {
        return Vec::new();
    }
    let src = cx.sources.get(a.file);
    let Some(first) = all.first() else {
        return Vec::new();
    };
    let written = src.slice(first.span);
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        first.span,
        format!(
            "Claude Code replaces {} in this code block with a skill argument",
            quote(written)
        ),
    )
    .with_label("substituted before the skill is shown to Claude")
    .with_note(format!(
        "`$N` is the skill's argument N (empty when none is given), in code blocks too; the skill declares no arguments, so this is the script's own {}",
        quote(written)
    ))
    .with_help(format!("write `\\{written}` to keep it literal"));
    if all.len() > 1 {
        d = d.with_note(format!("{} such placeholders in code blocks", all.len()));
    }
    vec![d]
}
