//! Rules by category. Each module lists one file per rule.

pub mod agents;
pub mod bailey;
pub mod commands;
pub mod flow;
pub mod hooks;
pub mod loom;
pub mod loopmaster;
pub mod marketplaces;
pub mod mcp;
pub mod memory;
pub mod opencode;
pub mod perm;
pub mod plugins;
pub mod refs;
pub mod sec;
pub mod settings;
pub mod skills;
pub mod yaml;
