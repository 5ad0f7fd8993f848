//! Lean retention (issue #17, bounded memory): [`crate::check`] with
//! [`Retention::Lean`], what `skein check` runs.
//!
//! A full run reads every file, decodes them all, and holds every text and
//! every artifact whole until the report is made. A lean run reads and
//! decodes each file on a worker and finishes with it there: the file's
//! [`skein_lint::Reads::Local`] passes run at once (a context of that
//! artifact alone, as in any run), and then only what the repository half
//! reads is kept ([`skein_lint::retain`]): the typed model, the Markdown
//! body facts and the frontmatter spans always, the document of the
//! formats the repository passes and the graph read, and the text only
//! when it will be shown or read whole: the file has a finding already
//! (decode or local), a `skein:` comment (suppressions read its lines), its
//! contents were given in memory (an overlay), or the table says so. Every
//! other text is dropped ([`SourceFile::drop_text`]) with its length and the
//! XXH3-128 of its bytes, keeping the pieces of it the repository half
//! reads as written ([`skein_lint::retain::pieces_kept`]: link
//! destinations, a configuration's path-like words).
//!
//! A dropped text that the repository half reads anyway (a repository
//! finding's fix, a rule that scans the file) is read again from disk by
//! [`DiskTexts`], and used only when its bytes hash the same; when the
//! report is made, the texts of the files its findings show (and whose
//! secrets it masks) are read again the same way and every other text is
//! forgotten. A file that changed since it was read, or a dropped document
//! that was read after all ([`skein_syntax::DropMark`]), makes the lean run
//! give up: [`analyze`] returns `None` and `check` runs again keeping
//! everything. So the report is always the full run's, byte for byte
//! (`tests/lean.rs`).

use crate::walk::Found;
use crate::{
    Content, Decodeds, Options, Progress, Report, Retention, RetentionStats, Walked,
    analyze_decoded, classify_in_repo, classify_with, decode_unit, load_seen, walk_error,
};
use rayon::prelude::*;
use skein_lint::Local;
use skein_model::{Artifact, Decoded, Format};
use skein_syntax::{
    Diagnostic, Document, DropMark, FileId, Parsers, SourceFile, SourceMap, Span, TextSource,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Whether a run of `options` may be lean: [`Retention::Lean`] asked, and
/// no hidden test passes (their reads are unknown).
pub(crate) fn applies(options: &Options) -> bool {
    options.retention == Retention::Lean && options.extra_passes.is_empty()
}

/// Where the texts a lean run dropped come back from: the files on disk,
/// each used only when its bytes are the ones read.
#[derive(Debug)]
pub(crate) struct DiskTexts {
    /// The folder the run's paths are relative to.
    base: PathBuf,
    /// Set when a text could not be given back.
    failed: AtomicBool,
    /// Texts read again.
    reread: AtomicUsize,
}

impl DiskTexts {
    fn new(root: &Path) -> DiskTexts {
        // A single file analyzed alone is named by its file name.
        let base = if root.is_dir() {
            root.to_path_buf()
        } else {
            root.parent().map(Path::to_path_buf).unwrap_or_default()
        };
        DiskTexts {
            base,
            failed: AtomicBool::new(false),
            reread: AtomicUsize::new(0),
        }
    }

    fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }
}

impl TextSource for DiskTexts {
    fn reload(&self, path: &str, version: u128) -> Option<String> {
        self.reread.fetch_add(1, Ordering::Relaxed);
        let bytes = read_no_follow(&self.base.join(path));
        match bytes {
            Some(b) if xxhash_rust::xxh3::xxh3_128(&b) == version => Some(crate::text_of(b)),
            _ => {
                self.failed.store(true, Ordering::Relaxed);
                None
            }
        }
    }
}

/// The bytes of the regular file at `path`, never through a link (the
/// walk follows none).
fn read_no_follow(path: &Path) -> Option<Vec<u8>> {
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.custom_flags(libc::O_NOFOLLOW);
    }
    let mut file = open.open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    crate::read_sized(&mut file, meta.len()).ok()
}

