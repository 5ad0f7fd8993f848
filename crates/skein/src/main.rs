//! The `skein` command line: argument parsing and output; the analysis is
//! the library's.

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use skein::{Options, rules};
use skein_report::graph_export::{GraphFormat, render_graph};
use skein_report::{HumanOptions, json_value, render_human};
use skein_report::{SarifBuilder, render_concise, render_github};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

mod progress;

/// Static analyzer for repositories of AI-agent artifacts: skills, loops,
/// gates, verdict vocabularies, agent specs, contracts, plugins and MCP configs.
#[derive(Parser)]
#[command(
    name = "skein",
    version,
    about = "Static analyzer for repositories of AI-agent artifacts: skills, loops, gates, verdict vocabularies, agent specs, contracts, plugins and MCP configs",
    long_about = None
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyze repositories and report diagnostics.
    ///
    /// Each path is analyzed as part of its project (the nearest folder with
    /// `skein.toml`, else the top of its git work tree, else the path
    /// itself): the whole project is read, so references resolve, and the
    /// findings in the named files and folders are reported.
    ///
    /// Exit status: 0 when no diagnostic at or above `--fail-on` (default:
    /// `fail-on` of skein.toml, else error) was found, 1 when some was, 2 on
    /// a usage or internal error, 3 when no file skein reads was found (an
    /// empty folder or a mistyped path: never a silent green).
    Check(CheckArgs),
    /// List every rule: code, name, default severity, summary.
    Rules,
    /// Print the documentation of one rule, by code (`SCH001`) or name (`schema-violation`).
    Rule {
        /// Rule code or kebab-case name.
        code: String,
    },
    /// Draw skilldrop loops as state machines, and the repository graph.
    ///
    /// Without `--loop`: every loop, then the repository view (packs and
    /// plugins with their skills, agents, commands and hooks; marketplaces ->
    /// the plugins they list; loops -> skills; agents -> MCP servers).
    /// Unreachable stages and uncapped cycles are drawn red and dashed.
    Graph(GraphArgs),
}

