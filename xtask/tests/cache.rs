//! skein's persistent cache (issue #17) on a generated monorepo: warm runs
//! give byte for byte the report of a run without a cache, after an edit, a
//! configuration change and a version change (the version part of the
//! cache's key set by the test).

use skein_test_support::cache::{cached, uncached as cold};

/// A generated tree of 2,000 files with faults, written into a temporary folder.
fn tree() -> tempfile::TempDir {
    let g = xtask::gen_monorepo::generate(2000, 20_250_601, 0.02);
    let dir = tempfile::tempdir().unwrap();
    for (path, bytes) in &g.files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    dir
}

#[test]
fn cached_runs_equal_cold_runs_on_a_generated_tree() {
    let dir = tree();
    let root = dir.path();
    let cache = tempfile::tempdir().unwrap();
    let want = cold(root);
    assert!(want.contains("FLOW00"), "the tree has graph findings");
    let (got, s) = cached(root, cache.path(), "v1", true);
    assert_eq!(got, want, "cold run with a cache");
    assert_eq!(s.reused, 0);
    let (got, s) = cached(root, cache.path(), "v1", true);
    assert_eq!(got, want, "nothing changed");
    assert!(s.replayed, "{s:?}");

    // An edit: one skill renamed, so the references to it break.
    let skill = skein_test_support::files_under(root, Some("md"))
        .into_iter()
        .find(|p| p.ends_with("SKILL.md"))
        .expect("a skill");
    let text = std::fs::read_to_string(&skill).unwrap();
    let line = text.lines().find(|l| l.starts_with("name: ")).unwrap();
    std::fs::write(&skill, text.replacen(line, "name: renamed-by-the-test", 1)).unwrap();
    let want = cold(root);
    let (got, s) = cached(root, cache.path(), "v1", true);
    assert_eq!(got, want, "after an edit");
    assert_eq!((s.replayed, s.decoded), (false, 1), "{s:?}");
    assert!(s.reused > 1000, "{s:?}");

    // A configuration change: a family of rules off.
    std::fs::write(root.join("skein.toml"), "ignore = [\"FLOW001\", \"SEC\"]\n").unwrap();
    let want = cold(root);
    let (got, s) = cached(root, cache.path(), "v1", true);
    assert_eq!(got, want, "after a configuration change");
    assert!(!s.replayed && s.decoded <= 1, "{s:?}");

    // Another skein version: nothing of the cache is read.
    let (got, s) = cached(root, cache.path(), "v2", true);
    assert_eq!(got, want, "after a version change");
    assert_eq!(s.reused, 0, "{s:?}");
    let (got, s) = cached(root, cache.path(), "v2", true);
    assert_eq!(got, want);
    assert!(s.replayed, "{s:?}");
}
