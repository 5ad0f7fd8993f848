//! The cache folder on disk: immutable, checksummed pack files of records
//! and the one whole-run file, each written to a temporary file in the same
//! folder and renamed into place.
//!
//! ```text
//! <cache-dir>/
//!   .gitignore       "*": the folder ignores itself
//!   CACHEDIR.TAG     the cache directory tag (backup tools skip the folder)
//!   <namespace>/     one per skein version and build (16 hex digits)
//!     <16 hex>.pack  records: key (128-bit) -> bytes; named by their hash
//!     run.bin        the last whole run's result, with its key
//!     listing.bin    the last walk's listing, with its folders' stamps
//! ```
//!
//! A pack is `SKNPACK1`, the body's length (u64 LE), the body's XXH3-128
//! (u128 LE), then the body: records of key (u128 LE), length (u32 LE) and
//! bytes. `run.bin` is `SKNRUN01`, then length, checksum and body as in a
//! pack; `listing.bin` the same with `SKNLIST1`. A file whose length or checksum does not
//! match (a write cut short by a crash, a disk fault, an edit) is ignored
//! and deleted, and its records are computed again and written anew.
//!
//! Nothing is ever changed in place: a run writes a new pack of the records
//! it computed (or, once packs pile up, one pack of every record it used, and
//! then deletes the packs it read), so a reader sees a pack whole or not at
//! all.
//!
//! Neither side holds a pack in memory (issue #17, bounded memory): a pack
//! is read once, in pieces, to check its checksum and index its records,
//! and each record is read from the open file when it is asked for; a new
//! pack is written as its records come ([`Store::add`]), its header filled
//! in once the last is written ([`Store::finish`]). Two runs sharing the folder can only miss each other's new records
//! (a pack deleted between listing and reading is a miss), never read a torn
//! one. Every failure to read or write is a miss or a skipped write, never
//! an error of the run.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use xxhash_rust::xxh3::{Xxh3, xxh3_128};

const PACK_MAGIC: &[u8; 8] = b"SKNPACK1";
const RUN_MAGIC: &[u8; 8] = b"SKNRUN01";
/// The magic of `listing.bin`.
const LISTING_MAGIC: &[u8; 8] = b"SKNLIST1";
/// Magic (8), body length (8), checksum (16).
const PACK_HEADER: usize = 32;
/// Magic (8), body length (8), checksum (16).
const RUN_HEADER: usize = 32;
/// Key (16) and length (4) of one record.
const RECORD_HEADER: usize = 20;
/// A run that read more packs than this writes one pack of every record it
/// used and deletes the packs it read.
const MAX_PACKS: usize = 8;
/// Temporary files older than this (seconds) are left by a crashed run.
const STALE_TEMP_SECS: u64 = 3600;

/// The contents of `.gitignore` in the cache folder.
const GITIGNORE: &str = "# Written by skein: this folder is its cache.\n*\n";
/// The cache directory tag (<https://bford.info/cachedir/>).
const CACHEDIR_TAG: &str = "Signature: 8a477f597d28d172789f06886806bc55\n\
# This file is a cache directory tag created by skein.\n\
# For information about cache directory tags see https://bford.info/cachedir/\n";

/// One namespace of a cache folder, opened for a run.
#[derive(Debug)]
pub(crate) struct Store {
    /// The namespace folder.
    dir: PathBuf,
    /// Whether this run may write (the folder exists and its permission
    /// bits allow writing).
    writable: bool,
    /// The packs read, with their paths, kept open (a pack deleted by
    /// another run is still read whole through its open file).
    packs: Vec<(PathBuf, File)>,
    /// Record key -> (pack, start, end) of its bytes in the pack's file.
    index: HashMap<u128, (usize, u64, u64)>,
    /// The pack this run is writing, once it has a record.
    writer: Mutex<Option<PackWriter>>,
}

/// A pack being written: a temporary file in the namespace, its header a
/// placeholder until [`Store::finish`].
struct PackWriter {
    file: std::io::BufWriter<tempfile::NamedTempFile>,
    /// The checksum of the body so far.
    sum: Xxh3,
    /// The body's length so far.
    len: u64,
    /// Records written.
    records: usize,
    /// Whether a write failed: the pack is given up.
    failed: bool,
}

