//! `skein-floor DIR [--threads N] [--frontmatter-only]`: the read+parse
//! floor of analyzing DIR,
//! as its own process so `cargo xtask bench-report` can time it like
//! `skein check` (wall time, peak RSS): walk DIR with skein's walker, read
//! every recognised artifact and tree-sitter-parse it as the pipeline does
//! (Markdown whole with agentmd, then its frontmatter as YAML; with
//! `--frontmatter-only`, the frontmatter only), on N worker threads
//! (default: one per core). Prints one JSON line:
//! `{"all_files":N,"files":N,"bytes":N,"parsed":N,"threads":N,"seconds":F}`.

use std::process::ExitCode;
use std::time::Instant;

/// The same allocator as `skein` (see `skein::use_mimalloc_in_tree_sitter`).
#[global_allocator]
static GLOBAL: skein::MiMalloc = skein::MiMalloc;

fn main() -> ExitCode {
    skein::use_mimalloc_in_tree_sitter();
    let mut dir = None;
    let mut mode = skein_benches::FloorMode::Full;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--threads" => match args.next().and_then(|v| v.parse().ok()) {
                Some(n) if n > 0 => threads = n,
                _ => {
                    eprintln!("skein-floor: --threads needs a positive number");
                    return ExitCode::from(2);
                }
            },
            "--frontmatter-only" => mode = skein_benches::FloorMode::FrontmatterOnly,
            _ if dir.is_none() && !a.starts_with('-') => dir = Some(a),
            _ => {
                eprintln!("usage: skein-floor DIR [--threads N] [--frontmatter-only]");
                return ExitCode::from(2);
            }
        }
    }
    let Some(dir) = dir else {
        eprintln!("usage: skein-floor DIR [--threads N] [--frontmatter-only]");
        return ExitCode::from(2);
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("worker threads");
    let start = Instant::now();
    let s = pool.install(|| skein_benches::floor(std::path::Path::new(&dir), threads, mode));
    println!(
        "{{\"all_files\":{},\"files\":{},\"bytes\":{},\"parsed\":{},\"threads\":{threads},\"seconds\":{:.6}}}",
        s.all_files,
        s.files,
        s.bytes,
        s.parsed,
        start.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
