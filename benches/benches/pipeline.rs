//! Criterion benches of the skein pipeline (DESIGN.md §2), on the real
//! corpus loaded into memory once (or generated inputs when it is absent):
//!
//! - `parse/yaml`, `parse/json`, `parse/markdown-frontmatter`: the syntax layer
//!   (tree-sitter + conversion to a spanned `Document`), as bytes per second
//!   of whole files (for Markdown, the body counts though only the
//!   frontmatter is parsed);
//! - `check_files/corpus`: the whole library pipeline on every artifact file;
//! - `floor/tree-sitter`: tree-sitter parsing alone of the same files, the
//!   lower bound the pipeline is measured against. The floor runs on one
//!   thread; `check_files` uses the global rayon pool (one thread per core).
//!
//! Run: `cargo bench -p skein-benches` (a few minutes on 2 cores).
//! `SKEIN_BENCH_CORPUS=<dir>` benches another tree.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skein_benches::{BenchFile, Inputs, corpus_root, load_corpus, synthetic, total_bytes};
use skein_syntax::{FileId, Parsers, locate_frontmatter};
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;
use tree_sitter::{Parser, Point, Range};

/// Inputs and whether they are the real corpus.
fn inputs() -> &'static (Inputs, bool) {
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

fn bench_parse(c: &mut Criterion) {
    let (inputs, _) = inputs();
    let mut group = c.benchmark_group("parse");
    let mut parsers = Parsers::new();

    group.throughput(Throughput::Bytes(total_bytes(&inputs.yaml)));
    group.bench_function("yaml", |b| {
        b.iter(|| {
            for f in &inputs.yaml {
                black_box(parsers.parse_yaml(FileId(0), black_box(&f.text)));
            }
        })
    });

    group.throughput(Throughput::Bytes(total_bytes(&inputs.json)));
    group.bench_function("json", |b| {
        b.iter(|| {
            for f in &inputs.json {
                black_box(parsers.parse_json(FileId(0), black_box(&f.text)));
            }
        })
    });

    group.throughput(Throughput::Bytes(total_bytes(&inputs.markdown)));
    group.bench_function("markdown-frontmatter", |b| {
        b.iter(|| {
            for f in &inputs.markdown {
                black_box(parsers.parse_markdown(FileId(0), black_box(&f.text)));
            }
        })
    });
    group.finish();
}

fn to_input_files(files: &[BenchFile]) -> Vec<skein::InputFile> {
    files
        .iter()
        .map(|f| skein::InputFile::new(f.path.clone(), f.text.clone().into_bytes()))
        .collect()
}

fn bench_check_files(c: &mut Criterion) {
    let (inputs, real) = inputs();
    if !real {
        eprintln!("skipping check_files/corpus: the real corpus is absent");
        return;
    }
    let options = skein::Options::default();
    let mut group = c.benchmark_group("check_files");
    group.throughput(Throughput::Bytes(total_bytes(&inputs.artifacts)));
    group.bench_function("corpus", |b| {
        // The file set is moved into check_files, so each iteration gets a
        // fresh copy; cloning is outside the measured time.
        b.iter_batched(
            || to_input_files(&inputs.artifacts),
            |files| black_box(skein::check_files(files, &options)),
            criterion::BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// Graph build and the passes alone, on the artifacts of the real corpus
/// decoded once (DESIGN.md §4–§5).
fn bench_graph(c: &mut Criterion) {
    let (inputs, real) = inputs();
    if !real {
        eprintln!("skipping graph/*: the real corpus is absent");
        return;
    }
    let report = skein::check_files(
        to_input_files(&inputs.artifacts),
        &skein::Options::default(),
    );
    let repo_files: std::collections::BTreeSet<String> = report
        .sources()
        .iter()
        .map(|(_, f)| f.path().to_string())
        .collect();
    let mut group = c.benchmark_group("graph");
    group.bench_function("build", |b| {
        b.iter(|| {
            black_box(skein_model::build_graph(
                report.artifacts(),
                report.sources(),
            ))
        })
    });
    group.bench_function("build+passes", |b| {
        b.iter(|| {
            let graph = skein_model::build_graph(report.artifacts(), report.sources());
            let cx = skein::skein_lint::Context {
                graph: &graph,
                artifacts: report.artifacts(),
                sources: report.sources(),
                repo_files: &repo_files,
            };
            black_box(skein::skein_lint::run(&cx))
        })
    });
    group.finish();
}

/// Tree-sitter parsers for the floor bench.
struct Floor {
    yaml: Parser,
    json: Parser,
}

impl Floor {
    fn new() -> Self {
        let mut yaml = Parser::new();
        yaml.set_language(&tree_sitter_yaml::LANGUAGE.into())
            .expect("tree-sitter-yaml ABI");
        let mut json = Parser::new();
        json.set_language(&tree_sitter_json::LANGUAGE.into())
            .expect("tree-sitter-json ABI");
        Floor { yaml, json }
    }

    /// Parses one artifact as the pipeline does, without building a
    /// `Document`: JSON and YAML whole, Markdown's frontmatter in place.
    fn parse(&mut self, f: &BenchFile) -> Option<tree_sitter::Tree> {
        let candidate = skein_model::classify_path(&f.path)?;
        match candidate.syntax {
            skein_model::Syntax::Json => self.json.parse(&f.text, None),
            skein_model::Syntax::Yaml => self.yaml.parse(&f.text, None),
            skein_model::Syntax::Markdown => {
                let fm = locate_frontmatter(&f.text).ok()??;
                let (start, end) = (fm.content.start as usize, fm.content.end as usize);
                if start == end {
                    return None;
                }
                let range = Range {
                    start_byte: start,
                    end_byte: end,
                    start_point: point_of(&f.text, start),
                    end_point: point_of(&f.text, end),
                };
                self.yaml.set_included_ranges(&[range]).ok()?;
                let tree = self.yaml.parse(&f.text, None);
                self.yaml.set_included_ranges(&[]).ok()?;
                tree
            }
        }
    }
}

fn point_of(text: &str, offset: usize) -> Point {
    let before = &text.as_bytes()[..offset];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let column = before.iter().rev().take_while(|&&b| b != b'\n').count();
    Point { row, column }
}

fn bench_floor(c: &mut Criterion) {
    let (inputs, real) = inputs();
    if !real {
        eprintln!("skipping floor/tree-sitter: the real corpus is absent");
        return;
    }
    let mut floor = Floor::new();
    let mut group = c.benchmark_group("floor");
    group.throughput(Throughput::Bytes(total_bytes(&inputs.artifacts)));
    group.bench_function("tree-sitter", |b| {
        b.iter(|| {
            for f in &inputs.artifacts {
                black_box(floor.parse(black_box(f)));
            }
        })
    });
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
    targets = bench_parse, bench_check_files, bench_graph, bench_floor
}
criterion_main!(benches);
