//! Incremental analysis of one project: the layer under `skein server`.
//!
//! A [`Workspace`] holds a project's files in memory (read once from disk,
//! then replaced one by one by the editor's open buffers, the *overlays*,
//! and by the files the editor reports changed on disk) and the last
//! [`Report`]. [`Workspace::analyze`] decodes only the files whose content
//! changed since the run before; every other file's text, decoded artifact
//! and decode diagnostics are moved from the last report into the new run,
//! renumbered when files before it appeared or disappeared. The repository
//! half (graph, passes, suppressions, sort) runs again over all of them,
//! since one file can change the findings of any other.
//!
//! Invariants:
//! - **Same answer as a full run.** The report of [`Workspace::analyze`] is
//!   the report [`crate::check`] gives for the same contents: the decoded
//!   state of a file is a function of its path and bytes only (decoding
//!   reads no other file), and `FileId`s appear in it only as the file's
//!   own id, which renumbering rewrites.
//! - **Keyed by content.** A file is decoded again only when its bytes
//!   change ([`ContentHash`]: the bytes' hash and length); writing the same
//!   bytes again (a save, an undo back) decodes nothing.
//! - **No IO in `analyze`.** Only [`Workspace::open`], [`Workspace::reload`]
//!   and [`Workspace::refresh`] read the disk.

use crate::{
    Content, Error, Interrupted, Options, Report, analyze_cancellable, config, decode_unit, gather,
    load, units, walk,
};
use rayon::prelude::*;
use skein_model::{Decoded, classify_with};
use skein_syntax::{Diagnostic, FileId, Parsers, Span};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// A file's identity by content: the 64-bit hash of its bytes (std's
/// `DefaultHasher`, stable within one process only) and their length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContentHash {
    /// `DefaultHasher` of the bytes.
    pub hash: u64,
    /// The length in bytes.
    pub len: usize,
}

impl ContentHash {
    /// The identity of `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        bytes.hash(&mut h);
        ContentHash {
            hash: h.finish(),
            len: bytes.len(),
        }
    }
}

/// One file of the workspace.
#[derive(Debug)]
struct Slot {
    /// `None` for a file with no contents (a problem: link, too large,
    /// unreadable), which is decoded again whenever it is set.
    hash: Option<ContentHash>,
    state: State,
}

#[derive(Debug)]
enum State {
    /// New contents, not decoded yet.
    Pending(Content),
    /// Decoded in the last run as file `file`: its text and artifact are in
    /// the last report, its decode diagnostics and comments here.
    Decoded {
        file: FileId,
        diagnostics: Vec<Diagnostic>,
        comments: Vec<Span>,
        /// The findings of the passes that read only this artifact and the
        /// path list ([`skein_lint::Reads::Local`]) in the last run, as
        /// file `file`; `None` when it has none (not an artifact).
        local: Option<skein_lint::Local>,
    },
}

/// What the last [`Workspace::analyze`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Files decoded (new or changed contents).
    pub decoded: usize,
    /// Files whose decoded state was reused.
    pub reused: usize,
    /// Artifacts whose local findings ([`skein_lint::Reads::Local`]) were
    /// reused rather than computed again.
    pub local_reused: usize,
}

/// A project analyzed incrementally: see the module documentation.
#[derive(Debug)]
pub struct Workspace {
    root: PathBuf,
    options: Options,
    config: config::Config,
    max_file_size: u64,
    /// Every repository path (what `repo_files` of the passes sees).
    all: skein_lint::RepoFiles,
    /// The recognised files, by project-relative path.
    files: BTreeMap<String, Slot>,
    /// Open buffers, which win over the disk until closed.
    overlays: BTreeMap<String, Vec<u8>>,
    report: Option<Report>,
    /// What the last run, cancelled, left for the next (then `report` is
    /// `None`): texts by `FileId` and artifacts, as a report would hold them.
    carry: Option<(Vec<String>, Vec<skein_model::Artifact>)>,
    stats: RunStats,
    /// Whether the local findings kept in the slots still hold: false
    /// after a change of the path list or of the configuration (the rules
    /// in force), which local passes read.
    local_valid: bool,
}