impl std::fmt::Debug for PackWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PackWriter")
            .field("len", &self.len)
            .field("records", &self.records)
            .finish_non_exhaustive()
    }
}

impl PackWriter {
    fn add(&mut self, key: u128, bytes: &[u8]) {
        let head = record_header(key, bytes.len());
        self.sum.update(&head);
        self.sum.update(bytes);
        self.len += (RECORD_HEADER + bytes.len()) as u64;
        self.records += 1;
        if !self.failed
            && (self.file.write_all(&head).is_err() || self.file.write_all(bytes).is_err())
        {
            self.failed = true;
        }
    }
}

/// A record's header: its key and its length, little-endian.
fn record_header(key: u128, len: usize) -> [u8; RECORD_HEADER] {
    let mut head = [0u8; RECORD_HEADER];
    head[..16].copy_from_slice(&key.to_le_bytes());
    head[16..].copy_from_slice(&(len as u32).to_le_bytes());
    head
}

impl Store {
    /// Opens (creating when missing and allowed) the cache folder `root` and
    /// its namespace `namespace`, for the project at `project`. `None` when
    /// the folder neither exists nor can be made, or is [`refused`]: the run
    /// goes without a cache. A folder (or, for a
    /// missing one, its nearest existing parent) whose permission bits
    /// allow no writing is read but never written, whoever runs skein
    /// (root too): a read-only project gets no cache files.
    pub(crate) fn open(root: &Path, namespace: &str, project: &Path) -> Option<Store> {
        let root = &std::path::absolute(root).ok()?;
        if refused(root, project).is_some() {
            return None;
        }
        let dir = root.join(namespace);
        if !root.is_dir() {
            let parent = root.ancestors().skip(1).find(|p| p.is_dir())?;
            if read_only(parent) {
                return None;
            }
            std::fs::create_dir_all(root).ok()?;
        }
        let writable = !read_only(root);
        if writable {
            // The folder ignores itself and tells backup tools it is a cache.
            // The tag first: it marks the folder as skein's ([`refused`]).
            write_once(&root.join("CACHEDIR.TAG"), CACHEDIR_TAG);
            write_once(&root.join(".gitignore"), GITIGNORE);
            if !dir.is_dir() {
                if std::fs::create_dir(&dir).is_err() && !dir.is_dir() {
                    return None;
                }
                prune(root, &dir);
            }
        } else if !dir.is_dir() {
            return None;
        }
        let writable = writable && !read_only(&dir);
        Some(Store {
            dir,
            writable,
            packs: Vec::new(),
            index: HashMap::new(),
            writer: Mutex::new(None),
        })
    }

    /// Whether this run writes to the cache.
    pub(crate) fn writable(&self) -> bool {
        self.writable
    }

    /// The body of the whole-run file, when it is whole.
    pub(crate) fn load_run(&self) -> Option<Vec<u8>> {
        self.load_file("run.bin", RUN_MAGIC)
    }

