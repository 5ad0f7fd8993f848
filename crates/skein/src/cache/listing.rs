//! The walk's listing, kept in the cache (issue #17, a warm run in a
//! fraction of the cold one): what the last walk found, with the stamp of
//! every folder it entered, so that a run whose folders are all unchanged
//! lists nothing again.
//!
//! A walk reads every folder of the project (open, list, close) to learn
//! which files exist; on the generated 100k-file tree that is 89,000
//! folders and about half a million system calls, most of a warm run. A
//! folder's modification and change times move whenever an entry is
//! added to it, removed from it or renamed in it (POSIX `link`, `unlink`,
//! `rename`: "the st_ctime and st_mtime fields of the parent directory
//! shall be marked for update"), so a folder whose [`Stamp`] is the one
//! recorded holds the same entries. git's untracked cache
//! (`core.untrackedCache`, `Documentation/technical/index-format.txt`,
//! "Untracked cache") rests on the same fact. A run checks one stamp per
//! folder instead of listing it; the files' own stamps are checked after,
//! as before ([`super::analyze`]).
//!
//! What else decides a walk's result, and is checked too:
//! - the configuration (formats, excludes) and `--no-ignore-files`: part of
//!   the listing's key, with the project's canonical path and the paths of
//!   git's global files (which `HOME` and `XDG_CONFIG_HOME` move);
//! - the ignore files the walk honoured: every `.gitignore` and `.ignore`
//!   of a folder entered (also one that ignores itself, so the walk never
//!   listed it), `.git/info/exclude` of every folder that holds a `.git`,
//!   those of the project's parent folders, git's global excludes file and
//!   the git configuration files that name it: each by its stamp, or by its
//!   absence (a file created in a folder entered changes that folder's
//!   stamp; one created elsewhere is probed for);
//! - symbolic links: a link's target can change from a file to a folder
//!   with no folder changing, so a walk that found any link records no
//!   listing; nor does one that found a folder it could not read, a path
//!   that is not UTF-8, or a `.git` that is a file (a worktree or a
//!   submodule, whose excludes live elsewhere).
//!
//! A stamp taken within [`super::RACY_NS`] of the recording walk's start is
//! not trusted, as for files. A listing that does not hold (any stamp
//! moved, a record that does not read) is a miss: the project is walked as
//! without a cache, and the new listing recorded.

use super::{Key, Stamp, store::Store};
use crate::walk::{EntryKind, Found, Walked};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The version of the listing's layout; part of its key.
const LAYOUT: &str = "skein-listing-1";

/// What a walk found, and what its result rests on. Paths are stored as a
/// tree: a folder as its parent's index and its name, a file as its
/// folder's index and its name (a fifth of the bytes of whole paths).
#[derive(Debug, Serialize, Deserialize)]
struct Listing {
    /// The key of the project and the configuration ([`key`]).
    key: u128,
    /// When the recording walk started (ns since the epoch).
    started: i128,
    /// Every folder entered, sorted by path (so a parent comes before its
    /// folders): its parent's index (the root, first, has none), its name
    /// and its stamp.
    folders: Vec<(Option<u32>, String, Stamp)>,
    /// Every other file the result rests on (an ignore file, git's
    /// configuration), by path, with its stamp or `None` when absent.
    probes: Vec<(PathBuf, Option<Stamp>)>,
    /// Every file found, sorted by path: its folder's index and its name.
    files: Vec<(u32, String)>,
    /// The walk's artifacts (each a regular file: no link was found), as
    /// indexes into `files`.
    artifacts: Vec<u32>,
    /// The folders holding a `.git` folder, as indexes into `folders`.
    git_dirs: Vec<u32>,
}

/// `dir/name`, or `name` in the root.
fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The key of a listing of `root`: its canonical path, the configuration's
/// fingerprint, whether ignore files are honoured, and `globals` (the
/// paths of git's global files, [`global_files`]).
fn key(
    root: &Path,
    config: &crate::config::Config,
    ignore_files: bool,
    globals: &[PathBuf],
) -> u128 {
    let mut k = Key::new(LAYOUT);
    let canonical = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    k.bytes(canonical.as_os_str().as_encoded_bytes());
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    config.fingerprint(&mut h);
    k.u128(h.digest128()).bytes(&[u8::from(ignore_files)]);
    // Where git's global files are depends on the environment (`HOME`,
    // `XDG_CONFIG_HOME`, the configuration's `core.excludesFile`): a run
    // in another environment probes other files, so it is another listing.
    for p in globals {
        k.bytes(p.as_os_str().as_encoded_bytes());
    }
    k.finish()
}

