//! `skein-heap DIR [--threads N] [--cache] [--full] [--parts]`: the
//! analysis of `skein check DIR --format json` (issue #17, bounded memory;
//! lean retention, as `skein check` runs, unless `--full`) under the
//! system allocator wrapped in a counter, for heap profiles. It prints, to
//! standard error, the peak of live heap bytes, the live bytes once the
//! report is made and once it is rendered, and the number of allocations.
//! `--parts` adds what the report holds, per format (texts, documents,
//! Markdown body facts, typed models, each as the bytes a copy of it
//! allocates), the sizes of the main types and the graph's heap (built
//! again from the report's artifacts).
//!
//! The `skein` binary allocates with mimalloc, which heap profilers do not
//! see; this one allocates with `malloc`, so `heaptrack
//! target/release/skein-heap DIR` (or `valgrind --tool=massif`) attributes
//! every byte to its call site. Its counts are of requested bytes: the
//! `skein` binary's peak RSS adds the allocator's own overhead, the
//! program image and the pages of freed memory not yet returned.
//!
//! `--cache` uses the persistent cache in its default folder, as `skein
//! check` does without `--no-cache` (run it twice for a warm run).

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The system allocator, counting live bytes, their peak and allocations.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
/// Set once every file is decoded (the repository half has begun).
static DECODED: AtomicBool = AtomicBool::new(false);
/// The peak of live bytes while the files are walked and decoded.
static PEAK_DECODING: AtomicUsize = AtomicUsize::new(0);

impl Counting {
    fn grew(by: usize) {
        let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
        PEAK.fetch_max(now, Ordering::Relaxed);
        if !DECODED.load(Ordering::Relaxed) {
            PEAK_DECODING.fetch_max(now, Ordering::Relaxed);
        }
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded to `System` with the same arguments; the
// counters are only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is (the caller's contract is `System`'s).
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            Counting::grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            Counting::grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            Counting::grew(new_size);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn mb(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn main() {
    let mut dir = None;
    let mut threads = 2;
    let mut cache = false;
    let mut parts = false;
    let mut full = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--threads" => threads = args.next().and_then(|n| n.parse().ok()).unwrap_or(2),
            "--cache" => cache = true,
            "--parts" => parts = true,
            "--full" => full = true,
            _ if dir.is_none() => dir = Some(a),
            _ => {
                eprintln!("usage: skein-heap DIR [--threads N] [--cache] [--full] [--parts]");
                std::process::exit(2);
            }
        }
    }
    let Some(dir) = dir else {
        eprintln!("usage: skein-heap DIR [--threads N] [--cache] [--full] [--parts]");
        std::process::exit(2);
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("worker threads");
    let options = skein::Options {
        threads,
        cache: cache.then(|| skein::cache::CacheSettings {
            replay: true,
            ..Default::default()
        }),
        retention: if full {
            skein::Retention::Full
        } else {
            skein::Retention::Lean
        },
        progress: Some(Arc::new(skein::Progress::default())),
        ..skein::Options::default()
    };
    let root = Path::new(&dir);
    // Watches the run's counters: once every file is decoded, the peak
    // is the repository half's (the flag is set within a millisecond).
    let progress = options.progress.clone().expect("set above");
    let watcher = std::thread::spawn(move || {
        while !DECODED.load(Ordering::Relaxed) {
            let (done, total) = progress.get();
            if total > 0 && done >= total {
                DECODED.store(true, Ordering::Relaxed);
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    });
    let report = match pool.install(|| skein::check(root, &options)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let after_check = LIVE.load(Ordering::Relaxed);
    DECODED.store(true, Ordering::Relaxed);
    watcher.join().ok();
    let doc = skein::skein_report::JsonReport {
        diagnostics: report.diagnostics(),
        sources: report.sources(),
        summary: report.summary(),
        root: Some(&dir),
    };
    let mut out = Vec::new();
    serde_json::to_writer_pretty(&mut out, &doc).expect("serialize");
    let after_render = LIVE.load(Ordering::Relaxed);
    let texts: usize = report.sources().iter().map(|(_, f)| f.text().len()).sum();
    eprintln!(
        "peak live heap while reading and decoding {}",
        mb(PEAK_DECODING.load(Ordering::Relaxed))
    );
    eprintln!(
        "peak live heap {}; live after the analysis {} (texts in the report {}, {} artifacts, {} findings), after rendering {}; {} allocations",
        mb(PEAK.load(Ordering::Relaxed)),
        mb(after_check),
        mb(texts),
        report.artifacts().len(),
        report.diagnostics().len(),
        mb(after_render),
        ALLOCATIONS.load(Ordering::Relaxed),
    );
    if let Some(r) = report.retention_stats() {
        eprintln!(
            "lean retention: {} texts read again{}",
            r.reread,
            if r.fell_back {
                "; fell back to a full run"
            } else {
                ""
            }
        );
    }
    if parts {
        // Each part's heap, as the bytes a copy of it allocates (a copy is
        // sized to its contents: the slack of grown vectors is not counted).
        fn size_of_copy<T: Clone>(v: &T) -> usize {
            let before = LIVE.load(Ordering::Relaxed);
            let copy = v.clone();
            let n = LIVE.load(Ordering::Relaxed) - before;
            drop(copy);
            n
        }
        let mut per: std::collections::BTreeMap<&str, [usize; 5]> = Default::default();
        for a in report.artifacts() {
            let e = per.entry(a.format.id()).or_default();
            e[0] += 1;
            e[1] += report.sources().get(a.file).text().len();
            e[2] += size_of_copy(&a.document);
            e[3] += size_of_copy(&a.body);
            e[4] += size_of_copy(&a.model);
        }
        eprintln!(
            "sizes: Artifact {} B, Model {} B, Document {} B, MarkdownBody {} B, SourceFile {} B, Diagnostic {} B",
            std::mem::size_of::<skein::skein_model::Artifact>(),
            std::mem::size_of::<skein::skein_model::Model>(),
            std::mem::size_of::<skein::skein_syntax::Document>(),
            std::mem::size_of::<skein::skein_syntax::MarkdownBody>(),
            std::mem::size_of::<skein::skein_syntax::SourceFile>(),
            std::mem::size_of::<skein::skein_syntax::Diagnostic>(),
        );
        // Built again from the report: a lean one has forgotten the texts
        // the graph reads.
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let graph = if full {
            skein::skein_model::build_graph(report.artifacts(), report.sources())
        } else {
            skein::skein_model::RepoGraph::default()
        };
        eprintln!(
            "graph (built again): {} (peak while building {}), {} nodes, {} edges",
            mb(LIVE.load(Ordering::Relaxed) - before),
            mb(PEAK.load(Ordering::Relaxed) - before),
            graph.graph().node_count(),
            graph.graph().edge_count()
        );
        let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
        for e in graph.graph().edge_weights() {
            *kinds.entry(format!("{:?}", e.kind)).or_default() += 1;
        }
        let mut nodes: std::collections::BTreeMap<String, usize> = Default::default();
        for n in graph.graph().node_weights() {
            *nodes.entry(format!("{:?}", n.kind)).or_default() += 1;
        }
        eprintln!("edges by kind: {kinds:?}");
        eprintln!("nodes by kind: {nodes:?}");
        drop(graph);
        eprintln!("format: artifacts, text, document, body facts, model");
        for (f, [n, text, doc, body, model]) in per {
            eprintln!(
                "  {f}: {n}, {}, {}, {}, {}",
                mb(text),
                mb(doc),
                mb(body),
                mb(model)
            );
        }
    }
    drop(out);
    drop(report);
}
