//! The persistent cache of `skein check` (issue #17), in the manner of
//! ruff's: what a run computed per file is kept on disk, keyed by the
//! file's content, and the next run reads it instead of decoding again.
//!
//! What is kept, per file ([`wire`]):
//! - its decoded state (the artifact: format, `Document`, frontmatter,
//!   Markdown body facts, damaged flag; decode diagnostics; comments), under
//!   the key (path, XXH3-128 of the bytes, classification candidate). The
//!   typed model is read again from the stored `Document` on load;
//! - its local findings (the [`skein_lint::Reads::Local`] passes), under
//!   the decode key plus the rules in force among those passes and the
//!   hash of the repository's path list (the passes read which paths
//!   exist, so adding or removing any file invalidates every file's local
//!   findings, never its decoded state).
//!
//! The graph and the repository passes always run again, over the decoded
//! states (read or computed). A run whose every input is the same as the
//! last run's (configuration, path list, every file's path and content)
//! is, when [`CacheSettings::replay`] allows it, answered from the last
//! run's stored result without decoding anything (the `run.bin` record:
//! the inputs, findings, secrets, summary). Whether the inputs are the
//! same is first asked of each file's [`Stamp`] (size, times, inode), as
//! git's index does, so such a run reads only the files whose text its
//! findings show; a file whose stamp changed, or was too fresh to trust,
//! is read and its hash compared. A replayed report has no artifacts, an
//! empty graph and the texts of the shown files only
//! ([`crate::Report::cache_stats`] says `replayed`); every rendering of it
//! is the cold run's, byte for byte.
//!
//! Measured (BENCHMARKS.md, "Persistent cache"): on the generated 100k
//! tree a run with nothing changed takes 6 to 9% of a cold run's wall
//! time; the records take about 0.7 KB per artifact on disk. The typed
//! model is derived again on load rather than stored because that is what
//! builds: its serde is written for the `Document` deserializer (`Spanned`
//! values); storing it was not built or measured.
//!
//! Every key lives in a namespace (a folder, [`store`]) named by the cache
//! format and [`CacheSettings::version`]: skein's version and build
//! ([`default_version`]), so another skein never reads these records.
//! Configuration enters the keys where it matters: format mappings through
//! the candidate, rule selection through the local passes' list, and the
//! whole resolved configuration in the whole-run key.
//!
//! Output never depends on the cache: a record that does not read (damaged
//! file, unknown rule code) is a miss, and a cache folder that cannot be
//! made or written is no cache; the report is byte for byte the one a run
//! without a cache gives (`tests/cache.rs`).

mod listing;
mod store;
mod wire;

pub use store::refused;

use crate::{
    Content, Gathered, Options, Progress, Report, Walked, analyze_decoded, decode_unit,
    read_walked, units,
};
use rayon::prelude::*;
use skein_model::{Decoded, classify_in_repo};
use skein_syntax::{FileId, Parsers, SourceFile, SourceMap};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use store::Store;
use xxhash_rust::xxh3::Xxh3;

/// The cache folder's default name, at the project root.
pub const DEFAULT_DIR: &str = ".skein_cache";

/// The version of the record format; part of every namespace.
const FORMAT: &str = "skein-cache-1";

/// Whether and where a run keeps its cache ([`Options::cache`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheSettings {
    /// The cache folder; `None`: `cache-dir` of the configuration (relative
    /// to its file), else [`DEFAULT_DIR`] at the project root.
    pub dir: Option<PathBuf>,
    /// What names the namespace of the records: another value never reads
    /// them. [`default_version`] by default; tests set their own.
    pub version: String,
    /// Whether a run whose inputs are all unchanged may be answered from
    /// the last run's stored result (no artifacts, an empty graph, and
    /// texts only for the files the findings show, in the report).
    /// `skein check` sets it; a library caller that reads
    /// [`Report::artifacts`], [`Report::graph`] or every file's text leaves
    /// it off.
    pub replay: bool,
}

impl Default for CacheSettings {
    fn default() -> Self {
        CacheSettings {
            dir: None,
            version: default_version(),
            replay: false,
        }
    }
}

