//! `cargo xtask analyze [PATH]`: the analysis of `skein check PATH`, run
//! through the library rather than the binary, with the same human output
//! and the same exit codes (0 clean, 1 error diagnostics, 2 usage error).

use anyhow::{Context, anyhow};
use skein::Options;
use skein::skein_report::{HumanOptions, render_human};
use skein::skein_syntax::Severity;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask analyze [PATH]";

/// Runs the task on its arguments (after the task name).
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    let path = match args {
        [] => PathBuf::from("."),
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            return Ok(ExitCode::SUCCESS);
        }
        [flag] if flag.starts_with('-') => {
            eprintln!("xtask analyze: unknown option `{flag}`\n{USAGE}");
            return Ok(ExitCode::from(2));
        }
        [path] => PathBuf::from(path),
        _ => {
            eprintln!("xtask analyze: expected at most one PATH\n{USAGE}");
            return Ok(ExitCode::from(2));
        }
    };
    let options = Options::default();
    // The error's message already names the path and the OS error (which is
    // also its `source`), so keep the message alone rather than the chain.
    let report = skein::check(&path, &options).map_err(|e| anyhow!("{e}"))?;
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = render_human(
        report.diagnostics(),
        report.sources(),
        HumanOptions {
            color,
            links: false,
            unsafe_fixes: false,
        },
    );
    out.push_str(&report.summary().line());
    out.push('\n');
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        r => r.context("writing the report")?,
    }
    // The failing severity as `skein check` takes it without flags: the
    // configuration's `fail-on`, else errors.
    Ok(
        if report.has_at_least(report.fail_on().unwrap_or(Severity::Error)) {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        },
    )
}
