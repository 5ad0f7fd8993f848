//! `cargo xtask bench-report`: measures the release binary end to end on
//! generated monorepos and on the real corpus, against the read+parse floor
//! and a peer linter measured in the same run, and writes `BENCHMARKS.md`
//! with every target of issue #6 stated as met or missed.
//!
//! Method:
//! - `cargo build --release -p skein -p skein-benches --bins` (the `skein`
//!   binary and the `skein-floor` floor binary);
//! - generated trees under `target/bench-monorepo/gen-<N>/` (seed
//!   [`SEED`], fault rate [`FAULT_RATE`]), reused while their `faults.json`
//!   matches;
//! - per dataset: one warm-up floor run (page cache), then for each thread
//!   count `runs` alternating runs of `skein check DIR --format json -o FILE
//!   --threads T` and `skein-floor DIR --threads T`, each its own process
//!   started by the small `skein-measure` helper: wall time from spawn to
//!   exit and peak RSS (`ru_maxrss` of that child, from `wait4`), medians
//!   reported;
//! - the peer (agnix, from PyPI in `target/bench-peers/venv`, installed by
//!   `--install-peers`) run the same number of times at each dataset root;
//! - skein's findings on generated trees compared with `faults.json`.

use crate::gen_monorepo::{self, GenOptions};
use anyhow::{Context, anyhow, bail};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// Seed of the generated monorepos of the report and of the benches.
pub const SEED: u64 = 20_250_601;

/// The heading of the first section of BENCHMARKS.md that `bench-report`
/// does not write (the `lsp` criterion bench's figures): it and every
/// section after it (where the memory goes, from `skein-heap`) are kept
/// across runs.
pub const LSP_SECTION: &str = "## Language server latency";

/// Fault rate of the generated monorepos (faults per file).
pub const FAULT_RATE: f64 = gen_monorepo::DEFAULT_FAULT_RATE;

/// The peer linter: PyPI package and version.
pub const PEER: (&str, &str) = ("agnix", "0.59.3");

/// The workspace root (the folder above `xtask/`).
pub fn workspace_root() -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    p.canonicalize().unwrap_or(p)
}

/// Folder of the generated tree of `n` files under `workspace`.
pub fn tree_dir(workspace: &Path, n: usize) -> PathBuf {
    workspace
        .join("target/bench-monorepo")
        .join(format!("gen-{n}"))
}

/// The generated tree of `n` files under `workspace/target/bench-monorepo/`,
/// written unless a current one is there; returns its folder.
pub fn ensure_tree(workspace: &Path, n: usize) -> anyhow::Result<PathBuf> {
    let dir = tree_dir(workspace, n);
    let o = GenOptions {
        files: n,
        seed: SEED,
        fault_rate: FAULT_RATE,
    };
    if !gen_monorepo::is_current(&o, &dir) {
        let start = Instant::now();
        let m = gen_monorepo::write_tree(&o, &dir)?;
        eprintln!(
            "[bench] generated {} files ({:.1} MB) in {} in {:.1} s",
            m.files,
            m.bytes as f64 / 1e6,
            dir.display(),
            start.elapsed().as_secs_f64()
        );
    }
    // Its own (empty) git repository: tools that honour the workspace's
    // `.gitignore` (`/target`), as agnix does, would otherwise see no file.
    // skein and the floor never enter `.git/`.
    if !dir.join(".git").exists() {
        let _ = Command::new("git")
            .args(["init", "--quiet"])
            .arg(&dir)
            .status();
    }
    Ok(dir)
}

/// One timed process.
#[derive(Debug, Clone, Copy)]
struct Sample {
    /// Seconds from spawn to exit.
    wall: f64,
    /// CPU seconds (user + system) the process used.
    cpu: f64,
    /// Peak resident set, bytes.
    rss: u64,
}

/// Runs measured processes through the `skein-measure` helper (see its doc:
/// the peak RSS a child reports includes the image of the process that
/// spawned it, so the spawner must be small; this `xtask` is not).
struct Meter {
    /// The `skein-measure` binary.
    helper: PathBuf,
    /// Where the helper writes its result.
    result: PathBuf,
}

impl Meter {
    /// Runs `program args` (in `cwd` when given) to completion; returns its
    /// wall time, peak RSS, exit status and standard output. Exit statuses
    /// other than 0 and 1 (1: findings) are errors.
    fn run(
        &self,
        program: &Path,
        args: &[&std::ffi::OsStr],
        cwd: Option<&Path>,
    ) -> anyhow::Result<(Sample, i32, String)> {
        let _ = std::fs::remove_file(&self.result);
        let mut cmd = Command::new(&self.helper);
        cmd.arg(&self.result).arg("--").arg(program).args(args);
        if let Some(dir) = cwd {
            cmd.current_dir(dir);
        }
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .with_context(|| format!("cannot run {}", self.helper.display()))?;
        // Read both pipes to the end (stderr on a thread) so the child never
        // blocks on a full pipe.
        let mut stderr = child.stderr.take().expect("piped");
        let err_thread = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let mut out = String::new();
        if let Some(mut o) = child.stdout.take() {
            o.read_to_string(&mut out)?;
        }
        let err = err_thread.join().unwrap_or_default();
        child.wait()?;
        let line = std::fs::read_to_string(&self.result)
            .with_context(|| format!("no measurement of {} (stderr: {err})", program.display()))?;
        let (sample, code) = parse_result(&line)?;
        if code != 0 && code != 1 {
            bail!("{} exited with status {code}:\n{err}", program.display());
        }
        Ok((sample, code, out))
    }
}

