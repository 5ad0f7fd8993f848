//! The persistent cache (issue #17): a run with a cache, cold or warm, after
//! an edit, a new file, a configuration change or a version change, gives
//! byte for byte the report of a run without one; a damaged cache file is
//! ignored and written anew; runs sharing one cache folder stay correct;
//! a read-only project gets no cache. Every cache lives in a temporary
//! folder (`CacheSettings::dir`), never beside the shared corpus.

use skein::Options;
use skein::cache::{CacheSettings, CacheStats};
use skein_test_support::cache::{cache_options, render, uncached};
use skein_test_support::demo_repo as demo;
use std::path::{Path, PathBuf};

/// The version part of the cache's key in these tests.
const VERSION: &str = "test 1";

fn settings(cache: &Path, replay: bool) -> Options {
    cache_options(cache, VERSION, replay)
}

fn cached(root: &Path, cache: &Path, replay: bool) -> (String, CacheStats) {
    skein_test_support::cache::cached(root, cache, VERSION, replay)
}

fn packs(cache: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for ns in std::fs::read_dir(cache).unwrap().flatten() {
        if ns.path().is_dir() {
            for f in std::fs::read_dir(ns.path()).unwrap().flatten() {
                if f.path().extension().is_some_and(|e| e == "pack") {
                    out.push(f.path());
                }
            }
        }
    }
    out.sort();
    out
}

fn run_file(cache: &Path) -> PathBuf {
    std::fs::read_dir(cache)
        .unwrap()
        .flatten()
        .map(|e| e.path().join("run.bin"))
        .find(|p| p.is_file())
        .expect("a run.bin")
}

#[test]
fn warm_runs_equal_a_cold_run_on_the_real_corpus() {
    let Some(corpus) = skein_test_support::real_corpus() else {
        return;
    };
    let cache = tempfile::tempdir().unwrap();
    let want = uncached(&corpus);
    let (first, s) = cached(&corpus, cache.path(), true);
    assert_eq!(first, want, "cold run with a cache");
    assert!(s.decoded > 3000 && s.reused == 0, "{s:?}");
    // Per file: every file's decoded state and local findings read back.
    let (second, s) = cached(&corpus, cache.path(), false);
    assert_eq!(second, want, "warm run, per-file records");
    assert_eq!(s.decoded, 0, "{s:?}");
    assert!(s.local_reused > 3000, "{s:?}");
    // Whole run: the stored result.
    let (third, s) = cached(&corpus, cache.path(), true);
    assert_eq!(third, want, "warm run, replayed");
    assert!(s.replayed, "{s:?}");
    // The corpus is older than the run that recorded it: its files' stamps
    // are settled, so only the files the findings show are read.
    assert!(s.unread > 2000, "{s:?}");
}

#[test]
fn unchanged_stamps_replay_without_reading_and_changed_ones_do_not() {
    let dir = demo();
    let cache = tempfile::tempdir().unwrap();
    let root = dir.path();
    // Stamps within two seconds of the recording run are not trusted.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let want = uncached(root);
    assert_eq!(cached(root, cache.path(), true).0, want);
    let (got, s) = cached(root, cache.path(), true);
    assert_eq!(got, want);
    assert!(s.replayed && s.unread > 0, "{s:?}");
    // The same number of bytes, other bytes: the change time moved.
    let rel = root.join("packs/core/loops/review/loop.json");
    let text = std::fs::read_to_string(&rel)
        .unwrap()
        .replace("\"id\": \"G1\"", "\"id\": \"G9\"");
    std::fs::write(&rel, text).unwrap();
    let (got, s) = cached(root, cache.path(), true);
    assert_eq!(got, uncached(root), "after a same-size edit");
    assert_eq!((s.replayed, s.decoded), (false, 1), "{s:?}");
    // Freshly written: its stamp is not settled, so it is read (and the
    // contents match the record): a replay that reads every file.
    let (got, s) = cached(root, cache.path(), true);
    assert_eq!(got, uncached(root));
    assert!(s.replayed && s.unread == 0, "{s:?}");
}

