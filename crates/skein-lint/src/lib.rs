//! The passes of skein (DESIGN.md §5–§6): rules that run over the decoded
//! artifacts and the frozen [`RepoGraph`], in parallel, with no IO and no
//! shared mutable state.
//!
//! One rule per file under `rules/<category>/`, each with its doc comment (what
//! it does, why it is bad, an example) in its [`Rule`] metadata and a `check`
//! function. The table of passes is [`PASSES`]; codes are assigned there.

pub mod claude_code;
pub mod fix;
pub mod internal;
pub mod repo_files;
pub mod retain;
pub mod rules;
pub mod similar;

pub use internal::{INTERNAL_ERROR, InternalError, catch};
use rayon::prelude::*;
pub use repo_files::RepoFiles;
use skein_model::{Artifact, Format, RepoGraph};
use skein_syntax::{Diagnostic, FileId, Rule, SourceMap};

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
    pub repo_files: &'a RepoFiles,
    /// What several passes derive from one artifact, derived once
    /// ([`Memo::new`] with the number of `artifacts`).
    pub memo: Memo,
}

/// Facts that several passes derive from the same artifact, each computed
/// once per artifact on first use (the eight SEC command rules read the same
/// shell sites of every file). Indexed like [`Context::artifacts`].
#[derive(Default)]
pub struct Memo {
    /// The number of artifacts.
    artifacts: usize,
    /// Per artifact, made on first use: a run whose passes ask none (a
    /// lean run's repository half) makes none (issue #17).
    shell_sites: Cells<Vec<rules::sec::ShellSite>>,
    /// Per artifact, made on first use: whether it is a Claude Code
    /// subagent ([`rules::agents::subagent`], which every AGENT rule and
    /// three SEC rules ask of every agent file).
    subagent: Cells<bool>,
    /// Per artifact, made on first use: whether Claude Code loads the skill
    /// by itself ([`rules::skills::claude_loads`]).
    claude_loaded: Cells<bool>,
    /// Per artifact, made on first use: its runs of hidden characters
    /// ([`rules::sec::bidi_control_character::runs_of`]), which SEC009 and
    /// SEC010 both read.
    hidden_runs: Cells<Vec<rules::sec::bidi_control_character::Run>>,
    /// Per artifact, made on first use: the load-time `!` commands of its
    /// body ([`rules::sec::bang_commands`]), which the shell sites and
    /// SEC013 both read.
    bang_commands: Cells<Vec<(skein_syntax::Span, bool)>>,
}

/// One cell per artifact, the list made on first use.
type Cells<T> = std::sync::OnceLock<Box<[std::sync::OnceLock<T>]>>;

/// The cell of artifact `i` among `n` in `cells`, the list made if it is
/// not yet.
fn cell<T>(cells: &Cells<T>, n: usize, i: usize) -> Option<&std::sync::OnceLock<T>> {
    cells
        .get_or_init(|| (0..n).map(|_| std::sync::OnceLock::new()).collect())
        .get(i)
}

impl Memo {
    /// An empty memo for `artifacts` artifacts.
    pub fn new(artifacts: usize) -> Self {
        Memo {
            artifacts,
            shell_sites: std::sync::OnceLock::new(),
            subagent: std::sync::OnceLock::new(),
            claude_loaded: std::sync::OnceLock::new(),
            hidden_runs: std::sync::OnceLock::new(),
            bang_commands: std::sync::OnceLock::new(),
        }
    }

    /// The cell of the shell sites of artifact `i`.
    pub(crate) fn shell_sites(
        &self,
        i: usize,
    ) -> Option<&std::sync::OnceLock<Vec<rules::sec::ShellSite>>> {
        cell(&self.shell_sites, self.artifacts, i)
    }

    /// The cell of whether artifact `i` is a subagent.
    pub(crate) fn subagent(&self, i: usize) -> Option<&std::sync::OnceLock<bool>> {
        cell(&self.subagent, self.artifacts, i)
    }

    /// The cell of whether Claude Code loads the skill of artifact `i`.
    pub(crate) fn claude_loaded(&self, i: usize) -> Option<&std::sync::OnceLock<bool>> {
        cell(&self.claude_loaded, self.artifacts, i)
    }