#[derive(clap::Args)]
struct GraphArgs {
    /// Repository root to draw.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Output syntax: Graphviz DOT (`dot -Tsvg`) or Mermaid.
    #[arg(long, value_enum, default_value_t = GraphFormatArg::Dot)]
    format: GraphFormatArg,
    /// Draw only the loop(s) of this name.
    #[arg(long = "loop", value_name = "NAME")]
    loop_name: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum GraphFormatArg {
    /// Graphviz DOT, one `digraph` per loop and one for the repository.
    Dot,
    /// Mermaid `stateDiagram-v2` (loops) and `flowchart` (repository); several
    /// diagrams come as Markdown with a fenced block each.
    Mermaid,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Files or folders to report on (each analyzed within its project).
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Analyze only the named paths, each as a repository of its own, not
    /// the project around them (references outside them do not resolve).
    #[arg(long)]
    no_project: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Write the output to this file instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Files larger than this many bytes are reported and not read
    /// (default: `max-file-size` of skein.toml, else 10 MiB).
    #[arg(long, value_name = "BYTES")]
    max_file_size: Option<u64>,
    /// Worker threads, 1 to 256 (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Read this configuration file instead of discovering `skein.toml`.
    #[arg(long, value_name = "PATH", conflicts_with = "isolated")]
    config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long)]
    isolated: bool,
    /// Apply no suppression (comments, `ignore`, `per-path-ignores`, `[[ignore]]`): an audit.
    #[arg(long)]
    no_ignores: bool,
    /// Also analyze files that `.gitignore`, `.ignore` or git's exclude files skip (for
    /// CI gates: a change could otherwise hide a tracked artifact by ignoring it).
    #[arg(long)]
    no_ignore_files: bool,
    /// Report only findings not in this baseline file; print how many of its findings were fixed.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Write the current findings to this baseline file (exit status 0 unless skein fails).
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    /// Exit with status 1 when a finding at or above this severity remains
    /// (default: the configuration's `fail-on`, else `error`).
    #[arg(long, value_enum, value_name = "SEVERITY")]
    fail_on: Option<FailOn>,
    /// Exit with status 2 when skein fails internally on some input (a
    /// SKEIN001 finding; default: `fail-on-internal-error` of skein.toml,
    /// else such a finding counts as an error finding, status 1).
    #[arg(long)]
    fail_on_internal_error: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
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
enum OutputFormat {
    /// rustc-style snippets with the span underlined, then a summary line.
    Human,
    /// One JSON document: `{version, root, summary, diagnostics[]}` (several paths: `{runs[]}`).
    Json,
    /// SARIF 2.1.0 for GitHub code scanning (one run, every rule, fingerprints).
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...::message`): annotations.
    Github,
    /// One line per finding, `path:line:col: severity[CODE] message [name]`, then a summary line.
    Concise,
}

#[derive(Clone, Copy, ValueEnum)]
enum Color {
    /// Colour when standard output is a terminal.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

#[global_allocator]
static GLOBAL: skein::MiMalloc = skein::MiMalloc;

fn main() -> ExitCode {
    skein::use_mimalloc_in_tree_sitter();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("skein: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Rules => {
            let all = rules::all();
            // Columns as wide as their longest entry.
            let code_w = all.iter().map(|r| r.code.len()).max().unwrap_or(0);
            let name_w = all.iter().map(|r| r.name.len()).max().unwrap_or(0);
            let mut out = String::new();
            for r in all {
                out.push_str(&format!(
                    "{:<code_w$} {:<name_w$} {:<8} {}\n",
                    r.code,
                    r.name,
                    r.severity.as_str(),
                    r.summary
                ));
            }
            print(&out)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Rule { code } => match rules::find(&code) {
            Some(r) => {
                print(&format!(
                    "# {} ({})\n\nDefault severity: {}. {}.\n\n{}\n",
                    r.name,
                    r.code,
                    r.severity.as_str(),
                    capitalize(r.summary),
                    r.doc
                ))?;
                Ok(ExitCode::SUCCESS)
            }
            None => {
                eprintln!(
                    "skein: error: no rule with code or name `{code}`; `skein rules` lists them"
                );
                Ok(ExitCode::from(2))
            }
        },
        Command::Check(args) => check(args),
        Command::Graph(args) => graph(args),
    }
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")?;
    let options = Options {
        max_file_size: args.max_file_size,
        threads,
        config: match (&args.config, args.isolated) {
            (Some(p), _) => skein::ConfigSource::File(p.clone()),
            (None, true) => skein::ConfigSource::Isolated,
            (None, false) => skein::ConfigSource::Discover,
        },
        no_ignores: args.no_ignores,
        no_ignore_files: args.no_ignore_files,
        progress: show_progress(&args).then(|| Arc::new(skein::Progress::default())),
        ..Options::default()
    };
    let baseline = match &args.baseline {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read baseline {}", file.display()))?;
            let b = skein::baseline::Baseline::from_json(&text)
                .map_err(|e| anyhow::anyhow!("invalid baseline {}: {e}", file.display()))?;
            Some(b)
        }
        None => None,
    };
    let mut matches = skein::baseline::Matches::default();
    let mut written = skein::baseline::Baseline::new();
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            args.output.is_none()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let runs = projects(&args.paths, args.no_project)?;
    let multiple = runs.len() > 1;
    let mut any_error = false;
    let mut internal_failure = false;
    let mut files_read = 0;
    let mut json_runs = Vec::new();
    let mut output = String::new();
    let mut sarif = SarifBuilder::new(&rules::all());
    let last = runs.len().saturating_sub(1);
    let cwd = std::env::current_dir().and_then(std::fs::canonicalize).ok();
    for (i, run) in runs.iter().enumerate() {
        let watch = options
            .progress
            .clone()
            .map(|p| progress::Watch::start(p, run.label.clone()));
        let mut report = pool.install(|| skein::check(&run.root, &options))?;
        if let Some(w) = watch {
            w.finish();
        }
        for (named, rel) in &run.files {
            if !report.read_file(rel) {
                eprintln!(
                    "skein: warning: {} is not a kind of file skein reads (README, \"What it recognises\"); nothing in it was analyzed",
                    named.display()
                );
            }
        }
        report.restrict(&run.view);
        files_read += report.summary().files_read;
        if args.write_baseline.is_some() {
            written.add(report.diagnostics(), report.sources());
        }
        if let Some(b) = &baseline {
            report.apply_baseline(b, &mut matches);
        }
        // Paths from the current folder in every format (issue #14).
        if let (Some(cwd), Ok(root)) = (&cwd, run.base()) {
            report.relocate(&root, cwd);
        }
        let fail_on = args
            .fail_on
            .map(Into::into)
            .or(report.fail_on())
            .unwrap_or(skein_syntax::Severity::Error);
        any_error |= report.has_at_least(fail_on);
        internal_failure |= report.has_internal_error()
            && (args.fail_on_internal_error || report.fail_on_internal_error());
        match args.format {
            OutputFormat::Human => {
                let mut out = render_human(
                    report.diagnostics(),
                    report.sources(),
                    HumanOptions { color },
                );
                if multiple {
                    out.push_str(&format!("{}: ", run.label));
                }
                out.push_str(&report.summary().line());
                out.push('\n');
                output.push_str(&out);
            }
            OutputFormat::Concise => {
                output.push_str(&render_concise(report.diagnostics(), report.sources()));
                if multiple {
                    output.push_str(&format!("{}: ", run.label));
                }
                output.push_str(&report.summary().line());
                output.push('\n');
            }
            OutputFormat::Github => {
                output.push_str(&render_github(report.diagnostics(), report.sources(), ""))
            }
            OutputFormat::Sarif => {
                sarif.add(report.diagnostics(), report.sources(), "");
            }
            OutputFormat::Json => {
                let mut v = json_value(report.diagnostics(), report.sources(), report.summary());
                v.as_object_mut()
                    .expect("object")
                    .insert("root".into(), serde_json::Value::String(run.label.clone()));
                json_runs.push(v);
            }
        }
        // Freeing a large report is a measurable share of a run, all on one
        // thread; after the last path the process exits, which frees it.
        if i == last {
            std::mem::forget(report);
        }
    }
    if let OutputFormat::Json = args.format {
        let doc = if json_runs.len() == 1 {
            json_runs.pop().expect("one run")
        } else {
            serde_json::json!({ "runs": json_runs })
        };
        output.push_str(&(serde_json::to_string_pretty(&doc)? + "\n"));
    }
    if let OutputFormat::Sarif = args.format {
        let log = sarif.finish();
        for w in &log.warnings {
            eprintln!("skein: warning: {w}");
        }
        output.push_str(&(serde_json::to_string_pretty(&log)? + "\n"));
    }
    match &args.output {
        Some(file) => std::fs::write(file, &output)
            .with_context(|| format!("cannot write {}", file.display()))?,
        None => print(&output)?,
    }
    if let Some(b) = &baseline {
        eprintln!(
            "skein: baseline: {} known finding(s) not reported, {} fixed since the baseline was written",
            matches.matched(),
            matches.fixed(b)
        );
    }
    if let Some(file) = &args.write_baseline {
        std::fs::write(file, written.to_json())
            .with_context(|| format!("cannot write baseline {}", file.display()))?;
        eprintln!(
            "skein: wrote {} finding(s) to baseline {}",
            written.len(),
            file.display()
        );
    }
    if internal_failure {
        eprintln!(
            "skein: error: skein failed internally on some input (SKEIN001 in the output); its findings there are missing"
        );
        return Ok(ExitCode::from(2));
    }
    if args.write_baseline.is_some() {
        return Ok(ExitCode::SUCCESS);
    }
    if any_error {
        return Ok(ExitCode::from(1));
    }
    if files_read == 0 {
        let named: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        eprintln!(
            "skein: warning: no file skein reads was found in {}: nothing was analyzed (exit status {NOTHING_ANALYZED})",
            named.join(", ")
        );
        return Ok(ExitCode::from(NOTHING_ANALYZED));
    }
    Ok(ExitCode::SUCCESS)
}

/// The exit status of a run that found no file to analyze.
const NOTHING_ANALYZED: u8 = 3;

/// One analysis: a project root and the part of it reported.
struct Run {
    /// The folder analyzed (a project root, or a named path with `--no-project`).
    root: PathBuf,
    /// How the run is named in output: the path given, or the paths given
    /// joined by `, ` when several share one project.
    label: String,
    /// The reported part, project-relative (`""`: all of it).
    view: Vec<String>,
    /// Each named file with its project-relative path.
    files: Vec<(PathBuf, String)>,
}

impl Run {
    /// The folder the report's paths are relative to: the root, or its
    /// folder when a file is read alone (`--no-project`).
    fn base(&self) -> std::io::Result<PathBuf> {
        let abs = std::fs::canonicalize(&self.root)?;
        Ok(if abs.is_dir() {
            abs
        } else {
            abs.parent().map(Path::to_path_buf).unwrap_or(abs)
        })
    }
}

/// Groups the named paths by project (issue #14), in the order given; with
/// `no_project` each path is its own run, read alone.
fn projects(paths: &[PathBuf], no_project: bool) -> anyhow::Result<Vec<Run>> {
    let mut runs: Vec<Run> = Vec::new();
    for path in paths {
        if no_project {
            runs.push(Run {
                root: path.clone(),
                label: path.display().to_string(),
                view: vec![String::new()],
                files: Vec::new(),
            });
            continue;
        }
        let skein::Located {
            root,
            view: rel,
            is_dir,
        } = skein::locate(path)?;
        let file = (!is_dir).then(|| (path.clone(), rel.clone()));
        match runs.iter_mut().find(|r| r.root == root) {
            Some(r) => {
                r.label = format!("{}, {}", r.label, path.display());
                r.view.push(rel);
                r.files.extend(file);
            }
            None => runs.push(Run {
                root,
                label: path.display().to_string(),
                view: vec![rel],
                files: file.into_iter().collect(),
            }),
        }
    }
    Ok(runs)
}

fn graph(args: GraphArgs) -> anyhow::Result<ExitCode> {
    let report = skein::check(&args.path, &Options::default())?;
    let format = match args.format {
        GraphFormatArg::Dot => GraphFormat::Dot,
        GraphFormatArg::Mermaid => GraphFormat::Mermaid,
    };
    let name = args.loop_name.as_deref();
    match render_graph(report.graph(), report.sources(), format, name) {
        Some(out) => {
            print(&out)?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let mut names: Vec<&str> = report
                .graph()
                .loops()
                .iter()
                .map(|l| l.name.as_str())
                .collect();
            names.sort_unstable();
            names.dedup();
            eprintln!(
                "skein: error: no skilldrop loop named `{}` in {}; loops: {}",
                name.unwrap_or_default(),
                args.path.display(),
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            );
            Ok(ExitCode::from(2))
        }
    }
}

/// A progress bar only for a person watching: stderr is a terminal and the
/// output format is the human one (never json, sarif, github, concise).
fn show_progress(args: &CheckArgs) -> bool {
    matches!(args.format, OutputFormat::Human) && std::io::stderr().is_terminal()
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Writes to stdout; a closed pipe (`skein check | head`) is not an error.
fn print(s: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}