/// One input of a lean run, before it is read.
pub(crate) enum Input {
    /// A file the walk found.
    Disk(Found),
    /// Contents given in memory (an overlay).
    Memory(Vec<u8>),
    /// A folder the walk could not read.
    Problem(Content),
}

impl Input {
    /// Its kind as the walk saw it (`None`: an overlay or a walk error).
    pub(crate) fn kind(&self) -> Option<crate::walk::EntryKind> {
        match self {
            Input::Disk(f) => Some(f.kind),
            Input::Memory(_) | Input::Problem(_) => None,
        }
    }

    /// Its contents: read (a file of `max` bytes at most; `seen` is given
    /// the open file's metadata before its bytes are read), given, or why
    /// there are none.
    pub(crate) fn read(self, max: u64, seen: impl FnOnce(&std::fs::Metadata)) -> Content {
        match self {
            Input::Disk(f) => load_seen(&f, max, seen),
            Input::Memory(bytes) => crate::memory_content(bytes, max),
            Input::Problem(c) => c,
        }
    }
}

/// What a lean run reads, before reading it: the configuration, every
/// repository path, and the inputs `read_walked` and `units` would give
/// (with the overlays), in `FileId` order.
pub(crate) struct Plan {
    pub(crate) config: crate::config::Config,
    pub(crate) all: skein_lint::RepoFiles,
    /// The units, in path order.
    pub(crate) units: Vec<(String, Input)>,
    /// The order the units are decoded in: by format, then path
    /// ([`crate::order`]).
    pub(crate) order: Vec<usize>,
    /// The inputs that are no unit, known by their paths (a second input
    /// of one path, a file no loader reads at its place): the persistent
    /// cache still records what they hold.
    pub(crate) left_out: Vec<(String, Input)>,
    /// The size limit of a file read.
    pub(crate) max: u64,
}

impl Plan {
    /// Whether the unit at `path`, found unreadable, is left out: a
    /// skill's reference or script (`units`).
    pub(crate) fn left_out_when_unreadable(&self, path: &str) -> bool {
        classify_with(path, |q| self.config.format_for(q)).is_none()
            && skein_model::skill_file(path, |q| self.all.contains(q)).is_some()
    }
}

/// The [`Plan`] of a run of what `walked` found.
pub(crate) fn plan(walked: Walked, options: &Options) -> Plan {
    let max = walked.max_file_size(options);
    let Walked {
        config,
        found,
        mut all,
        errors,
        listed: _,
        pending_run: _,
    } = walked;
    // The inputs, as `read_walked` and `units` order and filter them.
    let overlays: Vec<&crate::InputFile> =
        options.overlay.iter().chain(&options.overlays).collect();
    let mut inputs: Vec<(String, Input)> = found
        .into_iter()
        .filter(|f| overlays.iter().all(|o| o.path != f.rel))
        .map(|f| (f.rel.clone(), Input::Disk(f)))
        .collect();
    for o in &overlays {
        if classify_in_repo(&o.path, |p| config.format_for(p), |q| all.contains(q)).is_some() {
            all.insert(&o.path);
            inputs.push((o.path.clone(), Input::Memory(o.bytes.clone())));
        }
    }
    inputs.extend(
        errors
            .into_iter()
            .map(|(path, why)| (path, Input::Problem(walk_error(&why)))),
    );
    // Sorted already unless overlays or walk errors were added.
    if !inputs.is_sorted_by(|a, b| a.0 <= b.0) {
        inputs.par_sort_by(|a, b| a.0.cmp(&b.0));
    }
    // Which inputs are units, decided in parallel (a classification asks
    // the path list): the first input of a path is its unit, if any is.
    // `Some` with the unit's format (`None` for a file read as a problem),
    // the key of the processing order.
    let is_unit: Vec<Option<Option<Format>>> = inputs
        .par_iter()
        .enumerate()
        .map(|(i, (path, input))| {
            let first = i == 0 || inputs[i - 1].0 != *path;
            if !first || skein_model::unread_at_location(path, |q| all.contains(q)) {
                return None;
            }
            let problem = || {
                (classify_with(path, |q| config.format_for(q)).is_some()
                    || skein_model::skill_file(path, |q| all.contains(q)).is_none())
                .then_some(None)
            };
            match input {
                // A link to a folder (the walk's `LinkedFolder`) names no
                // artifact but is reported (SYN012), as `units` keeps its
                // problem.
                Input::Disk(f) if f.kind == crate::walk::EntryKind::LinkedFolder => problem(),
                Input::Disk(_) | Input::Memory(_) => {
                    classify_in_repo(path, |q| config.format_for(q), |q| all.contains(q))
                        .map(|c| Some(c.format))
                }
                Input::Problem(_) => problem(),
            }
        })
        .collect();
    let mut units: Vec<(String, Input)> = Vec::with_capacity(inputs.len());
    let mut formats = Vec::with_capacity(inputs.len());
    let mut left_out = Vec::new();
    for ((path, input), unit) in inputs.into_iter().zip(is_unit) {
        match unit {
            Some(format) => {
                units.push((path, input));
                formats.push(format);
            }
            None => left_out.push((path, input)),
        }
    }
    let order = crate::order::processing_order(units.len(), |i| formats[i]);
    Plan {
        config,
        all,
        units,
        order,
        left_out,
        max,
    }
}

