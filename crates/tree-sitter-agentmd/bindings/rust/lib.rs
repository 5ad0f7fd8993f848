//! The agentmd grammar for [tree-sitter]: the Markdown of AI-agent
//! artifacts (`SKILL.md`, `LOOP.md`, `agents/*.md`, `commands/*.md`) as
//! skein reads it — YAML frontmatter, CommonMark blocks, GFM pipe tables
//! and inline code spans, emphasis, links, images, autolinks and HTML
//! comments — in one tree whose nodes keep exact byte spans.
//!
//! ```
//! let code = "---\nname: demo\n---\n# Demo\n\nSee [the guide](docs/guide.md).\n";
//! let mut parser = tree_sitter::Parser::new();
//! parser
//!     .set_language(&tree_sitter_agentmd::LANGUAGE.into())
//!     .expect("the agentmd grammar loads");
//! let tree = parser.parse(code, None).unwrap();
//! assert!(!tree.root_node().has_error());
//! ```
//!
//! The node types are listed in the crate's README and in [`NODE_TYPES`].
//!
//! [tree-sitter]: https://tree-sitter.github.io/

use tree_sitter_language::LanguageFn;

unsafe extern "C" {
    fn tree_sitter_agentmd() -> *const ();
}

/// The tree-sitter [`LanguageFn`] of the agentmd grammar.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_agentmd) };

/// The content of the grammar's [`node-types.json`] file.
///
/// [`node-types.json`]: https://tree-sitter.github.io/tree-sitter/using-parsers/6-static-node-types
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");

/// Syntax highlighting queries (`queries/agentmd/highlights.scm`).
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../../../queries/agentmd/highlights.scm");

/// Language injections (`queries/agentmd/injections.scm`): the frontmatter
/// as YAML, fenced code by its info string.
pub const INJECTIONS_QUERY: &str = include_str!("../../../../queries/agentmd/injections.scm");

/// The extraction queries skein runs on every Markdown artifact
/// (`queries/agentmd/references.scm`): link targets, code spans, strong
/// emphasis, headings, HTML comments and table cells.
pub const REFERENCES_QUERY: &str = include_str!("../../../../queries/agentmd/references.scm");

#[cfg(test)]
mod tests {
    #[test]
    fn loads_into_a_parser() {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&super::LANGUAGE.into())
            .expect("the agentmd grammar loads");
    }
}
