//! `cargo xtask gen-monorepo`: a deterministic generator of realistic agent
//! monorepos with faults injected at a known rate, and the manifest of the
//! diagnostics skein must report on them.
//!
//! The same `(files, seed, fault_rate)` always gives byte-identical trees
//! (SplitMix64 seeded by `seed`; file contents depend on the seed and the
//! file's path only, so rendering runs on any number of threads).
//!
//! # What a tree holds
//!
//! Every format skein reads, cross-referenced as real repositories are (see
//! `plan.rs` for the layout): per team a skilldrop root (verdict vocabulary,
//! catalogue, a `core` pack and packs that require it, each with skills and
//! 1 to 3 loops whose stages run the pack's skills, gated with verdicts from
//! the vocabulary, sometimes mechanical gates with their script, sometimes a
//! loop running an earlier loop); Claude Code plugins (manifest, `.mcp.json`,
//! agents, commands, hooks, auto-loaded skills); Loom agents sharing a
//! skills library and delegating (a2a) without cycles; Bailey assistants
//! (instructions and skills, MCP config, tool declarations that cover every
//! grant, agents); OpenCode contracts applying pack skills; Loopmaster
//! manifests; a root marketplace; READMEs, references, gate and hook scripts
//! and notes that are not artifacts. Markdown bodies have realistic sizes
//! (log-normal, median about 3 KB for skills, 5.5 KB for agents).
//!
//! The fault-free background is meant to give no diagnostic at all.
//!
//! # Faults
//!
//! `round(files * fault_rate)` faults, kinds in round robin (see
//! [`faults::KINDS`] and `faults.rs`): unreachable stage (FLOW001, with the
//! FLOW005 of the gate that cuts), uncapped cycle (FLOW002), duplicate gate
//! id (REF001), undeclared write tool (PERM001), orphan skill (REF004). The
//! manifest (`faults.json`) lists every diagnostic they must produce: rule,
//! path and line.

pub mod faults;
mod plan;
mod render;
pub mod rng;
mod text;

use anyhow::{Context, bail};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Version of the generator's output: bumped whenever the same options
/// would give different bytes, so cached trees are regenerated.
pub const GENERATOR_VERSION: u32 = 1;

/// Name of the manifest written at the root of a generated tree.
pub const MANIFEST_FILE: &str = "faults.json";

/// Default faults per generated file.
pub const DEFAULT_FAULT_RATE: f64 = 0.005;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GenOptions {
    /// Number of files in the tree (not counting `faults.json`).
    pub files: usize,
    /// PRNG seed.
    pub seed: u64,
    /// Faults per file: `round(files * fault_rate)` faults are injected.
    pub fault_rate: f64,
}

/// One diagnostic an injected fault must produce.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Fault {
    /// Repository-relative path of the diagnostic's primary span.
    pub path: String,
    /// 1-based line of the primary span.
    pub line: u32,
    /// Rule code (`FLOW001`, ...).
    pub rule: String,
    /// Number of the injected fault (1-based); companions share it.
    pub id: usize,
    /// Fault kind: the name of the rule the fault targets.
    pub kind: String,
    /// How the fault was made.
    pub form: String,
    /// True for a diagnostic that comes with the fault's own (the FLOW005 of
    /// the gate that makes a stage unreachable).
    pub companion: bool,
}

/// The manifest of a generated tree (`faults.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// The options it was generated with.
    pub options: GenOptions,
    /// Files generated (excluding `faults.json`).
    pub files: usize,
    /// Total bytes of those files.
    pub bytes: u64,
    /// Faults injected (may be fewer than asked when a tiny tree has no
    /// place for some kind).
    pub injected: usize,
    /// Every expected diagnostic, sorted by (path, line, rule).
    pub faults: Vec<Fault>,
}

impl Manifest {
    /// The expected diagnostics as (rule, path, line), sorted.
    pub fn expected(&self) -> Vec<(String, String, u32)> {
        let mut v: Vec<_> = self
            .faults
            .iter()
            .map(|f| (f.rule.clone(), f.path.clone(), f.line))
            .collect();
        v.sort();
        v
    }

