//! Discovery: walking a repository for artifact files (DESIGN.md §2, "walk").
//!
//! Uses the `ignore` crate's parallel walker: `.gitignore`, `.ignore` and
//! git excludes are honoured (also outside a git repository, where only
//! the project's own count; inside one, up to the top of its work tree,
//! as git does), hidden files
//! and folders are visited (artifacts live in `.claude-plugin/`, `.vscode/`,
//! `.mcp.json`) except `.git/` and skein's cache folder `.skein_cache/`, and symbolic links are never followed, so the
//! walk cannot leave the root. A link named like an artifact, and every
//! link to a folder, is kept as found (`SYN012 symlink-not-followed`), so
//! what is not read is said.

use ignore::{WalkBuilder, WalkState};
use rayon::slice::ParallelSliceMut;
use skein_model::classify_path;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file the walk found whose path names an artifact.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Found {
    /// Path relative to the root, `/`-separated.
    pub rel: String,
    /// Path to open.
    pub path: PathBuf,
    /// What kind of entry it is; only regular files are opened.
    pub kind: EntryKind,
}

/// The kind of a directory entry whose name is an artifact's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EntryKind {
    /// A regular file: read.
    Regular,
    /// A symbolic link: never followed (it could point outside the root).
    Symlink,
    /// A symbolic link to a folder: never followed, so nothing below it is
    /// read (artifacts there are not analyzed under its path).
    LinkedFolder,
    /// A FIFO, socket or device: never opened (a read could block forever).
    Special,
}

impl EntryKind {
    /// The kind of the entry at `path`, from its own metadata (a link not
    /// followed, `meta` of `symlink_metadata`); a link's target is looked
    /// at only to tell a folder from the rest.
    pub fn of(path: &Path, meta: &std::fs::Metadata) -> EntryKind {
        kind(path, meta.file_type())
    }
}

fn kind(path: &Path, ft: std::fs::FileType) -> EntryKind {
    if ft.is_file() {
        EntryKind::Regular
    } else if ft.is_symlink() {
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            EntryKind::LinkedFolder
        } else {
            EntryKind::Symlink
        }
    } else {
        EntryKind::Special
    }
}

/// Relative path of `path` under `root` with `/` separators. Bytes that are
/// not UTF-8 are shown as U+FFFD: the file is still analyzed (it is opened by
/// its real path), only its displayed name is lossy.
pub fn rel_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    // A path the walk joined is already `/`-separated and clean on Unix.
    #[cfg(unix)]
    if let Some(s) = rel.to_str()
        && !s.contains("//")
        && !s.contains("/./")
        && !s.starts_with("./")
        && !s.ends_with('/')
        && !s.ends_with("/.")
        && s != "."
    {
        return Some(s.to_owned());
    }
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// Files whose path names an artifact, sorted by path.
    pub artifacts: Vec<Found>,
    /// Symbolic links to folders, sorted by path: never entered.
    pub linked_folders: Vec<Found>,
    /// Every file (artifact or not), repo-relative, for existence checks of
    /// referenced paths.
    pub all: skein_lint::RepoFiles,
    /// Folders or files the walk could not read: (repo-relative path, reason).
    pub errors: Vec<(String, String)>,
    /// Symbolic links found (artifacts or not): what a link is (a link to a
    /// folder or to a file) can change without its folder changing.
    pub symlinks: usize,
    /// The folders (repo-relative, `""` for the root) that hold a `.git`
    /// entry: git's folder (or, in a worktree or submodule, its file) is
    /// never walked, but its `info/exclude` is honoured.
    pub git_dirs: Vec<String>,
}

/// Called with each folder the walk enters (its repo-relative path, `""`
/// for the root, and its entry) before its entries are visited; `.git`
/// folders are not entered.
pub type OnFolder<'a> = &'a (dyn Fn(&str, &ignore::DirEntry) + Sync);

/// Walks `root` in parallel.
pub fn walk(root: &Path, threads: usize) -> Walked {
    walk_with(root, threads, &|rel: &str| classify_path(rel).is_some())
}

/// Walks `root` in parallel; `is_artifact` decides from a repo-relative
/// path whether a file is an artifact (path conventions plus configured
/// format mappings).
pub fn walk_with(
    root: &Path,
    threads: usize,
    is_artifact: &(dyn Fn(&str) -> bool + Sync),
) -> Walked {
    walk_filtered(root, threads, true, is_artifact, None)
}

