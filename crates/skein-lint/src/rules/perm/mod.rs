//! PERM: tool grants and write permissions (DESIGN.md §5–§6).

pub mod conflicting_actions;
pub mod undeclared_write_tool;
pub mod unknown_tool_server;
pub mod write_without_permission;