    /// The cell of the runs of hidden characters of artifact `i`.
    pub(crate) fn hidden_runs(
        &self,
        i: usize,
    ) -> Option<&std::sync::OnceLock<Vec<rules::sec::bidi_control_character::Run>>> {
        cell(&self.hidden_runs, self.artifacts, i)
    }

    /// The cell of the load-time `!` commands of artifact `i`.
    pub(crate) fn bang_commands(
        &self,
        i: usize,
    ) -> Option<&std::sync::OnceLock<Vec<(skein_syntax::Span, bool)>>> {
        cell(&self.bang_commands, self.artifacts, i)
    }
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo").finish_non_exhaustive()
    }
}

impl Context<'_> {
    /// The path of a file.
    pub fn path(&self, file: skein_syntax::FileId) -> &str {
        self.sources.get(file).path()
    }

    /// The artifact at the repository path `path`, if that file is one: a
    /// binary search, since artifacts are in path order (byte order of
    /// their paths, the order file ids are given in).
    pub fn artifact_at(&self, path: &str) -> Option<&Artifact> {
        self.artifacts
            .binary_search_by(|a| self.path(a.file).cmp(path))
            .ok()
            .map(|i| &self.artifacts[i])
    }

    /// The artifact of `file`, if the file is one: a binary search, since
    /// artifacts are in path order and file ids are given in path order.
    pub fn artifact(&self, file: skein_syntax::FileId) -> Option<&Artifact> {
        self.artifacts
            .binary_search_by_key(&file, |a| a.file)
            .ok()
            .map(|i| &self.artifacts[i])
    }
}

/// A pass over the whole repository: its rule, its check and whether it
/// reads the repository graph.
#[derive(Debug, Clone, Copy)]
pub struct Pass {
    /// The rule's metadata.
    pub rule: Rule,
    /// Runs the rule over the whole repository.
    pub check: fn(&Context) -> Vec<Diagnostic>,
    /// Whether the check reads [`Context::graph`]. One that does not
    /// (it reads the artifacts, their sources and the repository's paths)
    /// may run while the graph is being built, with an empty graph in its
    /// context: skein runs those passes on the threads the graph build
    /// leaves idle (issue #17), so such a pass must never look at the
    /// graph, directly or through a helper.
    pub reads_graph: bool,
}

/// A pass over one artifact at a time: its rule, its check and what it
/// reads. The runner calls `check` once per artifact, each call behind its
/// own panic boundary, so an internal error names the file it happened on.
#[derive(Debug, Clone, Copy)]
pub struct FilePass {
    /// The rule's metadata.
    pub rule: Rule,
    /// Runs the rule over one artifact.
    pub check: fn(&Context, &Artifact) -> Vec<Diagnostic>,
    /// What the check may read besides its artifact.
    pub reads: Reads,
    /// The artifacts the check can find anything in: the runner calls it
    /// on those only.
    pub on: On,
}

/// The artifacts a [`FilePass`] can find anything in, by format.
///
/// The runner skips a pass on an artifact it does not cover before calling
/// it: most passes are about one family of files, and on a large tree a
/// call per pass per artifact (about 180 passes, 94,220 artifacts on the
/// generated 100k tree) cost more than the few passes that apply (issue
/// #17). A pass declared for some formats must find nothing on any other:
/// `crates/skein/tests/pass_formats.rs` runs every pass on every artifact of
/// every rule fixture (and of the real corpus) to hold it to that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum On {
    /// Artifacts of every format (the secret and hidden-character scans,
    /// which read any file's text).
    Any,
    /// Artifacts of these formats only.
    Formats(&'static [Format]),
}

impl On {
    /// Whether an artifact of `format` may hold findings of the pass.
    #[inline]
    pub fn covers(self, format: Format) -> bool {
        match self {
            On::Any => true,
            On::Formats(formats) => formats.contains(&format),
        }
    }
}

