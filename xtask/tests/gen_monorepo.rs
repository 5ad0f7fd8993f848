//! The synthetic monorepo generator against skein itself: on a generated
//! tree, skein's diagnostics must be exactly the ones the manifest lists
//! (recall and precision 100%, down to the line), the fault-free background
//! must give none, and generation must be deterministic.

use skein::Options;
use std::collections::BTreeMap;
use std::path::Path;
use xtask::gen_monorepo::{self, GenOptions, MANIFEST_FILE, Manifest};

/// Files in the test tree.
const FILES: usize = 300;
/// Fixed seed of the test tree.
const SEED: u64 = 20_250_601;
/// 15 faults in 300 files: three of each kind.
const RATE: f64 = 0.05;

/// skein's diagnostics on `dir` as sorted (rule, path, line), with the
/// message, for failure output.
fn diagnostics(dir: &Path) -> Vec<(String, String, u32, String)> {
    let report = skein::check(dir, &Options::default()).expect("the tree is readable");
    let mut out: Vec<_> = report
        .diagnostics()
        .iter()
        .map(|d| {
            let file = report.sources().get(d.primary.file);
            let line = file.line_col(d.primary.span.start as usize).line;
            (
                d.rule.code.to_string(),
                file.path().to_string(),
                line,
                d.message.clone(),
            )
        })
        .collect();
    out.sort();
    out
}

fn compare(dir: &Path, manifest: &Manifest) {
    let found = diagnostics(dir);
    let got: Vec<(String, String, u32)> = found
        .iter()
        .map(|(r, p, l, _)| (r.clone(), p.clone(), *l))
        .collect();
    let want = manifest.expected();
    let missed: Vec<_> = want.iter().filter(|w| !got.contains(w)).collect();
    let extra: Vec<_> = found
        .iter()
        .filter(|(r, p, l, _)| !want.contains(&(r.clone(), p.clone(), *l)))
        .collect();
    assert!(
        missed.is_empty() && extra.is_empty() && got.len() == want.len(),
        "skein vs faults.json\nmissed (false negatives): {missed:#?}\nextra (false positives): {extra:#?}"
    );
}

#[test]
fn diagnostics_are_exactly_the_injected_faults() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("repo");
    let o = GenOptions {
        files: FILES,
        seed: SEED,
        fault_rate: RATE,
    };
    let manifest = gen_monorepo::write_tree(&o, &root).expect("generated");
    assert_eq!(manifest.files, FILES);
    assert_eq!(manifest.injected, 15);
    // Every kind three times; FLOW005 comes with each FLOW001 fault's gate.
    let faults_per_kind: BTreeMap<&str, usize> = manifest
        .faults
        .iter()
        .filter(|f| !f.companion)
        .fold(BTreeMap::new(), |mut m, f| {
            m.entry(f.kind.as_str())
                .or_insert_with(std::collections::BTreeSet::new)
                .insert(f.id);
            m
        })
        .into_iter()
        .map(|(k, ids)| (k, ids.len()))
        .collect();
    assert_eq!(
        faults_per_kind,
        BTreeMap::from([
            ("duplicate-gate-id", 3),
            ("orphan-skill", 3),
            ("uncapped-cycle", 3),
            ("undeclared-write-tool", 3),
            ("unreachable-stage", 3),
        ])
    );
    let companions = manifest.faults.iter().filter(|f| f.companion).count();
    assert_eq!(companions, 3);
    assert!(
        manifest
            .faults
            .iter()
            .filter(|f| f.companion)
            .all(|f| f.rule == "FLOW005")
    );
    // The tree on disk has exactly FILES files plus the manifest.
    let mut count = 0;
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable") {
            let e = e.expect("entry");
            if e.file_type().expect("type").is_dir() {
                stack.push(e.path());
            } else {
                count += 1;
            }
        }
    }
    assert_eq!(count, FILES + 1);
    let text = std::fs::read_to_string(root.join(MANIFEST_FILE)).expect("faults.json");
    assert_eq!(text, manifest.to_json());
    compare(&root, &manifest);
}

#[test]
fn fault_rate_zero_gives_no_diagnostic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let o = GenOptions {
        files: FILES,
        seed: SEED,
        fault_rate: 0.0,
    };
    let manifest = gen_monorepo::write_tree(&o, dir.path()).expect("generated");
    assert_eq!(manifest.injected, 0);
    assert!(manifest.faults.is_empty());
    assert_eq!(diagnostics(dir.path()), Vec::new());
}

#[test]
fn other_seeds_and_sizes_match_their_manifests() {
    // A second shape of the background (another seed, more teams' worth of
    // files), checked in memory through `check_files`.
    for (files, seed) in [(1200, 1), (2500, 99)] {
        let g = gen_monorepo::generate(files, seed, 0.02);
        assert_eq!(g.files.len(), files);
        let inputs = g
            .files
            .iter()
            .map(|(p, b)| skein::InputFile::new(p.to_string_lossy(), b.clone()))
            .collect();
        let report = skein::check_files(inputs, &Options::default());
        let mut got: Vec<(String, String, u32)> = report
            .diagnostics()
            .iter()
            .map(|d| {
                let f = report.sources().get(d.primary.file);
                let line = f.line_col(d.primary.span.start as usize).line;
                (d.rule.code.to_string(), f.path().to_string(), line)
            })
            .collect();
        got.sort();
        let want = g.manifest.expected();
        let missed: Vec<_> = want.iter().filter(|w| !got.contains(w)).collect();
        let extra: Vec<_> = got.iter().filter(|w| !want.contains(w)).collect();
        assert!(
            missed.is_empty() && extra.is_empty() && got.len() == want.len(),
            "files {files} seed {seed}\nmissed: {missed:#?}\nextra: {extra:#?}"
        );
    }
}

#[test]
fn generation_is_deterministic() {
    let a = gen_monorepo::generate(FILES, SEED, RATE);
    let b = gen_monorepo::generate(FILES, SEED, RATE);
    assert_eq!(a.files, b.files);
    assert_eq!(a.manifest, b.manifest);
    let c = gen_monorepo::generate(FILES, SEED + 1, RATE);
    assert_ne!(a.files, c.files);
    // The tree on disk holds the same bytes as the tree in memory.
    let dir = tempfile::tempdir().expect("tempdir");
    let o = GenOptions {
        files: FILES,
        seed: SEED,
        fault_rate: RATE,
    };
    let m = gen_monorepo::write_tree(&o, dir.path()).expect("generated");
    assert_eq!(m, a.manifest);
    for (path, bytes) in &a.files {
        assert_eq!(
            &std::fs::read(dir.path().join(path)).expect("written"),
            bytes,
            "{}",
            path.display()
        );
    }
    assert!(gen_monorepo::is_current(&o, dir.path()));
}
