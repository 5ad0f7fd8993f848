//! skein: a static analyzer for repositories of AI-agent artifacts.
//!
//! This crate is the library facade and the `skein` binary. The pipeline
//! (DESIGN.md §2): walk -> read -> parse with tree-sitter -> spanned
//! `Document` -> decode + schema validation -> sorted diagnostics. The other
//! crates do no IO; [`check`] reads the disk, [`check_files`] takes files in
//! memory.
//!
//! ```
//! let files = vec![skein::InputFile::new(
//!     "skills/review/SKILL.md",
//!     "---\nname: review\ndescription: Reviews a diff.\n---\n# Review\n",
//! )];
//! let report = skein::check_files(files, &skein::Options::default());
//! assert!(report.diagnostics().is_empty());
//! assert_eq!(report.summary().artifacts, vec![("agent-skill".to_string(), 1)]);
//! ```

pub mod baseline;
pub mod cache;
pub mod cli;
pub mod config;
mod declared;
mod fault;
pub mod fix;
pub mod incremental;
mod lean;
mod order;
pub mod rules;
pub mod server;
pub mod suppress;
pub mod walk;

/// `skein --version`: the package version and the commit it was built
/// from (`0.1.0 (1a2b3c4d5e6f)`; `unknown commit` outside a git checkout).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("SKEIN_COMMIT"), ")");

/// The package version alone (`0.1.0`), for generated files that must not
/// change with every commit (the man page).
pub const PKG_VERSION: &str = env!("CARGO_PKG_VERSION");

pub use config::{ConfigSource, Overrides};
use rayon::prelude::*;
use skein_model::{Artifact, Decoded, RepoGraph, classify_in_repo, classify_with, decode};
use skein_report::Summary;
use skein_syntax::{Diagnostic, FileId, Parsers, Severity, SourceFile, SourceMap, Span};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub use skein_lint;

/// The allocator of the `skein` binaries: mimalloc, for Rust (`#[global_allocator]`
/// in each binary) and, through [`use_mimalloc_in_tree_sitter`], for the
/// tree-sitter runtime, whose parse trees are most of skein's allocations.
pub use mimalloc::MiMalloc;

/// Turns off mimalloc's large (2 MiB, transparent huge) OS pages for this
/// process. A run's heap is built once and dropped at exit; zeroing huge
/// pages on first touch cost about a tenth of the wall time of a real-corpus
/// run (`MIMALLOC_ALLOW_LARGE_OS_PAGES=0` measured the same). Call it first
/// thing in `main`, before anything large is allocated; an environment
/// setting of that variable still wins.
///
/// On Linux it also turns off transparent huge pages for the process
/// (`prctl(PR_SET_THP_DISABLE)`): where the kernel backs anonymous memory
/// with 2 MiB pages whenever it can (`transparent_hugepage=always`), a
/// mimalloc segment that is touched here and there becomes resident whole,
/// so the peak resident size grows well past the live heap (issue #17:
/// 106 to 77 MB on the real corpus, and a fifth of a 100k-file run). The
/// setting is the process's own; child processes inherit it, skein starts
/// none.
///
/// It also sets mimalloc's purge delay to 10 ms (mimalloc 3 waits a
/// second) unless `MIMALLOC_PURGE_DELAY` is set: memory freed during the
/// run (a list that grew, parse trees, texts read again) is given back to
/// the system soon rather than held resident through the repository half,
/// the run's peak (issue #17, on the 100k-file monorepo: 1000 ms peaked at
/// 262 to 270 MB RSS, 10 ms at 240 MB). A delay of 0 purges on every free:
/// 2 MB less at the peak for 11% more CPU time (median of 4 runs each:
/// 15.9 against 14.2 CPU seconds, 2 threads).
///
/// And it turns off mimalloc's eager commit of its arenas unless
/// `MIMALLOC_ARENA_EAGER_COMMIT` is set: memory is then committed as pages
/// are first used and a purge gives it back, where an eagerly committed
/// arena keeps purged pages counted in the resident size (issue #17, the
/// 100k-file monorepo without a cache, 3 runs each: 238.6 to 238.8 MiB peak
/// RSS, then 234.7 to 235.9 MiB; CPU time the same within the noise, 11.5
/// to 13.3 against 11.7 to 12.4 user seconds).
pub fn tune_allocator() {
    if std::env::var_os("MIMALLOC_ALLOW_LARGE_OS_PAGES").is_none()
        && std::env::var_os("MIMALLOC_LARGE_OS_PAGES").is_none()
    {
        // SAFETY: setting an option is a plain store in mimalloc's option
        // table; it reads the option when it reserves new OS memory.
        unsafe { libmimalloc_sys::mi_option_set(libmimalloc_sys::mi_option_large_os_pages, 0) };
    }
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // `mi_option_purge_delay` in mimalloc 3's `mi_option_t` (the sys
        // crate names no constant for it).
        const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
        // SAFETY: as above, a store in the option table, read when freed
        // memory is next considered for purging.
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 10) };
    }
    if std::env::var_os("MIMALLOC_ARENA_EAGER_COMMIT").is_none() {
        // `mi_option_arena_eager_commit` in mimalloc 3's `mi_option_t`.
        const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
        // SAFETY: as above, a store in the option table, read when an
        // arena is next reserved.
        unsafe { libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0) };
    }
    #[cfg(target_os = "linux")]
    {
        // SAFETY: PR_SET_THP_DISABLE takes integer arguments and touches no
        // memory of ours; a kernel without it returns an error, which
        // changes nothing.
        unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
    }
}

/// Makes the tree-sitter runtime allocate with mimalloc, like the Rust code
/// of a binary whose `#[global_allocator]` is [`MiMalloc`]. Allocation is a
/// fifth of a run with the system allocator (parse trees are built and freed
/// for every file, from every worker thread). Call it first thing in `main`:
/// trees made before the call would be freed by the other allocator.
pub fn use_mimalloc_in_tree_sitter() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let allocator = tree_sitter::Allocator {
            malloc: libmimalloc_sys::mi_malloc,
            calloc: libmimalloc_sys::mi_calloc,
            realloc: libmimalloc_sys::mi_realloc,
            free: libmimalloc_sys::mi_free,
        };
        // SAFETY: `Once` makes this the only call; callers make it before any
        // tree-sitter object exists (documented above), so no object made
        // with the previous allocator is ever freed with this one.
        unsafe { tree_sitter::set_allocator(Some(allocator)) };
    });
}
pub use skein_model;
pub use skein_report;
pub use skein_syntax;

/// Default size limit for one artifact file, in bytes (10 MiB).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 10 * 1024 * 1024;

/// Options of a run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Files larger than this many bytes are reported, not read (SYN010);
    /// `None`: `max-file-size` of the configuration, else
    /// [`DEFAULT_MAX_FILE_SIZE`]. Only [`check`] reads files; [`check_files`]
    /// is given their bytes.
    pub max_file_size: Option<u64>,
    /// Worker threads for the walk (the rayon pool is the caller's).
    pub threads: usize,
    /// Where the configuration comes from (`skein.toml` discovery by default).
    pub config: ConfigSource,
    /// Apply no suppression: neither `skein: ignore[...]` comments nor the
    /// configuration's `ignore`, `per-path-ignores` and `[[ignore]]` (an audit).
    pub no_ignores: bool,
    /// Analyze files that ignore files (`.gitignore`, `.ignore`, git's
    /// exclude files) would skip; by default they are honoured.
    pub no_ignore_files: bool,
    /// Settings from the command line, applied over the configuration file
    /// (`--select`, `--ignore`, `--per-file-ignores`, `--exclude`, ...).
    pub overrides: config::Overrides,
    /// A file whose contents are given rather than read: it replaces the
    /// file of that project-relative path, or adds it when there is none
    /// (`skein check - --stdin-filename PATH`, for editors). [`check`] only.
    pub overlay: Option<InputFile>,
    /// More files whose contents are given rather than read, as
    /// [`Options::overlay`] (the autofix applier's candidate contents,
    /// [`fix`]). [`check`] only.
    pub overlays: Vec<InputFile>,
    /// Counters to watch the run from another thread (a progress bar).
    pub progress: Option<Arc<Progress>>,
    /// Passes run after the built-in ones. For tests of the panic boundary
    /// (a pass that panics on a chosen file), not a plugin mechanism: hidden
    /// from the documentation and empty by default.
    #[doc(hidden)]
    pub extra_passes: Vec<ExtraPass>,
    /// The persistent cache ([`cache`]): `None` (the default) reads and
    /// writes none; `skein check` uses one unless `--no-cache`. [`check`]
    /// only.
    pub cache: Option<cache::CacheSettings>,
    /// How much of each file the run keeps until its report is made
    /// ([`Retention`]): everything by default; `skein check` runs lean.
    /// [`check`] only.
    pub retention: Retention,
}