/// What a [`FilePass`] may read besides the artifact it checks.
///
/// The runner enforces it: a [`Reads::Local`] pass gets a context of that
/// artifact alone (an empty graph, no other artifact; the source map is
/// whole, but the pass has no other file's id to ask it for). Its findings
/// are then a function of the file's path and bytes, the repository's path
/// list and the rules in force, so the incremental layer (and a cache)
/// reuses them while those are unchanged ([`run_with`]'s `reused`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// The artifact (document, model, body, path, text) and which paths
    /// exist in the repository ([`Context::repo_files`]: a referenced
    /// script, a `SKILL.md` beside an `agents/` folder).
    Local,
    /// Anything in the [`Context`]: the graph and other artifacts (a
    /// plugin's MCP servers, the manifest of the plugin a file is in).
    Repository,
}

/// The findings of the [`Reads::Local`] passes on one artifact, and the
/// panics among them: what may be reused while the file is unchanged.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Local {
    /// Findings, in pass order.
    pub diagnostics: Vec<Diagnostic>,
    /// Passes that panicked on the artifact, in pass order.
    pub internal_errors: Vec<InternalError>,
}

impl Local {
    /// Rewrites every mention of file `from` (the artifact's id in the run
    /// that computed these findings) to `to`.
    pub fn renumber(&mut self, from: FileId, to: FileId) {
        if from == to {
            return;
        }
        for d in &mut self.diagnostics {
            d.renumber(from, to);
        }
        for e in &mut self.internal_errors {
            if e.file == Some(from) {
                e.file = Some(to);
            }
        }
    }
}

/// Every repository pass, sorted by code.
pub const PASSES: &[Pass] = &[
    rules::agents::duplicate_agent_name::PASS,
    rules::flow::unreachable_stage::PASS,
    rules::flow::uncapped_cycle::PASS,
    rules::flow::revise_to_not_earlier::PASS,
    rules::flow::revise_without_target::PASS,
    rules::flow::one_sided_gate::PASS,
    rules::flow::gate_without_blocked::PASS,
    rules::flow::unknown_verdict::PASS,
    rules::flow::wildcard_outside_wrapper::PASS,
    rules::flow::mechanical_gate_script::PASS,
    rules::flow::duplicate_stage_id::PASS,
    rules::loom::duplicate_loom_agent::PASS,
    rules::marketplaces::invalid_marketplace_source::PASS,
    rules::marketplaces::marketplace_name_mismatch::PASS,
    rules::marketplaces::duplicate_marketplace_entry::PASS,
    rules::marketplaces::unlisted_plugin::PASS,
    rules::marketplaces::invalid_marketplace_field::PASS,
    rules::mcp::divergent_server::PASS,
    rules::marketplaces::reserved_marketplace_name::PASS,
    rules::marketplaces::unknown_marketplace_field::PASS,
    rules::marketplaces::missing_entry_component::PASS,
    rules::perm::undeclared_write_tool::PASS,
    rules::perm::unknown_tool_server::PASS,
    rules::perm::write_without_permission::PASS,
    rules::plugins::invalid_plugin_name::PASS,
    rules::plugins::invalid_plugin_version::PASS,
    rules::plugins::unknown_plugin_field::PASS,
    rules::plugins::invalid_component_path::PASS,
    rules::plugins::invalid_repository::PASS,
    rules::plugins::misplaced_plugin_manifest::PASS,
    rules::plugins::invalid_plugin_metadata::PASS,
    rules::plugins::shadowed_default_folder::PASS,
    rules::plugins::invalid_user_config::PASS,
    rules::plugins::unknown_user_config_field::PASS,
    rules::plugins::channel_without_server::PASS,
    rules::plugins::invalid_dependency_version::PASS,
    rules::plugins::user_config_in_monitor_command::PASS,
    rules::plugins::unbraced_plugin_variable::PASS,
    rules::plugins::unsupported_plugin_setting::PASS,
    rules::plugins::invalid_lsp_server::PASS,
    rules::plugins::duplicate_default_hooks::PASS,
    rules::plugins::misplaced_codex_plugin_file::PASS,
    rules::refs::duplicate_gate_id::PASS,
    rules::refs::unknown_skill::PASS,
    rules::refs::unknown_agent::PASS,
    rules::refs::orphan_skill::PASS,
    rules::refs::name_mismatch::PASS,
    rules::refs::missing_file::PASS,
    rules::refs::broken_link::PASS,
    rules::refs::doc_manifest_drift::PASS,
    rules::refs::missing_doc_section::PASS,
    rules::refs::case_conflicting_paths::PASS,
    rules::memory::agents_md_over_budget::PASS,
    rules::skills::duplicate_skill_name::PASS,
    rules::skills::unreferenced_skill_file::PASS,
    rules::skills::nested_skill_reference::PASS,
    rules::skills::skill_listing_over_budget::PASS,
];