/// What the cache did in a run ([`Report::cache_stats`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// The whole run was answered from the stored result.
    pub replayed: bool,
    /// Files whose decoded state was read from the cache.
    pub reused: usize,
    /// Files decoded (no usable record).
    pub decoded: usize,
    /// Artifacts whose local findings were read from the cache.
    pub local_reused: usize,
    /// Files whose bytes a replayed run did not read (their stamps showed
    /// them unchanged and no finding shows their text).
    pub unread: usize,
    /// Whether the cache folder could be written.
    pub writable: bool,
    /// Whether the walk was the cache's listing of the last one: every
    /// folder's stamp unchanged, so none was listed again.
    pub listed: bool,
}

/// skein's version, build commit, and the size and modification time of
/// the running executable: a rebuilt skein (even of the same commit, with
/// local changes) starts a new namespace.
pub fn default_version() -> String {
    let stamp = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| {
            let t = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("{} {t}", m.len())
        })
        .unwrap_or_default();
    format!("{} {stamp}", crate::VERSION)
}

/// A stable 128-bit key builder (XXH3, seed 0): every field length-prefixed.
struct Key(Xxh3);

impl Key {
    fn new(kind: &str) -> Key {
        let mut k = Key(Xxh3::new());
        k.str(kind);
        k
    }
    fn str(&mut self, s: &str) -> &mut Key {
        self.bytes(s.as_bytes())
    }
    fn bytes(&mut self, b: &[u8]) -> &mut Key {
        self.0.update(&(b.len() as u64).to_le_bytes());
        self.0.update(b);
        self
    }
    fn u128(&mut self, v: u128) -> &mut Key {
        self.0.update(&v.to_le_bytes());
        self
    }
    fn finish(&self) -> u128 {
        self.0.digest128()
    }
}

/// The cache folder of a run of `root`.
fn folder(root: &Path, config: &crate::config::Config, settings: &CacheSettings) -> PathBuf {
    settings
        .dir
        .clone()
        .or_else(|| config.cache_dir.clone())
        .unwrap_or_else(|| root.join(DEFAULT_DIR))
}

/// A file as the last run found it, without reading it again: size,
/// modification and change times (nanoseconds), inode and device. The
/// change time moves on every write and cannot be set back by a program,
/// so the same stamp means the same bytes, unless the stamp was taken
/// within [`RACY_NS`] of the run that recorded it (a write in the same
/// clock tick would not show): such a file is read again (git's "racy"
/// entries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Stamp {
    len: u64,
    mtime: i128,
    ctime: i128,
    ino: u64,
    dev: u64,
}

/// How close (ns) to the recording run's start a file's times make its
/// stamp untrustworthy: coarser than any file system's time granularity.
const RACY_NS: i128 = 2_000_000_000;

impl Stamp {
    #[cfg(unix)]
    fn of(m: &std::fs::Metadata) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let ns = |s: i64, n: i64| i128::from(s) * 1_000_000_000 + i128::from(n);
        Some(Stamp {
            len: m.len(),
            mtime: ns(m.mtime(), m.mtime_nsec()),
            ctime: ns(m.ctime(), m.ctime_nsec()),
            ino: m.ino(),
            dev: m.dev(),
        })
    }

    #[cfg(not(unix))]
    fn of(_: &std::fs::Metadata) -> Option<Stamp> {
        None
    }

    /// Whether a run that started at `started` (ns since the epoch) may
    /// trust this stamp taken during it.
    fn settled(&self, started: i128) -> bool {
        self.mtime.max(self.ctime) + RACY_NS < started
    }
}

/// Now, in nanoseconds since the epoch.
fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128)
}

/// One input of a run as the whole-run record keeps it: a file found (or
/// a folder the walk could not read), by path, with what it held.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Entry {
    path: String,
    /// Its kind as the walk saw it; `None` for an overlay or a walk error.
    kind: Option<u8>,
    /// For a regular file read from disk: its stamp when it was read.
    stamp: Option<Stamp>,
    content: EntryContent,
}

/// What an input held.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum EntryContent {
    /// Bytes, by XXH3-128.
    Bytes(u128),
    /// No bytes: the problem's code and message.
    Problem(String, String),
}

fn kind_code(k: crate::walk::EntryKind) -> u8 {
    match k {
        crate::walk::EntryKind::Regular => 0,
        crate::walk::EntryKind::Symlink => 1,
        crate::walk::EntryKind::Special => 2,
        crate::walk::EntryKind::LinkedFolder => 3,
    }
}

