//! `cargo xtask grammar [--write]`: checks that the committed parser of
//! skein's Markdown grammar (`crates/tree-sitter-agentmd/src/`) is what
//! `tree-sitter generate` makes from `grammar.js`. It generates into a
//! temporary directory with the CLI's embedded JavaScript runtime
//! (`--js-runtime native`, falling back to node) and compares file by file;
//! with `--write` it regenerates `src/` in place instead.
//!
//! Exit codes: 0 up to date (or written), 1 stale (the differing files are
//! listed), 2 when the tree-sitter CLI is missing or fails.

use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The files `tree-sitter generate` writes, relative to `src/`.
/// (`src/scanner.c` is hand-written and never generated.)
const GENERATED: &[&str] = &[
    "grammar.json",
    "node-types.json",
    "parser.c",
    "tree_sitter/alloc.h",
    "tree_sitter/array.h",
    "tree_sitter/parser.h",
];

const INSTALL_HINT: &str = "\
install it with `cargo install tree-sitter-cli --locked` (about 3 minutes;
the npm package needs network access at install time), or set TREE_SITTER
to the path of a tree-sitter binary";

fn grammar_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is in the workspace")
        .join("crates/tree-sitter-agentmd")
}

fn cli() -> String {
    std::env::var("TREE_SITTER").unwrap_or_else(|_| "tree-sitter".to_string())
}

/// Runs `tree-sitter generate` into `out`, with the native runtime first.
fn generate(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let mut last_error = String::new();
    for runtime in [Some("native"), None] {
        let mut cmd = Command::new(cli());
        cmd.current_dir(dir).arg("generate");
        if let Some(rt) = runtime {
            cmd.args(["--js-runtime", rt]);
        }
        cmd.arg("-o").arg(out);
        let output = cmd
            .output()
            .with_context(|| format!("cannot run `{} generate`", cli()))?;
        if output.status.success() {
            return Ok(());
        }
        last_error = String::from_utf8_lossy(&output.stderr).into_owned();
    }
    bail!("`{} generate` failed:\n{last_error}", cli())
}

/// Runs the task.
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    let write = match args {
        [] => false,
        [a] if a == "--write" => true,
        _ => bail!("usage: cargo xtask grammar [--write]"),
    };
    let version = Command::new(cli()).arg("--version").output();
    match version {
        Ok(o) if o.status.success() => {}
        _ => {
            eprintln!(
                "xtask grammar: the tree-sitter CLI (`{}`) is not installed;\n{INSTALL_HINT}",
                cli()
            );
            return Ok(ExitCode::from(2));
        }
    }

    let dir = grammar_dir();
    let tmp = std::env::temp_dir().join(format!("skein-grammar-{}", std::process::id()));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).with_context(|| format!("cannot clear {}", tmp.display()))?;
    }
    let result =
        generate(&dir, &tmp).and_then(|()| compare_or_write(&dir.join("src"), &tmp, write));
    let _ = std::fs::remove_dir_all(&tmp);
    match result {
        Ok(code) => Ok(code),
        Err(e) => {
            eprintln!("xtask grammar: {e:#}");
            Ok(ExitCode::from(2))
        }
    }
}

fn compare_or_write(src: &Path, generated: &Path, write: bool) -> anyhow::Result<ExitCode> {
    let mut stale = Vec::new();
    for rel in GENERATED {
        let new = std::fs::read(generated.join(rel))
            .with_context(|| format!("`tree-sitter generate` did not write {rel}"))?;
        let committed = std::fs::read(src.join(rel)).ok();
        if committed.as_deref() == Some(new.as_slice()) {
            continue;
        }
        if write {
            let path = src.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create {}", parent.display()))?;
            }
            std::fs::write(&path, &new)
                .with_context(|| format!("cannot write {}", path.display()))?;
            eprintln!("wrote crates/tree-sitter-agentmd/src/{rel}");
        } else {
            stale.push(*rel);
        }
    }
    if stale.is_empty() {
        if !write {
            eprintln!("xtask grammar: crates/tree-sitter-agentmd/src is up to date");
        }
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "xtask grammar: generated files differ from grammar.js: {}\nrun `cargo xtask grammar --write` and commit the result",
        stale
            .iter()
            .map(|f| format!("crates/tree-sitter-agentmd/src/{f}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(ExitCode::from(1))
}