/// How much of each file a run keeps until its report is made (issue #17,
/// bounded memory). The report is the same either way, byte for byte in
/// every output format; what differs is what else it holds, and the
/// memory the run needs on the way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Retention {
    /// Every file's text and every artifact whole, in the report too: for
    /// callers that read [`Report::artifacts`], [`Report::graph`] or any
    /// file's text (`skein graph`, the language server, the autofix).
    #[default]
    Full,
    /// What the findings need and no more: each file's local passes run as
    /// soon as it is decoded; the texts of files that show no finding are
    /// dropped then (read again from disk, hash checked, when a rule or the
    /// report needs one after all) and are empty in the report; the trees
    /// ([`skein_syntax::Document`]) of the formats no repository-level rule
    /// reads are dropped ([`skein_lint::retain`]); the artifacts keep their
    /// typed models and Markdown body facts. A run that finds a file changed
    /// under it starts again with [`Retention::Full`]. Files read from disk
    /// only: overlays keep their texts.
    Lean,
}

/// What a lean run did ([`Report::retention_stats`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RetentionStats {
    /// Texts dropped and then read again from disk (the files the report
    /// shows, and those a rule read after all).
    pub reread: usize,
    /// The lean run gave up (a file changed while it ran, or a dropped tree
    /// was read) and this report is a full run's.
    pub fell_back: bool,
}

/// A pass added through [`Options::extra_passes`]: a repository pass, a
/// per-file pass, or both.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default)]
pub struct ExtraPass {
    /// Run over the whole repository.
    pub repo: Option<skein_lint::Pass>,
    /// Run over each artifact.
    pub file: Option<skein_lint::FilePass>,
}

/// How far a run has come, for a progress display: the library only counts,
/// the caller draws (from another thread, reading with [`Progress::get`]).
#[derive(Debug, Default)]
pub struct Progress {
    total: AtomicUsize,
    done: AtomicUsize,
}

impl Progress {
    /// (files decoded, files to decode); the total is 0 until the walk ends.
    pub fn get(&self) -> (usize, usize) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// Back to zero, for the next run.
    pub fn reset(&self) {
        self.total.store(0, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
    }

    fn set_total(options: &Options, n: usize) {
        if let Some(p) = &options.progress {
            p.total.store(n, Ordering::Relaxed);
        }
    }

    fn tick(options: &Options) {
        if let Some(p) = &options.progress {
            p.done.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_size: None,
            threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            config: ConfigSource::Discover,
            no_ignores: false,
            no_ignore_files: false,
            overrides: config::Overrides::default(),
            overlay: None,
            overlays: Vec::new(),
            progress: None,
            extra_passes: Vec::new(),
            cache: None,
            retention: Retention::Full,
        }
    }
}

/// A file given to [`check_files`]: its repository-relative path
/// (`/`-separated) and its bytes.
#[derive(Debug, Clone)]
pub struct InputFile {
    /// Path relative to the repository root, `/`-separated.
    pub path: String,
    /// The file's contents.
    pub bytes: Vec<u8>,
}

impl InputFile {
    /// A file from a path and its contents.
    pub fn new(path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        InputFile {
            path: path.into(),
            bytes: bytes.into(),
        }
    }
}

/// The result of a run: files, artifacts, and diagnostics sorted by
/// (file path, span, code, message).
#[derive(Debug)]
pub struct Report {
    sources: SourceMap,
    artifacts: Vec<Artifact>,
    /// Each artifact's file and format (kept when the artifacts are not:
    /// a run replayed from the cache).
    artifact_formats: Vec<(FileId, &'static str)>,
    graph: RepoGraph,
    diagnostics: Vec<Diagnostic>,
    summary: Summary,
    fail_on: Option<Severity>,
    fail_on_internal_error: bool,
    cache: Option<cache::CacheStats>,
    retention: Option<RetentionStats>,
}

impl Report {
    /// Every file read, addressed by the `FileId`s in diagnostics.
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// The decoded artifacts, in path order. Empty in a report replayed
    /// from the cache ([`Report::cache_stats`]).
    pub fn artifacts(&self) -> &[Artifact] {
        &self.artifacts
    }

    /// What the persistent cache did in this run; `None` for a run without
    /// one ([`Options::cache`]). A report with `replayed` set was answered
    /// whole from the last run's stored result: the same findings, paths,
    /// secrets and summary, the texts of the files the findings show (the
    /// others empty), no artifacts and an empty graph.
    pub fn cache_stats(&self) -> Option<cache::CacheStats> {
        self.cache
    }

    /// What lean retention did in this run ([`Options::retention`]); `None`
    /// for a run with [`Retention::Full`]. A lean report holds the texts of
    /// the files its findings show (every other text is empty) and artifacts
    /// without the trees no repository-level rule reads.
    pub fn retention_stats(&self) -> Option<RetentionStats> {
        self.retention
    }

    /// The repository graph: skills, packs, loops with their stages and
    /// gates, agents, plugins and their relations (DESIGN.md §4).
    ///
    /// ```
    /// use skein::skein_model::graph::NodeKind;
    /// let files = vec![skein::InputFile::new(
    ///     "skills/review/SKILL.md",
    ///     "---\nname: review\ndescription: Reviews a diff.\n---\n",
    /// )];
    /// let report = skein::check_files(files, &skein::Options::default());
    /// let g = report.graph();
    /// let skill = g.skills()[0];
    /// assert_eq!(g.node(skill).kind, NodeKind::Skill);
    /// assert_eq!(g.node(skill).name, "review");
    /// assert!(g.loaders_of(skill).is_empty());
    /// ```
    pub fn graph(&self) -> &RepoGraph {
        &self.graph
    }

    /// Diagnostics, sorted.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Counts per format and per severity.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// The `fail-on` severity of the configuration, if it sets one.
    pub fn fail_on(&self) -> Option<Severity> {
        self.fail_on
    }

    /// Whether the configuration says `fail-on-internal-error = true`: a
    /// run with an internal error (SKEIN001) should exit with status 2.
    pub fn fail_on_internal_error(&self) -> bool {
        self.fail_on_internal_error
    }

    /// True when skein failed internally somewhere (a SKEIN001 diagnostic):
    /// some findings are missing.
    pub fn has_internal_error(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.rule.code == skein_lint::INTERNAL_ERROR.code)
    }

    /// Drops the findings `baseline` accepts, recording the matches in
    /// `matches`, and recounts the summary.
    pub fn apply_baseline(
        &mut self,
        baseline: &baseline::Baseline,
        matches: &mut baseline::Matches,
    ) {
        matches.filter(baseline, &mut self.diagnostics, &self.sources);
        self.summary = summarize(
            self.summary.files_read,
            self.summary.artifacts.clone(),
            &self.diagnostics,
        );
    }

