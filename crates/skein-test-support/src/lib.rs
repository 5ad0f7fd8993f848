//! Test-only helpers shared by the test suites of the workspace's crates.
//!
//! The corpus tests list their files with [`files_under`] and read each
//! as written and as a CRLF copy with [`lf_and_crlf`]; the suites that
//! write into a project copy one with [`copy_tree`] ([`demo_repo`]); the
//! two cache suites compare runs through [`cache`] (feature `cache`, which
//! brings in `skein`).
//!
//! A test that needs something a user's clone may not have (the shared real
//! corpus at `../shared`, Graphviz's `dot`, a way to drop root privileges)
//! asks this crate for it. When it is missing the test is *skipped* and says
//! so on the real standard error, past libtest's output capture, so the skip
//! shows in `cargo test` output even for a test reported `ok`. Where CI sets
//! the matching `SKEIN_REQUIRE_*` variable to `1`, a missing requirement
//! fails the test instead, naming what is missing:
//!
//! | requirement | variable | how `.ci/run` provides it |
//! |---|---|---|
//! | `../shared/corpus/real` | `SKEIN_REQUIRE_SHARED` | checks the folder exists |
//! | Graphviz `dot` | `SKEIN_REQUIRE_DOT` | `apt-get install graphviz` |
//! | an unprivileged user (`setpriv`) when run as root | `SKEIN_REQUIRE_UNPRIVILEGED` | util-linux's `setpriv` |

#[cfg(feature = "cache")]
pub mod cache;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (the folder holding the top `Cargo.toml`; this
/// crate is `crates/skein-test-support` in it).
pub fn workspace_root() -> PathBuf {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().nth(2).unwrap_or(here).to_path_buf()
}

/// Whether `var` is set to `1` (CI's way of saying "this must not skip").
pub fn required(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| v == "1")
}

/// Skips the calling test: fails it with `reason` when `var` is `1`, else
/// writes `skipped: <test>: <reason>` to the process's standard error
/// directly (not through `eprintln!`, which libtest captures) and returns,
/// so the caller can `return`.
///
/// # Panics
/// When `var` is set to `1`.
pub fn skip(var: &str, reason: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("<unnamed test>")
        .to_string();
    if required(var) {
        panic!("{test}: {reason} ({var}=1 makes this a failure instead of a skip)");
    }
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "skipped: {test}: {reason} (set {var}=1 to fail instead)"
    );
}

/// `../shared` beside the repository root, as CI lays it out, when its
/// `corpus/real` folder exists; otherwise `None` after [`skip`] with
/// `SKEIN_REQUIRE_SHARED`.
///
/// # Panics
/// When the folder is absent and `SKEIN_REQUIRE_SHARED=1`.
pub fn shared() -> Option<PathBuf> {
    let root = workspace_root();
    let p = root.parent().unwrap_or(&root).join("shared");
    if p.join("corpus/real").is_dir() {
        Some(p)
    } else {
        skip(
            "SKEIN_REQUIRE_SHARED",
            &format!(
                "the shared corpus {} is absent (CI lays it beside the repository)",
                p.join("corpus/real").display()
            ),
        );
        None
    }
}

/// `../shared/corpus/real`, or `None` after a skip (see [`shared`]).
///
/// # Panics
/// When the folder is absent and `SKEIN_REQUIRE_SHARED=1`.
pub fn real_corpus() -> Option<PathBuf> {
    shared().map(|s| s.join("corpus/real"))
}

/// Every regular file below `dir`, in path order (each folder's entries
/// sorted by name, depth first), whose name ends in `.{ext}` when `ext` is
/// given: the file list of the tests that compare two readers on a whole
/// corpus. Symbolic links are not followed (nor listed), so a link cannot
/// list a file twice or leave the corpus.
///
/// # Panics
/// When a folder cannot be read: a test over a corpus must not compare
/// less than it says.
pub fn files_under(dir: &Path, ext: Option<&str>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .and_then(|rd| rd.collect::<Result<Vec<_>, _>>())
            .unwrap_or_else(|e| panic!("cannot read folder {}: {e}", folder.display()));
        for e in entries {
            let path = e.path();
            let t = e
                .file_type()
                .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
            if t.is_dir() {
                folders.push(path);
            } else if t.is_file() && ext.is_none_or(|x| path.extension().is_some_and(|e| e == x)) {
                out.push(path);
            }
        }
    }
    // Paths compare component by component: the order of a recursive walk
    // that sorts each folder by name.
    out.sort();
    out
}

