//! Rules by category. Each module lists one file per rule.

pub mod commands;
pub mod flow;
pub mod hooks;
pub mod perm;
pub mod refs;
pub mod sec;
pub mod settings;