#[test]
fn edits_new_files_and_configuration_changes_equal_cold_runs() {
    let dir = demo();
    let cache = tempfile::tempdir().unwrap();
    let root = dir.path();
    for replay in [false, true] {
        assert_eq!(cached(root, cache.path(), replay).0, uncached(root));
    }
    // One file edited: only it is decoded again.
    let rel = root.join("packs/core/loops/review/loop.json");
    let text = std::fs::read_to_string(&rel)
        .unwrap()
        .replace("\"id\": \"G1\"", "\"id\": \"G2\"");
    std::fs::write(&rel, text).unwrap();
    let (got, s) = cached(root, cache.path(), true);
    assert_eq!(got, uncached(root), "after an edit");
    assert_eq!((s.replayed, s.decoded), (false, 1), "{s:?}");
    // A new file: the path list changed, so local findings are computed
    // again, decoded states are not.
    let skill = root.join("skills/new-one/SKILL.md");
    std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
    std::fs::write(
        &skill,
        "---\nname: new-one\ndescription: Does a thing.\n---\nBody\n",
    )
    .unwrap();
    let (got, s) = cached(root, cache.path(), true);
    assert_eq!(got, uncached(root), "after a new file");
    assert_eq!((s.decoded, s.local_reused), (1, 0), "{s:?}");
    // A configuration change: rules turned off change the local findings'
    // keys, the decoded states stay.
    let config = root.join("skein.toml");
    let before = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, format!("{before}\nignore = [\"SKILL\"]\n")).unwrap();
    let (got, s) = cached(root, cache.path(), true);
    assert_eq!(got, uncached(root), "after a configuration change");
    assert_eq!(
        (s.replayed, s.decoded, s.local_reused),
        (false, 0, 0),
        "{s:?}"
    );
    // And back: the earlier records serve again.
    std::fs::write(&config, &before).unwrap();
    let (got, s) = cached(root, cache.path(), false);
    assert_eq!(got, uncached(root), "configuration restored");
    assert_eq!(s.decoded, 0, "{s:?}");
    assert!(s.local_reused > 0, "{s:?}");
    // A format mapping changes what a file is: its decode key changes.
    std::fs::write(
        &config,
        format!("{before}\n[formats]\n\"skills/new-one/SKILL.md\" = \"plugin-command\"\n"),
    )
    .unwrap();
    let (got, s) = cached(root, cache.path(), true);
    assert_eq!(got, uncached(root), "after a format mapping");
    assert_eq!(s.decoded, 1, "{s:?}");
}

#[test]
fn another_version_reads_nothing_of_the_cache() {
    let dir = demo();
    let cache = tempfile::tempdir().unwrap();
    let root = dir.path();
    cached(root, cache.path(), true);
    let mut o = settings(cache.path(), true);
    o.cache.as_mut().unwrap().version = "test 2".into();
    let r = skein::check(root, &o).unwrap();
    let s = r.cache_stats().unwrap();
    assert_eq!(render(&r), uncached(root));
    assert_eq!((s.replayed, s.reused), (false, 0), "{s:?}");
    assert!(s.decoded > 0);
}

#[test]
fn truncated_and_corrupted_files_are_ignored_and_rewritten() {
    let dir = demo();
    let cache = tempfile::tempdir().unwrap();
    let root = dir.path();
    let want = uncached(root);
    cached(root, cache.path(), true);
    let all = packs(cache.path());
    assert_eq!(all.len(), 1);
    // Cut short, as by a crash before the rename would never leave it.
    let bytes = std::fs::read(&all[0]).unwrap();
    std::fs::write(&all[0], &bytes[..bytes.len() / 2]).unwrap();
    let (got, s) = cached(root, cache.path(), false);
    assert_eq!(got, want, "truncated pack");
    assert_eq!(s.reused, 0, "{s:?}");
    // Rewritten: the next run reads every record.
    let (got, s) = cached(root, cache.path(), false);
    assert_eq!(got, want);
    assert_eq!(s.decoded, 0, "{s:?}");
    // One byte flipped in the middle of a record.
    let pack = packs(cache.path()).pop().unwrap();
    let mut bytes = std::fs::read(&pack).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&pack, &bytes).unwrap();
    let (got, s) = cached(root, cache.path(), false);
    assert_eq!(got, want, "corrupted pack");
    assert_eq!(s.reused, 0, "{s:?}");
    assert_eq!(cached(root, cache.path(), false).1.decoded, 0);
    // The whole-run file, corrupted: not replayed, then written again.
    cached(root, cache.path(), true);
    let run = run_file(cache.path());
    let mut bytes = std::fs::read(&run).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&run, &bytes).unwrap();
    let (got, s) = cached(root, cache.path(), true);
    assert_eq!(got, want, "corrupted run file");
    assert!(!s.replayed);
    let (got, s) = cached(root, cache.path(), true);
    assert_eq!(got, want);
    assert!(s.replayed);
}