impl Workspace {
    /// Reads the project at `root` (a folder) as [`crate::check`] does:
    /// configuration, walk, every recognised file's bytes. Nothing is
    /// decoded until [`Workspace::analyze`].
    ///
    /// # Errors
    /// As [`crate::check`]: the root or a named configuration file cannot be read.
    pub fn open(root: &Path, options: &Options) -> Result<Self, Error> {
        let mut ws = Workspace {
            root: root.to_path_buf(),
            options: options.clone(),
            config: config::Config::default(),
            max_file_size: crate::DEFAULT_MAX_FILE_SIZE,
            all: skein_lint::RepoFiles::new(),
            files: BTreeMap::new(),
            overlays: BTreeMap::new(),
            report: None,
            carry: None,
            stats: RunStats::default(),
            local_valid: false,
        };
        ws.reload()?;
        Ok(ws)
    }

    /// Reads the configuration and walks the project again (after a change
    /// of `skein.toml` or of the client's settings), keeping the overlays.
    /// Files whose contents did not change keep their decoded state.
    ///
    /// # Errors
    /// As [`Workspace::open`].
    pub fn reload(&mut self) -> Result<(), Error> {
        let mut options = self.options.clone();
        options.overlay = None;
        let g = gather(&self.root, &options)?;
        self.max_file_size = options
            .max_file_size
            .or(g.config.max_file_size)
            .unwrap_or(crate::DEFAULT_MAX_FILE_SIZE);
        self.config = g.config;
        self.all = g.all;
        self.local_valid = false;
        let mut old = std::mem::take(&mut self.files);
        for (path, content) in g.loaded {
            let slot = old.remove(&path);
            self.files.insert(path.clone(), Slot::fresh(content, slot));
        }
        for (path, bytes) in std::mem::take(&mut self.overlays) {
            self.set_overlay(&path, bytes);
        }
        Ok(())
    }

    /// The project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The configuration in force.
    pub fn config(&self) -> &config::Config {
        &self.config
    }

    /// Whether `rel` (project-relative, `/`-separated) is a file skein
    /// reads: a recognised path not excluded by the configuration.
    pub fn is_analyzed(&self, rel: &str) -> bool {
        !self.config.excluded(rel) && classify_with(rel, |p| self.config.format_for(p)).is_some()
    }

    /// Gives the contents of `rel` from an open buffer, in place of the disk
    /// (or as a new file). Returns whether skein reads that path.
    pub fn set_overlay(&mut self, rel: &str, bytes: Vec<u8>) -> bool {
        self.overlays.insert(rel.to_string(), bytes.clone());
        if self.all.insert(rel) {
            self.local_valid = false;
        }
        if !self.is_analyzed(rel) {
            return false;
        }
        self.set(rel, crate::memory_content(bytes, self.max_file_size));
        true
    }

    /// Drops the overlay of `rel` (the buffer was closed): the disk's
    /// contents count again, or the file is gone if it was never saved.
    pub fn close_overlay(&mut self, rel: &str) {
        if self.overlays.remove(rel).is_some() {
            self.refresh(rel);
        }
    }

    /// Reads `rel` from disk again (the editor says it was created, changed
    /// or deleted). An open buffer of that path still wins.
    pub fn refresh(&mut self, rel: &str) {
        if self.overlays.contains_key(rel) {
            return;
        }
        // A plugin manifest decides which other files are artifacts (the
        // component files it names by path): walk again.
        if crate::declared::is_manifest(rel) && self.reload().is_ok() {
            return;
        }
        let path = self.root.join(rel);
        let meta = std::fs::symlink_metadata(&path);
        let Ok(meta) = meta else {
            if self.all.remove(rel) {
                self.local_valid = false;
            }
            self.files.remove(rel);
            return;
        };
        if self.all.insert(rel) {
            self.local_valid = false;
        }
        if !self.is_analyzed(rel) {
            return;
        }
        let kind = walk::EntryKind::of(&path, &meta);
        let found = walk::Found {
            rel: rel.to_string(),
            path,
            kind,
        };
        let content = load(&found, self.max_file_size);
        self.set(rel, content);
    }