fn content_of(c: &Content) -> EntryContent {
    match c {
        Content::Bytes(b) => EntryContent::Bytes(xxhash_rust::xxh3::xxh3_128(b)),
        Content::Problem(d) => EntryContent::Problem(d.rule.code.to_string(), d.message.clone()),
    }
}

/// Why a run of `root` with `options` keeps no cache although it asks for
/// one (the command line warns): its cache folder is [`refused`], or it was
/// named (`--cache-dir`, `cache-dir` of skein.toml), is missing, and cannot
/// be made because the nearest folder above it that exists allows no
/// writing. The default folder of a read-only project is not a refusal:
/// such a project gets no cache files, in silence.
pub fn refusal(root: &Path, options: &Options) -> Option<String> {
    let settings = settings(options)?;
    let config = crate::resolved_config(root, options).ok()?;
    let dir = folder(root, &config, settings);
    if let Some(why) = refused(&dir, root) {
        return Some(why);
    }
    let named = settings.dir.is_some() || config.cache_dir.is_some();
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    if !named || std::fs::symlink_metadata(&dir).is_ok() {
        return None;
    }
    let parent = dir.ancestors().skip(1).find(|p| p.exists())?;
    if !parent.is_dir() {
        return Some(format!(
            "the cache folder {} cannot be made: {} is a file, not a folder",
            dir.display(),
            parent.display()
        ));
    }
    store::read_only(parent).then(|| {
        format!(
            "the cache folder {} cannot be made: {} allows no writing",
            dir.display(),
            parent.display()
        )
    })
}

/// The namespace (folder) of the records of `settings`' version.
fn namespace(settings: &CacheSettings) -> String {
    let mut k = Key::new(FORMAT);
    k.str(&settings.version);
    format!("{:016x}", k.finish() as u64)
}

