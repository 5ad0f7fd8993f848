//! Lean retention (issue #17, bounded memory): a run that keeps only what
//! its findings need gives the report of a run that keeps everything, byte
//! for byte in every output format, on every rule fixture and on the real
//! corpus, without falling back to a full run, with the persistent cache
//! too (cold, warm, replayed, and each reading the other's records); its
//! report holds the texts of the files its findings show and no others;
//! and a file changed while it runs makes it start again keeping
//! everything, never a wrong snippet.

mod common;

use skein::{Options, Report, Retention};
use std::path::Path;

fn options(retention: Retention) -> Options {
    Options {
        retention,
        threads: 2,
        ..Options::default()
    }
}

/// [`options`] with a persistent cache in `dir`.
fn cached(retention: Retention, dir: &Path) -> Options {
    Options {
        cache: Some(skein::cache::CacheSettings {
            dir: Some(dir.to_path_buf()),
            version: "lean test".into(),
            replay: true,
        }),
        ..options(retention)
    }
}

/// Copies the folder `from` into `to`.
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        let t = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), t).expect("copy");
        }
    }
}

/// Every rendering of a report that `skein check` can write: human (with
/// and without unsafe fixes shown), concise, GitHub annotations, JSON,
/// SARIF and a baseline.
fn renderings(report: &Report) -> String {
    let (d, s) = (report.diagnostics(), report.sources());
    let mut out = String::new();
    for unsafe_fixes in [false, true] {
        out.push_str(&skein::skein_report::render_human(
            d,
            s,
            skein::skein_report::HumanOptions {
                unsafe_fixes,
                color: false,
                links: false,
            },
        ));
        out.push_str(&skein::skein_report::render_concise_with(
            d,
            s,
            unsafe_fixes,
        ));
    }
    out.push_str(&skein::skein_report::render_github(d, s, ""));
    out.push_str(
        &serde_json::to_string_pretty(&skein::skein_report::JsonReport {
            diagnostics: d,
            sources: s,
            summary: report.summary(),
            root: Some("root"),
        })
        .expect("JSON"),
    );
    let mut sarif = skein::skein_report::SarifBuilder::new(&skein::rules::all());
    sarif.add(d, s, "");
    out.push_str(&serde_json::to_string_pretty(&sarif.finish()).expect("SARIF"));
    let mut baseline = skein::baseline::Baseline::new();
    baseline.add(d, s);
    out.push_str(&baseline.to_json());
    for (_, f) in s.iter() {
        out.push_str(&format!("{} {:?}\n", f.path(), f.secrets()));
    }
    out
}

/// Checks `root` both ways: the same renderings, and a lean run that
/// stood (no fallback to a full run).
fn same_both_ways(root: &Path) {
    let full = skein::check(root, &options(Retention::Full)).expect("readable");
    let lean = skein::check(root, &options(Retention::Lean)).expect("readable");
    assert_eq!(full.retention_stats(), None);
    let stats = lean.retention_stats().expect("a lean run says what it did");
    assert!(
        !stats.fell_back,
        "{}: the lean run fell back to a full run",
        root.display()
    );
    let (a, b) = (renderings(&full), renderings(&lean));
    if a != b {
        let at = a
            .lines()
            .zip(b.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(0);
        panic!(
            "{}: lean and full renderings differ at line {at}:\nfull: {:?}\nlean: {:?}",
            root.display(),
            a.lines().nth(at),
            b.lines().nth(at)
        );
    }
    assert_eq!(full.summary(), lean.summary(), "{}", root.display());
}

#[test]
fn every_rule_fixture_is_the_same_both_ways() {
    let rules = skein_test_support::workspace_root().join("corpus/rules");
    let mut cases = 0;
    for rule in std::fs::read_dir(&rules).expect("corpus/rules") {
        let rule = rule.expect("entry").path();
        if !rule.is_dir() {
            continue;
        }
        for case in std::fs::read_dir(&rule).expect("rule folder") {
            let case = case.expect("entry").path();
            if case.is_dir() {
                same_both_ways(&case);
                cases += 1;
            }
        }
    }
    assert!(cases > 400, "only {cases} fixture cases");
    same_both_ways(&skein_test_support::workspace_root().join("corpus/examples/demo-repo"));
}

#[test]
fn the_real_corpus_is_the_same_both_ways() {
    let Some(shared) = common::shared() else {
        return;
    };
    same_both_ways(&shared.join("corpus/real"));
}

/// Lean runs with a cache, of `root` as it is: cold, replayed, and after
/// its stamps moved (every record read, nothing replayed); a full cached
/// run replays the lean run's record, and a lean run reads the records of
/// a full one. Each gives the full run's renderings.
fn same_with_a_cache(root: &Path) {
    let want = renderings(&skein::check(root, &options(Retention::Full)).expect("readable"));
    let run = |o: &Options, what: &str| {
        let r = skein::check(root, o).expect("readable");
        assert_eq!(renderings(&r), want, "{}: {what}", root.display());
        if o.retention == Retention::Lean {
            let stats = r.retention_stats();
            assert!(stats.is_none_or(|s| !s.fell_back), "{what}: fell back");
        }
        r.cache_stats().expect("a cached run")
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let s = run(&cached(Retention::Lean, dir.path()), "lean, cold");
    assert!(s.decoded > 0 && !s.replayed, "{s:?}");
    let s = run(&cached(Retention::Lean, dir.path()), "lean, warm");
    assert!(s.replayed || s.decoded == 0, "{s:?}");
    let s = run(&cached(Retention::Full, dir.path()), "full after lean");
    assert!(s.replayed || s.decoded == 0, "{s:?}");
    let other = tempfile::tempdir().expect("tempdir");
    run(&cached(Retention::Full, other.path()), "full, cold");
    let s = run(&cached(Retention::Lean, other.path()), "lean after full");
    assert!(s.replayed || s.decoded == 0, "{s:?}");
}

#[test]
fn cached_lean_runs_are_the_same_as_full_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    copy(
        &skein_test_support::workspace_root().join("corpus/examples/demo-repo"),
        root,
    );
    same_with_a_cache(root);
    // Every stamp moved, no byte changed: a lean run reads every record.
    let cache = tempfile::tempdir().expect("tempdir");
    let lean = cached(Retention::Lean, cache.path());
    skein::check(root, &lean).expect("readable");
    let mut n = 0;
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let bytes = std::fs::read(&p).expect("read");
                std::fs::write(&p, bytes).expect("write");
                n += 1;
            }
        }
    }
    assert!(n > 10);
    let want = renderings(&skein::check(root, &options(Retention::Full)).expect("readable"));
    let r = skein::check(root, &lean).expect("readable");
    assert_eq!(renderings(&r), want);
    let s = r.cache_stats().expect("cached");
    assert_eq!((s.replayed, s.decoded), (false, 0), "{s:?}");
    if let Some(shared) = common::shared() {
        same_with_a_cache(&shared.join("corpus/real"));
    }
}

