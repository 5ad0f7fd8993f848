//! `skein-edits DIR [EDITS]`: the incremental analysis behind `skein server`
//! (issue #16) without the protocol, for profiling. Opens `DIR` as a
//! [`skein::incremental::Workspace`], analyzes it once, then makes `EDITS`
//! (default 20) one-line edits of the first `SKILL.md` with a `name:` line
//! (sorted by path; the name made to differ from its folder, then back, as
//! the `lsp` bench does) and analyzes after each. Prints the first
//! analysis's wall time, each edit's, and their median, in milliseconds.
//!
//! To count an edit's instructions, every thread included: with
//! `SKEIN_EDITS_INLINE=1` the rayon pool is one thread, this one, so
//! `SKEIN_EDITS_INLINE=1 valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect='*edit_and_analyze*' target/release/skein-edits DIR 4`
//! counts the edits' analyses whole and nothing else.

use skein::Options;
use skein::incremental::Workspace;
use std::path::Path;
use std::time::Instant;

/// The allocator of the `skein` binary, so the figures are the server's.
#[global_allocator]
static GLOBAL: skein::MiMalloc = skein::MiMalloc;

fn main() {
    skein::tune_allocator();
    skein::use_mimalloc_in_tree_sitter();
    if std::env::var_os("SKEIN_EDITS_INLINE").is_some() {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build_global()
            .expect("the first pool of the process");
    }
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: skein-edits DIR [EDITS]");
        std::process::exit(2);
    };
    let edits: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(20);
    let root = Path::new(&dir);
    let start = Instant::now();
    let mut ws = match Workspace::open(root, &Options::default()) {
        Ok(ws) => ws,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    ws.analyze();
    println!("first analysis: {:.1} ms", ms(start));
    let skill = ws
        .report()
        .expect("analyzed")
        .sources()
        .iter()
        .map(|(_, f)| (f.path().to_string(), f.text().to_string()))
        .find(|(p, t)| p.ends_with("SKILL.md") && t.lines().any(|l| l.starts_with("name: ")));
    let Some((rel, text)) = skill else {
        eprintln!("error: no SKILL.md with a `name:` line in {dir}");
        std::process::exit(2);
    };
    let mut times = edit_and_analyze(&mut ws, &rel, &text, edits);
    times.sort_by(f64::total_cmp);
    if let Some(m) = times.get(times.len() / 2) {
        println!("median of {edits} edits of {rel}: {m:.1} ms");
    }
}

/// The edits and their analyses, each timed (milliseconds). Never inlined:
/// `valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect='*edit_and_analyze*'` counts only the edits.
#[inline(never)]
fn edit_and_analyze(ws: &mut Workspace, rel: &str, text: &str, edits: usize) -> Vec<f64> {
    let broken = text.replacen("name: ", "name: renamed-", 1);
    let mut times = Vec::with_capacity(edits);
    for i in 0..edits {
        let bytes = if i % 2 == 0 { &broken } else { text };
        let start = Instant::now();
        ws.set_overlay(rel, bytes.as_bytes().to_vec());
        ws.analyze();
        let t = ms(start);
        println!("edit {i}: {t:.1} ms ({:?})", ws.stats());
        times.push(t);
    }
    times
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}
