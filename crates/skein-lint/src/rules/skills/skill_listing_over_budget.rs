//! SKILL031 `skill-listing-over-budget`.

use super::{Skill, claude_loaded};
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, FileId, Rule, Severity, Span};
use std::collections::BTreeMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL031",
    name: "skill-listing-over-budget",
    severity: Severity::Info,
    summary: "the skills of one Claude Code scope whose descriptions exceed the skill listing budget",
    doc: include_str!("skill_listing_over_budget.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// Claude Code's skill listing budget on a 200K-token context window (1%
/// of the window, in characters; also its fallback), and the cut of each
/// entry's `description` + `when_to_use`, in characters.
pub const BUDGET: usize = 8_000;
/// See [`BUDGET`].
pub const ENTRY_CUT: usize = 1_536;

/// The characters one skill adds to the listing: its `description` and
/// `when_to_use`, cut at [`ENTRY_CUT`]; `None` for a skill the listing
/// leaves out (`disable-model-invocation: true`) or without a description.
pub(crate) fn listed_chars(skill: &Skill) -> Option<usize> {
    if skill.is_true("disable-model-invocation") {
        return None;
    }
    let d = skill.str_value("description")?;
    let w = skill
        .str_value("when_to_use")
        .map_or(0, |w| w.chars().count());
    Some((d.chars().count() + w).min(ENTRY_CUT))
}

/// One scope's listed characters, skills, and the description where the
/// total first exceeds the budget.
type Scope = (usize, usize, Option<(FileId, Span)>);

fn check(cx: &Context) -> Vec<Diagnostic> {
    // By scope (the `skills/` folder).
    let mut scopes: BTreeMap<&str, Scope> = BTreeMap::new();
    for a in cx.artifacts {
        // The path first: a lean run keeps the trees of the skills Claude
        // Code loads by itself (`crate::retain::keep`), not of the others.
        let path = cx.path(a.file);
        if !claude_loaded(cx, path) {
            continue;
        }
        let Some(skill) = Skill::of(a) else { continue };
        let Some(n) = listed_chars(&skill) else {
            continue;
        };
        let Some(scope) = path
            .strip_suffix("/SKILL.md")
            .and_then(|p| p.rsplit_once('/'))
            .map(|(s, _)| s)
        else {
            continue;
        };
        let e = scopes.entry(scope).or_insert((0, 0, None));
        e.0 += n;
        e.1 += 1;
        // The description of the skill whose entry crosses the budget.
        if e.0 > BUDGET && e.2.is_none() {
            e.2 = skill
                .str_field(cx, a, "description")
                .map(|(_, s)| (a.file, s));
        }
    }
    let mut out = Vec::new();
    for (scope, (total, count, at)) in scopes {
        let Some((file, span)) = at else { continue };
        out.push(
            Diagnostic::new(
                RULE,
                file,
                span,
                format!(
                    "the {count} skills of `{scope}/` list {total} characters of descriptions, over Claude Code's skill listing budget of {BUDGET}"
                ),
            )
            .with_label("the listing is over budget from this skill's description on")
            .with_note("Claude Code lists skill descriptions within 1% of the context window (8,000 characters on a 200K window); past it, descriptions are dropped and Claude no longer knows when to use those skills")
            .with_help("shorten the descriptions (key use case first), merge rarely used skills, or set `disable-model-invocation: true` on skills run only by name"),
        );
    }
    out
}