    /// [`Store::load_run`], then `then`, on another thread started now: the
    /// record is read while the caller walks.
    pub(crate) fn load_run_started<T: Send + 'static>(
        &self,
        then: fn(&[u8]) -> Option<T>,
    ) -> std::thread::JoinHandle<Option<T>> {
        let path = self.dir.join("run.bin");
        std::thread::spawn(move || then(&load_file_at(&path, RUN_MAGIC)?))
    }

    /// Replaces the whole-run file.
    pub(crate) fn write_run(&self, body: &[u8]) {
        self.write_file("run.bin", RUN_MAGIC, body);
    }

    /// A new whole-run file written in pieces ([`RunWriter`]), so that no
    /// run holds its whole record in memory; `None` when the folder is not
    /// written.
    pub(crate) fn start_run(&self) -> Option<RunWriter> {
        if !self.writable {
            return None;
        }
        Some(RunWriter {
            file: self.temporary(RUN_HEADER)?,
            sum: Xxh3::new(),
            len: 0,
            dir: self.dir.clone(),
        })
    }

    /// The body of the walk's listing file ([`super::listing`]), when it is whole.
    pub(crate) fn load_listing(&self) -> Option<Vec<u8>> {
        self.load_file("listing.bin", LISTING_MAGIC)
    }

    /// Replaces the walk's listing file.
    pub(crate) fn write_listing(&self, body: &[u8]) {
        self.write_file("listing.bin", LISTING_MAGIC, body);
    }

    /// The body of the one-record file `name` (`magic`, length, checksum,
    /// body), when it is whole.
    fn load_file(&self, name: &str, magic: &[u8; 8]) -> Option<Vec<u8>> {
        load_file_at(&self.dir.join(name), magic)
    }

    /// Replaces the one-record file `name`, written whole or not at all.
    fn write_file(&self, name: &str, magic: &[u8; 8], body: &[u8]) {
        if !self.writable {
            return;
        }
        // Written from `body` itself: a copy would be the run's peak.
        let sum = xxh3_128(body);
        self.write_with(name, |w| {
            w.write_all(magic)?;
            w.write_all(&(body.len() as u64).to_le_bytes())?;
            w.write_all(&sum.to_le_bytes())?;
            w.write_all(body)
        });
    }

    /// Reads every pack of the namespace and indexes its records. A pack
    /// that is truncated or whose checksum fails is deleted (when writable)
    /// and its records count as missing.
    pub(crate) fn load_packs(&mut self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = Vec::new();
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.ends_with(".pack") {
                paths.push(path);
            } else if name.starts_with(".tmp") && self.writable {
                // Left by a run that crashed before its rename.
                let stale = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age.as_secs() > STALE_TEMP_SECS);
                if stale {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
        paths.sort();
        for path in paths {
            // Gone since the listing (another run compacted): a miss.
            let Ok(mut file) = File::open(&path) else {
                continue;
            };
            match records(&mut file) {
                Some(list) => {
                    let pack = self.packs.len();
                    for (key, start, end) in list {
                        self.index.entry(key).or_insert((pack, start, end));
                    }
                    self.packs.push((path, file));
                }
                None => {
                    if self.writable {
                        let _ = std::fs::remove_file(&path);
                    }
                }
            }
        }
    }

    /// The bytes of record `key`, if a pack read holds it (read from the
    /// pack's file; `None` when that read fails).
    pub(crate) fn get(&self, key: u128) -> Option<Vec<u8>> {
        let &(pack, start, end) = self.index.get(&key)?;
        let mut bytes = vec![0; (end - start) as usize];
        read_at(&self.packs[pack].1, &mut bytes, start).ok()?;
        Some(bytes)
    }

    /// Adds a record to the pack this run writes (nothing when the folder
    /// cannot be written). Any thread may add; [`Store::finish`] ends the
    /// pack.
    pub(crate) fn add(&self, key: u128, bytes: &[u8]) {
        if !self.writable {
            return;
        }
        let mut w = self.writer.lock().expect("pack writer");
        if w.is_none() {
            *w = self.start_pack();
        }
        if let Some(w) = w.as_mut() {
            w.add(key, bytes);
        }
    }

    /// A new temporary file in the namespace, buffered, its first `header`
    /// bytes zero (a placeholder filled in once the body is written).
    fn temporary(&self, header: usize) -> Option<std::io::BufWriter<tempfile::NamedTempFile>> {
        let tmp = tempfile::NamedTempFile::new_in(&self.dir).ok()?;
        let mut file = std::io::BufWriter::with_capacity(1 << 20, tmp);
        file.write_all(&vec![0u8; header]).ok()?;
        Some(file)
    }

    /// A new pack's temporary file, its header a placeholder.
    fn start_pack(&self) -> Option<PackWriter> {
        Some(PackWriter {
            file: self.temporary(PACK_HEADER)?,
            sum: Xxh3::new(),
            len: 0,
            records: 0,
            failed: false,
        })
    }

    /// Writes the records `new` (key, bytes) and ends the pack
    /// ([`Store::finish`]).
    pub(crate) fn write(&self, new: Vec<(u128, Vec<u8>)>, used: &[u128]) {
        for (k, b) in &new {
            self.add(*k, b);
        }
        self.finish(used);
    }

    /// Ends the pack of the records added ([`Store::add`]). `used` are the
    /// keys of the records this run read: when the packs read are more than
    /// [`MAX_PACKS`], or hold more bytes no run used than bytes it used,
    /// those records go into the pack too, and it replaces every pack read.
    pub(crate) fn finish(&self, used: &[u128]) {
        if !self.writable {
            return;
        }
        let mut writer = self.writer.lock().expect("pack writer").take();
        let added = writer.as_ref().is_some_and(|w| w.records > 0);
        let live: u64 = used
            .iter()
            .filter_map(|k| self.index.get(k))
            .map(|(_, s, e)| RECORD_HEADER as u64 + e - s)
            .sum();
        let total: u64 = self
            .packs
            .iter()
            .filter_map(|(_, f)| f.metadata().ok())
            .map(|m| m.len())
            .sum();
        let compact = self.packs.len() + usize::from(added) > MAX_PACKS
            || total.saturating_sub(live) > live.max(1 << 20);
        if !added && !compact {
            return;
        }
        if writer.is_none() {
            writer = self.start_pack();
        }
        let Some(mut w) = writer else {
            return;
        };
        if compact {
            let mut seen = std::collections::HashSet::new();
            for &k in used {
                if seen.insert(k)
                    && let Some(b) = self.get(k)
                {
                    w.add(k, &b);
                }
            }
        }
        let sum = w.sum.digest128();
        let name = format!("{:016x}.pack", sum as u64);
        let mut head = [0u8; PACK_HEADER];
        head[..8].copy_from_slice(PACK_MAGIC);
        head[8..16].copy_from_slice(&w.len.to_le_bytes());
        head[16..].copy_from_slice(&sum.to_le_bytes());
        let written = !w.failed
            && w.file.into_inner().ok().is_some_and(|mut tmp| {
                let file = tmp.as_file_mut();
                file.seek(SeekFrom::Start(0)).is_ok()
                    && file.write_all(&head).is_ok()
                    && tmp.persist(self.dir.join(&name)).is_ok()
            });
        if written && compact {
            let written = self.dir.join(&name);
            for (path, _) in &self.packs {
                if *path != written {
                    let _ = std::fs::remove_file(path);
                }
            }
        }
    }

    /// Writes `name` in the namespace with `write`: a temporary file in the
    /// same folder, renamed over `name`. False when any step failed (the
    /// temporary file is then removed).
    fn write_with(
        &self,
        name: &str,
        write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> bool {
        let Ok(tmp) = tempfile::NamedTempFile::new_in(&self.dir) else {
            return false;
        };
        let mut w = std::io::BufWriter::with_capacity(1 << 20, tmp);
        if write(&mut w).is_err() {
            return false;
        }
        match w.into_inner() {
            Ok(tmp) => tmp.persist(self.dir.join(name)).is_ok(),
            Err(_) => false,
        }
    }
}

/// A whole-run file being written: a temporary file in the namespace,
/// its header (length and checksum) a placeholder until
/// [`RunWriter::finish`] renames it over `run.bin`. Dropped unfinished,
/// the temporary file is removed.
pub(crate) struct RunWriter {
    file: std::io::BufWriter<tempfile::NamedTempFile>,
    sum: Xxh3,
    len: u64,
    dir: PathBuf,
}

/// Appends to the body: its checksum and length follow what is written.
impl std::io::Write for RunWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.sum.update(buf);
        self.len += buf.len() as u64;
        self.file.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl RunWriter {
    /// Appends `bytes` to the body; false when the write failed.
    pub(crate) fn add(&mut self, bytes: &[u8]) -> bool {
        std::io::Write::write_all(self, bytes).is_ok()
    }

    /// Fills in the header and puts the file in place as `run.bin`.
    pub(crate) fn finish(self) -> bool {
        let Ok(mut tmp) = self.file.into_inner() else {
            return false;
        };
        let mut header = Vec::with_capacity(RUN_HEADER);
        header.extend_from_slice(RUN_MAGIC);
        header.extend_from_slice(&self.len.to_le_bytes());
        header.extend_from_slice(&self.sum.digest128().to_le_bytes());
        let written = tmp.as_file_mut().seek(SeekFrom::Start(0)).is_ok()
            && tmp.as_file_mut().write_all(&header).is_ok()
            && tmp.as_file_mut().flush().is_ok();
        written && tmp.persist(self.dir.join("run.bin")).is_ok()
    }
}

/// Why the folder `dir` may not be the cache folder of the project at
/// `project`, if it may not: skein writes a `.gitignore` holding `*` and a
/// `CACHEDIR.TAG` into its cache folder and deletes old namespaces there,
/// so it never takes a folder that
/// - is a symbolic link (a cloned repository could point it anywhere),
/// - is a file (there is no folder to write into; said, not skipped in
///   silence),
/// - is the project or holds it (the `.gitignore` would hide the project
///   from git and from skein's own walk),
/// - already holds other files and no `CACHEDIR.TAG` (a folder that is not
///   a cache: its folders named like namespaces would be deleted).
pub fn refused(dir: &Path, project: &Path) -> Option<String> {
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let meta = std::fs::symlink_metadata(&dir).ok();
    if meta.as_ref().is_some_and(std::fs::Metadata::is_symlink) {
        return Some(format!(
            "the cache folder {} is a symbolic link",
            dir.display()
        ));
    }
    if meta.as_ref().is_some_and(|m| !m.is_dir()) {
        return Some(format!(
            "the cache folder {} is a file, not a folder",
            dir.display()
        ));
    }
    // A folder not made yet holds nothing; the project exists.
    if let (Ok(at), Ok(project)) = (std::fs::canonicalize(&dir), std::fs::canonicalize(project))
        && project.starts_with(&at)
    {
        return Some(format!(
            "the cache folder {} is the project or holds it",
            dir.display()
        ));
    }
    if meta.is_some_and(|m| m.is_dir())
        && !dir.join("CACHEDIR.TAG").is_file()
        && std::fs::read_dir(&dir).is_ok_and(|mut e| e.next().is_some())
    {
        return Some(format!(
            "the folder {} already holds files and is not a cache (it has no CACHEDIR.TAG)",
            dir.display()
        ));
    }
    None
}

/// Namespaces kept besides the one in use: the others, least recently
/// written first, are deleted when a new one is made (each skein build
/// makes its own, see [`super::default_version`]).
const KEEP_NAMESPACES: usize = 3;

/// The body of the one-record file at `path` (`magic`, length, checksum,
/// body), when it is whole.
fn load_file_at(path: &Path, magic: &[u8; 8]) -> Option<Vec<u8>> {
    let mut bytes = std::fs::read(path).ok()?;
    if bytes.len() < RUN_HEADER || &bytes[..8] != magic {
        return None;
    }
    let len = u64::from_le_bytes(bytes[8..16].try_into().ok()?) as usize;
    let sum = u128::from_le_bytes(bytes[16..32].try_into().ok()?);
    let body = &bytes[RUN_HEADER..];
    if body.len() != len || xxh3_128(body) != sum {
        return None;
    }
    bytes.drain(..RUN_HEADER);
    Some(bytes)
}

/// Deletes the namespaces of `root` but `current` and the
/// [`KEEP_NAMESPACES`] last written (a folder's time moves with each file
/// renamed into it).
fn prune(root: &Path, current: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let mut others: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.len() == 16 && name.bytes().all(|b| b.is_ascii_hexdigit())
        })
        .map(|e| e.path())
        .filter(|p| p != current && p.is_dir())
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    others.sort();
    let n = others.len().saturating_sub(KEEP_NAMESPACES);
    for (_, p) in others.into_iter().take(n) {
        let _ = std::fs::remove_dir_all(p);
    }
}