/// What one file gives the rest of a lean run: its source, artifact,
/// [`Rest`] and local findings; nothing for a unit left out.
pub(crate) type FileOut = (
    Option<SourceFile>,
    (Option<Artifact>, (Rest, Option<Local>)),
);

/// The [`FileOut`] of a unit left out.
pub(crate) fn left_out() -> FileOut {
    (None, (None, ((Vec::new(), Vec::new()), None)))
}

/// What a lean run keeps of each file, and how it gets dropped texts back.
pub(crate) struct Keeper {
    /// The file passes in force.
    file_passes: Vec<skein_lint::FilePass>,
    texts: Arc<DiskTexts>,
    source: Arc<dyn TextSource>,
    mark: DropMark,
    /// The document of every artifact whose tree is dropped and keeps no
    /// span (clones of one, which allocate nothing).
    dropped: Document,
    /// `[[ignore]]` entries with a pointer read the tree of the file of
    /// each finding they may hide: every tree is kept.
    keep_trees: bool,
    /// What a configuration's kept words are filtered by; let go when the
    /// files are all kept ([`Keeper::finish`]).
    bundled: std::sync::RwLock<Option<skein_lint::retain::BundledNames>>,
}

impl Keeper {
    /// The keeper of a run of `root` with the configuration `config`, whose
    /// paths are `all`.
    pub(crate) fn new(
        root: &Path,
        config: &crate::config::Config,
        options: &Options,
        all: &skein_lint::RepoFiles,
    ) -> Keeper {
        let texts = Arc::new(DiskTexts::new(root));
        let mark = DropMark::new();
        Keeper {
            file_passes: crate::passes(config, options).1,
            source: texts.clone(),
            texts,
            dropped: Document::dropped(mark.clone()),
            mark,
            keep_trees: config
                .json_ignores
                .iter()
                .any(|j| j.pointer.as_deref().is_some_and(|p| !p.is_empty())),
            bundled: std::sync::RwLock::new(Some(skein_lint::retain::BundledNames::of(all))),
        }
    }

    /// The local findings of artifact `a` of `file` (`source`, given back).
    pub(crate) fn local(
        &self,
        a: &Artifact,
        file: FileId,
        source: &mut SourceFile,
        all: &skein_lint::RepoFiles,
    ) -> Local {
        let one = SourceMap::one(file, std::mem::take(source));
        let l = skein_lint::run_local(a, &one, all, &self.file_passes);
        *source = one.into_files().pop().expect("the one file");
        l
    }

