//! The artifact layer of skein: which files are artifacts, their embedded
//! schemas, validation with spans, and typed models (DESIGN.md §1–§2).
//!
//! Entry point: [`decode`] takes one file's path and text, parses it with the
//! right tree-sitter front, settles its format, validates it against the
//! embedded schema and reads its typed [`Model`]. It does no IO.

pub mod classify;
pub mod decode;
pub mod format;
pub mod graph;
pub mod models;
pub mod rules;
pub mod schema;

pub use classify::{
    Candidate, Refined, classify_in_repo, classify_path, classify_with, claude_subagent_path,
    misnamed_skill, misnamed_skill_name, refine, skill_file, skill_file_shape, skill_folder_of,
    undiscovered_plugin_skill, unread_at_location,
};
pub use decode::{Artifact, Decoded, EXPANSION_LIMIT, MAX_SYNTAX_DIAGNOSTICS, decode, model_of};
pub use format::{Format, Syntax};
pub use graph::{RepoGraph, build as build_graph};
pub use models::Model;