#[test]
fn runs_sharing_a_cache_all_give_the_cold_answer() {
    let a = demo();
    let b = demo();
    // The second project differs by one file: both write their own records
    // and whole-run results into the one folder at the same time.
    let rel = b.path().join("packs/core/loops/review/loop.json");
    let text = std::fs::read_to_string(&rel)
        .unwrap()
        .replace("\"id\": \"G1\"", "\"id\": \"G2\"");
    std::fs::write(&rel, text).unwrap();
    let want_a = uncached(a.path());
    let want_b = uncached(b.path());
    assert_ne!(want_a, want_b);
    let cache = tempfile::tempdir().unwrap();
    std::thread::scope(|s| {
        for i in 0..4 {
            let (root, want) = if i % 2 == 0 {
                (a.path(), &want_a)
            } else {
                (b.path(), &want_b)
            };
            let cache = cache.path();
            s.spawn(move || {
                for round in 0..6 {
                    let (got, _) = cached(root, cache, (round + i) % 3 != 0);
                    assert_eq!(&got, want, "thread {i}, round {round}");
                }
            });
        }
    });
    // Records of both projects are there, in few packs.
    assert!(packs(cache.path()).len() <= 9);
}

#[test]
fn no_cache_is_written_into_a_read_only_project() {
    use std::os::unix::fs::PermissionsExt;
    let dir = demo();
    let root = dir.path().to_path_buf();
    let mode = |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
    mode(&root, 0o555).unwrap();
    let o = Options {
        cache: Some(CacheSettings::default()),
        ..Options::default()
    };
    let r = skein::check(&root, &o).unwrap();
    let want = uncached(&root);
    mode(&root, 0o755).unwrap();
    assert_eq!(render(&r), want);
    assert!(!root.join(skein::cache::DEFAULT_DIR).exists());
    // Writable again: the default folder, which ignores itself.
    let r = skein::check(&root, &o).unwrap();
    assert_eq!(render(&r), want);
    let folder = root.join(skein::cache::DEFAULT_DIR);
    assert_eq!(
        std::fs::read_to_string(folder.join(".gitignore"))
            .unwrap()
            .lines()
            .last(),
        Some("*")
    );
    assert!(folder.join("CACHEDIR.TAG").is_file());
    // The cache folder is not part of the analysis.
    let again = skein::check(&root, &o).unwrap();
    assert_eq!(render(&again), want);
    assert_eq!(again.summary().files_read, r.summary().files_read);
}

#[test]
fn the_command_line_keeps_its_cache_at_the_project_root_unless_told() {
    let skein = |dir: &Path, extra: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_skein"))
            .args(["check", "--format", "json", "--no-progress"])
            .arg(dir)
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.code().is_some_and(|c| c <= 1), "{o:?}");
        o.stdout
    };
    let dir = demo();
    let root = dir.path();
    let plain = skein(root, &["--no-cache"]);
    assert!(
        !root.join(".skein_cache").exists(),
        "--no-cache writes nothing"
    );
    assert_eq!(skein(root, &[]), plain, "cold");
    assert!(root.join(".skein_cache/CACHEDIR.TAG").is_file());
    assert_eq!(skein(root, &[]), plain, "warm");
    // From a subfolder: the project's cache, the view's findings.
    let sub = root.join("packs");
    assert_eq!(skein(&sub, &[]), skein(&sub, &["--no-cache"]));
    assert!(!sub.join(".skein_cache").exists());
    let elsewhere = tempfile::tempdir().unwrap();
    let named = elsewhere.path().join("c");
    let arg = named.to_str().unwrap();
    assert_eq!(skein(root, &["--cache-dir", arg]), plain);
    assert!(named.join(".gitignore").is_file());
    assert_eq!(skein(root, &["--cache-dir", arg]), plain);
}