    /// Keeps of one decoded file what the rest of the run reads: `version`
    /// is the XXH3-128 of the bytes of a file read from disk (`None` for
    /// contents given in memory, or none).
    pub(crate) fn keep(
        &self,
        mut source: SourceFile,
        decoded: Decoded,
        local: Option<Local>,
        version: Option<u128>,
        all: &skein_lint::RepoFiles,
    ) -> FileOut {
        let mut artifact = decoded.artifact;
        let keep = artifact
            .as_ref()
            .map(|a| skein_lint::retain::keep(a, source.text(), source.path(), all));
        if let (Some(a), Some(k)) = (&mut artifact, keep) {
            skein_lint::retain::trim_model(a);
            if k.document || self.keep_trees {
                a.document.shrink_to_fit();
            } else {
                let spans = skein_lint::retain::spans_kept(a);
                a.document = if spans.is_empty() {
                    self.dropped.clone()
                } else {
                    a.document
                        .drop_keeping(self.mark.clone(), spans.iter().map(String::as_str))
                };
            }
        }
        let shown = !decoded.diagnostics.is_empty()
            || local
                .as_ref()
                .is_some_and(|l| !l.diagnostics.is_empty() || !l.internal_errors.is_empty());
        // Suppressions read the lines of a file with a `skein:` comment.
        let directive = decoded.comments.iter().any(|c| {
            source
                .text()
                .get(c.range())
                .is_some_and(|t| t.contains("skein:"))
        });
        if let Some(v) = version
            && !shown
            && !directive
            && !keep.is_some_and(|k| k.text)
        {
            // What the repository half reads of the text as written stays.
            let pieces = artifact.as_ref().map_or_else(Vec::new, |a| {
                let bundled = self.bundled.read().expect("bundled names");
                skein_lint::retain::pieces_kept(
                    a,
                    source.text(),
                    source.path(),
                    all,
                    bundled.as_ref(),
                )
            });
            source.drop_text_keeping(v, self.source.clone(), pieces);
        }
        (
            Some(source),
            (artifact, ((decoded.diagnostics, decoded.comments), local)),
        )
    }

    /// The report of the files `outs` (by provisional id) gave: the
    /// repository half, then the texts its findings show read again and
    /// every other forgotten. `None` when the run cannot stand (a file
    /// changed, a dropped tree was read).
    pub(crate) fn finish(
        &self,
        outs: Collected,
        plan: Plan,
        options: &Options,
    ) -> Option<(Report, Vec<Local>)> {
        crate::fault::change_after_decode(&self.texts.base);
        *self.bundled.write().expect("bundled names") = None;
        let (sources, (artifacts, (rest, locals))) = outs;
        let (sources, artifacts, rest, locals) = renumber(sources, artifacts, rest, locals);
        let reused: Vec<Option<Local>> = locals.into_iter().filter(Option::is_some).collect();
        let decoded = Decodeds {
            sources,
            artifacts,
            rest,
        };
        let (mut report, local) =
            analyze_decoded(decoded, plan.all, &plan.config, options, reused, false);
        if self.texts.failed() || self.mark.raised() {
            return None;
        }
        // The texts the report shows: of the files its findings name, and
        // of those whose secrets it masks. The others are forgotten.
        let read = report.summary.files_read;
        let mut shown = vec![false; read];
        for d in &report.diagnostics {
            for l in std::iter::once(&d.primary).chain(&d.secondary) {
                if let Some(s) = shown.get_mut(l.file.0 as usize) {
                    *s = true;
                }
            }
        }
        for (id, f) in report.sources.iter() {
            if !f.secrets().is_empty()
                && let Some(s) = shown.get_mut(id.0 as usize)
            {
                *s = true;
            }
        }
        for (i, shown) in shown.into_iter().enumerate() {
            let f = report.sources.get_mut(FileId(i as u32));
            if shown {
                f.hold();
            } else {
                f.forget_text();
            }
        }
        if self.texts.failed() {
            return None;
        }
        report.retention = Some(RetentionStats {
            reread: self.texts.reread.load(Ordering::Relaxed),
            fell_back: false,
        });
        Some((report, local))
    }
}