/// The walk of `root` with the cache of `settings`: the last walk's
/// listing when every folder it entered is unchanged ([`listing`]), else
/// `walk` (given a callback that stamps each folder entered), recorded for
/// the next run. Without a usable cache folder, `walk` alone. Also:
/// whether the listing was used, and, when `settings` replay, the last
/// run's record, read meanwhile.
pub(crate) fn walk_listed(
    root: &Path,
    config: &crate::config::Config,
    settings: &CacheSettings,
    ignore_files: bool,
    walk: impl FnOnce(Option<crate::walk::OnFolder<'_>>) -> crate::walk::Walked,
) -> (crate::walk::Walked, bool, Option<PendingRun>) {
    // Opened (made) before the walk: a cache folder made inside the project
    // after it would change the root's stamp.
    let Some(store) = Store::open(&folder(root, config, settings), &namespace(settings), root)
    else {
        return (walk(None), false, None);
    };
    let run = settings
        .replay
        .then(|| PendingRun(store.load_run_started(wire::decode_run)));
    let (walked, listed) = listing::walk(root, config, &store, ignore_files, walk);
    (walked, listed, run)
}

/// The last run's record, being read and decoded on another thread while
/// the project is walked ([`walk_listed`]).
#[derive(Debug)]
pub(crate) struct PendingRun(std::thread::JoinHandle<Option<wire::Run>>);

/// [`crate::check`]'s analysis with the cache of `settings`: the same
/// report. In order: a replay of the last run when its inputs are
/// unchanged by their stamps (no file read but those with findings); else
/// every file read, and a replay when their contents are unchanged; else
/// the analysis, with each file's decoded state and local findings read
/// from the cache when it holds them, and what was computed written back.
///
/// With [`crate::Retention::Lean`] the analysis is the lean one
/// ([`crate::lean`]), each file's records read and written on the worker
/// that reads the file, and never two runs' worth of records in memory:
/// `None` when it gives up (see [`crate::lean::analyze`]), and the caller
/// runs again keeping everything. A lean run skips the replay of a run
/// whose files were all read again and found unchanged (its stamps had
/// moved): it reads every record instead, which gives the same report.
pub(crate) fn analyze(
    root: &Path,
    walked: Walked,
    options: &Options,
    settings: &CacheSettings,
) -> Option<Report> {
    let listed = walked.listed;
    let mut walked = walked;
    let pending = walked.pending_run.take();
    let mut report = analyze_walked(root, walked, pending, options, settings)?;
    if let Some(stats) = &mut report.cache {
        stats.listed = listed;
    }
    Some(report)
}

/// [`analyze`] but for [`CacheStats::listed`].
fn analyze_walked(
    root: &Path,
    walked: Walked,
    pending: Option<PendingRun>,
    options: &Options,
    settings: &CacheSettings,
) -> Option<Report> {
    let namespace = namespace(settings);
    let lean = crate::lean::applies(options);
    let Some(mut store) = Store::open(&folder(root, &walked.config, settings), &namespace, root)
    else {
        if lean {
            return crate::lean::analyze(root, walked, options);
        }
        return Some(crate::analyze_gathered(
            read_walked(walked, options, |_, _| {}),
            options,
        ));
    };
    let paths = {
        let mut k = Key::new("paths");
        for p in walked.all.iter() {
            k.str(p);
        }
        k.finish()
    };
    let (_, file_passes) = crate::passes(&walked.config, options);
    let local_passes = {
        let mut k = Key::new("local passes");
        for p in file_passes
            .iter()
            .filter(|p| p.reads == skein_lint::Reads::Local)
        {
            k.str(p.rule.code);
        }
        k.finish()
    };
    // Everything but the files that decides the result.
    let context = {
        let mut k = Key::new("run");
        let mut h = Xxh3::new();
        walked.config.fingerprint(&mut h);
        k.u128(h.digest128()).u128(paths).u128(local_passes);
        k.bytes(&[u8::from(options.no_ignores)]);
        k.bytes(&walked.max_file_size(options).to_le_bytes());
        k.finish()
    };
    let last = match pending {
        Some(PendingRun(thread)) => thread.join().ok().flatten(),
        None => settings
            .replay
            .then(|| store.load_run())
            .flatten()
            .and_then(|b| wire::decode_run(&b)),
    }
    .filter(|run| run.context == context);
    let overlays = options.overlay.is_some() || !options.overlays.is_empty();
    if let Some(run) = &last
        && !overlays
        && let Some(report) = replay_by_stamps(root, run, &walked, &walked.config, store.writable())
    {
        return Some(report);
    }
    if lean {
        drop(last);
        let keys = Keys {
            context,
            paths,
            local_passes,
        };
        return analyze_lean(root, walked, options, settings, store, keys);
    }
    // Read every file, recording each one's stamp and kind.
    let kinds: HashMap<String, u8> = walked
        .found
        .iter()
        .map(|f| (f.rel.clone(), kind_code(f.kind)))
        .collect();
    let started = now_ns();
    let stamps = Mutex::new(HashMap::new());
    let gathered = read_walked(walked, options, |rel, m| {
        if let Some(s) = Stamp::of(m) {
            stamps.lock().expect("stamps").insert(rel.to_string(), s);
        }
    });
    let mut stamps = stamps.into_inner().expect("stamps");
    let Gathered {
        config,
        loaded,
        all,
    } = gathered;
    let mut entries: Vec<Entry> = loaded
        .par_iter()
        .map(|(path, content)| Entry {
            path: path.clone(),
            kind: kinds.get(path).copied(),
            stamp: None,
            content: content_of(content),
        })
        .collect();
    for e in &mut entries {
        e.stamp = stamps.remove(&e.path);
        if e.kind.is_none() {
            e.stamp = None;
        }
    }
    entries.sort_by(|a, b| (&a.path, a.kind).cmp(&(&b.path, b.kind)));
    let units = units(loaded, &all, &config);
    if let Some(run) = &last
        && same_contents(&run.entries, &entries)
        && run.units.len() == units.len()
        && run.units.iter().zip(&units).all(|(a, (b, _))| a == b)
        && let Some(report) = replay(run.clone(), &config, store.writable(), 0, |i| {
            Some(match &units[i].1 {
                Content::Bytes(b) => crate::text_of(b.clone()),
                Content::Problem(_) => String::new(),
            })
        })
    {
        return Some(report);
    }
    let unit_paths: Vec<String> = units.iter().map(|(p, _)| p.clone()).collect();
    store.load_packs();
    Progress::set_total(options, units.len());
    struct Unit {
        path: String,
        text: String,
        decoded: Decoded,
        key: Option<u128>,
        hit: bool,
        record: Option<Vec<u8>>,
    }
    let store_ref = &store;
    let results: Vec<Unit> = units
        .into_par_iter()
        .enumerate()
        .map_init(Parsers::new, |parsers, (i, (path, content))| {
            Progress::tick(options);
            let file = FileId(i as u32);
            let key = match &content {
                Content::Bytes(b) => {
                    classify_in_repo(&path, |p| config.format_for(p), |q| all.contains(q)).map(
                        |c| {
                            let mut k = Key::new("decoded");
                            k.str(&path)
                                .u128(xxhash_rust::xxh3::xxh3_128(b))
                                .str(&format!("{c:?}"));
                            k.finish()
                        },
                    )
                }
                Content::Problem(_) => None,
            };
            if let Some(k) = key
                && let Some(decoded) = store_ref
                    .get(k)
                    .and_then(|b| wire::decode_decoded(&b, file))
                && let Content::Bytes(bytes) = content
            {
                return Unit {
                    path,
                    text: crate::text_of(bytes),
                    decoded,
                    key,
                    hit: true,
                    record: None,
                };
            }
            let (text, decoded) = decode_unit(parsers, file, &path, content, &config, &all);
            let record = key
                .filter(|_| store_ref.writable())
                .and_then(|_| wire::encode_decoded(&decoded, file));
            Unit {
                path,
                text,
                decoded,
                key,
                hit: false,
                record,
            }
        })
        .collect();
    let mut stats = CacheStats {
        writable: store.writable(),
        ..CacheStats::default()
    };
    let mut used = Vec::new();
    let mut new = Vec::new();
    // The local findings' keys and reused findings, one per artifact.
    let mut local_keys = Vec::new();
    let mut reused = Vec::new();
    let mut decoded = Vec::with_capacity(results.len());
    for (i, u) in results.into_iter().enumerate() {
        if u.hit {
            stats.reused += 1;
            used.extend(u.key);
        } else {
            stats.decoded += 1;
        }
        if let (Some(k), Some(r)) = (u.key, u.record) {
            new.push((k, r));
        }
        if u.decoded.artifact.is_some() {
            let key = u.key.map(|k| {
                let mut l = Key::new("local");
                l.u128(k).u128(local_passes).u128(paths);
                l.finish()
            });
            let local = key.and_then(|k| {
                let l = wire::decode_local(&store.get(k)?, FileId(i as u32))?;
                used.push(k);
                Some(l)
            });
            stats.local_reused += usize::from(local.is_some());
            local_keys.push(key.filter(|_| local.is_none()));
            reused.push(local);
        }
        decoded.push((u.path, u.text, u.decoded));
    }
    let (mut report, local) = analyze_decoded(
        crate::Decodeds::from_units(decoded),
        all,
        &config,
        options,
        reused,
        true,
    );
    if store.writable() {
        for ((a, l), key) in report.artifacts.iter().zip(&local).zip(local_keys) {
            if let Some(k) = key
                && let Some(r) = wire::encode_local(l, a.file)
            {
                new.push((k, r));
            }
        }
        store.write(new, &used);
        if settings.replay
            && !report.has_internal_error()
            && let Some(entries) = entries
                .iter()
                .map(wire::encode_entry)
                .collect::<Option<Vec<_>>>()
            && let Some(body) = wire::encode_run(
                &report,
                context,
                started,
                entries,
                &unit_paths.iter().map(String::as_str).collect::<Vec<_>>(),
            )
        {
            store.write_run(&body);
        }
    }
    report.cache = Some(stats);
    Some(report)
}

/// The keys a run's records are stored under, besides each file's.
#[derive(Clone, Copy)]
struct Keys {
    /// Everything but the files that decides the result.
    context: u128,
    /// The repository's path list.
    paths: u128,
    /// The local passes in force.
    local_passes: u128,
}

/// [`analyze`] with lean retention: per file, on the worker that reads it,
/// the decoded state and the local findings are read from the cache or
/// computed (and added to the pack this run writes), then only what the
/// rest of the run reads is kept ([`crate::lean::Keeper`]).
fn analyze_lean(
    root: &Path,
    walked: Walked,
    options: &Options,
    settings: &CacheSettings,
    mut store: Store,
    keys: Keys,
) -> Option<Report> {
    let started = now_ns();
    let mut plan = crate::lean::plan(walked, options);
    let mut units = std::mem::take(&mut plan.units);
    let order = std::mem::take(&mut plan.order);
    let left_out = std::mem::take(&mut plan.left_out);
    store.load_packs();
    Progress::set_total(options, units.len());
    let keeper = crate::lean::Keeper::new(root, &plan.config, options, &plan.all);
    let writable = store.writable();
    let (reused, decoded, local_reused) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    );
    let used = Mutex::new(Vec::new());
    // Whether this run writes its whole-run record.
    let record = writable && settings.replay;
    // What an input held, as the whole-run record keeps it (`None` when
    // the run writes no record).
    let entry = |input: crate::lean::Input| {
        let kind = input.kind().map(kind_code);
        let mut stamp = None;
        let content = input.read(plan.max, |m| stamp = Stamp::of(m));
        let e = record.then(|| Seen {
            path: None,
            kind,
            stamp: stamp.filter(|_| kind.is_some()),
            content: content_of(&content),
        });
        (e, content)
    };
    let mut entries: Vec<Option<Seen>> = left_out
        .into_par_iter()
        .map(|(path, input)| {
            let (mut e, _) = entry(input);
            if let Some(e) = &mut e {
                e.path = Some(path);
            }
            e
        })
        .collect();
    // Decoded grouped by format (`crate::order`), numbered in path order.
    crate::order::gather(&mut units, &order);
    let (mut unit_entries, mut outs): (Vec<Option<Seen>>, crate::lean::Collected) = units
        .into_par_iter()
        .zip(order.par_iter().copied())
        // Jobs of at most this many files, so no thread waits long on the
        // last one of another (a parser set is made per job).
        .with_max_len(crate::FILES_PER_JOB)
        .map_init(Parsers::new, |parsers, ((path, input), i)| {
            Progress::tick(options);
            let memory = matches!(input, crate::lean::Input::Memory(_));
            let (mut e, content) = entry(input);
            let file = FileId(i as u32);
            let (hash, key) = match &content {
                Content::Bytes(b) => {
                    let hash = xxhash_rust::xxh3::xxh3_128(b);
                    let key = classify_in_repo(
                        &path,
                        |p| plan.config.format_for(p),
                        |q| plan.all.contains(q),
                    )
                    .map(|c| {
                        let mut k = Key::new("decoded");
                        k.str(&path).u128(hash).str(&format!("{c:?}"));
                        k.finish()
                    });
                    (Some(hash), key)
                }
                Content::Problem(_) if plan.left_out_when_unreadable(&path) => {
                    // No source keeps its path.
                    if let Some(e) = &mut e {
                        e.path = Some(path);
                    }
                    return (e, crate::lean::left_out());
                }
                Content::Problem(_) => (None, None),
            };
            let cached = key.and_then(|k| wire::decode_decoded(&store.get(k)?, file));
            let (text, d) = match (cached, content) {
                (Some(d), Content::Bytes(bytes)) => {
                    reused.fetch_add(1, Ordering::Relaxed);
                    used.lock().expect("used").extend(key);
                    (crate::text_of(bytes), d)
                }
                (_, content) => {
                    decoded.fetch_add(1, Ordering::Relaxed);
                    let (text, d) =
                        decode_unit(parsers, file, &path, content, &plan.config, &plan.all);
                    if let Some(k) = key.filter(|_| writable)
                        && let Some(r) = wire::encode_decoded(&d, file)
                    {
                        store.add(k, &r);
                    }
                    (text, d)
                }
            };
            let mut source = SourceFile::new(path, text);
            let local = d.artifact.as_ref().map(|a| {
                let key = key.map(|k| {
                    let mut l = Key::new("local");
                    l.u128(k).u128(keys.local_passes).u128(keys.paths);
                    l.finish()
                });
                if let Some(k) = key
                    && let Some(l) = store.get(k).and_then(|b| wire::decode_local(&b, file))
                {
                    local_reused.fetch_add(1, Ordering::Relaxed);
                    used.lock().expect("used").push(k);
                    return l;
                }
                let l = keeper.local(a, file, &mut source, &plan.all);
                if let Some(k) = key.filter(|_| writable)
                    && let Some(r) = wire::encode_local(&l, a.file)
                {
                    store.add(k, &r);
                }
                l
            });
            let version = hash.filter(|_| !memory);
            (e, keeper.keep(source, d, local, version, &plan.all))
        })
        .unzip();
    crate::order::scatter(&mut unit_entries, &order);
    crate::lean::scatter_collected(&mut outs, &order);
    let left = entries.len();
    entries.extend(unit_entries);
    // The whole-run record's entries go to disk now, so the repository half
    // runs without them; the rest of the record follows once the report is
    // made. Each is encoded here, one at a time: the workers only filled
    // in one list (issue #17: encoded on the workers, they were 11 MB of
    // small blocks among what the run keeps, and their pages stayed
    // resident once freed).
    let run = record
        .then(|| entries_written(&store, &keys, started, &entries, left, &outs.0))
        .flatten();
    drop(entries);
    let result = keeper.finish(outs, plan, options);
    store.finish(&used.into_inner().expect("used"));
    let (mut report, _) = result?;
    if !report.has_internal_error()
        && let Some(mut run) = run
    {
        let read = report.summary.files_read;
        let unit_paths: Vec<&str> = report
            .sources
            .iter()
            .take(read)
            .map(|(_, f)| f.path())
            .collect();
        if wire::write_run_tail(&report, &unit_paths, &mut run) {
            run.finish();
        }
    }
    report.cache = Some(CacheStats {
        reused: reused.into_inner(),
        decoded: decoded.into_inner(),
        local_reused: local_reused.into_inner(),
        writable,
        ..CacheStats::default()
    });
    Some(report)
}