/// Waits until every stamp taken so far is settled (older than two
/// seconds), so the next run may trust them.
fn settle() {
    std::thread::sleep(std::time::Duration::from_millis(2100));
}

#[test]
fn the_walks_listing_is_used_until_a_folder_or_an_ignore_file_changes() {
    let dir = demo();
    let root = dir.path();
    let cache = tempfile::tempdir().unwrap();
    // An ignore file that ignores nothing yet, and one that ignores its
    // whole folder, itself included (the walk never lists it).
    std::fs::write(root.join("plugins/.gitignore"), "# nothing yet\n").unwrap();
    std::fs::write(root.join("plugins/helpdesk/.gitignore"), "*\n").unwrap();
    // Runs until one uses the listing, which is recorded by the first.
    let warm = |want: &str| {
        let (got, s) = cached(root, cache.path(), true);
        assert_eq!(got, want);
        assert!(!s.listed, "{s:?}");
        let (got, s) = cached(root, cache.path(), true);
        assert_eq!(got, want);
        assert!(s.listed && s.replayed, "{s:?}");
    };
    settle();
    let before = uncached(root);
    warm(&before);

    // A new file: its folder's stamp moved.
    std::fs::write(
        root.join("plugins/reviewer/agents/new-agent.md"),
        "---\nname: Not A Valid Name\n---\nReviews.\n",
    )
    .unwrap();
    let (got, s) = cached(root, cache.path(), true);
    let added = uncached(root);
    assert_ne!(added, before, "the new file has findings");
    assert_eq!(got, added, "after a new file");
    assert!(!s.listed, "{s:?}");
    settle();
    warm(&added);

    // An ignore file rewritten in place: no folder changed.
    std::fs::write(
        root.join("plugins/.gitignore"),
        "reviewer/agents/new-agent.md\n",
    )
    .unwrap();
    let (got, s) = cached(root, cache.path(), true);
    assert_eq!(got, before, "the new file is ignored again");
    assert_eq!(got, uncached(root));
    assert!(!s.listed, "{s:?}");
    settle();
    warm(&before);

    // The ignore file that ignored itself, rewritten in place.
    std::fs::write(root.join("plugins/helpdesk/.gitignore"), "# none\n").unwrap();
    let (got, s) = cached(root, cache.path(), true);
    let shown = uncached(root);
    assert_ne!(shown, before, "the helpdesk plugin is read again");
    assert_eq!(got, shown);
    assert!(!s.listed, "{s:?}");

    // A symbolic link anywhere: no listing is recorded.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("nightly.loop.yaml", root.join("loops/again.loop.yaml"))
            .unwrap();
        settle();
        let want = uncached(root);
        for _ in 0..2 {
            let (got, s) = cached(root, cache.path(), true);
            assert_eq!(got, want);
            assert!(!s.listed, "{s:?}");
        }
    }
}

/// `skein check --format json DIR ARGS` with `HOME` and `XDG_CONFIG_HOME`
/// in `home`: its standard output and standard error.
fn skein_at_home(dir: &Path, home: &Path, extra: &[&str]) -> (Vec<u8>, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skein"))
        .args(["check", "--format", "json", "--no-progress"])
        .arg(dir)
        .args(extra)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .output()
        .unwrap();
    assert!(o.status.code().is_some_and(|c| c <= 1), "{o:?}");
    (o.stdout, String::from_utf8(o.stderr).unwrap())
}

