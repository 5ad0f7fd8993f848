//! `cargo xtask fix-report [PATH]`: what `skein check --fix` does to a
//! repository (default: `../shared/corpus/real`), measured on a copy in a
//! temporary folder (the repository itself is never written): per rule, the
//! findings, the safe and unsafe fixes offered, and the fixes applied by
//! `--fix` and by `--fix --unsafe-fixes`; then the findings before and after
//! each. Prints a Markdown table.

use anyhow::{Context, bail};
use skein::fix::{FixOptions, fix_project, write_changes};
use skein::skein_syntax::Applicability;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs the task.
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    let source = match args {
        [] => PathBuf::from("../shared/corpus/real"),
        [p] => PathBuf::from(p),
        _ => bail!("usage: cargo xtask fix-report [PATH]"),
    };
    if !source.is_dir() {
        bail!("{} is not a folder", source.display());
    }
    let options = skein::Options::default();
    let all = [String::new()];
    // Per rule: findings, safe offered, unsafe offered, applied safe-only, applied with unsafe.
    let mut rows: BTreeMap<&'static str, [usize; 5]> = BTreeMap::new();
    let before = skein::check(&source, &options)?;
    for d in before.diagnostics() {
        let row = rows.entry(d.rule.code).or_default();
        row[0] += 1;
        match d.fix.as_ref().map(|f| f.applicability) {
            Some(Applicability::Safe) => row[1] += 1,
            Some(Applicability::Unsafe) => row[2] += 1,
            None => {}
        }
    }
    let mut after = [0usize; 2];
    let mut dropped = Vec::new();
    for (i, unsafe_fixes) in [false, true].into_iter().enumerate() {
        let tmp = tempfile::tempdir().context("temporary folder")?;
        let root = tmp.path().join("repo");
        copy_tree(&source, &root)?;
        let fix = FixOptions {
            unsafe_fixes,
            ..Default::default()
        };
        let run = fix_project(&root, &options, &all, &fix)?;
        let errors = write_changes(&root, &run.changes);
        if let Some(e) = errors.first() {
            bail!("{e}");
        }
        for a in &run.applied {
            rows.entry(a.code).or_default()[3 + i] += 1;
        }
        if unsafe_fixes {
            dropped = run.dropped.clone();
        }
        after[i] = skein::check(&root, &options)?.diagnostics().len();
    }
    let mut out = String::from(
        "| rule | findings | safe fixes offered | unsafe fixes offered | applied by `--fix` | applied by `--fix --unsafe-fixes` |\n|---|---:|---:|---:|---:|---:|\n",
    );
    let mut total = [0usize; 5];
    for (code, row) in rows.iter().filter(|(_, r)| r[1] + r[2] + r[3] + r[4] > 0) {
        out.push_str(&format!(
            "| {code} | {} | {} | {} | {} | {} |\n",
            row[0], row[1], row[2], row[3], row[4]
        ));
        for (t, v) in total.iter_mut().zip(row) {
            *t += v;
        }
    }
    out.push_str(&format!(
        "| all fixable rules | {} | {} | {} | {} | {} |\n",
        total[0], total[1], total[2], total[3], total[4]
    ));
    out.push_str(&format!(
        "\nfindings: {} before; {} after `--fix`; {} after `--fix --unsafe-fixes`\n",
        before.diagnostics().len(),
        after[0],
        after[1]
    ));
    for d in &dropped {
        out.push_str(&format!(
            "dropped: {} in {} ({}): {}\n",
            d.code, d.path, d.message, d.reason
        ));
    }
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let (src, dst) = (e.path(), to.join(e.file_name()));
        let t = e.file_type()?;
        if t.is_dir() {
            copy_tree(&src, &dst)?;
        } else if t.is_file() {
            std::fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}