/// The records of the pack `file`: (key, start, end) of each, or `None`
/// when the pack is truncated, corrupted or not a pack. The file is read
/// once, in pieces, for the checksum.
fn records(file: &mut File) -> Option<Vec<(u128, u64, u64)>> {
    let size = file.metadata().ok()?.len();
    let mut r = std::io::BufReader::with_capacity(1 << 16, file);
    let mut head = [0u8; PACK_HEADER];
    r.read_exact(&mut head).ok()?;
    if &head[..8] != PACK_MAGIC {
        return None;
    }
    let len = u64::from_le_bytes(head[8..16].try_into().ok()?);
    let sum = u128::from_le_bytes(head[16..32].try_into().ok()?);
    if size.checked_sub(PACK_HEADER as u64) != Some(len) {
        return None;
    }
    let mut hasher = Xxh3::new();
    let mut out = Vec::new();
    let mut at = PACK_HEADER as u64;
    let mut buf = vec![0u8; 1 << 16];
    while at < size {
        let mut rh = [0u8; RECORD_HEADER];
        r.read_exact(&mut rh).ok()?;
        hasher.update(&rh);
        let key = u128::from_le_bytes(rh[..16].try_into().ok()?);
        let n = u64::from(u32::from_le_bytes(rh[16..20].try_into().ok()?));
        let start = at + RECORD_HEADER as u64;
        let end = start.checked_add(n).filter(|&e| e <= size)?;
        let mut left = n as usize;
        while left > 0 {
            let k = left.min(buf.len());
            r.read_exact(&mut buf[..k]).ok()?;
            hasher.update(&buf[..k]);
            left -= k;
        }
        out.push((key, start, end));
        at = end;
    }
    (hasher.digest128() == sum).then_some(out)
}