    /// Narrows the report to a view of the project (issue #14: `skein check
    /// sub/dir` on a project analyzes all of it and reports what is in
    /// `sub/dir`): keeps the diagnostics whose file is one of `view`
    /// (project-relative, `/`-separated paths of files or folders; `""` is
    /// the whole project) or below one, and recounts the summary over the
    /// files in view. Diagnostics of the configuration file are kept
    /// whatever the view: the configuration applies to every part.
    pub fn restrict(&mut self, view: &[String]) {
        if view.iter().any(String::is_empty) {
            return;
        }
        let read = self.summary.files_read;
        let inside = |path: &str| {
            view.iter().any(|v| {
                path.strip_prefix(v.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
        };
        let sources = &self.sources;
        self.diagnostics.retain(|d| {
            d.primary.file.0 as usize >= read || inside(sources.get(d.primary.file).path())
        });
        let files_read = (0..read)
            .filter(|&i| inside(sources.get(FileId(i as u32)).path()))
            .count();
        let mut per_format: BTreeMap<&'static str, usize> = BTreeMap::new();
        for (_, format) in self
            .artifact_formats
            .iter()
            .filter(|(file, _)| inside(sources.get(*file).path()))
        {
            *per_format.entry(format).or_default() += 1;
        }
        let per_format = per_format
            .into_iter()
            .map(|(f, n)| (f.to_string(), n))
            .collect();
        self.summary = summarize(files_read, per_format, &self.diagnostics);
    }

    /// Renames every file from project-relative to relative to `base`
    /// (issue #14: one path convention for every output format, as ruff
    /// does). `root` is the folder the report's paths are relative to and
    /// `base` the folder to show them from, both absolute and canonical. A
    /// path below `base` loses that prefix; any other gets `../` segments
    /// up to the common folder. Call it after baselines are written and
    /// applied: those keep project-relative paths.
    pub fn relocate(&mut self, root: &Path, base: &Path) {
        let (root, base) = (components(root), components(base));
        // Shown from the project root (the common case), a path the walk
        // made (no empty, `.` or `..` segment) is already what it would
        // become: only the others are computed, on every thread.
        let same = root == base;
        let renamed: Vec<(FileId, String)> = (0..self.sources.len())
            .into_par_iter()
            .filter_map(|i| {
                let id = FileId(i as u32);
                let path = self.sources.get(id).path();
                let plain = || !path.split('/').any(|p| matches!(p, "" | "." | ".."));
                if same && plain() {
                    return None;
                }
                Some((id, relative_parts(&root, path, &base)))
            })
            .collect();
        for (id, rel) in renamed {
            self.sources.get_mut(id).set_path(rel);
        }
    }

    /// Builds, on every thread, the line index of each file a finding
    /// names (primary or secondary label), which rendering then reads on
    /// one thread, finding by finding, from line and column on.
    pub fn index_lines(&self) {
        let mut named = vec![false; self.sources.len()];
        for d in &self.diagnostics {
            for l in std::iter::once(&d.primary).chain(&d.secondary) {
                if let Some(n) = named.get_mut(l.file.0 as usize) {
                    *n = true;
                }
            }
        }
        let ids: Vec<FileId> = named
            .iter()
            .enumerate()
            .filter(|(_, n)| **n)
            .map(|(i, _)| FileId(i as u32))
            .collect();
        ids.par_iter().for_each(|&id| {
            self.sources.get(id).lines();
        });
    }

    /// Takes the report apart: its source map and its artifacts (for
    /// [`incremental::Workspace`], which moves what did not change into the
    /// next run).
    pub(crate) fn into_parts(self) -> (SourceMap, Vec<Artifact>) {
        (self.sources, self.artifacts)
    }

    /// Whether `path` (project-relative, `/`-separated) was read as a
    /// recognised file.
    pub fn read_file(&self, path: &str) -> bool {
        (0..self.summary.files_read).any(|i| self.sources.get(FileId(i as u32)).path() == path)
    }

    /// True when some diagnostic is at or above `severity`.
    pub fn has_at_least(&self, severity: Severity) -> bool {
        self.diagnostics.iter().any(|d| d.severity >= severity)
    }
}

/// `rel` (relative to the folder `root`, `/`-separated, `..` allowed) as a
/// path relative to the folder `base`: below `base` without its prefix,
/// elsewhere with `../` segments up to the common folder. `root` and `base`
/// are absolute and canonical (issue #14: the one path convention).
pub fn relative_to(root: &Path, rel: &str, base: &Path) -> String {
    relative_parts(&components(root), rel, &components(base))
}

/// [`relative_to`] with `root` and `base` given as their components.
fn relative_parts(root: &[String], rel: &str, base: &[String]) -> String {
    let mut abs: Vec<&str> = root.iter().map(String::as_str).collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                abs.pop();
            }
            p => abs.push(p),
        }
    }
    let common = abs
        .iter()
        .zip(base)
        .take_while(|(a, b)| **a == b.as_str())
        .count();
    let mut out: Vec<&str> = vec![".."; base.len() - common];
    out.extend(&abs[common..]);
    out.join("/")
}

/// [`locate`] for a file that may not exist yet (`--stdin-filename` of an
/// unsaved buffer, a buffer the language server is given): the nearest
/// folder above it that exists places it in its project, and the folders
/// missing below that one are part of its path, as they will be once it is
/// saved.
///
/// # Errors
/// [`Error::Root`] when no folder above it can be read, or when the nearest
/// that exists is the filesystem root or the home folder without a project
/// marker (analyzing it would walk the whole filesystem).
pub fn locate_new(path: &Path) -> Result<Located, Error> {
    if std::fs::symlink_metadata(path).is_ok() {
        return locate(path);
    }
    let existing = path
        .ancestors()
        .skip(1)
        .find(|a| a.as_os_str().is_empty() || std::fs::symlink_metadata(a).is_ok())
        .unwrap_or(Path::new(""));
    let tail = path.strip_prefix(existing).unwrap_or(path);
    let mut anchor = if existing.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        existing.to_path_buf()
    };
    // The missing part, lexically: `.` dropped, `..` undoing a missing
    // folder (or climbing from the anchor, which exists).
    let mut parts: Vec<String> = Vec::new();
    for c in tail.components() {
        match c {
            std::path::Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            std::path::Component::ParentDir if parts.is_empty() => anchor.push(".."),
            std::path::Component::ParentDir => {
                parts.pop();
            }
            _ => {}
        }
    }
    let mut at = locate(&anchor)?;
    // A path none of whose folders exist below `/` or the home folder has
    // no project to be placed in: analyzing that folder whole would walk
    // the filesystem (`--stdin-filename /new/.mcp.json`).
    if !may_be_implicit_root(&at.root) && !is_marked_project(&at.root) {
        return Err(Error::Root {
            path: path.to_path_buf(),
            source: std::io::Error::other(format!(
                "its nearest existing folder, {}, is no project (no skein.toml or .git there); \
                 name a path inside a project, or create its folder first",
                at.root.display()
            )),
        });
    }
    if !at.view.is_empty() {
        parts.insert(0, std::mem::take(&mut at.view));
    }
    at.view = parts.join("/");
    at.is_dir = false;
    Ok(at)
}

/// The configuration a run of `root` uses: the file found (or named) with
/// the command line's [`Options::overrides`] applied (`--show-settings`).
///
/// # Errors
/// [`Error::Config`] when a named configuration file cannot be read.
pub fn resolved_config(root: &Path, options: &Options) -> Result<config::Config, Error> {
    let mut config = config::load(&options.config, root)?;
    config.apply(&options.overrides);
    Ok(config)
}

/// A file [`list_files`] names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ListedFile {
    /// Project-relative, `/`-separated.
    pub path: String,
    /// The id of the format its path suggests (content may refine it).
    pub format: &'static str,
    /// Why it is reported rather than read, when it is not a regular file:
    /// a symbolic link (never followed, `SYN012`) or a FIFO, socket or
    /// device (never opened, `SYN011`).
    pub not_read: Option<&'static str>,
}

