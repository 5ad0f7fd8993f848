//! MEM: instruction files an agent loads into every session, from each
//! client's documentation: Claude Code's `CLAUDE.md`, `CLAUDE.local.md`
//! and `.claude/rules/*.md` (<https://code.claude.com/docs/en/memory>),
//! the agents.md `AGENTS.md` Codex reads
//! (<https://developers.openai.com/codex/guides/agents-md>), Gemini CLI's
//! `GEMINI.md` (<https://geminicli.com/docs/reference/memport>). Their
//! links are REF007's and their hidden or encoded text the SEC Markdown
//! rules'; these rules read what only an instruction file has.

pub mod agents_md_over_budget;
pub mod long_memory_file;
pub mod missing_import;
pub mod personal_path_in_instructions;

/// Whether `path` names a `CLAUDE.md` or `CLAUDE.local.md` (the other
/// `claude-memory` files are `.claude/rules/`'s).
pub(crate) fn is_claude_md(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == "CLAUDE.md" || name == "CLAUDE.local.md"
}