/// Every per-file pass, sorted by code.
pub const FILE_PASSES: &[FilePass] = &[
    rules::agents::missing_agent_field::PASS,
    rules::agents::invalid_agent_name::PASS,
    rules::agents::unknown_agent_model::PASS,
    rules::agents::unknown_agent_tool::PASS,
    rules::agents::tool_both_allowed_and_disallowed::PASS,
    rules::agents::invalid_permission_mode::PASS,
    rules::agents::invalid_agent_field_value::PASS,
    rules::agents::unknown_agent_field::PASS,
    rules::agents::bypass_permissions_agent::PASS,
    rules::agents::disallowed_tool_specifier::PASS,
    rules::bailey::instructions_also_a_skill::PASS,
    rules::bailey::write_tool_not_declared::PASS,
    rules::bailey::duplicate_knowledge_slot::PASS,
    rules::bailey::skill_path_not_name::PASS,
    rules::bailey::sold_separately_but_carried::PASS,
    rules::bailey::assistant_name_mismatch::PASS,
    rules::bailey::assistant_not_named::PASS,
    rules::commands::unknown_command_field::PASS,
    rules::commands::argument_hint_without_arguments::PASS,
    rules::commands::arguments_without_hint::PASS,
    rules::commands::invalid_command_name::PASS,
    rules::commands::command_string_boolean::PASS,
    rules::commands::unknown_command_tool::PASS,
    rules::hooks::unknown_hook_event::PASS,
    rules::hooks::unknown_codex_hook_event::PASS,
    rules::hooks::unknown_codex_hooks_key::PASS,
    rules::hooks::unknown_cursor_hook_event::PASS,
    rules::hooks::missing_cursor_hook_field::PASS,
    rules::hooks::unknown_copilot_hook_event::PASS,
    rules::hooks::missing_copilot_hook_field::PASS,
    rules::hooks::copilot_prompt_hook_outside_session_start::PASS,
    rules::hooks::unsupported_codex_hook_type::PASS,
    rules::hooks::missing_codex_hook_field::PASS,
    rules::hooks::ignored_codex_matcher::PASS,
    rules::hooks::matcher_not_applicable::PASS,
    rules::hooks::invalid_hook_type::PASS,
    rules::hooks::missing_hook_field::PASS,
    rules::hooks::unsupported_hook_field::PASS,
    rules::hooks::invalid_hook_timeout::PASS,
    rules::hooks::missing_hook_script::PASS,
    rules::hooks::unquoted_plugin_root::PASS,
    rules::hooks::once_outside_frontmatter::PASS,
    rules::hooks::hook_type_unsupported_by_event::PASS,
    rules::hooks::invalid_hook_field_value::PASS,
    rules::hooks::mcp_matcher_without_tool::PASS,
    rules::hooks::header_env_var_not_allowed::PASS,
    rules::hooks::exec_command_with_arguments::PASS,
    rules::hooks::if_on_non_tool_event::PASS,
    rules::hooks::powershell_env_var::PASS,
    rules::hooks::user_config_in_shell_command::PASS,
    rules::mcp::wrong_servers_key::PASS,
    rules::mcp::unknown_server_field::PASS,
    rules::mcp::invalid_transport::PASS,
    rules::mcp::missing_server_field::PASS,
    rules::mcp::invalid_server_url::PASS,
    rules::mcp::mixed_transport_fields::PASS,
    rules::mcp::unexpanded_placeholder::PASS,
    rules::mcp::undefined_input::PASS,
    rules::mcp::insecure_http::PASS,
    rules::mcp::deprecated_sse::PASS,
    rules::mcp::wildcard_bind::PASS,
    rules::mcp::unpinned_package::PASS,
    rules::mcp::filesystem_root::PASS,
    rules::mcp::invalid_header::PASS,
    rules::mcp::non_portable_command::PASS,
    rules::mcp::reserved_server_name::PASS,
    rules::mcp::command_with_arguments::PASS,
    rules::mcp::misplaced_config::PASS,
    rules::hooks::unknown_matcher_value::PASS,
    rules::hooks::bare_plugin_mcp_matcher::PASS,
    rules::hooks::millisecond_hook_timeout::PASS,
    rules::hooks::unknown_matcher_tool::PASS,
    rules::hooks::invalid_matcher_regex::PASS,
    rules::loom::deps_type_and_schema::PASS,
    rules::loom::usecase_hook_granted::PASS,
    rules::loom::undeclared_template_name::PASS,
    rules::loom::literal_braces::PASS,
    rules::loom::unpriced_spend_without_cap::PASS,
    rules::loom::missing_skills_library::PASS,
    rules::loom::model_id_as_role::PASS,
    rules::loopmaster::manifest_file_name::PASS,
    rules::loopmaster::id_not_folder::PASS,
    rules::loopmaster::no_human_gate::PASS,
    rules::loopmaster::trigger_field_mismatch::PASS,
    rules::perm::conflicting_actions::PASS,
    rules::memory::missing_import::PASS,
    rules::memory::long_memory_file::PASS,
    rules::memory::personal_path_in_instructions::PASS,
    rules::windsurf::windsurf_rule_too_long::PASS,
    rules::windsurf::invalid_windsurf_trigger::PASS,
    rules::windsurf::windsurf_trigger_without_target::PASS,
    rules::kiro::invalid_steering_inclusion::PASS,
    rules::kiro::steering_inclusion_without_target::PASS,
    rules::kiro::foreign_steering_field::PASS,
    rules::cursor::unknown_rule_field::PASS,
    rules::cursor::always_apply_not_boolean::PASS,
    rules::cursor::ignored_globs::PASS,
    rules::cursor::manual_only_rule::PASS,
    rules::cursor::empty_rule::PASS,
    rules::cursor::ignored_markdown_rule::PASS,
    rules::cursor::legacy_cursorrules::PASS,
    rules::cursor::long_rule::PASS,
    rules::copilot::missing_apply_to::PASS,
    rules::copilot::invalid_apply_to::PASS,
    rules::copilot::unknown_instructions_field::PASS,
    rules::copilot::invalid_exclude_agent::PASS,
    rules::copilot::unknown_prompt_field::PASS,
    rules::copilot::deprecated_prompt_mode::PASS,
    rules::copilot::empty_instructions::PASS,
    rules::copilot::agent_missing_description::PASS,
    rules::copilot::invalid_agent_target::PASS,
    rules::copilot::unknown_custom_agent_field::PASS,
    rules::copilot::retired_agent_infer::PASS,
    rules::copilot::agent_prompt_too_long::PASS,
    rules::opencode::retry_attempt_over_cap::PASS,
    rules::opencode::invalid_date_time::PASS,
    rules::opencode::in_both_lists::PASS,
    rules::opencode::tool_required_and_blocked::PASS,
    rules::opencode::parallel_not_eligible::PASS,
    rules::opencode::invalid_contract_version::PASS,
    rules::opencode::model_change_inconsistent::PASS,
    rules::plugins::ignored_codex_manifest_path::PASS,
    rules::sec::hardcoded_secret::PASS,
    rules::sec::path_escapes_repo::PASS,
    rules::sec::download_piped_to_shell::PASS,
    rules::sec::rm_rf_root_or_home::PASS,
    rules::sec::eval_of_untrusted_text::PASS,
    rules::sec::world_writable_chmod::PASS,
    rules::sec::shell_rc_write::PASS,
    rules::sec::library_injection_env::PASS,
    rules::sec::bidi_control_character::PASS,
    rules::sec::invisible_character::PASS,
    rules::sec::hidden_instructions::PASS,
    rules::sec::encoded_payload::PASS,
    rules::sec::load_time_shell_command::PASS,
    rules::sec::bypass_permissions_default::PASS,
    rules::sec::project_api_key_helper::PASS,
    rules::sec::all_project_mcp_servers_enabled::PASS,
    rules::sec::blanket_shell_permission::PASS,
    rules::sec::destructive_git_command::PASS,
    rules::sec::sandbox_socket_escape::PASS,
    rules::settings::unknown_setting::PASS,
    rules::settings::invalid_permission_rule::PASS,
    rules::settings::invalid_default_mode::PASS,
    rules::settings::permission_both_allowed_and_denied::PASS,
    rules::settings::non_string_env::PASS,
    rules::settings::invalid_enabled_plugins::PASS,
    rules::settings::invalid_setting_value::PASS,
    rules::settings::setting_ignored_at_scope::PASS,
    rules::settings::path_rule_never_consulted::PASS,
    rules::settings::pr_url_template_placeholder::PASS,
    rules::settings::ineffective_permission_rule::PASS,
    rules::settings::root_anchored_path_rule::PASS,
    rules::settings::claudeignore_has_no_effect::PASS,
    rules::skills::missing_skill_field::PASS,
    rules::skills::invalid_skill_name::PASS,
    rules::skills::reserved_skill_name::PASS,
    rules::skills::misnamed_skill_file::PASS,
    rules::skills::backslash_path::PASS,
    rules::skills::invalid_skill_description::PASS,
    rules::skills::invalid_compatibility::PASS,
    rules::skills::unknown_skill_field::PASS,
    rules::skills::tools_instead_of_allowed_tools::PASS,
    rules::skills::unknown_allowed_tool::PASS,
    rules::skills::string_boolean::PASS,
    rules::skills::agent_without_fork_context::PASS,
    rules::skills::unknown_skill_model::PASS,
    rules::skills::invalid_skill_field_value::PASS,
    rules::skills::skill_arguments_without_hint::PASS,
    rules::skills::argument_placeholder_in_code::PASS,
    rules::skills::unreachable_skill::PASS,
    rules::skills::invalid_skill_agent::PASS,
    rules::skills::injected_command_not_run::PASS,
    rules::skills::placeholder_skill_description::PASS,
    rules::skills::first_person_skill_description::PASS,
    rules::skills::long_skill_body::PASS,
    rules::skills::unrestricted_skill_bash::PASS,
    rules::skills::model_invocable_side_effect_skill::PASS,
    rules::skills::vague_skill_name::PASS,
    rules::skills::hardcoded_user_path::PASS,
    rules::skills::reference_without_contents::PASS,
    rules::skills::interactive_skill_script::PASS,
    rules::skills::non_string_metadata_value::PASS,
    rules::skills::long_skill_listing_entry::PASS,
    rules::skills::unpinned_package_runner::PASS,
    rules::yaml::comment_cuts_value::PASS,
    rules::markdown::unclosed_code_fence::PASS,
];