/// Parses the helper's `{"seconds":F,"cpu_seconds":F,"max_rss_kib":N,"status":N}` line.
fn parse_result(line: &str) -> anyhow::Result<(Sample, i32)> {
    let v: Value = serde_json::from_str(line.trim()).context("skein-measure result")?;
    let wall = v["seconds"].as_f64().context("seconds")?;
    let cpu = v["cpu_seconds"].as_f64().context("cpu_seconds")?;
    let kib = v["max_rss_kib"].as_u64().context("max_rss_kib")?;
    let code = v["status"].as_i64().context("status")? as i32;
    Ok((
        Sample {
            wall,
            cpu,
            rss: kib * 1024,
        },
        code,
    ))
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn median_wall(s: &[Sample]) -> f64 {
    median(s.iter().map(|x| x.wall).collect())
}

fn median_rss(s: &[Sample]) -> f64 {
    median(s.iter().map(|x| x.rss as f64).collect())
}

/// Diagnostics as sorted (rule, path, line).
type Diagnostics = Vec<(String, String, u32)>;

/// A dataset: a folder and, for generated trees, what it must give.
struct Dataset {
    label: String,
    dir: PathBuf,
    /// For a generated tree: (files, expected (rule, path, line)).
    generated: Option<(usize, Diagnostics)>,
}

/// What the floor binary printed.
#[derive(Debug, Clone, Copy, Default)]
struct FloorOut {
    all_files: u64,
    files: u64,
    bytes: u64,
}

/// skein's JSON summary of one run.
#[derive(Debug, Clone, Default)]
struct SkeinOut {
    files_read: u64,
    formats: usize,
    errors: u64,
    warnings: u64,
    infos: u64,
    diagnostics: Diagnostics,
}

struct Config {
    threads: usize,
    skein: Vec<Sample>,
    /// The floor as the pipeline parses (Markdown whole with agentmd).
    floor: Vec<Sample>,
    /// The floor with Markdown frontmatter only.
    floor_fm: Vec<Sample>,
}

struct PeerRun {
    samples: Vec<Sample>,
    files_checked: u64,
    findings: u64,
    rules: usize,
    levels: (u64, u64, u64),
}

struct Measured {
    dataset: Dataset,
    floor: FloorOut,
    skein: SkeinOut,
    configs: Vec<Config>,
    peer: Option<PeerRun>,
    cache: CacheRuns,
}

/// skein with its persistent cache, at the most threads: a cold run (empty
/// cache folder), a warm run with nothing changed, and a warm run after one
/// file changed (a byte appended to one `SKILL.md`, put back afterwards).
struct CacheRuns {
    cold: Vec<Sample>,
    warm: Vec<Sample>,
    one_changed: Vec<Sample>,
    /// The file changed, relative to the dataset's folder.
    changed: String,
}

const USAGE: &str =
    "usage: cargo xtask bench-report [--sizes 1000,10000,100000] [--out BENCHMARKS.md]
                           [--runs 3] [--threads 1,2] [--corpus DIR] [--install-peers] [--no-peer]

Builds the release binaries, generates (or reuses) the monorepos under
target/bench-monorepo/, measures skein end to end, the read+parse floor and
the peer linter (agnix, PyPI) on them and on the real corpus, and writes the
report (default: BENCHMARKS.md at the workspace root).";

/// Options of the task.
struct Opts {
    sizes: Vec<usize>,
    out: PathBuf,
    runs: usize,
    threads: Vec<usize>,
    corpus: PathBuf,
    install_peers: bool,
    peer: bool,
}

fn parse_list(s: &str) -> anyhow::Result<Vec<usize>> {
    s.split(',')
        .filter(|x| !x.is_empty())
        .map(|x| x.trim().parse::<usize>().map_err(|e| anyhow!("`{x}`: {e}")))
        .collect()
}

fn parse_args(args: &[String], workspace: &Path) -> anyhow::Result<Option<Opts>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut o = Opts {
        sizes: vec![1_000, 10_000, 100_000],
        out: workspace.join("BENCHMARKS.md"),
        runs: 3,
        threads: if cores > 1 { vec![1, cores] } else { vec![1] },
        corpus: workspace.join("../shared/corpus/real"),
        install_peers: false,
        peer: true,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| anyhow!("{a} needs a value"))
        };
        match a.as_str() {
            "--sizes" => o.sizes = parse_list(&value()?)?,
            "--out" => o.out = PathBuf::from(value()?),
            "--runs" => o.runs = value()?.parse()?,
            "--threads" => o.threads = parse_list(&value()?)?,
            "--corpus" => o.corpus = PathBuf::from(value()?),
            "--install-peers" => o.install_peers = true,
            "--no-peer" => o.peer = false,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            other => bail!("unknown argument `{other}`\n{USAGE}"),
        }
    }
    if o.runs == 0 || o.threads.is_empty() || o.threads.contains(&0) {
        bail!("--runs and every --threads value must be positive");
    }
    o.sizes.sort_unstable();
    o.sizes.dedup();
    o.threads.sort_unstable();
    o.threads.dedup();
    Ok(Some(o))
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn build(workspace: &Path) -> anyhow::Result<()> {
    eprintln!("[bench] cargo build --release -p skein -p skein-benches --bins");
    let status = Command::new(cargo())
        .current_dir(workspace)
        .args([
            "build",
            "--release",
            "-p",
            "skein",
            "-p",
            "skein-benches",
            "--bins",
        ])
        .status()
        .context("running cargo build")?;
    if !status.success() {
        bail!("cargo build --release failed");
    }
    Ok(())
}

fn peer_bin(workspace: &Path) -> PathBuf {
    workspace.join("target/bench-peers/venv/bin").join(PEER.0)
}

fn install_peer(workspace: &Path) -> anyhow::Result<()> {
    let venv = workspace.join("target/bench-peers/venv");
    if !venv.join("bin/pip").is_file() {
        eprintln!("[bench] python3 -m venv {}", venv.display());
        let s = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .context("running python3 -m venv")?;
        if !s.success() {
            bail!("python3 -m venv failed");
        }
    }
    let spec = format!("{}=={}", PEER.0, PEER.1);
    eprintln!("[bench] pip install {spec}");
    let s = Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", &spec])
        .status()
        .context("running pip")?;
    if !s.success() {
        bail!("pip install {spec} failed");
    }
    Ok(())
}

/// The 1, 5 and 15 minute load averages (`/proc/loadavg`): other work on
/// a shared machine shows here and in the timings.
fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

fn text_of(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// CPU model, logical CPUs, RAM, kernel, rustc, commit.
fn machine(workspace: &Path) -> Vec<(String, String)> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|l| l.trim_start_matches([' ', '\t', ':']).to_string())
        .unwrap_or_else(|| "unknown".into());
    let online = cpuinfo
        .lines()
        .filter(|l| l.starts_with("processor"))
        .count();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map(|kib| format!("{:.1} GiB", kib / 1024.0 / 1024.0))
        .unwrap_or_else(|| "unknown".into());
    let commit = text_of(
        "git",
        &[
            "-C",
            &workspace.to_string_lossy(),
            "rev-parse",
            "--short",
            "HEAD",
        ],
    )
    .unwrap_or_else(|| "unknown".into());
    let dirty = text_of(
        "git",
        &["-C", &workspace.to_string_lossy(), "status", "--porcelain"],
    )
    .is_some_and(|s| !s.is_empty());
    vec![
        (
            "CPU".into(),
            format!("{model}, {online} logical CPUs, {cores} available to skein"),
        ),
        ("RAM".into(), mem),
        (
            "OS".into(),
            text_of("uname", &["-sr"]).unwrap_or_else(|| "unknown".into()),
        ),
        (
            "rustc".into(),
            text_of("rustc", &["--version"]).unwrap_or_else(|| "unknown".into()),
        ),
        (
            "skein".into(),
            format!(
                "commit `{commit}`{}, release profile",
                if dirty {
                    " with uncommitted changes"
                } else {
                    ""
                }
            ),
        ),
    ]
}

fn parse_floor(out: &str) -> anyhow::Result<FloorOut> {
    let v: Value = serde_json::from_str(out.trim()).context("skein-floor output")?;
    let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    Ok(FloorOut {
        all_files: n("all_files"),
        files: n("files"),
        bytes: n("bytes"),
    })
}

