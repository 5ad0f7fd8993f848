//! The `skein` command line: argument parsing and output; the analysis is
//! the library's.

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use skein::{Options, rules};
use skein_report::{HumanOptions, json_value, render_human};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Static analyzer for repositories of AI-agent artifacts: skills, loops,
/// gates, verdict vocabularies, agent specs, contracts, plugins and MCP configs.
#[derive(Parser)]
#[command(name = "skein", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyze repositories and report diagnostics.
    ///
    /// Exit status: 0 when no error-severity diagnostic was found, 1 when
    /// some was, 2 on a usage or internal error.
    Check(CheckArgs),
    /// List every rule: code, name, default severity, summary.
    Rules,
    /// Print the documentation of one rule, by code (`SCH001`) or name (`schema-violation`).
    Rule {
        /// Rule code or kebab-case name.
        code: String,
    },
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Folders (repository roots) or single files to analyze.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Files larger than this many bytes are reported and not read.
    #[arg(long, default_value_t = skein::DEFAULT_MAX_FILE_SIZE, value_name = "BYTES")]
    max_file_size: u64,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

#[derive(Clone, Copy, ValueEnum)]
enum OutputFormat {
    /// rustc-style snippets with the span underlined, then a summary line.
    Human,
    /// One JSON document: `{version, summary, diagnostics[]}`.
    Json,
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

fn main() -> ExitCode {
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
            let mut out = String::new();
            for r in rules::all() {
                out.push_str(&format!(
                    "{:<7} {:<28} {:<8} {}\n",
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
    }
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(|| {
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
    };
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let multiple = args.paths.len() > 1;
    let mut any_error = false;
    let mut json_runs = Vec::new();
    for path in &args.paths {
        let report = pool.install(|| skein::check(path, &options))?;
        any_error |= report.has_at_least(skein_syntax::Severity::Error);
        match args.format {
            OutputFormat::Human => {
                let mut out = render_human(
                    report.diagnostics(),
                    report.sources(),
                    HumanOptions { color },
                );
                if multiple {
                    out.push_str(&format!("{}: ", path.display()));
                }
                out.push_str(&report.summary().line());
                out.push('\n');
                print(&out)?;
            }
            OutputFormat::Json => {
                let mut v = json_value(report.diagnostics(), report.sources(), report.summary());
                v.as_object_mut().expect("object").insert(
                    "root".into(),
                    serde_json::Value::String(path.display().to_string()),
                );
                json_runs.push(v);
            }
        }
    }
    if let OutputFormat::Json = args.format {
        let doc = if json_runs.len() == 1 {
            json_runs.pop().expect("one run")
        } else {
            serde_json::json!({ "runs": json_runs })
        };
        print(&(serde_json::to_string_pretty(&doc)? + "\n"))?;
    }
    Ok(if any_error {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
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