#[test]
fn a_lean_report_keeps_only_the_texts_its_findings_show() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    // A clean skill, a skill with a finding of its own (SKILL002: the
    // name is not its folder's), and a loop whose tree nothing reads after
    // its own passes.
    common::write(
        root,
        "skills/clean/SKILL.md",
        "---\nname: clean\ndescription: Reviews a diff.\n---\n# Clean\n",
    );
    common::write(
        root,
        "skills/named/SKILL.md",
        "---\nname: other-name\ndescription: Reviews a diff.\n---\n# Named\n",
    );
    let report = skein::check(root, &options(Retention::Lean)).expect("readable");
    assert!(!report.retention_stats().expect("lean").fell_back);
    let shown: Vec<&str> = report
        .diagnostics()
        .iter()
        .map(|d| report.sources().get(d.primary.file).path())
        .collect();
    assert!(shown.contains(&"skills/named/SKILL.md"), "{shown:?}");
    for (_, f) in report.sources().iter() {
        let has_text = !f.text().is_empty();
        assert_eq!(
            has_text,
            shown.contains(&f.path()),
            "{}: text kept {has_text}",
            f.path()
        );
    }
    // Not a Claude Code skill, no hooks, no other file in its folder: no
    // repository-level rule reads its tree, and the lean run dropped it.
    let clean = report
        .artifacts()
        .iter()
        .find(|a| report.sources().get(a.file).path() == "skills/clean/SKILL.md")
        .expect("the clean skill");
    assert!(clean.document.is_dropped());
    // A full report keeps them all.
    let full = skein::check(root, &options(Retention::Full)).expect("readable");
    assert!(full.artifacts().iter().all(|a| !a.document.is_dropped()));
    assert!(full.sources().iter().all(|(_, f)| !f.text().is_empty()));
}

#[test]
fn a_file_changed_under_a_lean_run_makes_it_start_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    // Two skills of one name: the finding (SKILL021, a repository pass)
    // is on the second, whose text the lean run drops once the file is
    // decoded and reads again for the report.
    let probe = "lean-change-probe/b/SKILL.md";
    common::write(
        root,
        "lean-change-probe/a/SKILL.md",
        "---\nname: twin\ndescription: Reviews a diff.\n---\n# A\n",
    );
    common::write(
        root,
        probe,
        "---\nname: twin\ndescription: Reviews a diff.\n---\n# B\n",
    );
    // Test builds only (the `fault-injection` feature): the lean run
    // appends a line to `probe` once every file is decoded.
    // SAFETY: no other test of this binary reads this variable, and the
    // hook acts only on a file of this name under the analyzed root.
    unsafe { std::env::set_var("SKEIN_TEST_CHANGE_AFTER_DECODE", probe) };
    let report = skein::check(root, &options(Retention::Lean));
    // SAFETY: as above.
    unsafe { std::env::remove_var("SKEIN_TEST_CHANGE_AFTER_DECODE") };
    let report = report.expect("readable");
    if !cfg!(debug_assertions) {
        return; // the hook is compiled out of release builds
    }
    let stats = report.retention_stats().expect("lean");
    assert!(stats.fell_back, "the changed file went unnoticed");
    // The report is a full run's of the files as they are now: its text of
    // the changed file is the file on disk, so every snippet is right.
    let now = std::fs::read_to_string(root.join(probe)).expect("probe");
    assert!(now.contains("# changed while skein ran"));
    let f = report
        .sources()
        .iter()
        .map(|(_, f)| f)
        .find(|f| f.path() == probe)
        .expect("the probe is read");
    assert_eq!(f.text(), now);
    assert!(
        report
            .diagnostics()
            .iter()
            .any(|d| report.sources().get(d.primary.file).path() == probe),
        "the duplicate name is still found"
    );
}