/// A finding's path as the tree names it (`faults.json`): the report's
/// paths are from the folder skein ran in, `cwd` (issue #14), and the
/// report's `root` is the tree's absolute path. `path` as it is when it
/// lies outside `root`.
fn tree_path(path: &str, root: &Path, cwd: &Path) -> String {
    let mut abs = std::path::PathBuf::new();
    for c in cwd.join(path).components() {
        match c {
            std::path::Component::ParentDir => {
                abs.pop();
            }
            std::path::Component::CurDir => {}
            other => abs.push(other),
        }
    }
    match abs.strip_prefix(root) {
        Ok(rel) if !root.as_os_str().is_empty() => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        _ => path.to_string(),
    }
}

fn parse_skein(path: &Path) -> anyhow::Result<SkeinOut> {
    let text = std::fs::read_to_string(path)?;
    let v: Value = serde_json::from_str(&text).context("skein JSON report")?;
    let s = &v["summary"];
    let n = |k: &str| s.get(k).and_then(Value::as_u64).unwrap_or(0);
    let root = Path::new(v["root"].as_str().unwrap_or(""));
    let cwd = std::env::current_dir()?;
    let diagnostics = v["diagnostics"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| {
                    (
                        d["code"].as_str().unwrap_or("").to_string(),
                        tree_path(d["path"].as_str().unwrap_or(""), root, &cwd),
                        d["start"]["line"].as_u64().unwrap_or(0) as u32,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(SkeinOut {
        files_read: n("files_read"),
        formats: s["artifacts"].as_array().map_or(0, Vec::len),
        errors: n("errors"),
        warnings: n("warnings"),
        infos: n("infos"),
        diagnostics,
    })
}

fn run_peer(meter: &Meter, bin: &Path, d: &Dataset, runs: usize) -> anyhow::Result<PeerRun> {
    let mut samples = Vec::new();
    let mut last = String::new();
    for r in 0..runs {
        // `--max-files 0`: agnix stops at 10,000 files by default.
        let args: [&std::ffi::OsStr; 5] = [
            "--format".as_ref(),
            "json".as_ref(),
            "--max-files".as_ref(),
            "0".as_ref(),
            ".".as_ref(),
        ];
        let (s, _, out) = meter.run(bin, &args, Some(&d.dir))?;
        eprintln!(
            "[bench] {}: {} run {}/{runs}: {:.2} s, {:.0} MB",
            d.label,
            PEER.0,
            r + 1,
            s.wall,
            s.rss as f64 / 1e6
        );
        samples.push(s);
        last = out;
    }
    let v: Value = serde_json::from_str(&last).context("agnix JSON output")?;
    let diags = v["diagnostics"].as_array().cloned().unwrap_or_default();
    let rules: BTreeSet<&str> = diags.iter().filter_map(|d| d["rule"].as_str()).collect();
    let n = |k: &str| v["summary"].get(k).and_then(Value::as_u64).unwrap_or(0);
    Ok(PeerRun {
        samples,
        files_checked: v["files_checked"].as_u64().unwrap_or(0),
        findings: diags.len() as u64,
        rules: rules.len(),
        levels: (n("errors"), n("warnings"), n("info")),
    })
}

fn measure_dataset(
    meter: &Meter,
    d: Dataset,
    o: &Opts,
    bins: &(PathBuf, PathBuf),
    peer: Option<&Path>,
    scratch: &Path,
) -> anyhow::Result<Measured> {
    let (skein, floor_bin) = bins;
    let top = *o.threads.last().expect("threads");
    let dir = d.dir.as_os_str();
    // Warm-up: one floor run reads every artifact into the page cache.
    let top_s = top.to_string();
    let (_, _, out) = meter.run(
        floor_bin,
        &[dir, "--threads".as_ref(), top_s.as_ref()],
        None,
    )?;
    let mut floor = parse_floor(&out)?;
    let report = scratch.join(format!("skein-{}.json", d.label.replace(' ', "-")));
    let mut configs = Vec::new();
    for &t in &o.threads {
        let mut c = Config {
            threads: t,
            skein: Vec::new(),
            floor: Vec::new(),
            floor_fm: Vec::new(),
        };
        let ts = t.to_string();
        for r in 0..o.runs {
            let s = skein_check(meter, skein, &d.dir, &report, &ts, None)?;
            let (f, _, out) =
                meter.run(floor_bin, &[dir, "--threads".as_ref(), ts.as_ref()], None)?;
            floor = parse_floor(&out)?;
            let fm_args = [
                dir,
                "--threads".as_ref(),
                ts.as_ref(),
                "--frontmatter-only".as_ref(),
            ];
            let (ffm, _, _) = meter.run(floor_bin, &fm_args, None)?;
            eprintln!(
                "[bench] {}: {t} thread(s) run {}/{}: skein {:.3} s {:.0} MB, floor {:.3} s {:.0} MB, frontmatter-only floor {:.3} s",
                d.label,
                r + 1,
                o.runs,
                s.wall,
                s.rss as f64 / 1e6,
                f.wall,
                f.rss as f64 / 1e6,
                ffm.wall
            );
            c.skein.push(s);
            c.floor.push(f);
            c.floor_fm.push(ffm);
        }
        configs.push(c);
    }
    let skein_out = parse_skein(&report)?;
    let cache = measure_cache(meter, &d, o, skein, scratch, &report)?;
    let peer = match peer {
        Some(bin) => Some(run_peer(meter, bin, &d, o.runs)?),
        None => None,
    };
    Ok(Measured {
        dataset: d,
        floor,
        skein: skein_out,
        configs,
        peer,
        cache,
    })
}

/// Puts a changed file's bytes back when dropped (a failed run included),
/// so a generated tree stays current.
/// Puts a file's bytes back, then waits out the cache's racy window: a
/// file changed less than 2 s before a run started is not trusted by the
/// next run's stamps (`skein::cache`, `RACY_NS`, as git's racy-clean
/// rule), so without the wait the next cold run would record the restored
/// file as unsettled and the warm run after it would read it again: not
/// the "nothing changed" run it stands for (a CI checkout is older).
struct Restore<'a>(&'a Path, &'a [u8]);

impl Drop for Restore<'_> {
    fn drop(&mut self) {
        let _ = std::fs::write(self.0, self.1);
        std::thread::sleep(std::time::Duration::from_millis(2100));
    }
}

/// Runs `f` with a newline appended to the file `path`, whose bytes are
/// `original`, and puts them back after it (also when it fails).
fn with_one_file_changed<T>(
    path: &Path,
    original: &[u8],
    f: impl FnOnce() -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let _restore = Restore(path, original);
    let mut bytes = original.to_vec();
    bytes.push(b'\n');
    std::fs::write(path, &bytes)?;
    f()
}

/// One measured `skein check` of `dir` on `threads` threads, its JSON
/// report written to `report`, with the persistent cache in `cache` or,
/// when `None`, with `--no-cache`: the run both the end-to-end rows and
/// the cache columns time.
fn skein_check(
    meter: &Meter,
    skein: &Path,
    dir: &Path,
    report: &Path,
    threads: &str,
    cache: Option<&Path>,
) -> anyhow::Result<Sample> {
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "check".as_ref(),
        dir.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
        "-o".as_ref(),
        report.as_os_str(),
        "--threads".as_ref(),
        threads.as_ref(),
    ];
    match cache {
        Some(folder) => args.extend(["--cache-dir".as_ref(), folder.as_os_str()]),
        None => args.push("--no-cache".as_ref()),
    }
    let (s, _, _) = meter.run(skein, &args, None)?;
    Ok(s)
}

/// The first `SKILL.md` below `dir`, in path order (folders sorted).
fn first_skill(dir: &Path) -> Option<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| n != ".git"))
        .collect();
    entries.sort();
    for p in &entries {
        if p.file_name().is_some_and(|n| n == "SKILL.md") && p.is_file() {
            return Some(p.clone());
        }
    }
    entries
        .iter()
        .filter(|p| p.is_dir() && !p.is_symlink())
        .find_map(|p| first_skill(p))
}

