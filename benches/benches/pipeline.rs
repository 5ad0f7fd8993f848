//! Criterion benches of the skein pipeline (DESIGN.md §2), stage by stage,
//! on the real corpus (loaded into memory once; generated inputs of the same
//! shapes when it is absent) and on generated monorepos of 1k, 10k and 100k
//! files (`xtask::gen_monorepo`, the seed of `cargo xtask bench-report`):
//!
//! - `parse/{yaml,json,markdown}/{corpus,gen-10k}`: the syntax layer
//!   (tree-sitter + conversion to a spanned `Document`), in bytes per second
//!   of whole files; Markdown is parsed whole with the agentmd grammar (body
//!   facts) and its frontmatter as YAML in place; one thread;
//! - `decode/validate/{corpus,gen-10k}`: classify, parse, schema-validate
//!   and decode every artifact into its typed model; one thread;
//! - `decode-by-format/{decode,validate}/<format>@<input>`: the same per
//!   format, and the schema validation alone (JSON view + validator) per
//!   format; one thread;
//! - `graph/{build,passes}/<input>`: the repository graph from decoded
//!   artifacts, and the rule passes over a built graph;
//! - `check_files/<input>`: the whole library pipeline on files in memory;
//! - `check/<input>`: `skein::check` from disk (walk, read, everything);
//! - `floor/read+parse/<input>`: the floor measured in the same run, from
//!   the same folder: skein's walker, read every artifact and
//!   tree-sitter-parse it as the pipeline does (JSON/YAML whole, Markdown
//!   whole with agentmd then its frontmatter as YAML in place), nothing
//!   else; `floor/read+parse-frontmatter/<input>`: the same with Markdown
//!   frontmatter only; and `floor/parse-only/corpus`: tree-sitter alone on
//!   the corpus in memory, one thread.
//!
//! Parallel benches (`graph/passes`, `check_files`, `check`, `floor/read+parse`)
//! use the global rayon pool (one thread per core). Generated trees on disk
//! live in `target/bench-monorepo/gen-<N>/` and are reused between runs.
//!
//! Run: `cargo bench -p skein-benches` (about 15 minutes on 2 cores, most of
//! it the 100k inputs). `SKEIN_BENCH_SIZES=1000,10000` picks the generated
//! sizes; `SKEIN_BENCH_CORPUS=<dir>` benches another real tree.

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use skein_benches::{
    BenchFile, FloorMode, FloorParsers, Inputs, corpus_root, floor, generated, generated_tree,
    load_corpus, split_inputs, synthetic, total_bytes,
};
use skein_syntax::{FileId, Parsers};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Inputs and whether they are the real corpus.
fn corpus() -> &'static (Inputs, bool) {
    static INPUTS: OnceLock<(Inputs, bool)> = OnceLock::new();
    INPUTS.get_or_init(|| match corpus_root() {
        Some(root) => {
            let inputs = load_corpus(&root);
            eprintln!(
                "corpus {}: {} YAML files ({} B), {} JSON artifacts ({} B), {} Markdown artifacts ({} B), {} artifacts",
                root.display(),
                inputs.yaml.len(),
                total_bytes(&inputs.yaml),
                inputs.json.len(),
                total_bytes(&inputs.json),
                inputs.markdown.len(),
                total_bytes(&inputs.markdown),
                inputs.artifacts.len(),
            );
            (inputs, true)
        }
        None => {
            eprintln!(
                "real corpus absent (../shared/corpus/real, or set SKEIN_BENCH_CORPUS): parser benches use generated inputs"
            );
            (synthetic(200), false)
        }
    })
}

/// Generated sizes to bench: `SKEIN_BENCH_SIZES` (comma-separated), else
/// 1k, 10k and 100k.
fn sizes() -> Vec<usize> {
    match std::env::var("SKEIN_BENCH_SIZES") {
        Ok(s) => s.split(',').filter_map(|x| x.trim().parse().ok()).collect(),
        Err(_) => vec![1_000, 10_000, 100_000],
    }
}

/// `gen-1k`, `gen-10k`, ...
fn label(n: usize) -> String {
    if n.is_multiple_of(1000) {
        format!("gen-{}k", n / 1000)
    } else {
        format!("gen-{n}")
    }
}

/// The generated monorepo of `n` files in memory (every file of the tree),
/// made once per process.
fn gen_files(n: usize) -> Arc<Vec<BenchFile>> {
    static CACHE: OnceLock<Mutex<BTreeMap<usize, Arc<Vec<BenchFile>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(BTreeMap::new()));
    let mut c = cache.lock().expect("cache");
    c.entry(n)
        .or_insert_with(|| {
            let files = generated(n);
            eprintln!(
                "generated {}: {} files, {} B",
                label(n),
                files.len(),
                total_bytes(&files)
            );
            Arc::new(files)
        })
        .clone()
}

/// The size parser and decode benches use: 10k when selected, else the
/// largest selected size not above it, else the smallest.
fn parse_size() -> Option<usize> {
    let s = sizes();
    s.iter()
        .copied()
        .filter(|&n| n <= 10_000)
        .max()
        .or_else(|| s.iter().copied().min())
}

