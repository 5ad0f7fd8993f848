//! The command line's definition (clap derive), shared by the `skein`
//! binary and `cargo xtask man` (the man page) and `skein completions`.
//! What each command does is the binary's (`main.rs`) and the library's.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Static analyzer for repositories of AI-agent artifacts: skills, loops,
/// gates, verdict vocabularies, agent specs, contracts, plugins and MCP configs.
#[derive(Parser)]
#[command(
    name = "skein",
    version = crate::VERSION,
    about = "Static analyzer for repositories of AI-agent artifacts: skills, loops, gates, verdict vocabularies, agent specs, contracts, plugins and MCP configs",
    long_about = None
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Analyze repositories and report diagnostics.
    ///
    /// Each path is analyzed as part of its project (the nearest folder with
    /// `skein.toml`, else the top of its git work tree, else the current
    /// folder when the path is inside it, else the path itself): the whole
    /// project is read, so references resolve, and the findings in the named
    /// files and folders are reported, with paths from the current folder.
    ///
    /// Exit status: 0 when no diagnostic at or above `--fail-on` (default:
    /// `fail-on` of skein.toml, else error) was found (or `--exit-zero`), 1
    /// when some was, 2 on a usage or internal error (a path that does not
    /// exist is one), 3 when no file skein reads was found (an empty
    /// folder, a folder of other files: never a silent green).
    Check(Box<CheckArgs>),
    /// List every rule: code, name, default severity, summary.
    Rules,
    /// Print the documentation of one rule, by code (`SCH001`) or name (`schema-violation`).
    Rule {
        /// Rule code or kebab-case name.
        code: String,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    ///
    /// For example `skein completions bash > ~/.local/share/bash-completion/completions/skein`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Draw skilldrop loops as state machines, and the repository graph.
    ///
    /// Without `--loop`: every loop, then the repository view (packs and
    /// plugins with their skills, agents, commands and hooks; marketplaces ->
    /// the plugins they list; loops -> skills; agents -> MCP servers).
    /// Unreachable stages and uncapped cycles are drawn red and dashed.
    ///
    /// Exit status: 0 when drawn; 2 for a usage error or a `--loop` no loop
    /// has; 3 when no file skein reads was found (the empty graph is still
    /// printed).
    Graph(GraphArgs),
    /// Run the language server (LSP over stdin/stdout) for editors.
    ///
    /// Each workspace folder is analyzed as a project, as `skein check`
    /// would; open buffers are analyzed as typed, and the diagnostics of
    /// every file whose findings change are published, the edited file's and
    /// any other's. Hover, go-to-definition, find-references, document
    /// symbols and code actions (fixes, suppress with a reason) answer from
    /// the last analysis. Editors start it; see docs/editors.md.
    Server(ServerArgs),
}