/// An input's entry of the whole-run record as a worker leaves it: no
/// encoding and, for a unit with a source, no path (its source holds it).
struct Seen {
    /// The path, for an input no source keeps.
    path: Option<String>,
    kind: Option<u8>,
    stamp: Option<Stamp>,
    content: EntryContent,
}

/// Starts the whole-run record of a lean run: its head, then its entries
/// by path, then kind. `entries` are the inputs left out (the first
/// `left`, each with its path) then the units, whose paths are those of
/// `sources` (by unit) unless the entry has its own. `None` when an entry
/// is missing or the record cannot be written.
fn entries_written(
    store: &Store,
    keys: &Keys,
    started: i128,
    entries: &[Option<Seen>],
    left: usize,
    sources: &[Option<SourceFile>],
) -> Option<store::RunWriter> {
    let mut order: Vec<(&str, Option<u8>, &Seen)> = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let e = e.as_ref()?;
        let path = match &e.path {
            Some(p) => p.as_str(),
            None => sources.get(i.checked_sub(left)?)?.as_ref()?.path(),
        };
        order.push((path, e.kind, e));
    }
    // As encoded entries sort: by path bytes, then kind (stable).
    order.sort_by(|a, b| (a.0.as_bytes(), a.1).cmp(&(b.0.as_bytes(), b.1)));
    let mut w = store.start_run()?;
    let head = wire::encode_run_head(keys.context, started, order.len())?;
    if !w.add(&head) {
        return None;
    }
    for (path, kind, e) in order {
        let bytes = wire::encode_entry(&Entry {
            path: path.to_string(),
            kind,
            stamp: e.stamp,
            content: e.content.clone(),
        })?;
        if !w.add(&bytes) {
            return None;
        }
    }
    Some(w)
}