/// What the passes produced.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Findings of the repository passes and the [`Reads::Repository`]
    /// file passes (unsorted).
    pub diagnostics: Vec<Diagnostic>,
    /// Per artifact (indexed like [`Context::artifacts`]): the findings of
    /// the [`Reads::Local`] passes, computed or reused. Empty when no such
    /// pass ran and none was reused (a caller that had them all folded
    /// them in already).
    pub local: Vec<Local>,
    /// Repository passes and [`Reads::Repository`] file passes that
    /// panicked, in (rule, file) order.
    pub internal_errors: Vec<InternalError>,
}

impl Outcome {
    /// Every finding and every internal error, local ones included.
    pub fn into_all(self) -> (Vec<Diagnostic>, Vec<InternalError>) {
        let mut diagnostics = self.diagnostics;
        let mut internal_errors = self.internal_errors;
        for l in self.local {
            diagnostics.extend(l.diagnostics);
            internal_errors.extend(l.internal_errors);
        }
        sort_internal_errors(&mut internal_errors);
        (diagnostics, internal_errors)
    }
}

/// Puts internal errors in their report order: by what failed (the rule),
/// then by file; stable, so one rule's errors on one file keep their order.
pub fn sort_internal_errors(errors: &mut [InternalError]) {
    errors.sort_by(|a, b| (&a.what, a.file).cmp(&(&b.what, b.file)));
}