/// [`crate::check`]'s analysis of what `walked` found, keeping only what
/// the repository half and the report need (see the module doc). `None`
/// when the run cannot stand: a file changed while it ran, or a dropped
/// document was read; the caller then runs again keeping everything.
pub(crate) fn analyze(root: &Path, walked: Walked, options: &Options) -> Option<Report> {
    let mut plan = plan(walked, options);
    let mut units = std::mem::take(&mut plan.units);
    let order = std::mem::take(&mut plan.order);
    Progress::set_total(options, units.len());
    let keeper = Keeper::new(root, &plan.config, options, &plan.all);
    // Per file, on a worker: read, decode, local passes, then keep what
    // the rest of the run reads; grouped by format (`crate::order`).
    crate::order::gather(&mut units, &order);
    let mut outs: Collected = units
        .into_par_iter()
        .zip(order.par_iter().copied())
        // Jobs of at most this many files, so no thread waits long on the
        // last one of another (a parser set is made per job).
        .with_max_len(crate::FILES_PER_JOB)
        .map_init(Parsers::new, |parsers, ((path, input), i)| {
            Progress::tick(options);
            let memory = matches!(input, Input::Memory(_));
            let content = input.read(plan.max, |_| {});
            let version = match &content {
                Content::Bytes(b) => (!memory).then(|| xxhash_rust::xxh3::xxh3_128(b)),
                Content::Problem(_) if plan.left_out_when_unreadable(&path) => {
                    return left_out();
                }
                Content::Problem(_) => None,
            };
            let file = FileId(i as u32);
            let (text, d) = decode_unit(parsers, file, &path, content, &plan.config, &plan.all);
            let mut source = SourceFile::new(path, text);
            let local = d
                .artifact
                .as_ref()
                .map(|a| keeper.local(a, file, &mut source, &plan.all));
            keeper.keep(source, d, local, version, &plan.all)
        })
        .collect();
    scatter_collected(&mut outs, &order);
    keeper.finish(outs, plan, options).map(|(r, _)| r)
}

/// A file's decode diagnostics and comments.
pub(crate) type Rest = (Vec<Diagnostic>, Vec<Span>);

/// Per file, as the workers give them back: its source (`None` for a unit
/// left out), artifact, [`Rest`] and local findings, in lists of their own.
pub(crate) type Collected = (
    Vec<Option<SourceFile>>,
    (Vec<Option<Artifact>>, (Vec<Rest>, Vec<Option<Local>>)),
);

/// Puts the lists of a [`Collected`] made in processing `order` back in
/// `FileId` order ([`crate::order::scatter`]).
pub(crate) fn scatter_collected(outs: &mut Collected, order: &[usize]) {
    let (sources, (artifacts, (rest, locals))) = outs;
    crate::order::scatter(sources, order);
    crate::order::scatter(artifacts, order);
    crate::order::scatter(rest, order);
    crate::order::scatter(locals, order);
}

/// [`Collected`] without the units left out.
type Lists = (
    Vec<SourceFile>,
    Vec<Option<Artifact>>,
    Vec<Rest>,
    Vec<Option<Local>>,
);

/// The lists of a lean run's files without the units left out (no source),
/// the others renumbered to their place among the kept ones (usually no
/// unit is left out and nothing moves).
fn renumber(
    sources: Vec<Option<SourceFile>>,
    artifacts: Vec<Option<Artifact>>,
    rest: Vec<Rest>,
    locals: Vec<Option<Local>>,
) -> Lists {
    if sources.iter().all(Option::is_some) {
        // In place (`flatten` would copy the list).
        #[allow(clippy::filter_map_identity)]
        let sources = sources.into_iter().filter_map(|s| s).collect();
        return (sources, artifacts, rest, locals);
    }
    let keep: Vec<bool> = sources.iter().map(Option::is_some).collect();
    let mut to = 0u32;
    let mut out = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, (((s, mut a), mut r), mut l)) in sources
        .into_iter()
        .zip(artifacts)
        .zip(rest)
        .zip(locals)
        .enumerate()
    {
        if !keep[i] {
            continue;
        }
        let (from, new) = (FileId(i as u32), FileId(to));
        to += 1;
        if let Some(a) = &mut a {
            a.file = new;
        }
        for d in &mut r.0 {
            d.renumber(from, new);
        }
        if let Some(l) = &mut l {
            l.renumber(from, new);
        }
        out.0.extend(s);
        out.1.push(a);
        out.2.push(r);
        out.3.push(l);
    }
    out
}
