//! Rules by category. Each module lists one file per rule.

pub mod flow;
pub mod marketplaces;
pub mod perm;
pub mod plugins;
pub mod refs;
pub mod sec;