fn to_input_files(files: &[BenchFile]) -> Vec<skein::InputFile> {
    files
        .iter()
        .map(|f| skein::InputFile::new(f.path.clone(), f.text.clone().into_bytes()))
        .collect()
}

/// (label, inputs) for the parser and decode benches.
fn parse_inputs() -> Vec<(String, Inputs)> {
    let mut v = vec![("corpus".to_string(), corpus().0.clone())];
    if let Some(n) = parse_size() {
        v.push((label(n), split_inputs(&gen_files(n))));
    }
    v
}

fn bench_parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    let mut parsers = Parsers::new();
    for (label, inputs) in parse_inputs() {
        group.throughput(Throughput::Bytes(total_bytes(&inputs.yaml)));
        group.bench_function(BenchmarkId::new("yaml", &label), |b| {
            b.iter(|| {
                for f in &inputs.yaml {
                    black_box(parsers.parse_yaml(FileId(0), black_box(&f.text)));
                }
            })
        });
        group.throughput(Throughput::Bytes(total_bytes(&inputs.json)));
        group.bench_function(BenchmarkId::new("json", &label), |b| {
            b.iter(|| {
                for f in &inputs.json {
                    black_box(parsers.parse_json(FileId(0), black_box(&f.text)));
                }
            })
        });
        group.throughput(Throughput::Bytes(total_bytes(&inputs.markdown)));
        group.bench_function(BenchmarkId::new("markdown", &label), |b| {
            b.iter(|| {
                for f in &inputs.markdown {
                    black_box(parsers.parse_markdown(FileId(0), black_box(&f.text)));
                }
            })
        });
    }
    group.finish();
}

/// Decodes each of `files` (as `skein check` does, one thread).
fn decode_all(parsers: &mut Parsers, files: &[(skein_model::Candidate, &BenchFile)]) {
    for (i, (candidate, f)) in files.iter().enumerate() {
        black_box(skein_model::decode(
            parsers,
            FileId(i as u32),
            *candidate,
            f.text.as_bytes(),
        ));
    }
}

/// Decode + schema validation of every artifact, one thread.
fn bench_decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode");
    let mut parsers = Parsers::new();
    for (label, inputs) in parse_inputs() {
        let files: Vec<(skein_model::Candidate, &BenchFile)> = inputs
            .artifacts
            .iter()
            .filter_map(|f| skein_model::classify_path(&f.path).map(|c| (c, f)))
            .collect();
        group.throughput(Throughput::Bytes(total_bytes(&inputs.artifacts)));
        group.bench_function(BenchmarkId::new("validate", &label), |b| {
            b.iter(|| decode_all(&mut parsers, &files))
        });
    }
    group.finish();
}

/// Decoding and schema validation per format (issue #17: what each format
/// costs beyond its parse), one thread: `decode-by-format/decode/<format>@<input>`
/// is the whole `skein_model::decode` of that format's files (parse, classify,
/// validate, typed model); `decode-by-format/validate/<format>@<input>` is the
/// schema's share alone: the JSON view of each already-parsed `Document` and
/// `skein_model::schema::validate` over it. Formats with fewer than 20 files
/// in an input are left out (too few to time).
fn bench_decode_by_format(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode-by-format");
    let mut parsers = Parsers::new();
    for (label, inputs) in parse_inputs() {
        let mut by_format: BTreeMap<&'static str, Vec<(skein_model::Candidate, &BenchFile)>> =
            BTreeMap::new();
        for f in &inputs.artifacts {
            if let Some(c) = skein_model::classify_path(&f.path) {
                by_format.entry(c.format.id()).or_default().push((c, f));
            }
        }
        for (format, files) in by_format.iter().filter(|(_, v)| v.len() >= 20) {
            let bytes: u64 = files.iter().map(|(_, f)| f.text.len() as u64).sum();
            group.throughput(Throughput::Bytes(bytes));
            group.bench_function(
                BenchmarkId::new("decode", format!("{format}@{label}")),
                |b| b.iter(|| decode_all(&mut parsers, files)),
            );
            // The documents as decoded (after content refinement, so each
            // is validated against the schema decode chose).
            let decoded: Vec<skein_model::Artifact> = files
                .iter()
                .enumerate()
                .filter_map(|(i, (candidate, f))| {
                    skein_model::decode(
                        &mut parsers,
                        FileId(i as u32),
                        *candidate,
                        f.text.as_bytes(),
                    )
                    .artifact
                })
                .filter(|a| a.format.schema_name().is_some())
                .collect();
            if decoded.is_empty() {
                continue;
            }
            group.bench_function(
                BenchmarkId::new("validate", format!("{format}@{label}")),
                |b| {
                    b.iter(|| {
                        for a in &decoded {
                            let limit = a.document.len() + skein_model::EXPANSION_LIMIT;
                            if let Ok(instance) = a.document.to_json(limit) {
                                black_box(skein_model::schema::validate(
                                    a.format,
                                    a.file,
                                    &a.document,
                                    &instance,
                                    skein_syntax::Span::new(0, 0),
                                ));
                            }
                        }
                    })
                },
            );
        }
    }
    group.finish();
}

