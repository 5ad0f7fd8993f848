//! `cargo xtask codegen [--check]`: writes the files generated from code —
//! the JSON Schema of `skein.toml` (`schemas/skein.toml.schema.json`, from
//! the configuration types in `crates/skein/src/config.rs`) and the man
//! pages `docs/man/skein.1` and `docs/man/skein-check.1` (clap_mangen, from
//! the command line's definition in `crates/skein/src/cli.rs`). With
//! `--check` it writes nothing and fails when a committed file is stale.

use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A generated file: its path from the workspace root and its contents.
pub fn generated() -> Vec<(&'static str, String)> {
    vec![
        (
            "schemas/skein.toml.schema.json",
            skein::config::json_schema(),
        ),
        ("docs/man/skein.1", man(None)),
        ("docs/man/skein-check.1", man(Some("check"))),
    ]
}

/// The man page of `skein` or of one of its subcommands, roff.
fn man(sub: Option<&str>) -> String {
    use clap::CommandFactory;
    let mut cmd = skein::cli::Cli::command().version(skein::PKG_VERSION);
    cmd.build();
    let page = match sub {
        Some(name) => cmd
            .find_subcommand(name)
            .expect("subcommand exists")
            .clone()
            .name(&*Box::leak(format!("skein-{name}").into_boxed_str()))
            .version(skein::PKG_VERSION),
        None => cmd,
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut out)
        .expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("roff is UTF-8")
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is in the workspace")
        .to_path_buf()
}

/// Runs the task.
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    let check = match args {
        [] => false,
        [a] if a == "--check" => true,
        _ => bail!("usage: cargo xtask codegen [--check]"),
    };
    let root = workspace_root();
    let mut stale = Vec::new();
    for (rel, text) in generated() {
        let path = root.join(rel);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            continue;
        }
        if check {
            stale.push(rel);
        } else {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
            }
            std::fs::write(&path, text).with_context(|| format!("cannot write {rel}"))?;
            eprintln!("wrote {rel}");
        }
    }
    if !stale.is_empty() {
        eprintln!(
            "xtask codegen: stale: {}; run `cargo xtask codegen`",
            stale.join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    /// What `codegen --check` checks, on every `cargo test`: a change of
    /// the command line's help text that is not in the man pages fails here.
    #[test]
    fn generated_files_are_current() {
        let root = super::workspace_root();
        for (rel, text) in super::generated() {
            let current = std::fs::read_to_string(root.join(rel)).unwrap_or_default();
            assert!(current == text, "{rel} is stale: run `cargo xtask codegen`");
        }
    }
}