/// Every case folder of the rule fixtures (`corpus/rules/<rule>/<case>/`),
/// sorted: the inputs of the suites that hold a property of every pass on
/// every fixture.
///
/// # Panics
/// When `corpus/rules` cannot be read.
pub fn rule_cases() -> Vec<PathBuf> {
    let rules = workspace_root().join("corpus/rules");
    let mut out = Vec::new();
    for rule in
        std::fs::read_dir(&rules).unwrap_or_else(|e| panic!("cannot read {}: {e}", rules.display()))
    {
        let rule = rule.expect("a folder entry").path();
        for case in std::fs::read_dir(&rule).into_iter().flatten() {
            let case = case.expect("a folder entry").path();
            if case.is_dir() {
                out.push(case);
            }
        }
    }
    out.sort();
    out
}

/// Every file below `root`, `/`-separated and relative to it, in no set
/// order: the repository paths a test gives the passes. Unlike
/// [`files_under`] it goes through links (a linked folder's files and a
/// linked file are listed), as the fixtures of linked paths need.
pub fn paths_below(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(rel) = p.strip_prefix(root) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

/// Copies the folder `from` into `to` (created when missing): files,
/// folders, and symbolic links as links. A `.skein_cache` folder, which a
/// run of skein in `from` may have left, is not copied.
///
/// # Panics
/// When something cannot be read or written.
pub fn copy_tree(from: &Path, to: &Path) {
    let mut folders = vec![(from.to_path_buf(), to.to_path_buf())];
    while let Some((from, to)) = folders.pop() {
        std::fs::create_dir_all(&to)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", to.display()));
        let entries = std::fs::read_dir(&from)
            .unwrap_or_else(|e| panic!("cannot read folder {}: {e}", from.display()));
        for e in entries {
            let e = e.unwrap_or_else(|err| panic!("cannot read {}: {err}", from.display()));
            let (src, dst) = (e.path(), to.join(e.file_name()));
            let t = e
                .file_type()
                .unwrap_or_else(|err| panic!("cannot read {}: {err}", src.display()));
            let copied = if t.is_symlink() {
                symlink(&src, &dst)
            } else if t.is_dir() {
                if e.file_name() != ".skein_cache" {
                    folders.push((src.clone(), dst.clone()));
                }
                Ok(())
            } else {
                std::fs::copy(&src, &dst).map(|_| ())
            };
            copied.unwrap_or_else(|err| panic!("cannot copy {}: {err}", src.display()));
        }
    }
}

#[cfg(unix)]
fn symlink(src: &Path, dst: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(std::fs::read_link(src)?, dst)
}

#[cfg(not(unix))]
fn symlink(src: &Path, dst: &Path) -> std::io::Result<()> {
    std::fs::copy(src, dst).map(|_| ())
}

/// The example repository (`corpus/examples/demo-repo`), copied into a
/// temporary folder: for a test that writes into the project it analyzes.
///
/// # Panics
/// When the copy fails.
pub fn demo_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    copy_tree(
        &workspace_root().join("corpus/examples/demo-repo"),
        dir.path(),
    );
    dir
}

/// One text of [`lf_and_crlf`]: a file's contents as written, or its copy
/// with every line ending `\r\n`.
pub struct Variant<'a> {
    /// The file read.
    pub path: &'a Path,
    /// Whether this is the CRLF copy.
    pub crlf: bool,
    /// The text.
    pub text: String,
}

impl Variant<'_> {
    /// `path (LF)` or `path (CRLF)`, for a failing assertion's message.
    pub fn name(&self) -> String {
        let variant = if self.crlf { "CRLF" } else { "LF" };
        format!("{} ({variant})", self.path.display())
    }
}

/// Each UTF-8 file of `files` (the others skipped) read as written, then as
/// a CRLF copy (`\r\n` and `\n` both become `\r\n`), in order: the texts
/// on which the corpus tests compare a reader with its reference, so both
/// line endings are covered.
///
/// # Panics
/// When a file cannot be read.
pub fn lf_and_crlf(files: &[PathBuf]) -> impl Iterator<Item = Variant<'_>> {
    files.iter().flat_map(|path| {
        let bytes =
            std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let text = String::from_utf8(bytes).ok();
        text.into_iter().flat_map(move |text| {
            let crlf = text.replace("\r\n", "\n").replace('\n', "\r\n");
            [
                Variant {
                    path,
                    crlf: false,
                    text,
                },
                Variant {
                    path,
                    crlf: true,
                    text: crlf,
                },
            ]
        })
    })
}

/// Whether Graphviz's `dot` runs; when it does not, [`skip`]s with
/// `SKEIN_REQUIRE_DOT`.
///
/// # Panics
/// When `dot` does not run and `SKEIN_REQUIRE_DOT=1`.
pub fn dot() -> bool {
    let ok = Command::new("dot")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        skip(
            "SKEIN_REQUIRE_DOT",
            "Graphviz `dot` is not installed (apt-get install graphviz)",
        );
    }
    ok
}