/// Fills `buf` from `file` at `offset`, leaving the file's cursor alone (so
/// threads share the file).
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `file` at `offset`.
#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// Whether the permission bits of `path` allow no writing (for anyone):
/// checked by bits, not by trying, since root may write anywhere.
pub(crate) fn read_only(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly())
}

/// Writes `text` to `path` unless the file exists (atomically, so a
/// concurrent run sees it whole or not at all).
fn write_once(path: &Path, text: &str) {
    if path.exists() {
        return;
    }
    let Some(dir) = path.parent() else {
        return;
    };
    if let Ok(mut tmp) = tempfile::NamedTempFile::new_in(dir)
        && tmp.write_all(text.as_bytes()).is_ok()
    {
        let _ = tmp.persist_noclobber(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_damage_is_detected() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(
            &dir.path().join("c"),
            "ns",
            Path::new("/nonexistent-project"),
        )
        .unwrap();
        assert!(dir.path().join("c/.gitignore").is_file());
        assert!(dir.path().join("c/CACHEDIR.TAG").is_file());
        store.write(vec![(1, b"one".to_vec()), (2, b"two".to_vec())], &[]);
        let mut s = Store::open(
            &dir.path().join("c"),
            "ns",
            Path::new("/nonexistent-project"),
        )
        .unwrap();
        s.load_packs();
        assert_eq!(s.get(1).as_deref(), Some(&b"one"[..]));
        assert_eq!(s.get(2).as_deref(), Some(&b"two"[..]));
        // Cut the pack short: it is ignored and deleted.
        let path = s.packs[0].0.clone();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        let mut s = Store::open(
            &dir.path().join("c"),
            "ns",
            Path::new("/nonexistent-project"),
        )
        .unwrap();
        s.load_packs();
        assert_eq!(s.get(1), None);
        assert!(!path.exists());
    }

    #[test]
    fn old_namespaces_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..6 {
            Store::open(
                dir.path(),
                &format!("{i:016x}"),
                Path::new("/nonexistent-project"),
            )
            .unwrap();
        }
        let left = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.path().is_dir())
            .count();
        assert_eq!(left, KEEP_NAMESPACES + 1);
        assert!(dir.path().join(format!("{:016x}", 5)).is_dir());
    }

    #[test]
    fn run_file_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), "ns", Path::new("/nonexistent-project")).unwrap();
        assert_eq!(store.load_run(), None);
        store.write_run(b"body");
        assert_eq!(store.load_run(), Some(b"body".to_vec()));
    }
}
