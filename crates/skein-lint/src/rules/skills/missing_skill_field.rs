//! SKILL001 `missing-skill-field`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, Span};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL001",
    name: "missing-skill-field",
    severity: Severity::Error,
    summary: "a SKILL.md frontmatter without `name` or `description`",
    doc: include_str!("missing_skill_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// Whether a skill lives where only Claude Code loads it (a project's
/// `.claude/skills/`). Claude Code's skills frontmatter makes every field
/// optional: `name` defaults to the folder name and `description` is only
/// recommended, so there a missing `name` is no fault and a missing
/// `description` a warning. Everywhere else (plugins, shared skill folders)
/// the Agent Skills specification, which requires both, applies.
fn claude_code_only(path: &str) -> bool {
    path.starts_with(".claude/skills/") || path.contains("/.claude/skills/")
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let claude_only = claude_code_only(cx.path(a.file));
    let Some(skill) = Skill::of(a) else {
        if claude_only {
            return Vec::new();
        }
        return empty_frontmatter(a).into_iter().collect();
    };
    let doc = skill.doc;
    let open = a.frontmatter.map(|f| f.open).unwrap_or(Span::new(0, 0));
    let mut out = Vec::new();
    for (field, what) in [
        ("name", "the skill's identifier, equal to its folder name"),
        ("description", "what the skill does and when to use it"),
    ] {
        match skill.entry(field) {
            None if claude_only && field == "name" => {}
            None if claude_only => {
                let mut d = Diagnostic::new(
                    RULE,
                    a.file,
                    open,
                    format!("the skill has no `{field}` in its frontmatter"),
                )
                .with_label(format!("this frontmatter has no `{field}`"))
                .with_note(
                    "Claude Code does not require it, but it is what Claude reads to decide when to load the skill",
                )
                .with_help(format!("add `{field}:` with {what}"));
                d.severity = Severity::Warning;
                out.push(d);
            }
            None => out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    open,
                    format!("the skill has no `{field}` in its frontmatter"),
                )
                .with_label(format!("this frontmatter has no `{field}`"))
                .with_help(format!("add `{field}:` with {what}")),
            ),
            Some(e) if matches!(doc.kind(e.value), NodeKind::Null) => out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(e.key).span,
                    format!("the skill's `{field}` has no value"),
                )
                .with_label("empty")
                .with_help(format!("set `{field}:` to {what}")),
            ),
            Some(_) => {}
        }
    }
    out
}

/// A `SKILL.md` whose frontmatter holds nothing (`---` then `---`, or only
/// comments): one finding for both fields.
fn empty_frontmatter(a: &Artifact) -> Option<Diagnostic> {
    let fm = a.frontmatter?;
    if a.format != Format::AgentSkill || a.damaged || a.document.root().is_some() {
        return None;
    }
    Some(
        Diagnostic::new(
            RULE,
            a.file,
            fm.open,
            "the skill's frontmatter is empty: it has no `name` and no `description`",
        )
        .with_label("empty frontmatter")
        .with_help("add `name:` (the folder name) and `description:` (what the skill does and when to use it)"),
    )
}