/// Whether two runs read the same inputs: the same paths, kinds and
/// contents (stamps aside).
fn same_contents(a: &[Entry], b: &[Entry]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.path == y.path && x.kind == y.kind && x.content == y.content)
}

/// The replay of `run` when the walk found the same files with the same
/// stamps, every stamp settled: nothing is read but the files whose text
/// the findings show (each checked against its recorded hash).
fn replay_by_stamps(
    root: &Path,
    run: &wire::Run,
    walked: &Walked,
    config: &crate::config::Config,
    writable: bool,
) -> Option<Report> {
    let mut now: Vec<(&str, Option<u8>, Option<EntryContent>)> = walked
        .found
        .iter()
        .map(|f| (f.rel.as_str(), Some(kind_code(f.kind)), None))
        .chain(walked.errors.iter().map(|(path, why)| {
            (
                path.as_str(),
                None,
                Some(content_of(&crate::walk_error(why))),
            )
        }))
        .collect();
    now.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    if now.len() != run.entries.len() {
        return None;
    }
    let found: HashMap<&str, &crate::walk::Found> =
        walked.found.iter().map(|f| (f.rel.as_str(), f)).collect();
    let same = now
        .par_iter()
        .zip(&run.entries)
        .all(|((path, kind, content), e)| {
            if *path != e.path || *kind != e.kind {
                return false;
            }
            match kind {
                None => content.as_ref() == Some(&e.content),
                // A link or a special file: its problem is its kind's.
                Some(k) if *k != 0 => true,
                Some(_) => {
                    // A file that could not be read may read now.
                    let read = match &e.content {
                        EntryContent::Bytes(_) => true,
                        EntryContent::Problem(code, _) => {
                            code == skein_syntax::rules::FILE_TOO_LARGE.code
                        }
                    };
                    let Some(recorded) = e.stamp.filter(|s| read && s.settled(run.started)) else {
                        return false;
                    };
                    let Some(f) = found.get(path) else {
                        return false;
                    };
                    std::fs::symlink_metadata(&f.path)
                        .ok()
                        .filter(|m| m.is_file())
                        .and_then(|m| Stamp::of(&m))
                        == Some(recorded)
                }
            }
        });
    if !same {
        return None;
    }
    let hashes: HashMap<&str, u128> = run
        .entries
        .iter()
        .filter_map(|e| match e.content {
            EntryContent::Bytes(h) => Some((e.path.as_str(), h)),
            EntryContent::Problem(..) => None,
        })
        .collect();
    let unread = hashes.len();
    replay(run.clone(), config, writable, unread, |i| {
        let path = run.units.get(i)?;
        let Some(&hash) = hashes.get(path.as_str()) else {
            return Some(String::new());
        };
        let bytes = std::fs::read(root.join(path)).ok()?;
        (xxhash_rust::xxh3::xxh3_128(&bytes) == hash).then(|| crate::text_of(bytes))
    })
}