/// git's global files that decide what a walk ignores: the global excludes
/// file and the configuration files that may name it.
fn global_files() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ignore::gitignore::gitconfig_excludes_path()
        .into_iter()
        .collect();
    out.extend(git_config_files());
    out
}

/// The stamp of the entry at `path`, not following a link; `None` when
/// there is none.
fn stamp_at(path: &Path) -> Option<Stamp> {
    std::fs::symlink_metadata(path)
        .ok()
        .and_then(|m| Stamp::of(&m))
}

/// A walk of `root` through the listing of `store`: the recorded result
/// when every folder and probe is unchanged (and `true`), else `walk` run
/// (given a callback that stamps each folder) and its result recorded.
pub(super) fn walk(
    root: &Path,
    config: &crate::config::Config,
    store: &Store,
    ignore_files: bool,
    walk: impl FnOnce(Option<crate::walk::OnFolder<'_>>) -> Walked,
) -> (Walked, bool) {
    // Found once: they name the listing and are probed when it is recorded.
    let globals = if ignore_files {
        global_files()
    } else {
        Vec::new()
    };
    let key = key(root, config, ignore_files, &globals);
    if let Some(w) = reuse(root, key, store) {
        return (w, true);
    }
    let started = super::now_ns();
    let folders = Mutex::new(Vec::new());
    let on_folder = |rel: &str, entry: &ignore::DirEntry| {
        let stamp = entry.metadata().ok().and_then(|m| Stamp::of(&m));
        folders
            .lock()
            .expect("folders")
            .push((rel.to_string(), stamp));
    };
    let walked = walk(Some(&on_folder));
    if store.writable()
        && let Some(listing) = record(
            root,
            key,
            started,
            &walked,
            (ignore_files, &globals),
            folders,
        )
        && let Ok(body) = postcard::to_allocvec(&listing)
    {
        store.write_listing(&body);
    }
    (walked, false)
}

/// The recorded walk, when its listing holds.
fn reuse(root: &Path, key: u128, store: &Store) -> Option<Walked> {
    let body = store.load_listing()?;
    let listing: Listing = postcard::from_bytes(&body).ok()?;
    drop(body);
    if listing.key != key {
        return None;
    }
    let started = listing.started;
    let settled = |s: &Stamp| s.settled(started);
    // Folder paths, each from its parent's (which comes first).
    let mut folders: Vec<String> = Vec::with_capacity(listing.folders.len());
    for (parent, name, _) in &listing.folders {
        let path = match parent {
            None => name.clone(),
            Some(p) => join(folders.get(*p as usize)?, name),
        };
        folders.push(path);
    }
    let folders_hold = folders
        .par_iter()
        .zip(&listing.folders)
        .all(|(rel, (_, _, recorded))| {
            settled(recorded)
                && std::fs::symlink_metadata(root.join(rel))
                    .ok()
                    .filter(std::fs::Metadata::is_dir)
                    .and_then(|m| Stamp::of(&m))
                    == Some(*recorded)
        });
    let probes_hold = folders_hold
        && listing.probes.par_iter().all(|(path, recorded)| {
            recorded.as_ref().is_none_or(settled) && stamp_at(path) == *recorded
        });
    if !probes_hold {
        return None;
    }
    let files: Vec<String> = listing
        .files
        .iter()
        .map(|(dir, name)| Some(join(folders.get(*dir as usize)?, name)))
        .collect::<Option<_>>()?;
    let artifacts = listing
        .artifacts
        .iter()
        .map(|&i| {
            let rel = files.get(i as usize)?.clone();
            Some(Found {
                path: root.join(&rel),
                rel,
                kind: EntryKind::Regular,
            })
        })
        .collect::<Option<Vec<Found>>>()?;
    let git_dirs = listing
        .git_dirs
        .iter()
        .map(|&i| folders.get(i as usize).cloned())
        .collect::<Option<Vec<String>>>()?;
    Some(Walked {
        artifacts,
        linked_folders: Vec::new(),
        all: files.into_iter().collect::<skein_lint::RepoFiles>(),
        errors: Vec::new(),
        symlinks: 0,
        git_dirs,
    })
}

/// The listing of `walked`, or `None` when it may not be trusted later
/// (see the module's documentation).
fn record(
    root: &Path,
    key: u128,
    started: i128,
    walked: &Walked,
    (ignore_files, globals): (bool, &[PathBuf]),
    folders: Mutex<Vec<(String, Option<Stamp>)>>,
) -> Option<Listing> {
    if walked.symlinks > 0 || !walked.errors.is_empty() || !walked.linked_folders.is_empty() {
        return None;
    }
    let unnamed = |p: &str| p.contains(char::REPLACEMENT_CHARACTER);
    if walked.all.iter().any(unnamed) {
        return None;
    }
    let mut folders = folders
        .into_inner()
        .expect("folders")
        .into_iter()
        .map(|(rel, stamp)| Some((rel, stamp?)))
        .collect::<Option<Vec<(String, Stamp)>>>()?;
    if folders.iter().any(|(rel, _)| unnamed(rel)) {
        return None;
    }
    folders.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    if folders.first().is_none_or(|(rel, _)| !rel.is_empty()) {
        return None;
    }
    let mut probe_paths: Vec<PathBuf> = Vec::new();
    if ignore_files {
        // Each folder's ignore files, listed or not (a `.gitignore` may
        // ignore itself).
        for (dir, _) in &folders {
            for name in [".gitignore", ".ignore"] {
                probe_paths.push(root.join(join(dir, name)));
            }
        }
        for dir in &walked.git_dirs {
            let git = root.join(join(dir, ".git"));
            if !git.is_dir() {
                return None;
            }
            probe_paths.push(git.join("info").join("exclude"));
        }
        // The parent folders' (the walk reads them all the way up).
        if let Ok(canonical) = std::fs::canonicalize(root) {
            for dir in canonical.ancestors().skip(1) {
                for name in [".gitignore", ".ignore", ".git"] {
                    probe_paths.push(dir.join(name));
                }
                probe_paths.push(dir.join(".git").join("info").join("exclude"));
            }
        }
        probe_paths.extend(globals.iter().cloned());
    }
    // Absent ignore files of folders entered need no probe: creating one
    // changes its folder's stamp.
    let entered: std::collections::HashSet<&str> =
        folders.iter().map(|(rel, _)| rel.as_str()).collect();
    let under_root = |p: &Path| -> bool {
        p.strip_prefix(root)
            .ok()
            .and_then(|rel| rel.parent())
            .and_then(Path::to_str)
            .is_some_and(|dir| entered.contains(dir))
    };
    let probes: Vec<(PathBuf, Option<Stamp>)> = probe_paths
        .into_par_iter()
        .filter_map(|p| {
            let stamp = stamp_at(&p);
            (stamp.is_some() || !under_root(&p)).then_some((p, stamp))
        })
        .collect();
    let index: HashMap<&str, u32> = folders
        .iter()
        .enumerate()
        .map(|(i, (rel, _))| (rel.as_str(), i as u32))
        .collect();
    let split = |path: &str| -> Option<(u32, String)> {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        Some((*index.get(dir)?, name.to_string()))
    };
    let tree_folders = folders
        .iter()
        .map(|(rel, stamp)| {
            if rel.is_empty() {
                return Some((None, String::new(), *stamp));
            }
            let (parent, name) = split(rel)?;
            Some((Some(parent), name, *stamp))
        })
        .collect::<Option<Vec<_>>>()?;
    let files = walked.all.iter().map(split).collect::<Option<Vec<_>>>()?;
    let file_index: HashMap<&str, u32> = walked
        .all
        .iter()
        .enumerate()
        .map(|(i, p)| (p, i as u32))
        .collect();
    let artifacts = walked
        .artifacts
        .iter()
        .map(|f| {
            (f.kind == EntryKind::Regular)
                .then(|| file_index.get(f.rel.as_str()).copied())
                .flatten()
        })
        .collect::<Option<Vec<u32>>>()?;
    let git_dirs = walked
        .git_dirs
        .iter()
        .map(|d| index.get(d.as_str()).copied())
        .collect::<Option<Vec<u32>>>()?;
    Some(Listing {
        key,
        started,
        folders: tree_folders,
        probes,
        files,
        artifacts,
        git_dirs,
    })
}

/// git's configuration files that may name the global excludes file
/// (`core.excludesFile`, git-config(1) "FILES"): `$XDG_CONFIG_HOME/git/config`
/// (or `~/.config/git/config`) and `~/.gitconfig`, and the default global
/// excludes file `$XDG_CONFIG_HOME/git/ignore` (or `~/.config/git/ignore`).
fn git_config_files() -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    let mut out = Vec::new();
    if let Some(x) = xdg {
        out.push(x.join("git").join("config"));
        out.push(x.join("git").join("ignore"));
    }
    if let Some(h) = home {
        out.push(h.join(".gitconfig"));
    }
    out
}