#[test]
fn another_home_is_another_listing() {
    let dir = demo();
    let root = dir.path();
    let homes = tempfile::tempdir().unwrap();
    let (plain, other) = (homes.path().join("plain"), homes.path().join("other"));
    std::fs::create_dir_all(&plain).unwrap();
    // Another user's global excludes file hides the catalogue.
    std::fs::create_dir_all(other.join(".config/git")).unwrap();
    std::fs::write(other.join(".config/git/ignore"), "catalogue.json\n").unwrap();
    let cache = homes.path().join("cache");
    let arg = cache.to_str().unwrap();
    settle();
    let want = skein_at_home(root, &plain, &["--no-cache"]).0;
    for _ in 0..2 {
        assert_eq!(skein_at_home(root, &plain, &["--cache-dir", arg]).0, want);
    }
    let hidden = skein_at_home(root, &other, &["--no-cache"]).0;
    assert_ne!(hidden, want, "the global excludes file hides a file");
    assert_eq!(skein_at_home(root, &other, &["--cache-dir", arg]).0, hidden);
}

#[test]
fn a_cache_folder_that_is_not_skeins_own_is_refused() {
    let dir = demo();
    let root = dir.path();
    let home = tempfile::tempdir().unwrap();
    let want = skein_at_home(root, home.path(), &["--no-cache"]).0;
    let refused = |cache: &Path, why: &str| {
        let (out, err) =
            skein_at_home(root, home.path(), &["--cache-dir", cache.to_str().unwrap()]);
        assert_eq!(out, want);
        assert!(err.contains(why) && err.contains("keeps no cache"), "{err}");
    };
    // The project itself, and a folder holding it: no `.gitignore` of `*`
    // may hide the project.
    refused(root, "is the project or holds it");
    refused(root.parent().unwrap(), "is the project or holds it");
    assert!(!root.join(".gitignore").exists());
    assert!(!root.join("CACHEDIR.TAG").exists());
    // A folder of other files, one named like a namespace: left alone.
    let other = home.path().join("data");
    std::fs::create_dir_all(other.join("0123456789abcdef")).unwrap();
    std::fs::write(other.join("0123456789abcdef/notes.txt"), "mine").unwrap();
    for i in 0..4 {
        std::fs::create_dir_all(other.join(format!("{i:016x}"))).unwrap();
    }
    refused(&other, "is not a cache (it has no CACHEDIR.TAG)");
    assert!(other.join("0123456789abcdef/notes.txt").is_file());
    assert!(!other.join(".gitignore").exists());
    // A file where the folder should be: left as it was.
    let file = home.path().join("cache-file");
    std::fs::write(&file, "not a folder").unwrap();
    refused(&file, "is a file, not a folder");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a folder");
    // A named folder that cannot be made: below a file, or below a folder
    // that allows no writing (the permission bits decide, root included).
    refused(
        &file.join("cache"),
        &format!("cannot be made: {} is a file, not a folder", file.display()),
    );
    let locked = home.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    let mut perms = std::fs::metadata(&locked).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&locked, perms.clone()).unwrap();
    refused(
        &locked.join("cache"),
        &format!("cannot be made: {} allows no writing", locked.display()),
    );
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&locked, perms).unwrap();
    assert!(!locked.join("cache").exists());
    // The default folder, a link planted in the project: nothing written
    // where it points.
    #[cfg(unix)]
    {
        let target = home.path().join("elsewhere");
        std::fs::create_dir_all(&target).unwrap();
        std::os::unix::fs::symlink(&target, root.join(".skein_cache")).unwrap();
        let (out, err) = skein_at_home(root, home.path(), &[]);
        assert!(err.contains("is a symbolic link"), "{err}");
        assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);
        // The link is a file of the walk now: compare with a run that sees it.
        assert_eq!(out, skein_at_home(root, home.path(), &["--no-cache"]).0);
    }
    // A relative folder not made yet is made, from the current folder.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skein"))
        .args([
            "check",
            "--format",
            "json",
            "--no-progress",
            "--cache-dir",
            "made/here",
        ])
        .arg(root)
        .current_dir(home.path())
        .env("HOME", home.path())
        .output()
        .unwrap();
    assert!(o.status.code().is_some_and(|c| c <= 1), "{o:?}");
    assert!(home.path().join("made/here/CACHEDIR.TAG").is_file());
}