    fn set(&mut self, rel: &str, content: Content) {
        let old = self.files.remove(rel);
        self.files
            .insert(rel.to_string(), Slot::fresh(content, old));
    }

    /// What the last [`Workspace::analyze`] decoded and reused.
    pub fn stats(&self) -> RunStats {
        self.stats
    }

    /// The last report (`None` before the first [`Workspace::analyze`]).
    pub fn report(&self) -> Option<&Report> {
        self.report.as_ref()
    }

    /// Analyzes the project as it is now (disk and overlays): decodes the
    /// files whose contents changed, reuses every other file's decoded
    /// state, and runs the repository passes over all of them.
    pub fn analyze(&mut self) -> &Report {
        match self.analyze_cancellable(&|| false) {
            Some(report) => report,
            None => unreachable!("a run nothing cancels completes"),
        }
    }

    /// [`Workspace::analyze`], stopped at its next step (after decoding,
    /// after the graph build, between passes) once `cancelled` answers
    /// `true`: then `None`, and no report until the next run. A cancelled
    /// run loses nothing it finished: the files it decoded and the local
    /// findings it computed are reused by the next run, which gives the
    /// report a run never cancelled would.
    pub fn analyze_cancellable(&mut self, cancelled: skein_lint::Cancelled<'_>) -> Option<&Report> {
        // Text and artifacts of the last run, by the FileId they had.
        let (texts, artifacts) = match (self.carry.take(), self.report.take()) {
            (Some(carry), _) => carry,
            (None, Some(r)) => {
                let read = r.summary().files_read;
                let (sources, artifacts) = r.into_parts();
                let texts = sources
                    .into_files()
                    .into_iter()
                    .take(read)
                    .map(|f| f.into_text())
                    .collect();
                (texts, artifacts)
            }
            (None, None) => (Vec::new(), Vec::new()),
        };
        let mut old_text: Vec<Option<String>> = texts.into_iter().map(Some).collect();
        let mut old_artifacts: Vec<Option<_>> = (0..old_text.len()).map(|_| None).collect();
        for a in artifacts {
            let i = a.file.0 as usize;
            old_artifacts[i] = Some(a);
        }
        // The units in FileId order, as a full run orders them.
        let listed: Vec<(String, Content)> = self
            .files
            .keys()
            .map(|p| (p.clone(), Content::Bytes(Vec::new())))
            .collect();
        let order: Vec<String> = units(listed, &self.all, &self.config)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        let mut decoded: Vec<Option<(String, String, Decoded)>> = Vec::with_capacity(order.len());
        // The local findings to reuse, by the file's index in `order`.
        let mut reused_local: Vec<Option<skein_lint::Local>> = Vec::with_capacity(order.len());
        let mut pending: Vec<(usize, String, Content)> = Vec::new();
        for (i, path) in order.iter().enumerate() {
            let new = FileId(i as u32);
            let slot = self.files.get_mut(path).expect("listed from the map");
            let reused = match &mut slot.state {
                State::Decoded {
                    file,
                    diagnostics,
                    comments,
                    local,
                } => {
                    let old = *file;
                    let mut local = local.take().filter(|_| self.local_valid);
                    if let Some(l) = &mut local {
                        l.renumber(old, new);
                    }
                    reused_local.push(local);
                    let text = old_text.get_mut(old.0 as usize).and_then(Option::take);
                    text.map(|text| {
                        let mut artifact =
                            old_artifacts.get_mut(old.0 as usize).and_then(Option::take);
                        if let Some(a) = &mut artifact {
                            a.file = new;
                        }
                        let mut diagnostics = diagnostics.clone();
                        for d in &mut diagnostics {
                            d.renumber(old, new);
                        }
                        *file = new;
                        Decoded {
                            artifact,
                            diagnostics,
                            comments: comments.clone(),
                        }
                        .with_text(path, text)
                    })
                }
                State::Pending(_) => None,
            };
            match reused {
                Some(r) => decoded.push(Some(r)),
                None => {
                    let content = match std::mem::replace(
                        &mut slot.state,
                        State::Pending(Content::Bytes(Vec::new())),
                    ) {
                        State::Pending(c) => c,
                        // Decoded state whose text the last report lost:
                        // cannot happen (every decoded slot is in it);
                        // read the file again rather than guess.
                        State::Decoded { .. } => {
                            let found = walk::Found {
                                rel: path.clone(),
                                path: self.root.join(path),
                                kind: walk::EntryKind::Regular,
                            };
                            load(&found, self.max_file_size)
                        }
                    };
                    pending.push((i, path.clone(), content));
                    decoded.push(None);
                    reused_local.push(None);
                }
            }
        }
        let config = &self.config;
        let all = &self.all;
        let fresh: Vec<(usize, String, String, Decoded)> = pending
            .into_par_iter()
            .map_init(Parsers::new, |parsers, (i, path, content)| {
                let (text, d) = decode_unit(parsers, FileId(i as u32), &path, content, config, all);
                (i, path, text, d)
            })
            .collect();
        let mut stats = RunStats {
            decoded: fresh.len(),
            reused: order.len() - fresh.len(),
            local_reused: 0,
        };
        for (i, path, text, d) in fresh {
            let slot = self.files.get_mut(&path).expect("listed from the map");
            slot.state = State::Decoded {
                file: FileId(i as u32),
                diagnostics: d.diagnostics.clone(),
                comments: d.comments.clone(),
                local: None,
            };
            decoded[i] = Some((path, text, d));
        }
        // Files the walk lists but `units` leaves out keep no state.
        let decoded: Vec<_> = decoded.into_iter().map(|d| d.expect("filled")).collect();
        // Local findings go with the artifacts, in the same order.
        let reused: Vec<Option<skein_lint::Local>> = decoded
            .iter()
            .zip(reused_local)
            .filter(|((_, _, d), _)| d.artifact.is_some())
            .map(|(_, l)| l)
            .collect();
        stats.local_reused = reused.iter().filter(|l| l.is_some()).count();
        self.stats = stats;
        let run = analyze_cancellable(
            crate::Decodeds::from_units(decoded),
            self.all.clone(),
            &self.config,
            &self.options,
            reused,
            true,
            cancelled,
        );
        // The local findings were computed against the path list and the
        // configuration in force: valid for the next run, whether or not
        // this one completes.
        self.local_valid = true;
        match run {
            Ok((report, local)) => {
                self.keep_local(&order, report.artifacts(), local.into_iter().map(Some));
                Some(self.report.insert(report))
            }
            Err(Interrupted {
                texts,
                artifacts,
                local,
            }) => {
                self.keep_local(&order, &artifacts, local.into_iter());
                self.carry = Some((texts, artifacts));
                None
            }
        }
    }

