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

pub mod rules;
pub mod walk;

use rayon::prelude::*;
use skein_model::{Artifact, Decoded, Format, RepoGraph, classify_path, decode};
use skein_report::Summary;
use skein_syntax::{Diagnostic, FileId, Parsers, Severity, SourceFile, SourceMap, Span};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub use skein_lint;
pub use skein_model;
pub use skein_report;
pub use skein_syntax;

/// Default size limit for one artifact file, in bytes (10 MiB).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 10 * 1024 * 1024;

/// Options of a run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Files larger than this many bytes are reported, not read.
    pub max_file_size: u64,
    /// Worker threads for the walk (the rayon pool is the caller's).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
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
    graph: RepoGraph,
    diagnostics: Vec<Diagnostic>,
    summary: Summary,
}

impl Report {
    /// Every file read, addressed by the `FileId`s in diagnostics.
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// The decoded artifacts, in path order.
    pub fn artifacts(&self) -> &[Artifact] {
        &self.artifacts
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

    /// True when some diagnostic is at or above `severity`.
    pub fn has_at_least(&self, severity: Severity) -> bool {
        self.diagnostics.iter().any(|d| d.severity >= severity)
    }
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
}

/// One unit of work: a recognised file, its contents or why it has none.
enum Content {
    Bytes(Vec<u8>),
    Problem(Diagnostic),
}

/// Analyzes the repository at `root` (a folder, or a single file whose
/// folder is then the root). Reads files in parallel on the current rayon pool.
///
/// Errors only when `root` itself cannot be read.
pub fn check(root: &Path, options: &Options) -> Result<Report, Error> {
    let meta = std::fs::metadata(root).map_err(|source| Error::Root {
        path: root.to_path_buf(),
        source,
    })?;
    let (found, all, walk_errors) = if meta.is_file() {
        let dir = root.parent().unwrap_or(Path::new("."));
        let rel = root
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let _ = dir;
        let all = BTreeSet::from([rel.clone()]);
        let found = if classify_path(&rel).is_some() {
            vec![walk::Found {
                rel,
                path: root.to_path_buf(),
                kind: walk::EntryKind::Regular,
            }]
        } else {
            Vec::new()
        };
        (found, all, Vec::new())
    } else {
        let w = walk::walk(root, options.threads);
        (w.artifacts, w.all, w.errors)
    };
    let max = options.max_file_size;
    let mut loaded: Vec<(String, Content)> = found
        .into_par_iter()
        .map(|f| {
            let content = load(&f, max);
            (f.rel, content)
        })
        .collect();
    // Folders the walk could not enter may hold artifacts: say so.
    loaded.extend(walk_errors.into_iter().map(|(path, why)| {
        let d = Diagnostic::new(
            skein_syntax::rules::UNREADABLE_FILE,
            FileId(0),
            Span::empty(0),
            format!("cannot read this folder or file, so artifacts in it are not analyzed: {why}"),
        );
        (path, Content::Problem(d))
    }));
    Ok(analyze(loaded, all))
}

fn load(f: &walk::Found, max: u64) -> Content {
    let problem =
        |msg: String, rule| Content::Problem(Diagnostic::new(rule, FileId(0), Span::empty(0), msg));
    match f.kind {
        walk::EntryKind::Regular => {}
        walk::EntryKind::Symlink => {
            return problem(
                "symbolic link not followed (it could point outside the analyzed folder); its target is not analyzed".into(),
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
    match std::fs::metadata(&f.path) {
        Ok(m) if m.len() > max => {
            return problem(
                format!(
                    "file is {} bytes, over the limit of {max} bytes; not read",
                    m.len()
                ),
                skein_syntax::rules::FILE_TOO_LARGE,
            );
        }
        Ok(_) => {}
        Err(e) => {
            return problem(
                format!("cannot read file: {e}"),
                skein_syntax::rules::UNREADABLE_FILE,
            );
        }
    }
    match std::fs::read(&f.path) {
        Ok(b) => Content::Bytes(b),
        Err(e) => problem(
            format!("cannot read file: {e}"),
            skein_syntax::rules::UNREADABLE_FILE,
        ),
    }
}

/// Analyzes files given in memory. Paths that match no artifact convention
/// are ignored. Output does not depend on the order of `files`.
pub fn check_files(files: Vec<InputFile>, _options: &Options) -> Report {
    let all = files.iter().map(|f| f.path.clone()).collect();
    let loaded = files
        .into_iter()
        .filter(|f| classify_path(&f.path).is_some())
        .map(|f| (f.path, Content::Bytes(f.bytes)))
        .collect();
    analyze(loaded, all)
}

fn analyze(mut loaded: Vec<(String, Content)>, repo_files: BTreeSet<String>) -> Report {
    loaded.sort_by(|a, b| a.0.cmp(&b.0));
    loaded.dedup_by(|a, b| a.0 == b.0);
    let decoded: Vec<(String, String, Decoded)> = loaded
        .into_par_iter()
        .enumerate()
        .map_init(Parsers::new, |parsers, (i, (path, content))| {
            let file = FileId(i as u32);
            match content {
                Content::Bytes(bytes) => {
                    let candidate = classify_path(&path).expect("filtered to recognised paths");
                    let decoded = decode(parsers, file, candidate, &bytes);
                    let text = match String::from_utf8(bytes) {
                        Ok(t) => t,
                        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
                    };
                    (path, text, decoded)
                }
                Content::Problem(mut d) => {
                    d.primary.file = file;
                    let decoded = Decoded {
                        artifact: None,
                        diagnostics: vec![d],
                    };
                    (path, String::new(), decoded)
                }
            }
        })
        .collect();
    let mut sources = SourceMap::new();
    let mut artifacts = Vec::new();
    let mut diagnostics = Vec::new();
    let mut per_format: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (path, text, d) in decoded {
        sources.add(SourceFile::new(path, text));
        if let Some(a) = d.artifact {
            *per_format.entry(a.format.id()).or_default() += 1;
            artifacts.push(a);
        }
        diagnostics.extend(d.diagnostics);
    }
    let graph = skein_model::build_graph(&artifacts, &sources);
    let cx = skein_lint::Context {
        graph: &graph,
        artifacts: &artifacts,
        sources: &sources,
        repo_files: &repo_files,
    };
    diagnostics.extend(skein_lint::run(&cx));
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup();
    let count = |s| diagnostics.iter().filter(|d| d.severity == s).count();
    let summary = Summary {
        files_read: sources.len(),
        artifacts: per_format
            .into_iter()
            .map(|(f, n)| (f.to_string(), n))
            .collect(),
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        infos: count(Severity::Info),
    };
    Report {
        sources,
        artifacts,
        graph,
        diagnostics,
        summary,
    }
}

/// Every format skein recognises, for `--help` and docs.
pub fn formats() -> &'static [Format] {
    Format::ALL
}
