//! SKILL032 `long-skill-listing-entry`.

use super::skill_listing_over_budget::ENTRY_CUT;
use super::{Skill, claude_loads};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL032",
    name: "long-skill-listing-entry",
    severity: Severity::Warning,
    summary: "a skill's `description` and `when_to_use` together over the 1,536 characters Claude Code lists",
    doc: include_str!("long_skill_listing_entry.md"),
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
    if !claude_loads(cx, a) || skill.is_true("disable-model-invocation") {
        return Vec::new();
    }
    let (Some((d, dspan)), Some((w, wspan))) = (
        skill.str_field(cx, a, "description"),
        skill.str_field(cx, a, "when_to_use"),
    ) else {
        // A description alone over 1,024 characters is SKILL004's.
        return Vec::new();
    };
    let (dn, wn) = (d.chars().count(), w.chars().count());
    if dn + wn <= ENTRY_CUT {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            wspan,
            format!(
                "`description` ({dn} characters) and `when_to_use` ({wn}) make {} characters, over the {ENTRY_CUT} Claude Code lists",
                dn + wn
            ),
        )
        .with_label("cut in the skill listing")
        .with_secondary(a.file, dspan, "the description, listed first")
        .with_note("Claude Code cuts each skill's listing entry at 1,536 characters: the end of `when_to_use` is never seen")
        .with_help("put the key use case first and shorten `when_to_use`"),
    ]
}