#[derive(clap::Args)]
pub struct ServerArgs {
    /// Milliseconds to wait after an edit for the next before analyzing
    /// (the client's `initializationOptions.debounceMs` overrides it).
    #[arg(long, value_name = "MS", default_value_t = 30)]
    pub debounce_ms: u64,
    /// Worker threads for analysis (default: the number of CPUs).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

#[derive(clap::Args)]
pub struct GraphArgs {
    /// Repository root to draw.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Output syntax: Graphviz DOT (`dot -Tsvg`) or Mermaid.
    #[arg(long, value_enum, default_value_t = GraphFormatArg::Dot)]
    pub format: GraphFormatArg,
    /// Draw only the loop(s) of this name.
    #[arg(long = "loop", value_name = "NAME")]
    pub loop_name: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum GraphFormatArg {
    /// Graphviz DOT, one `digraph` per loop and one for the repository.
    Dot,
    /// Mermaid `stateDiagram-v2` (loops) and `flowchart` (repository); several
    /// diagrams come as Markdown with a fenced block each.
    Mermaid,
}

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Files or folders to report on (each analyzed within its project);
    /// the current folder when none is named.
    #[arg(value_name = "PATHS")]
    pub paths: Vec<PathBuf>,
    /// Analyze only the named paths, each as a repository of its own, not
    /// the project around them (references outside them do not resolve).
    #[arg(long)]
    pub no_project: bool,
    /// Run only these rules (codes, names or code prefixes; comma-separated
    /// or repeated), replacing `select` of skein.toml.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "RULES",
        help_heading = "Rule selection"
    )]
    pub select: Option<Vec<String>>,
    /// Add these rules to the selection.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "RULES",
        help_heading = "Rule selection"
    )]
    pub extend_select: Vec<String>,
    /// Do not run these rules (added to `ignore` of skein.toml).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "RULES",
        help_heading = "Rule selection"
    )]
    pub ignore: Vec<String>,
    /// Do not run these rules on the files a glob matches (project-relative):
    /// `GLOB:RULES`, e.g. `legacy/**:SKILL006,REF`. Repeatable.
    #[arg(long, value_name = "GLOB:RULES", help_heading = "Rule selection")]
    pub per_file_ignores: Vec<String>,
    /// Do not analyze the files a glob matches (project-relative, e.g.
    /// `vendor/**`; added to `exclude` of skein.toml). Repeatable.
    #[arg(long, value_name = "GLOB", help_heading = "File selection")]
    pub exclude: Vec<String>,
    /// Read the file to analyze from standard input (path `-`) as this
    /// project file: the rest of the project is read from disk. The file
    /// need not exist, nor the folders above it (an unsaved buffer).
    #[arg(long, value_name = "PATH", help_heading = "File selection")]
    pub stdin_filename: Option<PathBuf>,
    /// Apply the safe fixes rules offer, then report what remains (each
    /// round re-checks the files; a fix that would make a file fail to
    /// parse or add an error is dropped and reported).
    #[arg(long, help_heading = "Fixes")]
    pub fix: bool,
    /// Apply unsafe fixes too (they may change what a client does): with
    /// `--fix`, `--fix-only` or `--diff`.
    #[arg(long, help_heading = "Fixes")]
    pub unsafe_fixes: bool,
    /// Print the fixes as a unified diff (`patch -p1` applies it from the
    /// project root) and write nothing; exit status 1 when there would be
    /// changes, 0 when none.
    #[arg(long, conflicts_with_all = ["fix", "fix_only"], help_heading = "Fixes")]
    pub diff: bool,
    /// Apply the fixes and report only what was fixed, not the remaining
    /// findings (exit status 0 unless skein fails).
    #[arg(long, help_heading = "Fixes")]
    pub fix_only: bool,
    /// List each fix applied (file, count, code, name) after the findings.
    #[arg(long, help_heading = "Fixes")]
    pub show_fixes: bool,
    /// Exit with status 0 even when findings are reported (2 and 3 still apply).
    #[arg(long, help_heading = "Output")]
    pub exit_zero: bool,
    /// Print the findings only: no summary line, no notes on stderr.
    #[arg(short, long, conflicts_with = "silent", help_heading = "Output")]
    pub quiet: bool,
    /// Print nothing: the exit status tells.
    #[arg(short, long, help_heading = "Output")]
    pub silent: bool,
    /// Print per-rule counts (count, code, name) instead of the findings:
    /// the findings reported, so where a rule caps its findings in one file
    /// (50 broken links), its "N more" finding counts as one.
    #[arg(long, help_heading = "Output")]
    pub statistics: bool,
    /// Print the configuration in effect (file, rules on, options) and exit.
    #[arg(long, help_heading = "Output")]
    pub show_settings: bool,
    /// Print the files that would be analyzed, with their format, and exit
    /// (a symbolic link or special file named like an artifact is listed
    /// with why it is reported, not read).
    #[arg(long, help_heading = "Output")]
    pub show_files: bool,
    /// Never draw the progress bar.
    #[arg(long, help_heading = "Output")]
    pub no_progress: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// Write the output to this file instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Files larger than this many bytes are reported and not read
    /// (default: `max-file-size` of skein.toml, else 10 MiB).
    #[arg(long, value_name = "BYTES")]
    pub max_file_size: Option<u64>,
    /// Worker threads, 1 to 256 (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Read and write no cache (by default, results per file are kept in
    /// `.skein_cache/` at the project root and reused while files are unchanged).
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,
    /// Keep the cache in this folder (default: `cache-dir` of skein.toml,
    /// else `.skein_cache/` at the project root).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Read this configuration file instead of discovering `skein.toml`.
    #[arg(long, value_name = "PATH", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long)]
    pub isolated: bool,
    /// Apply no suppression (comments, `ignore`, `per-path-ignores`, `[[ignore]]`): an audit.
    #[arg(long)]
    pub no_ignores: bool,
    /// Also analyze files that `.gitignore`, `.ignore` or git's exclude files skip (for
    /// CI gates: a change could otherwise hide a tracked artifact by ignoring it).
    #[arg(long)]
    pub no_ignore_files: bool,
    /// Report only findings not in this baseline file; print how many of its findings were fixed.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write the current findings to this baseline file (exit status 0 unless skein fails).
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Exit with status 1 when a finding at or above this severity remains
    /// (default: the configuration's `fail-on`, else `error`).
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub fail_on: Option<FailOn>,
    /// Exit with status 2 when skein fails internally on some input (a
    /// SKEIN001 finding; default: `fail-on-internal-error` of skein.toml,
    /// else such a finding counts as an error finding, status 1).
    #[arg(long)]
    pub fail_on_internal_error: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum FailOn {
    /// Errors only.
    Error,
    /// Warnings and errors.
    Warning,
    /// Any finding.
    Info,
}

impl From<FailOn> for skein_syntax::Severity {
    fn from(f: FailOn) -> Self {
        match f {
            FailOn::Error => skein_syntax::Severity::Error,
            FailOn::Warning => skein_syntax::Severity::Warning,
            FailOn::Info => skein_syntax::Severity::Info,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum OutputFormat {
    /// rustc-style snippets with the span underlined, then a summary line.
    Human,
    /// One JSON document: `{version, root, summary, diagnostics[]}` (paths in several projects: `{runs[]}`).
    Json,
    /// SARIF 2.1.0 for GitHub code scanning (one run, every rule, fingerprints).
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...::message`): annotations.
    Github,
    /// One line per finding, `path:line:col: severity[CODE] message [name]`, then a summary line.
    Concise,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Color {
    /// Colour when standard output is a terminal.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}
