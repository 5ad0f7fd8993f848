//! The passes of skein (DESIGN.md §5–§6): rules that run over the decoded
//! artifacts and the frozen [`RepoGraph`], in parallel, with no IO and no
//! shared mutable state.
//!
//! One rule per file under `rules/<category>/`, each with its doc comment (what
//! it does, why it is bad, an example) in its [`Rule`] metadata and a `check`
//! function. The table of passes is [`PASSES`]; codes are assigned there.

pub mod rules;
pub mod similar;

use rayon::prelude::*;
use skein_model::{Artifact, RepoGraph};
use skein_syntax::{Diagnostic, Rule, SourceMap};
use std::collections::BTreeSet;

/// Everything a pass may read.
pub struct Context<'a> {
    /// The repository graph.
    pub graph: &'a RepoGraph,
    /// Decoded artifacts, in path order.
    pub artifacts: &'a [Artifact],
    /// Every file read (artifacts), by id.
    pub sources: &'a SourceMap,
    /// Every file path in the repository (not only artifacts), repo-relative,
    /// for existence checks (`script`, `persona`, `entrypoint`).
    pub repo_files: &'a BTreeSet<String>,
}

impl Context<'_> {
    /// The path of a file.
    pub fn path(&self, file: skein_syntax::FileId) -> &str {
        self.sources.get(file).path()
    }
}

/// A pass: its rule and its check.
#[derive(Clone, Copy)]
pub struct Pass {
    /// The rule's metadata.
    pub rule: Rule,
    /// Runs the rule over the whole repository.
    pub check: fn(&Context) -> Vec<Diagnostic>,
}

/// Every pass, sorted by code.
pub const PASSES: &[Pass] = &[
    rules::flow::unreachable_stage::PASS,
    rules::flow::uncapped_cycle::PASS,
    rules::flow::revise_to_not_earlier::PASS,
    rules::flow::revise_without_target::PASS,
    rules::flow::one_sided_gate::PASS,
    rules::flow::gate_without_blocked::PASS,
    rules::flow::unknown_verdict::PASS,
    rules::flow::wildcard_outside_wrapper::PASS,
    rules::flow::mechanical_gate_script::PASS,
    rules::perm::undeclared_write_tool::PASS,
    rules::perm::unknown_tool_server::PASS,
    rules::perm::conflicting_actions::PASS,
    rules::perm::write_without_permission::PASS,
    rules::refs::duplicate_gate_id::PASS,
    rules::refs::unknown_skill::PASS,
    rules::refs::unknown_agent::PASS,
    rules::refs::orphan_skill::PASS,
    rules::refs::name_mismatch::PASS,
    rules::refs::missing_file::PASS,
];

/// Runs every pass in parallel and returns their diagnostics (unsorted).
pub fn run(cx: &Context) -> Vec<Diagnostic> {
    PASSES.par_iter().flat_map_iter(|p| (p.check)(cx)).collect()
}

/// Every rule of the passes.
pub fn rules() -> impl Iterator<Item = Rule> {
    PASSES.iter().map(|p| p.rule)
}
