//! Discovery: walking a repository for artifact files (DESIGN.md §2, "walk").
//!
//! Uses the `ignore` crate's parallel walker: `.gitignore`, `.ignore` and
//! git excludes are honoured (also outside a git repository), hidden files
//! and folders are visited (artifacts live in `.claude-plugin/`, `.vscode/`,
//! `.mcp.json`) except `.git/`, and symbolic links are never followed, so the
//! walk cannot leave the root.

use ignore::{WalkBuilder, WalkState};
use skein_model::classify_path;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file the walk found whose path names an artifact.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Found {
    /// Path relative to the root, `/`-separated.
    pub rel: String,
    /// Path to open.
    pub path: PathBuf,
    /// `false` when the entry is not a regular file (a FIFO, a device, a
    /// symlink): it is reported, never opened.
    pub regular: bool,
}

/// Relative path of `path` under `root` with `/` separators; `None` when it
/// is not valid UTF-8 (such names match no artifact convention).
pub fn rel_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let mut parts = Vec::new();
    for c in rel.components() {
        parts.push(c.as_os_str().to_str()?);
    }
    Some(parts.join("/"))
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// Files whose path names an artifact, sorted by path.
    pub artifacts: Vec<Found>,
    /// Every file (artifact or not) with a UTF-8 path, repo-relative, for
    /// existence checks of referenced paths.
    pub all: BTreeSet<String>,
}

/// Walks `root` in parallel.
pub fn walk(root: &Path, threads: usize) -> Walked {
    let found = Mutex::new(Vec::new());
    let all = Mutex::new(Vec::new());
    WalkBuilder::new(root)
        .hidden(false)
        .follow_links(false)
        .require_git(false)
        .threads(threads)
        .filter_entry(|e| e.file_name() != ".git")
        .build_parallel()
        .run(|| {
            let found = &found;
            let all = &all;
            Box::new(move |entry| {
                let Ok(entry) = entry else {
                    return WalkState::Continue;
                };
                let Some(ft) = entry.file_type() else {
                    return WalkState::Continue;
                };
                if ft.is_dir() {
                    return WalkState::Continue;
                }
                let Some(rel) = rel_path(root, entry.path()) else {
                    return WalkState::Continue;
                };
                let artifact = classify_path(&rel).is_some();
                all.lock().expect("walk mutex").push(rel.clone());
                if artifact {
                    found.lock().expect("walk mutex").push(Found {
                        rel,
                        path: entry.path().to_path_buf(),
                        regular: ft.is_file(),
                    });
                }
                WalkState::Continue
            })
        });
    let mut artifacts = found.into_inner().expect("walk mutex");
    artifacts.sort();
    Walked {
        artifacts,
        all: all.into_inner().expect("walk mutex").into_iter().collect(),
    }
}
