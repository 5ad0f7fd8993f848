//! REF004 `orphan-skill`.

use super::folder_label;
use crate::rules::skills;
use crate::{Context, Pass};
use skein_model::graph::NodeKind;
use skein_syntax::{Diagnostic, Rule, Severity, quote};
use std::collections::BTreeSet;

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF004",
    name: "orphan-skill",
    severity: Severity::Warning,
    summary: "a skill that nothing which loads skills references",
    doc: "## What it does\nReports a `SKILL.md` that no loader references: no skilldrop loop \
stage or catalogue outcome, no Bailey assistant `skills`/`instructions`, no Loom agent's skills \
library, no OpenCode contract `applicable_skills` or agent `skills`, and no plugin that \
auto-loads its `skills/` folder. A skill in a client's own skills folder is never reported: \
Claude Code loads every skill of `.claude/skills/` by itself \
(https://code.claude.com/docs/en/skills), and so do OpenCode (`.opencode/skills/`), GitHub \
Copilot (`.github/skills/`), Codex (`.agents/skills/`), Cursor (`.cursor/skills/`) and Gemini \
CLI (`.gemini/skills/`) for theirs. It is reported only when the skill lies under a folder that \
holds such a loader, so a repository of standalone skills with no loader is not reported. The \
message names the kinds of loader in scope.\n\n## Why is this bad?\nIn a repository where skills \
reach the runtime through loaders, a skill no loader names is never loaded: dead weight that \
still costs review and maintenance, or, more often, a skill whose reference was lost in a rename \
(look for an `unknown-skill` beside it).\n\n## Example\n```json\n// opencode.json: agents list \
their skills; nothing lists `adr-generator`\n{\"agent\": {\"planner\": {\"skills\": \
[\"writing-plans\"]}}}\n```\n```\nskills/writing-plans/SKILL.md\nskills/adr-generator/SKILL.md   \
<- orphan\n```\nUse instead: add `adr-generator` to the `skills` of the agent that should use it, \
or delete the skill.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn kind_word(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Loop => "loop",
        NodeKind::Agent => "agent",
        NodeKind::Assistant => "assistant",
        NodeKind::Contract => "contract",
        NodeKind::Catalogue => "catalogue outcome",
        NodeKind::Plugin => "plugin",
        _ => "loader",
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let g = cx.graph;
    let mut out = Vec::new();
    for &s in g.skills() {
        if !g.loaders_of(s).is_empty() {
            continue;
        }
        let skill = g.node(s);
        let path = cx.path(skill.file);
        // A client's own skills folder (`.claude/skills/`, ...): the client
        // loads every skill there by itself, whoever else names it.
        if skills::is_client_scope(skills::scope_of(path)) {
            continue;
        }
        let scopes: Vec<&(String, NodeKind)> = g
            .loader_scopes()
            .iter()
            .filter(|(root, _)| path.starts_with(root.as_str()))
            .collect();
        if scopes.is_empty() {
            continue;
        }
        let kinds: BTreeSet<NodeKind> = scopes.iter().map(|(_, k)| *k).collect();
        let words: Vec<&str> = kinds.iter().map(|&k| kind_word(k)).collect();
        let roots: BTreeSet<&str> = scopes.iter().map(|(r, _)| r.as_str()).collect();
        let nearest = roots.iter().max_by_key(|r| r.len()).copied().unwrap_or("");
        out.push(
            Diagnostic::new(
                RULE,
                skill.file,
                skill.span,
                format!(
                    "no {} references skill {}",
                    or_list(&words),
                    quote(&skill.name)
                ),
            )
            .with_label("nothing loads this skill")
            .with_note(format!(
                "{} holds skill loaders ({}), so skills under it are expected to be referenced",
                folder_label(nearest),
                words.join(", ")
            ))
            .with_help("reference the skill where it should run, or remove it if it is unused"),
        );
    }
    out
}
