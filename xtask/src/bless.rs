//! `cargo xtask bless [RULE...]`: rewrites the `expected.out` (and the
//! `expected.fixed`, what `--fix --unsafe-fixes` makes of a case) of the rule
//! fixtures under `corpus/rules/` from skein's current output, by running the
//! fixture test with `SKEIN_BLESS=1` (and `SKEIN_FIXTURE` to limit it to the
//! named rules). Review the diff before committing it.

use anyhow::{Context, bail};
use std::process::{Command, ExitCode};

/// Runs the task.
pub fn run(rules: &[String]) -> anyhow::Result<ExitCode> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args([
        "test",
        "-q",
        "-p",
        "skein",
        "--test",
        "fixtures",
        "rule_fixtures",
    ])
    .env("SKEIN_BLESS", "1");
    if !rules.is_empty() {
        cmd.env("SKEIN_FIXTURE", rules.join(","));
    }
    let status = cmd.status().context("cannot run cargo test")?;
    if !status.success() {
        bail!("the fixture test failed while blessing");
    }
    eprintln!(
        "blessed {}; review `git diff corpus/rules`",
        if rules.is_empty() {
            "every rule".to_string()
        } else {
            rules.join(", ")
        }
    );
    Ok(ExitCode::SUCCESS)
}