/// The files a run of `root` would analyze or report as not read,
/// project-relative and sorted, each with the format its path suggests:
/// `.gitignore` and `exclude` honoured as in [`check`] (`--show-files`).
///
/// # Errors
/// [`Error::Root`] when `root` cannot be read; [`Error::Config`] as in [`check`].
pub fn list_files(root: &Path, options: &Options) -> Result<Vec<ListedFile>, Error> {
    std::fs::metadata(root).map_err(|source| Error::Root {
        path: root.to_path_buf(),
        source,
    })?;
    let mut config = resolved_config(root, options)?;
    let w = walk::walk_filtered(
        root,
        options.threads,
        !options.no_ignore_files,
        &|rel| {
            !config.excluded(rel)
                && (classify_with(rel, |p| config.format_for(p)).is_some()
                    || skein_model::skill_file_shape(rel).is_some())
        },
        None,
    );
    // Files plugin manifests name by path are analyzed too, as in `check`.
    let found: Vec<walk::Found> = w
        .artifacts
        .iter()
        .filter(|f| {
            classify_in_repo(&f.rel, |p| config.format_for(p), |q| w.all.contains(q)).is_some()
        })
        .cloned()
        .collect();
    let declared = declared::declare_named(&mut config, &w.all, &found, options);
    let format = |rel: &str| {
        classify_in_repo(rel, |p| config.format_for(p), |q| w.all.contains(q))
            .map(|c| c.format.id())
    };
    let not_read = |kind: walk::EntryKind| match kind {
        walk::EntryKind::Regular => None,
        walk::EntryKind::Symlink | walk::EntryKind::LinkedFolder => {
            Some("symbolic link, not followed: SYN012")
        }
        walk::EntryKind::Special => Some("not a regular file, not opened: SYN011"),
    };
    let declared_kind = |rel: &String| {
        let path = root.join(rel);
        std::fs::symlink_metadata(&path)
            .map_or(walk::EntryKind::Regular, |m| walk::EntryKind::of(&path, &m))
    };
    let mut out: Vec<ListedFile> = w
        .artifacts
        .iter()
        .map(|f| (&f.rel, f.kind))
        .chain(declared.iter().map(|rel| (rel, declared_kind(rel))))
        .filter(|(rel, _)| !skein_model::unread_at_location(rel, |q| w.all.contains(q)))
        // A skill's reference or script that is a link or special file is
        // passed over in silence, as `check` does ([`units`]).
        .filter(|(rel, kind)| {
            *kind == walk::EntryKind::Regular
                || classify_with(rel, |p| config.format_for(p)).is_some()
                || skein_model::skill_file(rel, |q| w.all.contains(q)).is_none()
        })
        .filter_map(|(rel, kind)| {
            format(rel).map(|format| ListedFile {
                path: rel.clone(),
                format,
                not_read: not_read(kind),
            })
        })
        .collect();
    out.sort();
    out.dedup();
    Ok(out)
}

/// The normal components of an absolute path, as strings.
fn components(path: &Path) -> Vec<String> {
    path.components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect()
}

/// Where a named path sits in its project (issue #14): see [`locate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The project root: absolute, canonical.
    pub root: PathBuf,
    /// The path relative to the root, `/`-separated (`""`: the root itself).
    pub view: String,
    /// Whether the path is a folder (a link is not one: it is never followed).
    pub is_dir: bool,
}