/// Runs every pass in parallel and returns their diagnostics (unsorted).
///
/// A pass that panics yields an [`INTERNAL_ERROR`] diagnostic instead of its
/// findings; one of a repository pass is anchored at the first file (there
/// is none to anchor it at when the repository has no file). Callers that
/// can anchor it better use [`run_with`].
pub fn run(cx: &Context) -> Vec<Diagnostic> {
    let (mut diagnostics, internal_errors) =
        run_with(cx, PASSES, FILE_PASSES, Vec::new()).into_all();
    if !cx.sources.is_empty() {
        diagnostics.extend(internal_errors.iter().map(|e| e.diagnostic(FileId(0))));
    }
    diagnostics
}

/// Runs the given passes in parallel: each repository pass, and each
/// per-file pass on each artifact, behind its own panic boundary
/// ([`catch`]), so a panic costs only that rule's findings (on that file).
/// [`run`] is this with [`PASSES`] and [`FILE_PASSES`]; tests inject a
/// failing pass here.
///
/// `reused` is indexed like [`Context::artifacts`] (shorter, or empty, for
/// none): a `Some` is taken as the [`Local`] findings of that artifact
/// instead of running its [`Reads::Local`] passes. The caller vouches
/// that it came from the same `file_passes` over the same path and bytes,
/// renumbered to the artifact's id ([`Local::renumber`]).
pub fn run_with(
    cx: &Context,
    passes: &[Pass],
    file_passes: &[FilePass],
    reused: Vec<Option<Local>>,
) -> Outcome {
    // Nothing cancels this run: `Err` is never built.
    run_cancellable(cx, passes, file_passes, reused, &|| false).unwrap_or_default()
}

