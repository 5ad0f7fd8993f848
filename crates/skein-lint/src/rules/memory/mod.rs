//! MEM: Claude Code memory files (`CLAUDE.md`), from the Claude Code
//! memory documentation (<https://code.claude.com/docs/en/memory>). Their
//! links are REF007's and their hidden or encoded text the SEC Markdown
//! rules'; these rules read what only a memory file has.

pub mod missing_import;