/// [`walk_with`], choosing whether ignore files (`.gitignore`, `.ignore`,
/// git's exclude files) are honoured. A CI gate passes `false`: otherwise a
/// change that lists an artifact in `.gitignore` hides it from the analysis
/// even while git still tracks it.
pub fn walk_filtered(
    root: &Path,
    threads: usize,
    ignore_files: bool,
    is_artifact: &(dyn Fn(&str) -> bool + Sync),
    on_folder: Option<OnFolder<'_>>,
) -> Walked {
    let found = Mutex::new(Vec::new());
    let linked = Mutex::new(Vec::new());
    let all = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    let git_dirs = Mutex::new(Vec::new());
    let symlinks = std::sync::atomic::AtomicUsize::new(0);
    // Inside a git work tree, git's own rules: `.gitignore` files apply up
    // to the top of the work tree and no further. Outside one, the
    // project's own ignore files apply, and none above it (a `.gitignore`
    // of `*` in a home folder kept in git would otherwise hide every
    // project below it).
    let in_git = in_git_work_tree(root);
    WalkBuilder::new(root)
        .standard_filters(ignore_files)
        .parents(ignore_files && in_git)
        .hidden(false)
        .follow_links(false)
        .require_git(in_git)
        .threads(threads)
        // Never skein's own cache (which also ignores itself, but
        // `--no-ignore-files` reads ignored files); git's folder is skipped
        // below, where it is noted.
        .filter_entry(|e| e.file_name() != crate::cache::DEFAULT_DIR)
        .build_parallel()
        .run(|| {
            let found = &found;
            let linked = &linked;
            let all = &all;
            let errors = &errors;
            let git_dirs = &git_dirs;
            let symlinks = &symlinks;
            Box::new(move |entry| {
                let entry = match entry {
                    Ok(e) => e,
                    Err(e) => {
                        let at = walk_error_path(&e)
                            .and_then(|p| rel_path(root, &p))
                            .unwrap_or_default();
                        errors.lock().expect("walk mutex").push((at, e.to_string()));
                        return WalkState::Continue;
                    }
                };
                let Some(ft) = entry.file_type() else {
                    return WalkState::Continue;
                };
                if entry.depth() > 0 && entry.file_name() == ".git" {
                    let holder = entry.path().parent().and_then(|p| rel_path(root, p));
                    git_dirs
                        .lock()
                        .expect("walk mutex")
                        .push(holder.unwrap_or_default());
                    return WalkState::Skip;
                }
                if ft.is_dir() {
                    if let Some(on_folder) = on_folder
                        && let Some(rel) = rel_path(root, entry.path())
                    {
                        on_folder(&rel, &entry);
                    }
                    return WalkState::Continue;
                }
                let Some(rel) = rel_path(root, entry.path()) else {
                    return WalkState::Continue;
                };
                if ft.is_symlink() {
                    symlinks.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                let artifact = is_artifact(&rel);
                all.lock().expect("walk mutex").push(rel.clone());
                let kind = kind(entry.path(), ft);
                let f = Found {
                    rel,
                    path: entry.path().to_path_buf(),
                    kind,
                };
                if kind == EntryKind::LinkedFolder {
                    linked.lock().expect("walk mutex").push(f);
                } else if artifact {
                    found.lock().expect("walk mutex").push(f);
                }
                WalkState::Continue
            })
        });
    let mut artifacts = found.into_inner().expect("walk mutex");
    // On every thread: 94k paths at 100k files, sorted serially, held the
    // second thread idle.
    artifacts.par_sort();
    let mut linked_folders = linked.into_inner().expect("walk mutex");
    linked_folders.sort();
    let mut errors = errors.into_inner().expect("walk mutex");
    errors.sort();
    let mut git_dirs = git_dirs.into_inner().expect("walk mutex");
    git_dirs.sort();
    Walked {
        artifacts,
        linked_folders,
        all: all.into_inner().expect("walk mutex").into_iter().collect(),
        errors,
        symlinks: symlinks.into_inner(),
        git_dirs,
    }
}

/// Whether `root` is in a git work tree: it or a folder above it holds a
/// `.git` (a folder, or the file of a worktree or submodule).
fn in_git_work_tree(root: &Path) -> bool {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    root.ancestors().any(|a| a.join(".git").exists())
}

/// The path an `ignore` error is about, if it names one.
fn walk_error_path(e: &ignore::Error) -> Option<PathBuf> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        ignore::Error::Partial(errs) => errs.iter().find_map(walk_error_path),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::rel_path;
    use std::path::Path;

    /// The slow form: every component, joined by `/`.
    fn by_components(root: &Path, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(root).ok()?;
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Some(parts.join("/"))
    }

    #[test]
    fn the_fast_relative_path_is_the_components_joined() {
        let root = Path::new("/r");
        for p in [
            "/r",
            "/r/a",
            "/r/a/b/SKILL.md",
            "/r/a//b",
            "/r/a/./b",
            "/r/./a",
            "/r/a/",
            "/r/a/.",
            "/r/.claude-plugin/plugin.json",
            "/r/a b/é.md",
        ] {
            assert_eq!(
                rel_path(root, Path::new(p)),
                by_components(root, Path::new(p)),
                "{p}"
            );
        }
        assert_eq!(rel_path(root, Path::new("/elsewhere/a")), None);
        assert_eq!(
            rel_path(Path::new("."), Path::new("./a/b")),
            Some("a/b".into())
        );
    }
}