/// Asked between the steps of a run (each repository pass, each
/// (file pass, artifact) pair, each artifact's local passes): whether the
/// run's result is no longer wanted, a language server's newer edit having
/// overtaken it. Once it answers `true` it must keep answering `true` for
/// the rest of the run.
pub type Cancelled<'a> = &'a (dyn Fn() -> bool + Sync);

/// [`run_with`], stopping early when `cancelled` says so. `Err` holds what
/// a cancelled run still gives the next one: per artifact (indexed like
/// [`Context::artifacts`]) its [`Local`] findings where they were reused or
/// computed whole, `None` where the run skipped them. The other findings
/// of a cancelled run are dropped.
///
/// # Errors
/// When `cancelled` answered `true` during the run.
pub fn run_cancellable(
    cx: &Context,
    passes: &[Pass],
    file_passes: &[FilePass],
    reused: Vec<Option<Local>>,
    cancelled: Cancelled<'_>,
) -> Result<Outcome, Vec<Option<Local>>> {
    let (own, wide): (Vec<&FilePass>, Vec<&FilePass>) =
        file_passes.iter().partition(|p| p.reads == Reads::Local);
    let skipped = || (Vec::new(), None);
    let repo = passes.par_iter().map(|p| {
        if cancelled() {
            return skipped();
        }
        match catch(|| (p.check)(cx)) {
            Ok(d) => (d, None),
            Err(msg) => (Vec::new(), Some(InternalError::in_rule(&p.rule, None, msg))),
        }
    });
    let per_file = wide
        .par_iter()
        .flat_map_iter(|p| {
            cx.artifacts
                .iter()
                .filter(|a| p.on.covers(a.format))
                .map(move |a| (p, a))
        })
        .map(|(p, a)| {
            if cancelled() {
                return skipped();
            }
            match catch(|| (p.check)(cx, a)) {
                Ok(d) => (d, None),
                Err(msg) => (
                    Vec::new(),
                    Some(InternalError::in_rule(&p.rule, Some(a.file), msg)),
                ),
            }
        });
    // Most (pass, artifact) pairs find nothing: keeping only the others
    // keeps the list small (one entry per pair was tens of megabytes of heap
    // on a real repository, every pass times every artifact).
    let (results, local): (Vec<Found>, Vec<Option<Local>>) = rayon::join(
        || {
            repo.chain(per_file)
                .filter(|(d, e)| !d.is_empty() || e.is_some())
                .collect()
        },
        || local_passes(cx, &own, reused, cancelled),
    );
    if cancelled() {
        return Err(local);
    }
    let graph = RepoGraph::default();
    // In place (the list's own buffer: `Option<Local>` is `Local`'s size).
    let local = local
        .into_iter()
        .zip(cx.artifacts)
        // Not cancelled, so none was skipped; computed here if one was.
        .map(|(l, a)| l.unwrap_or_else(|| local_of(a, &graph, cx, own.iter().copied())))
        .collect();
    let mut out = Outcome {
        local,
        ..Outcome::default()
    };
    for (d, e) in results {
        out.diagnostics.extend(d);
        out.internal_errors.extend(e);
    }
    sort_internal_errors(&mut out.internal_errors);
    Ok(out)
}