/// How to run a command without the privilege to read every file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unprivileged {
    /// This process is not root: run the command as it is.
    AlreadyUnprivileged,
    /// Root with util-linux's `setpriv`: prefix the command with these
    /// arguments (`setpriv --reuid=65534 --regid=65534 --clear-groups
    /// --inh-caps=-all --`), which run it as `nobody`.
    Setpriv(Vec<String>),
}

impl Unprivileged {
    /// A `Command` running `program` unprivileged.
    pub fn command(&self, program: &std::path::Path) -> Command {
        match self {
            Unprivileged::AlreadyUnprivileged => Command::new(program),
            Unprivileged::Setpriv(prefix) => {
                let mut c = Command::new(&prefix[0]);
                c.args(&prefix[1..]).arg(program);
                c
            }
        }
    }
}

/// A way to run a command as a user that mode-000 files deny, or `None`
/// after [`skip`] with `SKEIN_REQUIRE_UNPRIVILEGED` (running as root without
/// a working `setpriv`).
///
/// # Panics
/// When no way exists and `SKEIN_REQUIRE_UNPRIVILEGED=1`.
pub fn unprivileged() -> Option<Unprivileged> {
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string());
    if uid.as_deref().is_some_and(|u| u != "0") {
        return Some(Unprivileged::AlreadyUnprivileged);
    }
    let prefix: Vec<String> = [
        "setpriv",
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "--inh-caps=-all",
        "--",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let works = Command::new(&prefix[0])
        .args(&prefix[1..])
        .args(["id", "-u"])
        .output()
        .is_ok_and(|o| o.status.success() && o.stdout.trim_ascii() == b"65534");
    if works {
        Some(Unprivileged::Setpriv(prefix))
    } else {
        skip(
            "SKEIN_REQUIRE_UNPRIVILEGED",
            "running as root and `setpriv` cannot drop to uid 65534, so a mode-000 file is readable",
        );
        None
    }
}

/// A time bound that holds even when the code under test hangs: while the
/// guard lives, a thread waits `limit`; if the guard is still alive then,
/// the thread writes `watchdog: <what> still running after <limit>` to
/// standard error and ends the test process with exit status 101 (a failed
/// `cargo test`), since a hung test thread cannot be stopped from outside.
/// An assertion made after the code returns cannot catch a hang: use this
/// around the call instead.
pub struct Watchdog {
    done: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// Arms a watchdog of `limit` for `what`.
    pub fn start(what: impl Into<String>, limit: std::time::Duration) -> Watchdog {
        let what = what.into();
        let (done, rx) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(limit) {
                let mut err = std::io::stderr().lock();
                let _ = writeln!(err, "watchdog: {what} still running after {limit:?}");
                std::process::exit(101);
            }
        });
        Watchdog {
            done: Some(done),
            thread: Some(thread),
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        if let Some(done) = self.done.take() {
            let _ = done.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn files_under_lists_regular_files_in_path_order_without_links() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for f in ["a/c/d.md", "a/b.md", "a-e.md", "z.txt", "a/x.txt"] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        }
        std::os::unix::fs::symlink(root.join("a"), root.join("b")).unwrap();
        std::os::unix::fs::symlink(root.join("a-e.md"), root.join("f.md")).unwrap();
        let rel = |v: Vec<PathBuf>| -> Vec<String> {
            v.iter()
                .map(|p| p.strip_prefix(root).unwrap().display().to_string())
                .collect()
        };
        assert_eq!(
            rel(files_under(root, Some("md"))),
            ["a/b.md", "a/c/d.md", "a-e.md"]
        );
        assert_eq!(
            rel(files_under(root, None)),
            ["a/b.md", "a/c/d.md", "a/x.txt", "a-e.md", "z.txt"]
        );
        // A copy keeps the links as links and leaves skein's cache out.
        std::fs::create_dir_all(root.join("a/.skein_cache")).unwrap();
        std::fs::write(root.join("a/.skein_cache/run.bin"), "x").unwrap();
        let to = tempfile::tempdir().unwrap();
        copy_tree(root, to.path());
        assert_eq!(
            std::fs::read_link(to.path().join("b")).unwrap(),
            root.join("a")
        );
        assert!(!to.path().join("a/.skein_cache").exists());
        assert_eq!(
            files_under(to.path(), None).len(),
            files_under(root, None).len() - 1
        );
    }

    #[test]
    fn texts_come_as_written_then_as_crlf() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.md"), dir.path().join("b.md"));
        std::fs::write(&a, "x\r\ny\n").unwrap();
        std::fs::write(&b, b"\xff").unwrap();
        let files = vec![a.clone(), b];
        let got: Vec<(String, String)> = lf_and_crlf(&files).map(|v| (v.name(), v.text)).collect();
        assert_eq!(
            got,
            [
                (format!("{} (LF)", a.display()), "x\r\ny\n".to_string()),
                (format!("{} (CRLF)", a.display()), "x\r\ny\r\n".to_string()),
            ]
        );
    }
}