/// The project of `path`: from `path` (its folder when it is not a folder)
/// upward, the nearest folder holding `skein.toml` (no higher than the work
/// tree's top); else the nearest holding `.git` (a folder, or the file of a
/// linked work tree): the top of a git work tree; else the current folder
/// when `path` is inside it and that folder is neither the filesystem root
/// nor the home folder; else `path` itself, or its folder. A symbolic link named as the path is not followed: its own folder
/// decides, and the link is reported as in a walk.
///
/// # Errors
/// [`Error::Root`] when `path` does not exist or cannot be resolved.
pub fn locate(path: &Path) -> Result<Located, Error> {
    let err = |source| Error::Root {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::symlink_metadata(path).map_err(err)?;
    let is_dir =
        meta.is_dir() || (meta.is_symlink() && std::fs::metadata(path).is_ok_and(|m| m.is_dir()));
    let abs = if meta.is_symlink() && !is_dir {
        // The link's folder, resolved; the link's own name kept.
        let abs = std::path::absolute(path).map_err(err)?;
        let parent = abs.parent().unwrap_or(Path::new("/"));
        let name = abs.file_name().map(PathBuf::from).unwrap_or_default();
        std::fs::canonicalize(parent).map_err(err)?.join(name)
    } else {
        std::fs::canonicalize(path).map_err(err)?
    };
    let start = if is_dir {
        abs.as_path()
    } else {
        abs.parent().unwrap_or(&abs)
    };
    let git = start.ancestors().find(|d| d.join(".git").exists());
    // A `skein.toml` above the work tree (in a home folder) makes no project.
    let below_git = |d: &&Path| git.is_none_or(|g| d.starts_with(g));
    let config = start
        .ancestors()
        .take_while(below_git)
        .find(|d| d.join(config::CONFIG_FILE_NAME).is_file());
    // No marker: the current folder when the path is inside it (as `skein
    // check sub/SKILL.md` from the folder holding `sub/`), else the path.
    // The filesystem root and the home folder are never a project by
    // default: from there the path's own folder is (a run from `/` must not
    // walk the whole filesystem and leave a cache folder at its top).
    let cwd = std::env::current_dir().and_then(std::fs::canonicalize).ok();
    let fallback = cwd
        .as_deref()
        .filter(|c| start.starts_with(c) && may_be_implicit_root(c))
        .unwrap_or(start);
    let root = config.or(git).unwrap_or(fallback).to_path_buf();
    let view: Vec<String> = abs
        .strip_prefix(&root)
        .unwrap_or(Path::new(""))
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Ok(Located {
        root,
        view: view.join("/"),
        is_dir,
    })
}

/// Whether `dir` (canonical) may be a project root that no marker makes:
/// not the filesystem root, not the home folder (`$HOME`).
fn may_be_implicit_root(dir: &Path) -> bool {
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .and_then(|h| std::fs::canonicalize(h).ok());
    dir.parent().is_some() && home.as_deref() != Some(dir)
}

/// Whether `dir` holds a project marker (`skein.toml` or `.git`).
fn is_marked_project(dir: &Path) -> bool {
    dir.join(config::CONFIG_FILE_NAME).is_file() || dir.join(".git").exists()
}

/// Errors that stop a run before analysis (findings are never errors).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The root does not exist or cannot be read.
    #[error("cannot read {}", path.display())]
    Root {
        /// The path given.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The configuration file named by `--config` cannot be read.
    #[error("cannot read configuration file {}", path.display())]
    Config {
        /// The path given.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

/// One unit of work: a recognised file, its contents or why it has none.
#[derive(Debug, Clone)]
pub(crate) enum Content {
    Bytes(Vec<u8>),
    Problem(Box<Diagnostic>),
}

/// Analyzes the repository at `root` (a folder, or a single file whose
/// folder is then the root). Reads files in parallel on the current rayon pool.
///
/// Errors only when `root` itself cannot be read.
pub fn check(root: &Path, options: &Options) -> Result<Report, Error> {
    let lean = lean::applies(options);
    if let Some(settings) = cache::settings(options) {
        if let Some(report) = cache::analyze(root, walk_project(root, options)?, options, settings)
        {
            return Ok(report);
        }
        // A lean run gave up: again, keeping everything.
        let full = Options {
            retention: Retention::Full,
            ..options.clone()
        };
        let mut report = cache::analyze(root, walk_project(root, options)?, &full, settings)
            .expect("a run that keeps everything stands");
        report.retention = Some(RetentionStats {
            reread: 0,
            fell_back: true,
        });
        return Ok(report);
    }
    if lean && let Some(report) = lean::analyze(root, walk_project(root, options)?, options) {
        return Ok(report);
    }
    let gathered = gather(root, options)?;
    let mut report = analyze(gathered.loaded, gathered.all, &gathered.config, options);
    if lean {
        report.retention = Some(RetentionStats {
            reread: 0,
            fell_back: true,
        });
    }
    Ok(report)
}

/// What [`check`] reads before analysis: the configuration (with the
/// command line's overrides), every recognised file with its contents (the
/// overlay in place of its disk file) and every repository path.
pub(crate) struct Gathered {
    pub(crate) config: config::Config,
    pub(crate) loaded: Vec<(String, Content)>,
    pub(crate) all: skein_lint::RepoFiles,
}

/// The walk and reads of [`check`] (and of [`incremental::Workspace`]).
pub(crate) fn gather(root: &Path, options: &Options) -> Result<Gathered, Error> {
    Ok(read_walked(
        walk_project(root, options)?,
        options,
        |_, _| {},
    ))
}

/// What [`check`] finds before reading any file: the configuration (with
/// the command line's overrides), the files the walk found whose paths
/// The most files one rayon job of a lean run reads and decodes: small
/// enough that the last jobs end together on 2 threads (a tail of one
/// thread cost 0.12 s of a 6 s run on the generated 100k tree), large
/// enough that making a job's parsers costs nothing measurable.
pub(crate) const FILES_PER_JOB: usize = 256;

/// name artifacts, every repository path, and the walk's errors.
pub(crate) struct Walked {
    pub(crate) config: config::Config,
    pub(crate) found: Vec<walk::Found>,
    pub(crate) all: skein_lint::RepoFiles,
    pub(crate) errors: Vec<(String, String)>,
    /// Whether the walk was the cache's listing of the last one (no folder
    /// listed again: [`cache::walk_listed`]).
    pub(crate) listed: bool,
    /// The last run's record, being read ([`cache::walk_listed`]).
    pub(crate) pending_run: Option<cache::PendingRun>,
}

impl Walked {
    /// The size limit of a file read.
    pub(crate) fn max_file_size(&self, options: &Options) -> u64 {
        options
            .max_file_size
            .or(self.config.max_file_size)
            .unwrap_or(DEFAULT_MAX_FILE_SIZE)
    }
}

/// The walk of [`gather`]: configuration and paths, no file read.
pub(crate) fn walk_project(root: &Path, options: &Options) -> Result<Walked, Error> {
    // The root itself is not followed either when it is a link to a file.
    let meta = std::fs::symlink_metadata(root)
        .and_then(|m| {
            if m.is_symlink() && std::fs::metadata(root)?.is_dir() {
                std::fs::metadata(root)
            } else {
                Ok(m)
            }
        })
        .map_err(|source| Error::Root {
            path: root.to_path_buf(),
            source,
        })?;
    let mut config = config::load(&options.config, root)?;
    config.apply(&options.overrides);
    // A file of a skill's folder (a reference, a script) is known to be one
    // only once every path is: the walk keeps the shapes, then the folder decides.
    let is_artifact = |rel: &str| {
        !config.excluded(rel)
            && (classify_with(rel, |p| config.format_for(p)).is_some()
                || skein_model::skill_file_shape(rel).is_some())
    };
    let (found, all, walk_errors, listed, pending_run) = if !meta.is_dir() {
        // A single file: analyzed as a repository of that one file, with the
        // same treatment of links and special files as in a walk.
        let rel = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let kind = walk::EntryKind::of(root, &meta);
        let all: skein_lint::RepoFiles = [rel.as_str()].into_iter().collect();
        let found = if is_artifact(&rel)
            && classify_in_repo(&rel, |p| config.format_for(p), |q| all.contains(q)).is_some()
        {
            vec![walk::Found {
                rel,
                path: root.to_path_buf(),
                kind,
            }]
        } else {
            Vec::new()
        };
        (found, all, Vec::new(), false, None)
    } else {
        let ignore_files = !options.no_ignore_files;
        let walk = |on_folder: Option<walk::OnFolder<'_>>| {
            walk::walk_filtered(root, options.threads, ignore_files, &is_artifact, on_folder)
        };
        let (w, listed, pending_run) = match cache::settings(options) {
            Some(settings) => cache::walk_listed(root, &config, settings, ignore_files, walk),
            None => (walk(None), false, None),
        };
        let mut found: Vec<walk::Found> = w
            .artifacts
            .into_par_iter()
            .filter(|f| {
                classify_in_repo(&f.rel, |p| config.format_for(p), |q| w.all.contains(q)).is_some()
            })
            .collect();
        // Files plugin manifests name by path are artifacts too.
        for rel in declared::declare_named(&mut config, &w.all, &found, options) {
            let path = root.join(&rel);
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let kind = walk::EntryKind::of(&path, &meta);
            found.push(walk::Found { rel, path, kind });
        }
        // A link to a folder is reported as a link named like an artifact is.
        found.extend(
            w.linked_folders
                .into_iter()
                .filter(|f| !config.excluded(&f.rel)),
        );
        // Sorted already unless a manifest named a file or a link to a
        // folder was added.
        if !found.is_sorted() {
            found.par_sort();
        }
        (found, w.all, w.errors, listed, pending_run)
    };
    Ok(Walked {
        config,
        found,
        all,
        errors: walk_errors,
        listed,
        pending_run,
    })
}

/// The reads of [`gather`]: every file found (the overlays in place of
/// theirs), the overlays, and a problem for each folder the walk could not
/// enter. `seen` is called with each file read from disk and the metadata
/// of the open file, taken before its bytes were read.
pub(crate) fn read_walked(
    walked: Walked,
    options: &Options,
    seen: impl Fn(&str, &std::fs::Metadata) + Sync,
) -> Gathered {
    let max = walked.max_file_size(options);
    let Walked {
        config,
        found,
        all,
        errors: walk_errors,
        listed: _,
        pending_run: _,
    } = walked;
    Progress::set_total(options, found.len());
    let overlays: Vec<&InputFile> = options.overlay.iter().chain(&options.overlays).collect();
    let mut loaded: Vec<(String, Content)> = found
        .into_par_iter()
        .filter(|f| overlays.iter().all(|o| o.path != f.rel))
        .map(|f| {
            let content = load_seen(&f, max, |m| seen(&f.rel, m));
            (f.rel, content)
        })
        .collect();
    let mut all = all;
    for o in overlays {
        if classify_in_repo(&o.path, |p| config.format_for(p), |q| all.contains(q)).is_some() {
            all.insert(&o.path);
            loaded.push((o.path.clone(), memory_content(o.bytes.clone(), max)));
        }
    }
    // Folders the walk could not enter may hold artifacts: say so.
    loaded.extend(
        walk_errors
            .into_iter()
            .map(|(path, why)| (path, walk_error(&why))),
    );
    Gathered {
        config,
        loaded,
        all,
    }
}

/// Analyzes the files `paths` (repository-relative, `/`-separated) of the
/// repository at `root`, as if a walk had found exactly them: for tools that
/// already have a file list (a pre-commit hook, a diff). Paths that name no
/// artifact are ignored; a listed file that is gone by the time it is read
/// (deleted during the run) is an `SYN011 unreadable-file` finding, never a
/// failure. Links and special files are treated as in a walk; `..` and
/// absolute paths are refused the same way (`SYN011`), so nothing outside
/// `root` is opened.
///
/// Errors only when `root` itself cannot be read.
pub fn check_listed(root: &Path, paths: &[String], options: &Options) -> Result<Report, Error> {
    std::fs::metadata(root).map_err(|source| Error::Root {
        path: root.to_path_buf(),
        source,
    })?;
    let mut config = config::load(&options.config, root)?;
    config.apply(&options.overrides);
    let max = options
        .max_file_size
        .or(config.max_file_size)
        .unwrap_or(DEFAULT_MAX_FILE_SIZE);
    let mut all: skein_lint::RepoFiles = paths.iter().map(String::as_str).collect();
    // A listed reference or script of a skill whose SKILL.md is not listed:
    // the SKILL.md on disk says whose folder it is.
    let skill_files: Vec<String> = all
        .iter()
        .filter(|rel| skein_model::skill_file_shape(rel).is_some())
        .filter_map(|rel| {
            skein_model::skill_folder_of(rel, |q| all.contains(q) || root.join(q).is_file())
                .map(|d| format!("{d}SKILL.md"))
        })
        .collect();
    all.extend(skill_files);
    let mut loaded = Vec::new();
    for rel in paths.iter().collect::<BTreeSet<_>>() {
        if classify_in_repo(rel, |p| config.format_for(p), |q| all.contains(q)).is_none() {
            continue;
        }
        let inside = !rel.starts_with('/')
            && rel
                .split('/')
                .all(|c| !c.is_empty() && c != "." && c != "..");
        if !inside {
            let d = Diagnostic::new(
                skein_syntax::rules::UNREADABLE_FILE,
                FileId(0),
                Span::empty(0),
                "not a path inside the analyzed folder; never opened",
            );
            loaded.push((rel.clone(), Content::Problem(Box::new(d))));
            continue;
        }
        let path = root.join(rel);
        let kind = match std::fs::symlink_metadata(&path) {
            Ok(m) => walk::EntryKind::of(&path, &m),
            // Gone or unreadable: `load` reports the error when it tries.
            Err(_) => walk::EntryKind::Regular,
        };
        let f = walk::Found {
            rel: rel.clone(),
            path,
            kind,
        };
        loaded.push((rel.clone(), load(&f, max)));
    }
    Ok(analyze(loaded, all, &config, options))
}

/// The unit of a folder or file the walk could not read (`why`).
pub(crate) fn walk_error(why: &str) -> Content {
    Content::Problem(Box::new(Diagnostic::new(
        skein_syntax::rules::UNREADABLE_FILE,
        FileId(0),
        Span::empty(0),
        format!("cannot read this folder or file, so artifacts in it are not analyzed: {why}"),
    )))
}

pub(crate) fn load(f: &walk::Found, max: u64) -> Content {
    load_seen(f, max, |_| {})
}

/// [`load`], calling `seen` with the open file's metadata before reading
/// its bytes (the cache records it). One open, one `fstat`, one read.
pub(crate) fn load_seen(
    f: &walk::Found,
    max: u64,
    seen: impl FnOnce(&std::fs::Metadata),
) -> Content {
    let problem = |msg: String, rule| {
        Content::Problem(Box::new(Diagnostic::new(
            rule,
            FileId(0),
            Span::empty(0),
            msg,
        )))
    };
    match f.kind {
        walk::EntryKind::Regular => {}
        walk::EntryKind::Symlink => {
            return problem(
                "symbolic link not followed (it could point outside the analyzed folder); its target is not analyzed".into(),
                skein_syntax::rules::SYMLINK_NOT_FOLLOWED,
            );
        }
        walk::EntryKind::LinkedFolder => {
            return problem(
                "symbolic link to a folder, not followed (it could point outside the analyzed folder); no artifact in it is analyzed under this path".into(),
                skein_syntax::rules::SYMLINK_NOT_FOLLOWED,
            );
        }
        walk::EntryKind::Special => {
            return problem(
                "not a regular file (a FIFO, socket or device); never opened".into(),
                skein_syntax::rules::UNREADABLE_FILE,
            );
        }
    }
    let unreadable = |e: std::io::Error| {
        problem(
            format!("cannot read file: {e}"),
            skein_syntax::rules::UNREADABLE_FILE,
        )
    };
    let mut file = match std::fs::File::open(&f.path) {
        Ok(file) => file,
        Err(e) => return unreadable(e),
    };
    let len = match file.metadata() {
        Ok(m) if m.len() > max => {
            return problem(
                format!(
                    "file is {} bytes, over the limit of {max} bytes; not read",
                    m.len()
                ),
                skein_syntax::rules::FILE_TOO_LARGE,
            );
        }
        Ok(m) => {
            seen(&m);
            m.len()
        }
        Err(e) => return unreadable(e),
    };
    match read_sized(&mut file, len) {
        Ok(bytes) => Content::Bytes(bytes),
        Err(e) => unreadable(e),
    }
}

/// The bytes of the open `file`, whose metadata gave its length `len`:
/// two `read` calls for a file that has not changed since (the second
/// finds its end), however long it is, and all of it if it grew.
///
/// `File::read_to_end` would ask the system for the length again
/// (`statx`, then `lseek`), and `read_to_end` through a wrapper without
/// that hint reads 8 KiB at first: issue #17 counted 190,000 such calls on
/// the 100k tree, the read+parse floor (`std::fs::read`) making none.
///
/// # Errors
/// The first read error but `Interrupted` (retried).
pub(crate) fn read_sized(file: &mut std::fs::File, len: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    // One byte more than the length, so the first read does not fill the
    // buffer and the second sees the end.
    let mut bytes = vec![0u8; usize::try_from(len).unwrap_or(0).saturating_add(1)];
    let mut filled = 0;
    loop {
        if filled == bytes.len() {
            bytes.resize(bytes.len().saturating_mul(2), 0);
        }
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

/// The contents of a file given in memory (standard input, an editor's
/// buffer), held to the same size limit `max` as a file read from disk:
/// over it, the same `SYN010 file-too-large` finding and nothing analyzed.
pub(crate) fn memory_content(bytes: Vec<u8>, max: u64) -> Content {
    if bytes.len() as u64 > max {
        return Content::Problem(Box::new(Diagnostic::new(
            skein_syntax::rules::FILE_TOO_LARGE,
            FileId(0),
            Span::empty(0),
            format!(
                "contents are {} bytes, over the limit of {max} bytes; not analyzed",
                bytes.len()
            ),
        )));
    }
    Content::Bytes(bytes)
}

/// Analyzes files given in memory. Paths that match no artifact convention
/// are ignored. Output does not depend on the order of `files`.
///
/// A file `skein.toml` among them is the configuration (unless
/// `options.config` says otherwise; `ConfigSource::File` reads that file).
pub fn check_files(files: Vec<InputFile>, options: &Options) -> Report {
    let config = match &options.config {
        ConfigSource::Isolated => config::Config::default(),
        ConfigSource::File(p) => match std::fs::read_to_string(p) {
            Ok(t) => config::Config::parse(p.display().to_string(), t, String::new()),
            Err(e) => {
                let mut c = config::Config::default();
                c.diagnostics.push(Diagnostic::new(
                    config::INVALID_CONFIG,
                    FileId(0),
                    Span::empty(0),
                    format!("cannot read configuration file {}: {e}", p.display()),
                ));
                c
            }
        },
        ConfigSource::Discover => files
            .iter()
            .find(|f| f.path == config::CONFIG_FILE_NAME)
            .map(|f| match String::from_utf8(f.bytes.clone()) {
                Ok(text) => config::Config::parse(f.path.clone(), text, String::new()),
                Err(e) => config::Config::not_utf8(f.path.clone(), &e, String::new()),
            })
            .unwrap_or_default(),
    };
    let mut config = config;
    config.apply(&options.overrides);
    let all: skein_lint::RepoFiles = files.iter().map(|f| f.path.as_str()).collect();
    let named = files
        .iter()
        .filter(|f| declared::is_manifest(&f.path))
        .flat_map(|f| declared::named_by(&f.path, &f.bytes))
        .collect();
    declared::declare(&mut config, &all, named);
    let loaded = files
        .into_iter()
        .filter(|f| {
            !config.excluded(&f.path)
                && classify_in_repo(&f.path, |p| config.format_for(p), |q| all.contains(q))
                    .is_some()
        })
        .map(|f| (f.path, Content::Bytes(f.bytes)))
        .collect();
    analyze(loaded, all, &config, options)
}

/// [`analyze`] of what [`gather`] read.
pub(crate) fn analyze_gathered(g: Gathered, options: &Options) -> Report {
    analyze(g.loaded, g.all, &g.config, options)
}

fn analyze(
    loaded: Vec<(String, Content)>,
    repo_files: skein_lint::RepoFiles,
    config: &config::Config,
    options: &Options,
) -> Report {
    let loaded = units(loaded, &repo_files, config);
    Progress::set_total(options, loaded.len());
    let (sources, (artifacts, rest)) = loaded
        .into_par_iter()
        .enumerate()
        .map_init(Parsers::new, |parsers, (i, (path, content))| {
            Progress::tick(options);
            let (text, d) = decode_unit(
                parsers,
                FileId(i as u32),
                &path,
                content,
                config,
                &repo_files,
            );
            (
                SourceFile::new(path, text),
                (d.artifact, (d.diagnostics, d.comments)),
            )
        })
        .collect();
    let decoded = Decodeds {
        sources,
        artifacts,
        rest,
    };
    analyze_decoded(decoded, repo_files, config, options, Vec::new(), false).0
}

/// The decoded files of a run, in `FileId` order (each decoded as the
/// file of its index), as [`analyze_decoded`] takes them: in three lists,
/// so that no step copies the artifacts while the list they came in is
/// still alive.
pub(crate) struct Decodeds {
    /// Each file's source.
    pub(crate) sources: Vec<SourceFile>,
    /// Each file's artifact, when it is one.
    pub(crate) artifacts: Vec<Option<Artifact>>,
    /// Each file's decode diagnostics and comments.
    pub(crate) rest: Vec<(Vec<Diagnostic>, Vec<Span>)>,
}

impl Decodeds {
    /// The lists of decoded files given as (path, text, decoded), in
    /// `FileId` order.
    pub(crate) fn from_units(units: Vec<(String, String, Decoded)>) -> Decodeds {
        let mut out = Decodeds {
            sources: Vec::with_capacity(units.len()),
            artifacts: Vec::with_capacity(units.len()),
            rest: Vec::with_capacity(units.len()),
        };
        for (path, text, d) in units {
            out.sources.push(SourceFile::new(path, text));
            out.artifacts.push(d.artifact);
            out.rest.push((d.diagnostics, d.comments));
        }
        out
    }
}

/// The units of a run, in `FileId` order: sorted by path, one per path, the
/// SKILL.md files no loader discovers left out.
pub(crate) fn units(
    mut loaded: Vec<(String, Content)>,
    repo_files: &skein_lint::RepoFiles,
    config: &config::Config,
) -> Vec<(String, Content)> {
    loaded.sort_by(|a, b| a.0.cmp(&b.0));
    loaded.dedup_by(|a, b| a.0 == b.0);
    // A SKILL.md nested below a plugin's skills/<name>/ is no component
    // (loaders look one level deep), nor is a settings.json outside a
    // plugin root: not artifacts.
    loaded.retain(|(p, _)| !skein_model::unread_at_location(p, |q| repo_files.contains(q)));
    // A reference or script of a skill that cannot be read (a link, too
    // large) is passed over in silence: it is not an artifact of its own
    // kind, and SKILL.md is what the skill's findings are about. A file read
    // is one whose path is recognised (a skill's file only within its
    // folder), whoever listed it.
    loaded.retain(|(p, c)| match c {
        Content::Bytes(_) => {
            classify_in_repo(p, |q| config.format_for(q), |q| repo_files.contains(q)).is_some()
        }
        Content::Problem(_) => {
            classify_with(p, |q| config.format_for(q)).is_some()
                || skein_model::skill_file(p, |q| repo_files.contains(q)).is_none()
        }
    });
    loaded
}

/// One file's reading: its text (lossy UTF-8; empty for a problem) and what
/// decoding found, as file `file`. A panic costs only this file's findings.
pub(crate) fn decode_unit(
    parsers: &mut Parsers,
    file: FileId,
    path: &str,
    content: Content,
    config: &config::Config,
    repo_files: &skein_lint::RepoFiles,
) -> (String, Decoded) {
    match content {
        Content::Bytes(bytes) => {
            let candidate =
                classify_in_repo(path, |p| config.format_for(p), |q| repo_files.contains(q))
                    .expect("filtered to recognised paths");
            // A panic while reading one file costs only that file's
            // findings (and this worker's parsers, rebuilt).
            let decoded = match skein_lint::catch(|| {
                fault::inject_decode_panic(path);
                decode(parsers, file, candidate, &bytes)
            }) {
                Ok(d) => d,
                Err(msg) => {
                    *parsers = Parsers::new();
                    let e = skein_lint::InternalError {
                        what: "the reading of this file (parse, schema validation, decoding)"
                            .into(),
                        file: Some(file),
                        message: msg,
                    };
                    Decoded {
                        artifact: None,
                        diagnostics: vec![e.diagnostic(file)],
                        comments: Vec::new(),
                    }
                }
            };
            (text_of(bytes), decoded)
        }
        Content::Problem(mut d) => {
            d.primary.file = file;
            let decoded = Decoded {
                artifact: None,
                diagnostics: vec![*d],
                comments: Vec::new(),
            };
            (String::new(), decoded)
        }
    }
}

/// A file's text as a run shows it: its bytes, lossy UTF-8.
pub(crate) fn text_of(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// The passes a run runs: the built-in ones and `options.extra_passes`,
/// less the rules `select`/`ignore` turn off (their findings would be
/// dropped anyway), except the secret finder: the secrets it finds are
/// masked in every view of their file whatever becomes of its findings.
pub(crate) fn passes(
    config: &config::Config,
    options: &Options,
) -> (Vec<skein_lint::Pass>, Vec<skein_lint::FilePass>) {
    let extra = &options.extra_passes;
    let (mut all, mut all_file) = (
        skein_lint::PASSES.to_vec(),
        skein_lint::FILE_PASSES.to_vec(),
    );
    all.extend(extra.iter().filter_map(|p| p.repo));
    all_file.extend(extra.iter().filter_map(|p| p.file));
    let runs = |rule: &skein_syntax::Rule| {
        rule.code == skein_lint::rules::sec::hardcoded_secret::RULE.code
            || config.enabled(rule, options.no_ignores)
    };
    all.retain(|p| runs(&p.rule));
    all_file.retain(|p| runs(&p.rule));
    (all, all_file)
}

/// The repository half of a run: the decoded files (in `FileId` order,
/// each decoded as the file of its index) become the source map and the
/// artifacts; then the graph, the passes, the suppressions and the sort.
/// With `keep_local`, the local findings of each artifact are given back
/// too (the incremental layer and the cache keep them).
pub(crate) fn analyze_decoded(
    decoded: Decodeds,
    repo_files: skein_lint::RepoFiles,
    config: &config::Config,
    options: &Options,
    reused: Vec<Option<skein_lint::Local>>,
    keep_local: bool,
) -> (Report, Vec<skein_lint::Local>) {
    let run = analyze_cancellable(
        decoded,
        repo_files,
        config,
        options,
        reused,
        keep_local,
        &|| false,
    );
    match run {
        Ok(done) => done,
        Err(_) => unreachable!("a run nothing cancels completes"),
    }
}

/// What a cancelled [`analyze_cancellable`] gives back for the next run
/// (the incremental layer keeps it): each file's text by `FileId`, the
/// artifacts, and per artifact (same order) its local findings where they
/// were reused or computed whole.
pub(crate) struct Interrupted {
    pub(crate) texts: Vec<String>,
    pub(crate) artifacts: Vec<Artifact>,
    pub(crate) local: Vec<Option<skein_lint::Local>>,
}

impl Interrupted {
    fn of(
        sources: SourceMap,
        artifacts: Vec<Artifact>,
        local: Vec<Option<skein_lint::Local>>,
    ) -> Self {
        let texts = sources
            .into_files()
            .into_iter()
            .map(SourceFile::into_text)
            .collect();
        Interrupted {
            texts,
            artifacts,
            local,
        }
    }
}

/// [`analyze_decoded`], stopping at the next step (before and after the
/// graph build, between passes) once `cancelled` answers `true`.
///
/// # Errors
/// [`Interrupted`], with the decoded inputs, when cancelled.
pub(crate) fn analyze_cancellable(
    decoded: Decodeds,
    repo_files: skein_lint::RepoFiles,
    config: &config::Config,
    options: &Options,
    reused: Vec<Option<skein_lint::Local>>,
    keep_local: bool,
    cancelled: skein_lint::Cancelled<'_>,
) -> Result<(Report, Vec<skein_lint::Local>), Interrupted> {
    let Decodeds {
        sources,
        artifacts,
        rest,
    } = decoded;
    let mut sources = SourceMap::from_files(sources);
    // In place (`filter_map` over a vector's own iterator reuses its
    // buffer; `flatten` does not): a second list would hold every artifact
    // twice for a while.
    #[allow(clippy::filter_map_identity)]
    let artifacts: Vec<Artifact> = artifacts.into_iter().filter_map(|a| a).collect();
    let (reused, folded) = fold_local(reused, artifacts.len(), keep_local);
    let mut per_format: BTreeMap<&'static str, usize> = BTreeMap::new();
    for a in &artifacts {
        *per_format.entry(a.format.id()).or_default() += 1;
    }
    let mut diagnostics = Vec::new();
    // Only the files with comments: suppressions read no other, and the
    // list lives through the passes (issue #17).
    let mut comments = Vec::new();
    for (i, (d, c)) in rest.into_iter().enumerate() {
        if !c.is_empty() {
            comments.push((FileId(i as u32), c));
        }
        diagnostics.extend(d);
    }
    // Secrets are masked in every view of their file, whatever becomes of
    // the finding that found them (suppressed, baselined).
    register_secrets(&mut sources, &diagnostics);
    if cancelled() {
        return Err(Interrupted::of(sources, artifacts, reused));
    }
    let (all, mut all_file) = passes(config, options);
    if folded.is_some() {
        all_file.retain(|p| p.reads != skein_lint::Reads::Local);
    }
    // The passes that do not read the graph run while it is built, on the
    // threads its mostly serial build leaves idle (issue #17), in a
    // context whose graph is empty; the run's memo goes on to the others.
    let (early, all): (Vec<skein_lint::Pass>, Vec<skein_lint::Pass>) =
        all.into_iter().partition(|p| !p.reads_graph);
    let no_graph = RepoGraph::default();
    let early_cx = skein_lint::Context {
        graph: &no_graph,
        artifacts: &artifacts,
        sources: &sources,
        repo_files: &repo_files,
        memo: skein_lint::Memo::new(artifacts.len()),
    };
    let (built, early) = rayon::join(
        || skein_lint::catch(|| skein_model::build_graph(&artifacts, &sources)),
        || skein_lint::run_cancellable(&early_cx, &early, &[], Vec::new(), cancelled),
    );
    let memo = early_cx.memo;
    let mut internal = Vec::new();
    let graph = match built {
        Ok(g) => g,
        Err(message) => {
            internal.push(skein_lint::InternalError {
                what: "the building of the repository graph".into(),
                file: None,
                message,
            });
            skein_model::build_graph(&[], &sources)
        }
    };
    let Ok(early) = early else {
        drop(graph);
        return Err(Interrupted::of(sources, artifacts, reused));
    };
    let cx = skein_lint::Context {
        graph: &graph,
        artifacts: &artifacts,
        sources: &sources,
        repo_files: &repo_files,
        memo,
    };
    if cancelled() {
        drop(cx);
        drop(graph);
        return Err(Interrupted::of(sources, artifacts, reused));
    }
    let outcome = match skein_lint::run_cancellable(&cx, &all, &all_file, reused, cancelled) {
        Ok(outcome) => outcome,
        Err(local) => {
            drop(cx);
            drop(graph);
            return Err(Interrupted::of(sources, artifacts, local));
        }
    };
    // The local findings are given back only to a caller that keeps them.
    let local = if keep_local {
        outcome.local.clone()
    } else {
        Vec::new()
    };
    let (mut found, mut internal_errors) = outcome.into_all();
    // Where they go does not matter: the findings are sorted below, and a
    // pass's own stay in its order.
    let (early_found, early_internal) = early.into_all();
    found.extend(early_found);
    if !early_internal.is_empty() {
        internal_errors.extend(early_internal);
        skein_lint::sort_internal_errors(&mut internal_errors);
    }
    if let Some(l) = folded {
        // Where `into_all` puts them: after the other findings, by artifact.
        found.extend(l.diagnostics);
        internal_errors.extend(l.internal_errors);
        skein_lint::sort_internal_errors(&mut internal_errors);
    }
    register_secrets(&mut sources, &found);
    diagnostics.extend(found);
    internal.extend(internal_errors);
    let files_read = sources.len();
    // An internal error of a repository-wide step has no file: it is
    // anchored at a stand-in for the repository, `.`, with no text.
    if !internal.is_empty() {
        let repository = if internal.iter().any(|e| e.file.is_none()) {
            sources.add(SourceFile::new(".", String::new()))
        } else {
            FileId(0)
        };
        diagnostics.extend(internal.iter().map(|e| e.diagnostic(repository)));
    }
    // The configuration file is a source of the report (its diagnostics
    // render like any other), but not a file analyzed.
    let config_file = config
        .source
        .as_ref()
        .map(|(path, text)| sources.add(SourceFile::new(path.clone(), text.clone())));
    let mut diagnostics = suppress::finish(
        suppress::Run {
            config,
            config_file,
            no_ignores: options.no_ignores,
            sources: &sources,
            artifacts: &artifacts,
            comments: &comments,
        },
        diagnostics,
    );
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup();
    let per_format = per_format
        .into_iter()
        .map(|(f, n)| (f.to_string(), n))
        .collect();
    let summary = summarize(files_read, per_format, &diagnostics);
    let artifact_formats = artifacts.iter().map(|a| (a.file, a.format.id())).collect();
    let report = Report {
        sources,
        artifacts,
        artifact_formats,
        graph,
        diagnostics,
        summary,
        fail_on: config.fail_on,
        fail_on_internal_error: config.fail_on_internal_error,
        cache: None,
        retention: None,
    };
    Ok((report, local))
}

/// The local findings of a run that gives none back (`keep_local` false)
/// and has every artifact's (`artifacts` of them; a lean run computes them
/// on its workers), folded into one [`skein_lint::Local`] in artifact
/// order, with an empty list in place of `reused`; otherwise `reused` as it
/// is and `None`. The per-artifact list (48 bytes an artifact, nearly all
/// empty) is let go before the graph build, the run's peak of memory
/// (issue #17: 4.5 MB on the generated 100k-file tree).
fn fold_local(
    reused: Vec<Option<skein_lint::Local>>,
    artifacts: usize,
    keep_local: bool,
) -> (Vec<Option<skein_lint::Local>>, Option<skein_lint::Local>) {
    if keep_local
        || artifacts == 0
        || reused.len() != artifacts
        || reused.iter().any(Option::is_none)
    {
        return (reused, None);
    }
    let mut folded = skein_lint::Local::default();
    for l in reused.into_iter().flatten() {
        folded.diagnostics.extend(l.diagnostics);
        folded.internal_errors.extend(l.internal_errors);
    }
    (Vec::new(), Some(folded))
}

/// Marks the [`Diagnostic::redact`] spans of `diagnostics` as secrets of
/// their files (see [`SourceFile::add_secret`]).
fn register_secrets(sources: &mut SourceMap, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        for &span in &d.redact {
            if (d.primary.file.0 as usize) < sources.len() {
                sources.get_mut(d.primary.file).add_secret(span);
            }
        }
    }
}

fn summarize(
    files_read: usize,
    artifacts: Vec<(String, usize)>,
    diagnostics: &[Diagnostic],
) -> Summary {
    Summary::new(files_read, artifacts, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::read_sized;
    use std::io::Write;

    /// The bytes of a file of `contents` read by [`read_sized`] told the
    /// length `len` (the file's metadata at an earlier moment).
    fn read_told(contents: &[u8], len: u64) -> Vec<u8> {
        let mut f = tempfile::tempfile().expect("a temporary file");
        f.write_all(contents).expect("written");
        std::io::Seek::rewind(&mut f).expect("rewound");
        read_sized(&mut f, len).expect("read")
    }

    #[test]
    fn read_sized_reads_the_whole_file_whatever_length_it_was_told() {
        let contents: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
        // The length the metadata gave.
        assert_eq!(read_told(&contents, 20_000), contents);
        // The file grew since: read to its end, the buffer doubling.
        assert_eq!(read_told(&contents, 3), contents);
        assert_eq!(read_told(&contents, 0), contents);
        // It shrank since.
        assert_eq!(read_told(&contents, 50_000), contents);
        assert_eq!(read_told(b"", 0), b"");
        assert_eq!(read_told(b"", 10), b"");
    }
}
