//! The `skein` command line: argument parsing and output; the analysis is
//! the library's.

use clap::{CommandFactory, Parser};
use skein::cli::{Cli, Command, GraphArgs, GraphFormatArg};
use skein::{Options, rules};
use skein_report::graph_export::{GraphFormat, render_graph};
use std::io::Write;
use std::process::ExitCode;

mod check_command;
mod progress;

#[global_allocator]
static GLOBAL: skein::MiMalloc = skein::MiMalloc;

fn main() -> ExitCode {
    skein::tune_allocator();
    skein::use_mimalloc_in_tree_sitter();
    let cli = Cli::try_parse().unwrap_or_else(|e| without_opposite_tip(e).exit());
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
                    "# {} ({})\n\nDefault severity: {}. {}.\n\nFix: {}.\n\n{}\n\nDocumentation: {}\n",
                    r.name,
                    r.code,
                    r.severity.as_str(),
                    capitalize(r.summary),
                    rules::fix_kind(&r),
                    r.doc,
                    skein_report::rule_url(&r)
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
        Command::Check(args) => check_command::check(*args),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "skein", &mut out);
            print(&String::from_utf8_lossy(&out))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Graph(args) => graph(args),
        Command::Server(args) => {
            let mut options = skein::server::ServerOptions {
                debounce: std::time::Duration::from_millis(args.debounce_ms),
                ..Default::default()
            };
            if let Some(n) = args.threads {
                options.analysis.threads = n.max(1);
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .build_global()
                    .ok();
            }
            skein::server::run(options)?;
            Ok(ExitCode::SUCCESS)
        }
    }
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
            if report.summary().files_read == 0 {
                eprintln!(
                    "skein: warning: no file skein reads was found in {}: the graph is empty (exit status 3)",
                    args.path.display()
                );
                return Ok(ExitCode::from(3));
            }
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

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Writes to stdout; a closed pipe (`skein check | head`) is not an error.
/// clap's "a similar argument exists" for an unknown flag, unless it names
/// the flag of opposite meaning (`--progress` -> `--no-progress`,
/// `--no-select` -> `--select`): then the error has no tip. `--no-ignore`
/// (ripgrep's flag) names both flags it may mean.
fn without_opposite_tip(e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return e;
    }
    let string = |k| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => v.first().cloned(),
        _ => None,
    };
    let (Some(typed), Some(tip)) = (
        string(ContextKind::InvalidArg),
        string(ContextKind::SuggestedArg),
    ) else {
        return e;
    };
    let core = |f: &str| {
        let f = f.trim_start_matches('-');
        let f = f.split('=').next().unwrap_or(f);
        (
            f.strip_prefix("no-").unwrap_or(f).to_string(),
            f.starts_with("no-"),
        )
    };
    let ((a, a_no), (b, b_no)) = (core(&typed), core(&tip));
    let opposite = a_no != b_no && (a == b || a.starts_with(&b) || b.starts_with(&a));
    let ripgrep = typed == "--no-ignore";
    if !opposite && !ripgrep {
        return e;
    }
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = clap::Error::new(ErrorKind::UnknownArgument).with_cmd(&cmd);
    out.insert(ContextKind::InvalidArg, ContextValue::String(typed));
    if ripgrep {
        out.insert(
            ContextKind::Suggested,
            ContextValue::StyledStrs(vec![
                "`--no-ignore-files` analyzes files .gitignore skips; `--no-ignores` applies no suppression".into(),
            ]),
        );
    }
    // clap's usage line names the suggested flag: give the command's own.
    let sub = std::env::args().nth(1).unwrap_or_default();
    let usage = match cmd.find_subcommand_mut(&sub) {
        Some(c) => c.render_usage(),
        None => cmd.render_usage(),
    };
    out.insert(ContextKind::Usage, ContextValue::StyledStr(usage));
    out
}

pub(crate) fn print(s: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}