    /// Expected diagnostics per rule code.
    pub fn per_rule(&self) -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for f in &self.faults {
            *m.entry(f.rule.clone()).or_default() += 1;
        }
        m
    }

    /// The manifest as pretty JSON (what `faults.json` holds).
    pub fn to_json(&self) -> String {
        let faults: Vec<_> = self
            .faults
            .iter()
            .map(|f| {
                json!({
                    "rule": f.rule,
                    "path": f.path,
                    "line": f.line,
                    "fault": f.id,
                    "kind": f.kind,
                    "form": f.form,
                    "companion": f.companion,
                })
            })
            .collect();
        let mut s = serde_json::to_string_pretty(&json!({
            "generator": format!("skein gen-monorepo v{GENERATOR_VERSION}"),
            "files": self.files,
            "seed": self.options.seed,
            "fault_rate": self.options.fault_rate,
            "bytes": self.bytes,
            "injected": self.injected,
            "expected_per_rule": self.per_rule(),
            "faults": faults,
        }))
        .expect("JSON values serialize");
        s.push('\n');
        s
    }

    /// Reads the options and counts back from `faults.json` text (the
    /// fault list itself is not needed to decide whether a tree is reusable).
    pub fn header_from_json(text: &str) -> Option<(String, GenOptions, usize, u64)> {
        let v: serde_json::Value = serde_json::from_str(text).ok()?;
        Some((
            v.get("generator")?.as_str()?.to_string(),
            GenOptions {
                files: v.get("files")?.as_u64()? as usize,
                seed: v.get("seed")?.as_u64()?,
                fault_rate: v.get("fault_rate")?.as_f64()?,
            },
            v.get("injected")?.as_u64()? as usize,
            v.get("bytes")?.as_u64()?,
        ))
    }
}

/// A generated tree in memory.
#[derive(Debug, Clone)]
pub struct Generated {
    /// Files, sorted by path: repository-relative path and contents.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// What was injected.
    pub manifest: Manifest,
}

/// Plans a tree: background, faults, then filler up to exactly `files`.
/// Faults add a few files (a new skill, a ring of agents), so the
/// background leaves room for them; when they add more than that, the
/// background is planned again, smaller.
fn make_plan(o: &GenOptions) -> plan::Plan {
    let count = (o.files as f64 * o.fault_rate).round() as usize;
    let mut budget = o.files.saturating_sub(count * 3);
    loop {
        let mut rng = rng::Rng::new(o.seed);
        let mut p = plan::Plan::default();
        plan::background(&mut p, &mut rng, budget);
        faults::inject(&mut p, &mut rng, count);
        if p.files.len() > o.files && budget > 0 {
            budget = budget.saturating_sub(p.files.len() - o.files);
            continue;
        }
        // Filler: Loopmaster manifests and notes at the root.
        while p.files.len() < o.files {
            if rng.chance(0.5) {
                plan::manifest(&mut p, &mut rng, "automation/");
            } else {
                plan::doc(&mut p, &mut rng);
            }
        }
        return p;
    }
}

/// Renders the files of `plan` with indices `pick(i)` on `threads` threads,
/// calling `sink` with (index, bytes) on the rendering thread; returns the
/// line of every expected diagnostic, by expect index.
fn render_all(
    plan: &plan::Plan,
    seed: u64,
    threads: usize,
    sink: &(dyn Fn(usize, Vec<u8>) -> std::io::Result<()> + Sync),
) -> std::io::Result<Vec<u32>> {
    let mut by_path: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (e, x) in plan.expects.iter().enumerate() {
        by_path.entry(x.path.as_str()).or_default().push(e);
    }
    let n = plan.files.len();
    let threads = threads.clamp(1, 16);
    let results: Vec<std::io::Result<Vec<(usize, u32)>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let by_path = &by_path;
                s.spawn(move || {
                    let mut lines = Vec::new();
                    for i in (t..n).step_by(threads) {
                        let bytes = render::render(plan, seed, i);
                        if let Some(es) = by_path.get(plan.files[i].path.as_str()) {
                            for &e in es {
                                let needle = &plan.expects[e].needle;
                                let line = render::line_of(&bytes, needle).unwrap_or_else(|| {
                                    panic!(
                                        "generator bug: `{}` not found in {}",
                                        needle.escape_debug(),
                                        plan.files[i].path
                                    )
                                });
                                lines.push((e, line));
                            }
                        }
                        sink(i, bytes)?;
                    }
                    Ok(lines)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("render thread"))
            .collect()
    });
    let mut out = vec![0; plan.expects.len()];
    for r in results {
        for (e, line) in r? {
            out[e] = line;
        }
    }
    Ok(out)
}