/// Copies the folder `from` to `to` (links as links).
fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let (src, dst) = (e.path(), to.join(e.file_name()));
        let ft = e.file_type()?;
        if ft.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&src)?, &dst)?;
        } else if ft.is_dir() {
            copy_tree(&src, &dst)?;
        } else if ft.is_file() {
            std::fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}

/// skein's cold and warm runs with the persistent cache ([`CacheRuns`]), at
/// the most threads, each warm report checked byte for byte against the
/// cold one of the same contents and against the run without a cache. A
/// generated tree is changed in place (and put back); the real corpus,
/// read-only, is copied into `scratch` first.
fn measure_cache(
    meter: &Meter,
    d: &Dataset,
    o: &Opts,
    skein: &Path,
    scratch: &Path,
    no_cache_report: &Path,
) -> anyhow::Result<CacheRuns> {
    let label = d.label.replace(' ', "-");
    let dir = if d.generated.is_some() {
        d.dir.clone()
    } else {
        let copy = scratch.join(format!("{label}-copy"));
        if !copy.is_dir() {
            copy_tree(&d.dir, &copy)?;
        }
        // Its own project, as a generated tree is (not the workspace's,
        // whose `.gitignore` leaves `target/` out).
        if !copy.join(".git").exists() {
            let _ = Command::new("git")
                .args(["init", "--quiet"])
                .arg(&copy)
                .status();
        }
        copy
    };
    let cache = scratch.join(format!("cache-{label}"));
    let changed = first_skill(&dir).with_context(|| format!("no SKILL.md in {}", dir.display()))?;
    let original = std::fs::read(&changed)?;
    let ts = o.threads.last().expect("threads").to_string();
    let out = |name: &str| scratch.join(format!("skein-{label}-{name}.json"));
    let run = |name: &str| skein_check(meter, skein, &dir, &out(name), &ts, Some(&cache));
    let same = |a: &Path, b: &Path| -> anyhow::Result<()> {
        if std::fs::read(a)? != std::fs::read(b)? {
            bail!(
                "skein's cached report {} differs from {}",
                a.display(),
                b.display()
            );
        }
        Ok(())
    };
    let mut runs = CacheRuns {
        cold: Vec::new(),
        warm: Vec::new(),
        one_changed: Vec::new(),
        changed: changed
            .strip_prefix(&dir)
            .unwrap_or(&changed)
            .display()
            .to_string(),
    };
    for r in 0..o.runs {
        if cache.exists() {
            std::fs::remove_dir_all(&cache)?;
        }
        let cold = run("cold")?;
        let warm = run("warm")?;
        same(&out("cold"), &out("warm"))?;
        if d.generated.is_some() {
            same(&out("cold"), no_cache_report)?;
        }
        let one = with_one_file_changed(&changed, &original, || run("one-changed"))?;
        eprintln!(
            "[bench] {}: cache run {}/{}: cold {:.3} s {:.0} MB, warm {:.3} s {:.0} MB, one file changed {:.3} s {:.0} MB",
            d.label,
            r + 1,
            o.runs,
            cold.wall,
            cold.rss as f64 / 1e6,
            warm.wall,
            warm.rss as f64 / 1e6,
            one.wall,
            one.rss as f64 / 1e6
        );
        runs.cold.push(cold);
        runs.warm.push(warm);
        runs.one_changed.push(one);
    }
    // The changed run against a run without a cache of the same contents, once.
    with_one_file_changed(&changed, &original, || {
        let report = out("one-changed-cold");
        skein_check(meter, skein, &dir, &report, &ts, None)?;
        same(&out("one-changed"), &report)
    })?;
    Ok(runs)
}

