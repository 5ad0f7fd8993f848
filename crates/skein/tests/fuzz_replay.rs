//! The fuzz targets' properties on stable `cargo test` (fuzz/README.md): every
//! target runs over its seed corpus (built here from `corpus/`, as
//! `fuzz/seed.sh` builds it), over the regression inputs in
//! `fuzz/regressions/<target>/` (crashes the fuzzer found, kept forever), and
//! over a bounded number of deterministic mutations of the seeds
//! (`SKEIN_FUZZ_MUTATIONS` per target, default 1000), each within a time bound.
//! The properties themselves are `fuzz/src/props.rs`, shared with the
//! libFuzzer targets.

#[path = "../../../fuzz/src/props.rs"]
mod props;

use props::{Front, check_fixes, check_front, check_repo, join_repo};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Longest time one input may take here (a debug build; the fuzzer's own
/// bound on an optimised build is 10 s).
const PER_INPUT: Duration = Duration::from_secs(20);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Seeds of a single-file target: files of `corpus/` with these extensions.
fn seeds(exts: &[&str]) -> Vec<Vec<u8>> {
    skein_test_support::files_under(&root().join("corpus"), None)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| exts.iter().any(|e| n.ends_with(e)))
        })
        .map(|p| std::fs::read(p).expect("read seed"))
        .collect()
}

/// Seeds of the repository target: each rule fixture as one input.
fn repo_seeds() -> Vec<Vec<u8>> {
    let mut cases = Vec::new();
    let all = skein_test_support::files_under(&root().join("corpus/rules"), None);
    for p in &all {
        if p.file_name().is_some_and(|n| n == "expected.out") {
            cases.push(p.parent().expect("case").to_path_buf());
        }
    }
    cases
        .into_iter()
        .map(|case| {
            let files: Vec<(String, Vec<u8>)> = all
                .iter()
                .filter(|p| {
                    p.starts_with(&case)
                        && !p.ends_with("expected.out")
                        && !p.ends_with("expected.fixed")
                })
                .map(|p| {
                    let rel = p.strip_prefix(&case).expect("inside");
                    (
                        rel.to_string_lossy().replace('\\', "/"),
                        std::fs::read(p).expect("read"),
                    )
                })
                .collect();
            join_repo(&files)
        })
        .collect()
}

fn regressions(target: &str) -> Vec<Vec<u8>> {
    let dir = root().join("fuzz/regressions").join(target);
    if !dir.is_dir() {
        // A target with no regression yet.
        return Vec::new();
    }
    skein_test_support::files_under(&dir, None)
        .into_iter()
        .map(|p| std::fs::read(p).expect("read regression"))
        .collect()
}

/// A deterministic mutation of `seed` (xorshift; no dependency).
fn mutate(seed: &[u8], state: &mut u64) -> Vec<u8> {
    let mut next = || {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    };
    let mut v = seed.to_vec();
    const INTERESTING: &[&[u8]] = &[
        b"\0",
        b"\xff",
        b"\xef\xbb\xbf",
        b"\r",
        b"\r\n",
        b"\"",
        b"'",
        b"[",
        b"{",
        b"]",
        b"}",
        b"&a ",
        b"*a",
        b"---\n",
        b"- ",
        b": ",
        b"#",
        b"\\u",
        b"\t",
        b"\xc3",
        b"!!str ",
        b"|\n",
        b">-\n",
        b"${",
        b"ghp_",
        b"../",
        b"e+9",
    ];
    for _ in 0..1 + next() % 4 {
        let at = if v.is_empty() {
            0
        } else {
            (next() % v.len() as u64) as usize
        };
        match next() % 6 {
            0 if !v.is_empty() => v[at] ^= 1 << (next() % 8),
            1 => {
                let ins = INTERESTING[(next() % INTERESTING.len() as u64) as usize];
                v.splice(at..at, ins.iter().copied());
            }
            2 if !v.is_empty() => {
                let end = (at + 1 + (next() % 16) as usize).min(v.len());
                v.drain(at..end);
            }
            3 => v.truncate(at),
            4 if !v.is_empty() => {
                let end = (at + 1 + (next() % 64) as usize).min(v.len());
                let chunk = v[at..end].to_vec();
                let to = (next() % (v.len() as u64 + 1)) as usize;
                v.splice(to..to, chunk);
            }
            _ => {
                let depth = 1 + (next() % 300) as usize;
                let (open, close) = if next() % 2 == 0 {
                    (b'[', b']')
                } else {
                    (b'{', b'}')
                };
                v.splice(
                    at..at,
                    std::iter::repeat_n(open, depth).chain(std::iter::repeat_n(close, depth)),
                );
            }
        }
    }
    v
}