/// (label, every file) for the whole-pipeline benches: the corpus when
/// present, then each generated size.
fn pipeline_inputs() -> Vec<(String, Arc<Vec<BenchFile>>)> {
    let mut v = Vec::new();
    let (inputs, real) = corpus();
    if *real {
        v.push(("corpus".to_string(), Arc::new(inputs.artifacts.clone())));
    } else {
        eprintln!("skipping the corpus in graph/check_files: the real corpus is absent");
    }
    for n in sizes() {
        v.push((label(n), gen_files(n)));
    }
    v
}

/// Graph build and the passes alone, on artifacts decoded once (DESIGN.md §4–§5).
fn bench_graph(c: &mut Criterion) {
    let mut group = c.benchmark_group("graph");
    for (label, files) in pipeline_inputs() {
        let report = skein::check_files(to_input_files(&files), &skein::Options::default());
        let repo_files: skein::skein_lint::RepoFiles =
            files.iter().map(|f| f.path.as_str()).collect();
        if files.len() >= 50_000 {
            group.sample_size(10);
        }
        group.bench_function(BenchmarkId::new("build", &label), |b| {
            b.iter(|| {
                black_box(skein_model::build_graph(
                    report.artifacts(),
                    report.sources(),
                ))
            })
        });
        let graph = skein_model::build_graph(report.artifacts(), report.sources());
        group.bench_function(BenchmarkId::new("passes", &label), |b| {
            b.iter(|| {
                let cx = skein::skein_lint::Context {
                    graph: &graph,
                    artifacts: report.artifacts(),
                    sources: report.sources(),
                    repo_files: &repo_files,
                    memo: skein::skein_lint::Memo::new(report.artifacts().len()),
                };
                black_box(skein::skein_lint::run(&cx))
            })
        });
    }
    group.finish();
}

/// The whole library pipeline on files in memory.
fn bench_check_files(c: &mut Criterion) {
    let options = skein::Options::default();
    let mut group = c.benchmark_group("check_files");
    for (label, files) in pipeline_inputs() {
        let artifacts: Vec<BenchFile> = files
            .iter()
            .filter(|f| skein_model::classify_path(&f.path).is_some())
            .cloned()
            .collect();
        group.throughput(Throughput::Bytes(total_bytes(&artifacts)));
        if files.len() >= 50_000 {
            group.sample_size(10);
        }
        group.bench_function(&label, |b| {
            // The file set is moved into check_files, so each iteration gets
            // a fresh copy; cloning is outside the measured time.
            b.iter_batched(
                || to_input_files(&files),
                |input| black_box(skein::check_files(input, &options)),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

/// (label, folder) for the disk benches: the corpus when present, then
/// each generated tree (written under `target/bench-monorepo/` once).
fn disk_inputs() -> Vec<(String, PathBuf)> {
    let mut v = Vec::new();
    if corpus().1
        && let Some(root) = corpus_root()
    {
        v.push(("corpus".to_string(), root));
    }
    for n in sizes() {
        v.push((label(n), generated_tree(n)));
    }
    v
}

/// `skein::check` from disk and the read+parse floor of the same folder,
/// side by side in one run.
fn bench_disk(c: &mut Criterion) {
    let threads = rayon::current_num_threads();
    let options = skein::Options {
        threads,
        ..skein::Options::default()
    };
    let inputs = disk_inputs();
    let mut check = c.benchmark_group("check");
    for (label, dir) in &inputs {
        let stats = floor(dir, threads, FloorMode::Full);
        check.throughput(Throughput::Bytes(stats.bytes));
        if stats.all_files >= 50_000 {
            check.sample_size(10);
        }
        check.bench_function(label, |b| {
            b.iter(|| black_box(skein::check(dir, &options).expect("readable")))
        });
    }
    check.finish();
    let mut group = c.benchmark_group("floor");
    for (label, dir) in &inputs {
        let stats = floor(dir, threads, FloorMode::Full);
        group.throughput(Throughput::Bytes(stats.bytes));
        if stats.all_files >= 50_000 {
            group.sample_size(10);
        }
        group.bench_function(BenchmarkId::new("read+parse", label), |b| {
            b.iter(|| black_box(floor(dir, threads, FloorMode::Full)))
        });
        group.bench_function(BenchmarkId::new("read+parse-frontmatter", label), |b| {
            b.iter(|| black_box(floor(dir, threads, FloorMode::FrontmatterOnly)))
        });
    }
    let (inputs, real) = corpus();
    if *real {
        let mut parsers = FloorParsers::new();
        group.throughput(Throughput::Bytes(total_bytes(&inputs.artifacts)));
        group.bench_function(BenchmarkId::new("parse-only", "corpus"), |b| {
            b.iter(|| {
                for f in &inputs.artifacts {
                    black_box(parsers.parse(&f.path, black_box(&f.text)));
                }
            })
        });
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_parse, bench_decode, bench_decode_by_format, bench_graph, bench_check_files, bench_disk
}
criterion_main!(benches);