/// Runs the task on its arguments (after the task name).
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let load_before = loadavg();
    let workspace = workspace_root();
    let Some(o) = parse_args(args, &workspace)? else {
        return Ok(ExitCode::SUCCESS);
    };
    build(&workspace)?;
    let bins = (
        workspace.join("target/release/skein"),
        workspace.join("target/release/skein-floor"),
    );
    let meter = Meter {
        helper: workspace.join("target/release/skein-measure"),
        result: workspace.join("target/bench-monorepo/out/measure.json"),
    };
    if o.install_peers {
        install_peer(&workspace)?;
    }
    let peer = peer_bin(&workspace);
    let peer = (o.peer && peer.is_file()).then_some(peer);
    let peer_version = peer
        .as_ref()
        .and_then(|p| text_of(&p.to_string_lossy(), &["--version"]));
    let scratch = workspace.join("target/bench-monorepo/out");
    std::fs::create_dir_all(&scratch)?;

    let mut datasets = Vec::new();
    if o.corpus.is_dir() {
        datasets.push(Dataset {
            label: "real corpus".into(),
            dir: o.corpus.canonicalize()?,
            generated: None,
        });
    } else {
        eprintln!(
            "[bench] {} is absent: the real-corpus row is not measured",
            o.corpus.display()
        );
    }
    let gen_started = Instant::now();
    for &n in &o.sizes {
        let dir = ensure_tree(&workspace, n)?;
        let text = std::fs::read_to_string(dir.join(gen_monorepo::MANIFEST_FILE))?;
        let v: Value = serde_json::from_str(&text)?;
        let mut expected: Vec<(String, String, u32)> = v["faults"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|f| {
                        (
                            f["rule"].as_str().unwrap_or("").to_string(),
                            f["path"].as_str().unwrap_or("").to_string(),
                            f["line"].as_u64().unwrap_or(0) as u32,
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        expected.sort();
        datasets.push(Dataset {
            label: format!("generated {}", size_label(n)),
            dir,
            generated: Some((n, expected)),
        });
    }
    let gen_secs = gen_started.elapsed().as_secs_f64();
    let mut results = Vec::new();
    for d in datasets {
        results.push(measure_dataset(
            &meter,
            d,
            &o,
            &bins,
            peer.as_deref(),
            &scratch,
        )?);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let mut machine = machine(&workspace);
    let (base, _, _) = meter.run(Path::new("true"), &[], None)?;
    machine.push((
        "RSS measurement floor".into(),
        format!(
            "{} MB: `true` measured the same way (Linux counts the image a process had before `exec` in its peak RSS, so every peak below includes up to this much of the `skein-measure` helper)",
            mb(base.rss as f64)
        ),
    ));
    machine.push((
        "load average (1, 5, 15 min)".into(),
        format!(
            "{load_before} when the run started, {} when it ended (the machine is shared; other work shows in the timings)",
            loadavg()
        ),
    ));
    let md = report(&Report {
        machine,
        opts: &o,
        results: &results,
        peer_version,
        gen_secs,
        elapsed,
    });
    // The language server's latency section comes from another bench
    // (`cargo bench -p skein-benches --bench lsp`) and what follows it:
    // kept as they are.
    let mut md = md;
    if let Ok(old) = std::fs::read_to_string(&o.out)
        && let Some(at) = old.find(LSP_SECTION)
    {
        md.push('\n');
        md.push_str(&old[at..]);
    }
    std::fs::write(&o.out, md).with_context(|| format!("writing {}", o.out.display()))?;
    eprintln!(
        "[bench] wrote {} in {:.0} s",
        o.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn size_label(n: usize) -> String {
    if n >= 1000 && n.is_multiple_of(1000) {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

struct Report<'a> {
    machine: Vec<(String, String)>,
    opts: &'a Opts,
    results: &'a [Measured],
    peer_version: Option<String>,
    gen_secs: f64,
    elapsed: f64,
}

fn mb(bytes: f64) -> String {
    format!("{:.1}", bytes / 1e6)
}

fn secs(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.3} s")
    } else {
        format!("{s:.2} s")
    }
}

/// Recall and precision of skein's (rule, path, line) against the manifest.
fn accuracy(
    got: &[(String, String, u32)],
    want: &[(String, String, u32)],
) -> (usize, usize, usize) {
    let mut g: BTreeMap<&(String, String, u32), usize> = BTreeMap::new();
    for x in got {
        *g.entry(x).or_default() += 1;
    }
    let mut tp = 0;
    let mut missed = 0;
    for w in want {
        match g.get_mut(w) {
            Some(n) if *n > 0 => {
                *n -= 1;
                tp += 1;
            }
            _ => missed += 1,
        }
    }
    let extra = g.values().sum();
    (tp, missed, extra)
}

/// Builds BENCHMARKS.md.
fn report(r: &Report) -> String {
    let o = r.opts;
    let top = *o.threads.last().expect("threads");
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Benchmarks\n\nWritten by `cargo xtask bench-report` ({} run{} per configuration, medians). Every figure\nbelow comes from that one run, floor and peer included; run it again to refresh them\n(it took {:.0} s here, of which {:.0} s generating trees that were not already there).\n",
        o.runs,
        if o.runs == 1 { "" } else { "s" },
        r.elapsed,
        r.gen_secs
    );
    md.push_str("## Machine\n\n| | |\n|---|---|\n");
    for (k, v) in &r.machine {
        let _ = writeln!(md, "| {k} | {v} |");
    }

    // Datasets.
    md.push_str("\n## Datasets\n\n| dataset | files in tree | artifacts read | MB read | formats | skein findings (error / warning / info) | injected faults found (recall, precision) |\n|---|---:|---:|---:|---:|---|---|\n");
    for x in r.results {
        let s = &x.skein;
        let acc = match &x.dataset.generated {
            Some((_, want)) => {
                let (tp, missed, extra) = accuracy(&s.diagnostics, want);
                let recall = if want.is_empty() {
                    100.0
                } else {
                    100.0 * tp as f64 / want.len() as f64
                };
                let precision = if tp + extra == 0 {
                    100.0
                } else {
                    100.0 * tp as f64 / (tp + extra) as f64
                };
                format!(
                    "{tp} of {} expected diagnostics ({recall:.1}%, {precision:.1}%; {missed} missed, {extra} extra)",
                    want.len()
                )
            }
            None => "not generated".into(),
        };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} / {} / {} | {acc} |",
            x.dataset.label,
            x.floor.all_files,
            x.floor.files,
            mb(x.floor.bytes as f64),
            s.formats,
            s.errors,
            s.warnings,
            s.infos,
        );
    }
    md.push_str("\n`artifacts read`: files whose path names an artifact format, and the files of skills' folders
(references, scripts): what skein and the floor read;\n`MB read`: their bytes (MB = 10^6 bytes, GB = 10^9 bytes). The generated trees come from\n");
    let _ = writeln!(
        md,
        "`cargo xtask gen-monorepo --files N --seed {SEED} --fault-rate {FAULT_RATE}`; their `faults.json`\nlists every diagnostic the injected faults must produce (rule, path, line).\n"
    );

    // End to end vs floor.
    md.push_str("## End to end and the read+parse floor\n\n| dataset | threads | skein wall | artifacts/s | MB/s | skein peak RSS (MB) | RSS ÷ bytes read | floor wall | floor peak RSS (MB) | skein ÷ floor | frontmatter-only floor wall | skein ÷ that floor |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for x in r.results {
        for c in &x.configs {
            let w = median_wall(&c.skein);
            let fw = median_wall(&c.floor);
            let ffw = median_wall(&c.floor_fm);
            let rss = median_rss(&c.skein);
            let _ = writeln!(
                md,
                "| {} | {} | {} | {:.0} | {:.1} | {} | {:.2} | {} | {} | {:.2}× | {} | {:.2}× |",
                x.dataset.label,
                c.threads,
                secs(w),
                x.floor.files as f64 / w,
                x.floor.bytes as f64 / 1e6 / w,
                mb(rss),
                rss / x.floor.bytes.max(1) as f64,
                secs(fw),
                mb(median_rss(&c.floor)),
                w / fw,
                secs(ffw),
                w / ffw
            );
        }
    }
    md.push_str("\nskein: `target/release/skein check DIR --format json -o FILE --threads T --no-cache` (exit status 1 is\nexpected: the trees have findings). Floor: `target/release/skein-floor DIR --threads T`, skein's\nown walker, then read every file skein reads (artifacts and the files of skills' folders) and\ntree-sitter-parse it as the pipeline does (JSON and YAML whole; a Markdown file whole with the\nagentmd grammar when a rule reads its body, a LOOP.md or a body that may hold a link or a comment,\nor a skill's reference that may link a file, then its frontmatter as YAML in place; a script is\nread only) on T rayon threads, in the pipeline's order (grouped by format), nothing else. The\nfrontmatter-only floor (`--frontmatter-only`) parses only the frontmatter of Markdown files, as\nthe pipeline did before it read bodies. Both are separate processes started by\n`target/release/skein-measure`, timed from spawn to exit; peak RSS is that process's `ru_maxrss`\n(from `wait4`). Each generated tree is its own empty git repository (`git init`), so tools that\nhonour the workspace's `.gitignore` (`/target`) see its files; skein and the floor skip `.git/`.\n");

    // Scaling.
    md.push_str("\n## Scaling\n\n| dataset | ");
    let _ = write!(md, "1 → {top} threads speedup | ");
    let _ = write!(md, "skein CPU ÷ wall at 1 / {top} threads | ");
    md.push_str("files | skein wall (most threads) | growth vs previous size |\n|---|---:|---:|---:|---:|---:|\n");
    let mut prev: Option<(usize, f64)> = None;
    for x in r.results {
        let one = x
            .configs
            .first()
            .map(|c| median_wall(&c.skein))
            .unwrap_or(f64::NAN);
        let many = x
            .configs
            .last()
            .map(|c| median_wall(&c.skein))
            .unwrap_or(f64::NAN);
        let growth = match (&x.dataset.generated, prev) {
            (Some((n, _)), Some((pn, pw))) => {
                format!(
                    "{:.1}× time for {:.0}× files",
                    many / pw,
                    *n as f64 / pn as f64
                )
            }
            _ => "—".into(),
        };
        if let Some((n, _)) = &x.dataset.generated {
            prev = Some((*n, many));
        }
        let par = |c: Option<&Config>| {
            c.map(|c| {
                let cpu = median(c.skein.iter().map(|s| s.cpu).collect());
                format!("{:.2}", cpu / median_wall(&c.skein))
            })
            .unwrap_or_else(|| "—".into())
        };
        let _ = writeln!(
            md,
            "| {} | {:.2}× | {} / {} | {} | {} | {growth} |",
            x.dataset.label,
            one / many,
            par(x.configs.first()),
            par(x.configs.last()),
            x.floor.all_files,
            secs(many)
        );
    }

    // Cache.
    let _ = writeln!(
        md,
        "\n## Persistent cache\n\nskein's cache (`.skein_cache/`, issue #17) with {top} threads: **cold** (empty cache folder: every file\ndecoded, the cache written), **warm, nothing changed** (the run before's result replayed: no folder\nlisted when the stamps of the folders the last walk entered are unchanged, no file read when\nits stamp is unchanged), **warm, one file changed** (one byte appended to one\n`SKILL.md`: that file decoded, every other file's decoded state and local findings read from the\ncache, the graph and repository passes run again). Each warm report was checked byte for byte\nagainst the cold one (and, one file changed, against a run without a cache of the same contents).\n"
    );
    md.push_str("| dataset | no cache wall | cold wall | cold peak RSS (MB) | warm wall | warm peak RSS (MB) | warm ÷ cold | one changed wall | one changed peak RSS (MB) | one changed ÷ cold | file changed |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for x in r.results {
        let c = &x.cache;
        let no_cache = x
            .configs
            .last()
            .map(|c| median_wall(&c.skein))
            .unwrap_or(f64::NAN);
        let cold = median_wall(&c.cold);
        let warm = median_wall(&c.warm);
        let one = median_wall(&c.one_changed);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {:.1}% | {} | {} | {:.1}% | `{}` |",
            x.dataset.label,
            secs(no_cache),
            secs(cold),
            mb(median_rss(&c.cold)),
            secs(warm),
            mb(median_rss(&c.warm)),
            100.0 * warm / cold,
            secs(one),
            mb(median_rss(&c.one_changed)),
            100.0 * one / cold,
            c.changed
        );
    }
    let _ = writeln!(
        md,
        "\nskein: `target/release/skein check DIR --format json -o FILE --threads {top} --cache-dir CACHE`\n(the real corpus, read-only, on a copy in `target/bench-monorepo/out/`); no cache: the end-to-end\nrun above (`--no-cache`)."
    );

    // Peer.
    let _ = writeln!(md, "\n## Side by side with a peer linter\n");
    match &r.peer_version {
        Some(v) => {
            let _ = writeln!(
                md,
                "Peer: **{v}** (PyPI wheel `{}=={}`, a prebuilt Rust binary), installed by `cargo xtask bench-report\n--install-peers` into `target/bench-peers/venv`, run as `agnix --format json --max-files 0 .` at each dataset root (one\nprocess, its own thread pool; `--max-files 0` lifts its default limit of 10,000 files) against skein with {top} threads.\n",
                PEER.0, PEER.1
            );
            md.push_str("| dataset | agnix wall | agnix peak RSS (MB) | files agnix checked | agnix findings (error / warning / info; rules fired) | skein wall | files skein read | skein findings | agnix ÷ skein (wall) |\n|---|---:|---:|---:|---|---:|---:|---:|---:|\n");
            for x in r.results {
                let Some(p) = &x.peer else { continue };
                let sw = x
                    .configs
                    .last()
                    .map(|c| median_wall(&c.skein))
                    .unwrap_or(f64::NAN);
                let pw = median_wall(&p.samples);
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} | {} ({} / {} / {}; {} rules) | {} | {} | {} | {:.2}× |",
                    x.dataset.label,
                    secs(pw),
                    mb(median_rss(&p.samples)),
                    p.files_checked,
                    p.findings,
                    p.levels.0,
                    p.levels.1,
                    p.levels.2,
                    p.rules,
                    secs(sw),
                    x.skein.files_read,
                    x.skein.errors + x.skein.warnings + x.skein.infos,
                    pw / sw
                );
            }
            md.push_str("\nWhat each checked. **skein**: every file whose path names one of its artifact formats (SKILL.md,\nskilldrop loops, LOOP.md, packs, catalogues and vocabularies, Loom agent specs, Loopmaster\nmanifests, OpenCode contracts and configs, Bailey assistants, Claude and Agent Plugins manifests,\nmarketplaces, plugin agents and commands, hooks, MCP configs): syntax, each format's embedded\nJSON Schema, and the graph passes over the whole repository (`skein rules`: unreachable stages,\nuncapped cycles, duplicate gate ids, undeclared write tools, orphan and unknown skills, ...).\n**agnix**: skills, plugin manifests, marketplaces, agents, commands, hooks, MCP configs and memory\nfiles (CLAUDE.md, AGENTS.md) of the tools it targets, file by file plus some plugin-level checks;\nno loop, contract, agent-spec or assistant format and no repository graph, so none of the\ninjected graph faults is in its findings.\n");
        }
        None => {
            let _ = writeln!(
                md,
                "**Not run**: the peer linter is not installed. Install it with `cargo xtask bench-report\n--install-peers` (creates `target/bench-peers/venv` and runs `pip install {}=={}`; needs\n`python3` with `venv` and access to PyPI), then run the report again.",
                PEER.0, PEER.1
            );
        }
    }

    // Targets.
    md.push_str("\n## Targets\n\n| target | figure | status |\n|---|---|---|\n");
    for (t, fig, ok) in targets(r) {
        let status = match ok {
            Some(true) => "**met**",
            Some(false) => "**missed**",
            None => "not measured",
        };
        let _ = writeln!(md, "| {t} | {fig} | {status} |");
    }

    // Reproduce.
    let sizes: Vec<String> = o.sizes.iter().map(|n| n.to_string()).collect();
    let threads: Vec<String> = o.threads.iter().map(|n| n.to_string()).collect();
    let _ = writeln!(
        md,
        "\n## How to reproduce\n\nFrom the workspace root:\n\n```sh\ncargo xtask bench-report --install-peers   # once: the peer linter into target/bench-peers/venv\ncargo xtask bench-report --sizes {} --threads {} --runs {}\n```\n\nOne measurement by hand:\n\n```sh\ncargo build --release -p skein -p skein-benches --bins\ncargo xtask gen-monorepo --files 100000 --seed {SEED} --fault-rate {FAULT_RATE} --out target/bench-monorepo/gen-100000\n/usr/bin/time -v target/release/skein check target/bench-monorepo/gen-100000 --format json -o /dev/null --threads {top} --no-cache\nrm -rf target/skein-cache   # then twice: cold, then warm with nothing changed\n/usr/bin/time -v target/release/skein check target/bench-monorepo/gen-100000 --format json -o /dev/null --threads {top} --cache-dir target/skein-cache\n/usr/bin/time -v target/release/skein-floor target/bench-monorepo/gen-100000 --threads {top}\n(cd target/bench-monorepo/gen-100000 && /usr/bin/time -v ../../bench-peers/venv/bin/agnix --format json --max-files 0 . > /dev/null)\n```\n\nThe criterion benches (`cargo bench -p skein-benches`) measure the stages one by one: parse\nthroughput per format, decode+validate, graph build, passes, `check_files` and the floor, on\nthe real corpus and on generated trees of 1k, 10k and 100k files (`SKEIN_BENCH_SIZES=1000,10000`\nto skip the largest).",
        sizes.join(","),
        threads.join(","),
        o.runs
    );

    // Raw runs.
    md.push_str("\n## Every run\n\n| dataset | threads | skein wall (s) | skein CPU (s) | skein RSS (MB) | floor wall (s) | floor CPU (s) | floor RSS (MB) | frontmatter-only floor wall (s) |\n|---|---:|---|---|---|---|---|---|---|\n");
    let list =
        |v: &[Sample], f: fn(&Sample) -> String| v.iter().map(f).collect::<Vec<_>>().join(", ");
    for x in r.results {
        for c in &x.configs {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                x.dataset.label,
                c.threads,
                list(&c.skein, |s| format!("{:.3}", s.wall)),
                list(&c.skein, |s| format!("{:.3}", s.cpu)),
                list(&c.skein, |s| format!("{:.0}", s.rss as f64 / 1e6)),
                list(&c.floor, |s| format!("{:.3}", s.wall)),
                list(&c.floor, |s| format!("{:.3}", s.cpu)),
                list(&c.floor, |s| format!("{:.0}", s.rss as f64 / 1e6)),
                list(&c.floor_fm, |s| format!("{:.3}", s.wall)),
            );
        }
    }
    let _ = writeln!(
        md,
        "\nWith the persistent cache ({top} threads):\n\n| dataset | cold wall (s) | cold RSS (MB) | warm wall (s) | warm RSS (MB) | one changed wall (s) | one changed RSS (MB) |\n|---|---|---|---|---|---|---|"
    );
    for x in r.results {
        let c = &x.cache;
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} |",
            x.dataset.label,
            list(&c.cold, |s| format!("{:.3}", s.wall)),
            list(&c.cold, |s| format!("{:.0}", s.rss as f64 / 1e6)),
            list(&c.warm, |s| format!("{:.3}", s.wall)),
            list(&c.warm, |s| format!("{:.0}", s.rss as f64 / 1e6)),
            list(&c.one_changed, |s| format!("{:.3}", s.wall)),
            list(&c.one_changed, |s| format!("{:.0}", s.rss as f64 / 1e6)),
        );
    }
    md
}

