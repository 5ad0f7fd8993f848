//! Rules about Markdown as written, in every file an agent reads as
//! instructions (skills, subagents, slash commands, `CLAUDE.md`,
//! `AGENTS.md`, `GEMINI.md`, Cursor, Windsurf, Kiro and Copilot
//! instruction files: [`crate::rules::sec::is_agent_markdown`]): what the
//! CommonMark grammar does to a body that its author did not mean.

pub mod unclosed_code_fence;