    /// Keeps each artifact's local findings in its slot (`order` maps a
    /// `FileId` to its path), for the next run to reuse.
    fn keep_local(
        &mut self,
        order: &[String],
        artifacts: &[skein_model::Artifact],
        local: impl Iterator<Item = Option<skein_lint::Local>>,
    ) {
        for (a, l) in artifacts.iter().zip(local) {
            let slot = self
                .files
                .get_mut(&order[a.file.0 as usize])
                .expect("listed from the map");
            if let State::Decoded { local, .. } = &mut slot.state {
                *local = l;
            }
        }
    }
}

impl Slot {
    /// A slot with new contents; the decoded state of `old` is kept when the
    /// contents are the same bytes.
    fn fresh(content: Content, old: Option<Slot>) -> Slot {
        let hash = match &content {
            Content::Bytes(b) => Some(ContentHash::of(b)),
            Content::Problem(_) => None,
        };
        match old {
            Some(old)
                if hash.is_some()
                    && old.hash == hash
                    && matches!(old.state, State::Decoded { .. }) =>
            {
                old
            }
            _ => Slot {
                hash,
                state: State::Pending(content),
            },
        }
    }
}

/// A decoded file as the repository half takes it: path, text, state.
trait WithText {
    fn with_text(self, path: &str, text: String) -> (String, String, Decoded);
}

impl WithText for Decoded {
    fn with_text(self, path: &str, text: String) -> (String, String, Decoded) {
        (path.to_string(), text, self)
    }
}