fn manifest_of(o: &GenOptions, plan: &plan::Plan, lines: &[u32], bytes: u64) -> Manifest {
    let mut faults: Vec<Fault> = plan
        .expects
        .iter()
        .zip(lines)
        .map(|(x, &line)| Fault {
            path: x.path.clone(),
            line,
            rule: x.rule.to_string(),
            id: x.fault,
            kind: x.kind.to_string(),
            form: x.form.to_string(),
            companion: x.companion,
        })
        .collect();
    faults.sort();
    Manifest {
        options: *o,
        files: plan.files.len(),
        bytes,
        injected: plan.faults,
        faults,
    }
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Generates a tree in memory: `files` files (sorted by path) and the manifest.
///
/// ```
/// let g = xtask::gen_monorepo::generate(200, 7, 0.05);
/// assert_eq!(g.files.len(), 200);
/// assert_eq!(g.manifest.injected, 10);
/// ```
pub fn generate(files: usize, seed: u64, fault_rate: f64) -> Generated {
    let o = GenOptions {
        files,
        seed,
        fault_rate,
    };
    let plan = make_plan(&o);
    let slots: Vec<std::sync::Mutex<Vec<u8>>> = (0..plan.files.len())
        .map(|_| std::sync::Mutex::new(Vec::new()))
        .collect();
    let lines = render_all(&plan, seed, threads(), &|i, b| {
        *slots[i].lock().expect("slot") = b;
        Ok(())
    })
    .expect("rendering in memory does no IO");
    let mut out: Vec<(PathBuf, Vec<u8>)> = plan
        .files
        .iter()
        .zip(slots)
        .map(|(f, b)| (PathBuf::from(&f.path), b.into_inner().expect("slot")))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    let bytes = out.iter().map(|(_, b)| b.len() as u64).sum();
    Generated {
        manifest: manifest_of(&o, &plan, &lines, bytes),
        files: out,
    }
}

/// Writes a generated tree into `dir` (created; it must not exist or be
/// empty, or be an earlier generated tree, which is replaced) with its
/// manifest `faults.json`, and returns the manifest.
pub fn write_tree(o: &GenOptions, dir: &Path) -> anyhow::Result<Manifest> {
    if dir.exists() {
        let empty = std::fs::read_dir(dir)?.next().is_none();
        if !empty {
            if !dir.join(MANIFEST_FILE).is_file() {
                bail!(
                    "{} exists and is not a generated tree (no {MANIFEST_FILE}); refusing to replace it",
                    dir.display()
                );
            }
            std::fs::remove_dir_all(dir)
                .with_context(|| format!("removing the old tree {}", dir.display()))?;
        }
    }
    std::fs::create_dir_all(dir)?;
    let plan = make_plan(o);
    // Every folder once, parents first (sorted), so writing is one call per file.
    let folders: std::collections::BTreeSet<&str> = plan
        .files
        .iter()
        .filter_map(|f| f.path.rsplit_once('/').map(|(d, _)| d))
        .collect();
    for f in folders {
        match std::fs::create_dir(dir.join(f)) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(dir.join(f))?
            }
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(e.into()),
            _ => {}
        }
    }
    let bytes = std::sync::atomic::AtomicU64::new(0);
    let lines = render_all(&plan, o.seed, threads(), &|i, b| {
        bytes.fetch_add(b.len() as u64, std::sync::atomic::Ordering::Relaxed);
        std::fs::write(dir.join(&plan.files[i].path), b)
    })
    .with_context(|| format!("writing into {}", dir.display()))?;
    let m = manifest_of(o, &plan, &lines, bytes.into_inner());
    std::fs::write(dir.join(MANIFEST_FILE), m.to_json())?;
    Ok(m)
}

/// True when `dir` holds a tree generated by this generator version with
/// options `o` (its `faults.json` says so), so it can be reused.
pub fn is_current(o: &GenOptions, dir: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join(MANIFEST_FILE)) else {
        return false;
    };
    match Manifest::header_from_json(&text) {
        Some((generator, opts, _, _)) => {
            generator == format!("skein gen-monorepo v{GENERATOR_VERSION}") && opts == *o
        }
        None => false,
    }
}

const USAGE: &str = "usage: cargo xtask gen-monorepo --files N --seed S --out DIR [--fault-rate R]

Writes a deterministic monorepo of N files into DIR (replacing an earlier
generated tree there) and DIR/faults.json, the diagnostics its injected
faults must produce. R: faults per file (default 0.005).";

/// Runs the task on its arguments (after the task name).
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    let mut files = None;
    let mut seed = None;
    let mut out = None;
    let mut rate = DEFAULT_FAULT_RATE;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .with_context(|| format!("{name} needs a value\n{USAGE}"))
        };
        match a.as_str() {
            "--files" => files = Some(value("--files")?.parse::<usize>()?),
            "--seed" => seed = Some(value("--seed")?.parse::<u64>()?),
            "--out" => out = Some(PathBuf::from(value("--out")?)),
            "--fault-rate" => rate = value("--fault-rate")?.parse::<f64>()?,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            other => {
                eprintln!("xtask gen-monorepo: unknown argument `{other}`\n{USAGE}");
                return Ok(ExitCode::from(2));
            }
        }
    }
    let (Some(files), Some(seed), Some(out)) = (files, seed, out) else {
        eprintln!("xtask gen-monorepo: --files, --seed and --out are required\n{USAGE}");
        return Ok(ExitCode::from(2));
    };
    if !(0.0..=1.0).contains(&rate) {
        bail!("--fault-rate must be between 0 and 1");
    }
    let o = GenOptions {
        files,
        seed,
        fault_rate: rate,
    };
    let start = Instant::now();
    let m = write_tree(&o, &out)?;
    let per_rule: Vec<String> = m
        .per_rule()
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    println!(
        "generated {} files ({:.1} MB) in {} in {:.2} s: {} faults injected, {} expected diagnostics ({})",
        m.files,
        m.bytes as f64 / 1e6,
        out.display(),
        start.elapsed().as_secs_f64(),
        m.injected,
        m.faults.len(),
        per_rule.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}