fn mutations() -> usize {
    std::env::var("SKEIN_FUZZ_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
}

/// The PRNG state of a target: FNV-1a of its name, so every target gets its
/// own stream (two names of one length once shared one).
fn stream(target: &str) -> u64 {
    let h = target.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    h | 1 // xorshift must not start at 0
}

/// Seeds, regressions and `count` mutants. Mutations accumulate as a
/// fuzzer's do: each mutant is either a fresh mutation of a seed or a
/// further mutation of the previous mutant (chains of up to 8 steps), so
/// inputs many edits away from every seed are reached too.
fn inputs(target: &str, seeds: &[Vec<u8>], count: usize) -> Vec<Vec<u8>> {
    let mut inputs: Vec<Vec<u8>> = seeds.to_vec();
    inputs.extend(regressions(target));
    let mut state = stream(target);
    let mut chain = 0;
    for i in 0..count {
        let base = match inputs.last() {
            Some(prev) if chain > 0 && chain < 8 && !state.is_multiple_of(3) => prev.clone(),
            _ => {
                chain = 0;
                seeds[i % seeds.len()].clone()
            }
        };
        inputs.push(mutate(&base, &mut state));
        chain += 1;
    }
    inputs
}

fn replay(target: &str, seeds: Vec<Vec<u8>>, run: impl Fn(&[u8])) {
    assert!(!seeds.is_empty(), "{target}: no seeds");
    let inputs = inputs(target, &seeds, mutations());
    for (i, input) in inputs.iter().enumerate() {
        // A hang fails the run at the bound instead of hanging the suite.
        let watchdog = skein_test_support::Watchdog::start(
            format!("{target}: input {i} ({} bytes)", input.len()),
            PER_INPUT,
        );
        run(input);
        drop(watchdog);
    }
    eprintln!("{target}: {} inputs", inputs.len());
}

/// The streams differ per target and the mutants accumulate edits: some
/// mutant is not one mutation away from any seed (it is longer than every
/// seed plus one mutation's largest insertion, 600 bytes).
#[test]
fn mutations_differ_per_target_and_accumulate() {
    assert_ne!(stream("yaml"), stream("json"));
    let seeds = vec![b"name: x\n".to_vec()];
    let a = inputs("yaml", &seeds, 1000);
    let b = inputs("json", &seeds, 1000);
    assert_ne!(a, b);
    let longest_seed = seeds.iter().map(Vec::len).max().unwrap();
    assert!(
        a.iter().any(|m| m.len() > longest_seed + 4 * 600),
        "no mutant accumulates several mutations"
    );
}

#[test]
fn yaml_front() {
    replay("yaml", seeds(&[".yaml", ".yml"]), |d| {
        check_front(Front::Yaml, d)
    });
}

#[test]
fn json_front() {
    replay("json", seeds(&[".json", ".jsonc"]), |d| {
        check_front(Front::Json, d)
    });
}

#[test]
fn markdown_front() {
    replay("markdown", seeds(&[".md"]), |d| {
        check_front(Front::Markdown, d)
    });
}

#[test]
fn whole_check() {
    replay("check", repo_seeds(), check_repo);
}

/// Issue #15: fixes never make a file that parses fail to parse.
#[test]
fn fixes_keep_files_parsing() {
    replay("fix", repo_seeds(), check_fixes);
}