/// One pass's findings on one run, or its panic.
type Found = (Vec<Diagnostic>, Option<InternalError>);

/// The [`Reads::Local`] passes over every artifact not `reused`, each
/// artifact in a context of its own ([`Reads`]), its passes in order;
/// `None` for an artifact skipped once `cancelled` said so.
fn local_passes(
    cx: &Context,
    own: &[&FilePass],
    mut reused: Vec<Option<Local>>,
    cancelled: Cancelled<'_>,
) -> Vec<Option<Local>> {
    if own.is_empty() && reused.is_empty() {
        // Nothing to run and nothing to give back: no list of empty
        // findings, one per artifact ([`Outcome::local`]).
        return Vec::new();
    }
    if reused.len() == cx.artifacts.len() && reused.iter().all(Option::is_some) {
        // All reused (a lean run's): the list as it is, as a second list
        // would hold every artifact's findings twice (issue #17).
        return reused;
    }
    reused.resize_with(cx.artifacts.len(), || None);
    let graph = RepoGraph::default();
    cx.artifacts
        .par_iter()
        .zip(reused)
        .map(|(a, reused)| {
            reused.or_else(|| (!cancelled()).then(|| local_of(a, &graph, cx, own.iter().copied())))
        })
        .collect()
}

/// The [`Reads::Local`] passes among `file_passes` on artifact `a` alone,
/// in order, each behind its own panic boundary: the [`Local`] findings
/// [`run_with`] computes for `a`. `sources` needs to hold only `a`'s file
/// (a [`SourceMap::one`]): skein runs these passes as soon as a file is
/// decoded, before the run's source map exists, so that what only they
/// read of the file can be dropped at once (issue #17).
pub fn run_local(
    a: &Artifact,
    sources: &SourceMap,
    repo_files: &RepoFiles,
    file_passes: &[FilePass],
) -> Local {
    let graph = RepoGraph::default();
    let cx = Context {
        graph: &graph,
        artifacts: &[],
        sources,
        repo_files,
        memo: Memo::new(0),
    };
    let own = file_passes.iter().filter(|p| p.reads == Reads::Local);
    local_of(a, &graph, &cx, own)
}

/// The passes `own` on `a` in a context of `a` alone (an empty graph, the
/// sources and paths of `cx`).
fn local_of<'p>(
    a: &Artifact,
    graph: &RepoGraph,
    cx: &Context,
    own: impl Iterator<Item = &'p FilePass> + Clone,
) -> Local {
    let alone = Context {
        graph,
        artifacts: std::slice::from_ref(a),
        sources: cx.sources,
        repo_files: cx.repo_files,
        memo: Memo::new(1),
    };
    // One panic boundary around all the passes (a boundary per pass, over
    // a hundred per artifact, was a measurable share of a large run); only
    // when one panics are they run again, each behind its own, so the
    // panic is told apart. Passes are pure: a second run finds the same.
    let all = catch(|| {
        let mut l = Local::default();
        for p in own.clone().filter(|p| p.on.covers(a.format)) {
            l.diagnostics.extend((p.check)(&alone, a));
        }
        l
    });
    if let Ok(l) = all {
        return l;
    }
    let mut l = Local::default();
    for p in own.filter(|p| p.on.covers(a.format)) {
        match catch(|| (p.check)(&alone, a)) {
            Ok(d) => l.diagnostics.extend(d),
            Err(msg) => l
                .internal_errors
                .push(InternalError::in_rule(&p.rule, Some(a.file), msg)),
        }
    }
    l
}

/// Every rule of the passes, and [`INTERNAL_ERROR`].
pub fn rules() -> impl Iterator<Item = Rule> {
    PASSES
        .iter()
        .map(|p| p.rule)
        .chain(FILE_PASSES.iter().map(|p| p.rule))
        .chain([INTERNAL_ERROR])
}