/// The report of a stored run: the stored findings, secrets and summary;
/// the texts of the files they show from `text` (by unit index; `None`
/// gives up the replay), every other file's text empty; no artifacts, an
/// empty graph. `None` when the record does not hold together.
fn replay(
    run: wire::Run,
    config: &crate::config::Config,
    writable: bool,
    unread: usize,
    text: impl Fn(usize) -> Option<String> + Sync,
) -> Option<Report> {
    let n = run.units.len();
    if run.files_read != n {
        return None;
    }
    let total = n + run.extra_sources.len();
    let mut shown = vec![false; n];
    for l in run
        .diagnostics
        .iter()
        .flat_map(|d| std::iter::once(&d.primary).chain(&d.secondary))
    {
        let i = l.file.0 as usize;
        if i >= total {
            return None;
        }
        if i < n {
            shown[i] = true;
        }
    }
    for (file, _) in &run.secrets {
        let i = file.0 as usize;
        if i >= total {
            return None;
        }
        if i < n {
            shown[i] = true;
        }
    }
    let texts: Vec<Option<String>> = shown
        .par_iter()
        .enumerate()
        .map(|(i, &s)| if s { text(i) } else { Some(String::new()) })
        .collect();
    let mut sources = SourceMap::new();
    for (path, t) in run.units.into_iter().zip(texts) {
        sources.add(SourceFile::new(path, t?));
    }
    for (path, t) in run.extra_sources {
        sources.add(SourceFile::new(path, t));
    }
    for (file, spans) in run.secrets {
        for s in spans {
            sources.get_mut(file).add_secret(s);
        }
    }
    let summary = crate::summarize(run.files_read, run.per_format, &run.diagnostics);
    Some(Report {
        sources,
        artifacts: Vec::new(),
        artifact_formats: run.artifact_formats,
        graph: skein_model::RepoGraph::default(),
        diagnostics: run.diagnostics,
        summary,
        fail_on: config.fail_on,
        fail_on_internal_error: config.fail_on_internal_error,
        cache: Some(CacheStats {
            replayed: true,
            unread: unread.saturating_sub(shown.iter().filter(|s| **s).count()),
            writable,
            ..CacheStats::default()
        }),
        retention: None,
    })
}

/// Whether a run of `options` may use a cache at all: the hidden test
/// passes (`Options::extra_passes`) and the test build's fault hook are
/// not part of any key.
pub(crate) fn settings(options: &Options) -> Option<&CacheSettings> {
    options
        .cache
        .as_ref()
        .filter(|_| options.extra_passes.is_empty() && !crate::fault::active())
}
