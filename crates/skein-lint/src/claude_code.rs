//! Facts about Claude Code shared by the rule families that read its
//! artifacts (skills' `allowed-tools`, subagents' `tools`/`disallowedTools`,
//! settings' permission rules): one list, so the families cannot disagree
//! on what a tool is.
//!
//! Source: Claude Code's tools reference
//! (https://docs.claude.com/en/docs/claude-code/settings#tools-available-to-claude,
//! also served as code.claude.com/docs/en/tools-reference), the dynamic
//! workflows page for `Workflow`, and the names older releases used that
//! permission rules and real agents still list (`Task`, `MultiEdit`, `LS`,
//! `NotebookRead`, `BashOutput`, `KillShell`/`KillBash`, `SlashCommand`,
//! `TodoRead`).

/// Claude Code's built-in tool names, exact case, sorted.
pub const TOOLS: &[&str] = &[
    "Agent",
    "AskUserQuestion",
    "Bash",
    "BashOutput",
    "CronCreate",
    "CronDelete",
    "CronList",
    "Edit",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "KillBash",
    "KillShell",
    "LS",
    "LSP",
    "ListMcpResourcesTool",
    "Monitor",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "PowerShell",
    "Read",
    "ReadMcpResourceTool",
    "SendMessage",
    "Skill",
    "SlashCommand",
    "Task",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TeamCreate",
    "TeamDelete",
    "TodoRead",
    "TodoWrite",
    "ToolSearch",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
];

/// Whether `tool` (a name without its `(specifier)`) is a Claude Code tool:
/// a built-in one, or an MCP tool `mcp__<server>` / `mcp__<server>__<tool>`.
pub fn is_tool(tool: &str) -> bool {
    TOOLS.contains(&tool) || tool.strip_prefix("mcp__").is_some_and(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    #[test]
    fn sorted_and_unique() {
        assert!(super::TOOLS.windows(2).all(|w| w[0] < w[1]));
    }
}