/// Every target of issue #6: (target, figure, met?).
fn targets(r: &Report) -> Vec<(String, String, Option<bool>)> {
    let top = *r.opts.threads.last().expect("threads");
    let find = |pred: &dyn Fn(&Measured) -> bool| r.results.iter().find(|x| pred(x));
    let wall_at = |x: &Measured, t: usize| {
        x.configs
            .iter()
            .find(|c| c.threads == t)
            .map(|c| median_wall(&c.skein))
    };
    let floor_at = |x: &Measured, t: usize| {
        x.configs
            .iter()
            .find(|c| c.threads == t)
            .map(|c| median_wall(&c.floor))
            .unwrap_or(f64::NAN)
    };
    let rss_at = |x: &Measured, t: usize| {
        x.configs
            .iter()
            .find(|c| c.threads == t)
            .map(|c| median_rss(&c.skein))
    };
    let gen_n =
        |n: usize| move |x: &Measured| x.dataset.generated.as_ref().is_some_and(|g| g.0 == n);
    let mut out = Vec::new();

    // Real corpus.
    match find(&|x| x.dataset.generated.is_none()).and_then(|x| wall_at(x, top).map(|w| (x, w))) {
        Some((x, w)) => out.push((
            format!(
                "real corpus ({} files, {} MB read) end to end ≤ 0.5 s",
                x.floor.all_files,
                mb(x.floor.bytes as f64)
            ),
            format!("{} with {top} threads", secs(w)),
            Some(w <= 0.5),
        )),
        None => out.push((
            "real corpus end to end ≤ 0.5 s".into(),
            "corpus absent".into(),
            None,
        )),
    }

    // 100k.
    match find(&gen_n(100_000)) {
        Some(x) => {
            let w = wall_at(x, top).unwrap_or(f64::NAN);
            let rss = rss_at(x, top).unwrap_or(f64::NAN);
            out.push((
                "generated 100k-file monorepo end to end ≤ 5 s".into(),
                format!(
                    "{} with {top} threads ({:.1}× the target)",
                    secs(w),
                    w / 5.0
                ),
                Some(w <= 5.0),
            ));
            out.push((
                "generated 100k-file monorepo peak RSS ≤ 1.5 GB".into(),
                format!("{:.2} GB", rss / 1e9),
                Some(rss <= 1.5e9),
            ));
        }
        None => {
            out.push((
                "generated 100k-file monorepo end to end ≤ 5 s".into(),
                "size not run".into(),
                None,
            ));
            out.push((
                "generated 100k-file monorepo peak RSS ≤ 1.5 GB".into(),
                "size not run".into(),
                None,
            ));
        }
    }

    // End to end vs floor, every dataset, every thread count.
    let mut figs = Vec::new();
    let mut all = true;
    for x in r.results {
        for c in &x.configs {
            let ratio = median_wall(&c.skein) / median_wall(&c.floor);
            all &= ratio <= 1.3;
            figs.push(format!("{} ({}t) {ratio:.2}×", x.dataset.label, c.threads));
        }
    }
    out.push((
        "end to end ≤ 1.3× the read+parse floor of the same run (the floor parsing what the pipeline parses)".into(),
        figs.join("; "),
        (!figs.is_empty()).then_some(all),
    ));

    // Threads, with the floor's own speedup beside skein's: the floor is
    // embarrassingly parallel, so when it does not speed up either, the
    // machine did not give the run its cores (shared machine).
    if r.opts.threads.len() >= 2 && r.opts.threads[0] == 1 {
        let mut figs = Vec::new();
        let mut all = true;
        for x in r.results {
            if let (Some(a), Some(b)) = (wall_at(x, 1), wall_at(x, top)) {
                let sp = a / b;
                all &= sp >= 1.8;
                figs.push(format!(
                    "{} {sp:.2}× (floor {:.2}×)",
                    x.dataset.label,
                    floor_at(x, 1) / floor_at(x, top)
                ));
            }
        }
        out.push((
            format!(
                "{top} threads ≥ 1.8× faster than 1 thread end to end (in brackets: the floor's speedup in the same run; below about 1.8× it means the machine did not give the run {top} cores)"
            ),
            figs.join("; "),
            (!figs.is_empty()).then_some(all),
        ));
    } else {
        out.push((
            "2 threads ≥ 1.8× faster than 1 thread".into(),
            "run with --threads 1,2".into(),
            None,
        ));
    }

    // Growth.
    match (find(&gen_n(10_000)), find(&gen_n(100_000))) {
        (Some(a), Some(b)) => {
            let g = wall_at(b, top).unwrap_or(f64::NAN) / wall_at(a, top).unwrap_or(f64::NAN);
            out.push((
                "growth from 10k to 100k files within 12×".into(),
                format!("{g:.1}× ({top} threads)"),
                Some(g <= 12.0),
            ));
        }
        _ => out.push((
            "growth from 10k to 100k files within 12×".into(),
            "sizes not run".into(),
            None,
        )),
    }

    // Peer.
    let mut figs = Vec::new();
    for x in r.results {
        if let (Some(p), Some(w)) = (&x.peer, wall_at(x, top)) {
            figs.push(format!(
                "{}: agnix {} vs skein {} ({:.2}×; agnix checked {} files, skein read {})",
                x.dataset.label,
                secs(median_wall(&p.samples)),
                secs(w),
                median_wall(&p.samples) / w,
                p.files_checked,
                x.skein.files_read
            ));
        }
    }
    out.push((
        "side by side with a peer linter: ratio, and what each checked".into(),
        if figs.is_empty() {
            "peer not installed (see above)".into()
        } else {
            figs.join("; ")
        },
        (!figs.is_empty()).then_some(true),
    ));

    // Cache.
    match find(&gen_n(100_000)).or_else(|| {
        r.results
            .iter()
            .filter(|x| x.dataset.generated.is_some())
            .max_by_key(|x| x.floor.bytes)
    }) {
        Some(x) => {
            let (cold, warm) = (median_wall(&x.cache.cold), median_wall(&x.cache.warm));
            let ratio = warm / cold;
            out.push((
                "warm run with nothing changed ≤ 15% of the cold run (generated 100k, 2 threads)"
                    .into(),
                format!(
                    "{}, {top} threads: warm {} vs cold {} = {:.1}%",
                    x.dataset.label,
                    secs(warm),
                    secs(cold),
                    100.0 * ratio
                ),
                Some(ratio <= 0.15),
            ));
        }
        None => out.push((
            "warm run with nothing changed ≤ 15% of the cold run".into(),
            "no generated tree run".into(),
            None,
        )),
    }

    // Issue #17: the peers' memory and the floor in reach.
    match find(&gen_n(100_000)) {
        Some(x) => {
            let rss = rss_at(x, top).unwrap_or(f64::NAN);
            // The default run keeps a cache: its cold run counts too.
            let cached = (!x.cache.cold.is_empty()).then(|| median_rss(&x.cache.cold));
            out.push((
                format!("generated 100k peak RSS ≤ 250 MB (issue #17, {top} threads)"),
                match cached {
                    Some(c) => format!(
                        "{:.0} MB without a cache; {:.0} MB cold with the cache (`skein check`'s default)",
                        rss / 1e6,
                        c / 1e6
                    ),
                    None => format!("{:.0} MB", rss / 1e6),
                },
                Some(rss <= 250e6 && cached.is_none_or(|c| c <= 250e6)),
            ));
            let ratio = wall_at(x, top).unwrap_or(f64::NAN) / floor_at(x, top);
            out.push((
                format!("generated 100k end to end ≤ 1.5× the read+parse floor (issue #17, {top} threads)"),
                format!("{ratio:.2}×"),
                Some(ratio <= 1.5),
            ));
        }
        None => out.push((
            "generated 100k peak RSS ≤ 250 MB and ≤ 1.5× the floor (issue #17)".into(),
            "size not run".into(),
            None,
        )),
    }
    match find(&|x| x.dataset.generated.is_none()) {
        Some(x) if r.opts.threads.contains(&1) && r.opts.threads.contains(&2) => {
            let sp = wall_at(x, 1).unwrap_or(f64::NAN) / wall_at(x, 2).unwrap_or(f64::NAN);
            out.push((
                "real corpus 1 → 2 threads speedup ≥ 1.7× (issue #17; in brackets the floor's)"
                    .into(),
                format!("{sp:.2}× (floor {:.2}×)", floor_at(x, 1) / floor_at(x, 2)),
                Some(sp >= 1.7),
            ));
        }
        _ => out.push((
            "real corpus 1 → 2 threads speedup ≥ 1.7× (issue #17)".into(),
            "corpus absent or not run with --threads 1,2".into(),
            None,
        )),
    }

    // Memory vs bytes.
    match find(&gen_n(100_000)).or_else(|| {
        r.results
            .iter()
            .filter(|x| x.dataset.generated.is_some())
            .max_by_key(|x| x.floor.bytes)
    }) {
        Some(x) => {
            let rss = rss_at(x, top).unwrap_or(f64::NAN);
            let ratio = rss / x.floor.bytes.max(1) as f64;
            out.push((
                "peak memory ≤ 3× the bytes analyzed (generated monorepo)".into(),
                format!(
                    "{}: {} MB peak RSS for {} MB read = {ratio:.2}×",
                    x.dataset.label,
                    mb(rss),
                    mb(x.floor.bytes as f64)
                ),
                Some(ratio <= 3.0),
            ));
        }
        None => out.push((
            "peak memory ≤ 3× the bytes analyzed".into(),
            "no generated tree run".into(),
            None,
        )),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(Vec::new()).is_nan());
    }

    #[test]
    fn accuracy_counts_multisets() {
        let d = |r: &str, l| (r.to_string(), "a".to_string(), l);
        let want = vec![d("FLOW001", 3), d("FLOW001", 3), d("REF004", 2)];
        let got = vec![d("FLOW001", 3), d("REF004", 2), d("SCH001", 1)];
        assert_eq!(accuracy(&got, &want), (2, 1, 1));
    }

    #[test]
    fn report_paths_are_read_from_the_tree_root() {
        let root = Path::new("/w/target/bench-monorepo/gen-1000");
        let cwd = Path::new("/w");
        assert_eq!(
            tree_path("target/bench-monorepo/gen-1000/teams/a/SKILL.md", root, cwd),
            "teams/a/SKILL.md"
        );
        assert_eq!(
            tree_path("../w/target/bench-monorepo/gen-1000/x.json", root, cwd),
            "x.json"
        );
        assert_eq!(tree_path("elsewhere/x.json", root, cwd), "elsewhere/x.json");
    }

    #[test]
    fn helper_results() {
        let line =
            "{\"seconds\":1.500000,\"cpu_seconds\":2.25,\"max_rss_kib\":2048,\"status\":1}\n";
        let (s, code) = parse_result(line).expect("parses");
        assert_eq!(
            (s.wall, s.cpu, s.rss, code),
            (1.5, 2.25, 2 * 1024 * 1024, 1)
        );
        assert!(parse_result("{}").is_err());
    }
}
