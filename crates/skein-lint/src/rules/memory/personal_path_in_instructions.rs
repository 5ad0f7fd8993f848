//! MEM004 `personal-path-in-instructions`.

use crate::rules::skills::hardcoded_user_path::home_paths;
use crate::{Context, FilePass, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MEM004",
    name: "personal-path-in-instructions",
    severity: Severity::Info,
    summary: "a path into one person's home folder (`/Users/alice/…`) in instructions the whole team's agents load",
    doc: include_str!("personal_path_in_instructions.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: crate::rules::sec::AGENT_MARKDOWN,
};

/// Whether `a` holds instructions shared through the repository: the
/// agent Markdown the SEC rules read (`sec::is_agent_markdown`) but
/// Claude Code's skills, subagents and commands (SKILL025 covers skills)
/// and `CLAUDE.local.md`, which is one person's own.
fn shared_instructions(cx: &Context, a: &Artifact) -> bool {
    !matches!(
        a.format,
        Format::AgentSkill | Format::PluginAgent | Format::PluginCommand
    ) && !cx.path(a.file).ends_with("CLAUDE.local.md")
        && crate::rules::sec::is_agent_markdown(cx, a)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if !shared_instructions(cx, a) {
        return Vec::new();
    }
    let text = cx.sources.get(a.file).text();
    let (base, _) = crate::rules::sec::body_range(a, text);
    let body = &text[base..];
    home_paths(body)
        .into_iter()
        .map(|p| {
            Diagnostic::new(
                RULE,
                a.file,
                Span::new(base + p.start, base + p.end),
                format!(
                    "the instructions name a path in the home folder of {}: {}",
                    quote(p.name),
                    quote(&body[p.start..p.end])
                ),
            )
            .with_label("only exists on one machine")
            .with_note("every teammate's agent loads these instructions, and on their machines this folder does not exist")
            .with_help("write the path relative to the repository, or with `~`/`$HOME` when it is under each person's home")
        })
        .collect()
}
