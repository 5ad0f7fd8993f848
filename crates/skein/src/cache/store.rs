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
//! ```
//!
//! A pack is `SKNPACK1`, the body's length (u64 LE), the body's XXH3-128
//! (u128 LE), then the body: records of key (u128 LE), length (u32 LE) and
//! bytes. `run.bin` is `SKNRUN01`, then length, checksum and body as in a
//! pack. A file whose length or checksum does not
//! match (a write cut short by a crash, a disk fault, an edit) is ignored
//! and deleted, and its records are computed again and written anew.
//!
//! Nothing is ever changed in place: a run writes a new pack of the records
//! it computed (or, once packs pile up, one pack of every record it used, and
//! then deletes the packs it read), so a reader sees a pack whole or not at
//! all. Two runs sharing the folder can only miss each other's new records
//! (a pack deleted between listing and reading is a miss), never read a torn
//! one. Every failure to read or write is a miss or a skipped write, never
//! an error of the run.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::{Xxh3, xxh3_128};

const PACK_MAGIC: &[u8; 8] = b"SKNPACK1";
const RUN_MAGIC: &[u8; 8] = b"SKNRUN01";
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
    /// The packs read, whole, with their paths.
    packs: Vec<(PathBuf, Vec<u8>)>,
    /// Record key -> (pack, start, end) of its bytes.
    index: HashMap<u128, (usize, usize, usize)>,
}

impl Store {
    /// Opens (creating when missing and allowed) the cache folder `root` and
    /// its namespace `namespace`. `None` when the folder neither exists nor
    /// can be made: the run goes without a cache. A folder (or, for a
    /// missing one, its nearest existing parent) whose permission bits
    /// allow no writing is read but never written, whoever runs skein
    /// (root too): a read-only project gets no cache files.
    pub(crate) fn open(root: &Path, namespace: &str) -> Option<Store> {
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
            write_once(&root.join(".gitignore"), GITIGNORE);
            write_once(&root.join("CACHEDIR.TAG"), CACHEDIR_TAG);
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
        })
    }

    /// Whether this run writes to the cache.
    pub(crate) fn writable(&self) -> bool {
        self.writable
    }

    /// The body of the whole-run file, when it is whole.
    pub(crate) fn load_run(&self) -> Option<Vec<u8>> {
        let bytes = std::fs::read(self.dir.join("run.bin")).ok()?;
        if bytes.len() < RUN_HEADER || &bytes[..8] != RUN_MAGIC {
            return None;
        }
        let len = u64::from_le_bytes(bytes[8..16].try_into().ok()?) as usize;
        let sum = u128::from_le_bytes(bytes[16..32].try_into().ok()?);
        let body = &bytes[RUN_HEADER..];
        (body.len() == len && xxh3_128(body) == sum).then(|| body.to_vec())
    }

    /// Replaces the whole-run file.
    pub(crate) fn write_run(&self, body: &[u8]) {
        if !self.writable {
            return;
        }
        let mut bytes = Vec::with_capacity(RUN_HEADER + body.len());
        bytes.extend_from_slice(RUN_MAGIC);
        bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&xxh3_128(body).to_le_bytes());
        bytes.extend_from_slice(body);
        self.write_atomic("run.bin", &bytes);
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
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            match records(&bytes) {
                Some(list) => {
                    let pack = self.packs.len();
                    for (key, start, end) in list {
                        self.index.entry(key).or_insert((pack, start, end));
                    }
                    self.packs.push((path, bytes));
                }
                None => {
                    if self.writable {
                        let _ = std::fs::remove_file(&path);
                    }
                }
            }
        }
    }

    /// The bytes of record `key`, if a pack read holds it.
    pub(crate) fn get(&self, key: u128) -> Option<&[u8]> {
        let &(pack, start, end) = self.index.get(&key)?;
        Some(&self.packs[pack].1[start..end])
    }

    /// Writes the records `new` (key, bytes). `used` are the keys of the
    /// records this run read: when the packs read are more than
    /// [`MAX_PACKS`], or hold more bytes no run used than bytes it used,
    /// one pack of `used` and `new` replaces them all.
    pub(crate) fn write(&self, new: Vec<(u128, Vec<u8>)>, used: &[u128]) {
        if !self.writable {
            return;
        }
        let live: usize = used
            .iter()
            .filter_map(|k| self.index.get(k))
            .map(|(_, s, e)| RECORD_HEADER + e - s)
            .sum();
        let total: usize = self.packs.iter().map(|(_, b)| b.len()).sum();
        let compact = self.packs.len() + usize::from(!new.is_empty()) > MAX_PACKS
            || total.saturating_sub(live) > live.max(1 << 20);
        if new.is_empty() && !compact {
            return;
        }
        // The records, streamed twice: once for the checksum, once to disk
        // (a pack can be a good share of the bytes analyzed: no copy).
        let mut records: Vec<(u128, &[u8])> = Vec::new();
        if compact {
            let mut seen = std::collections::HashSet::new();
            for &k in used {
                if seen.insert(k)
                    && let Some(b) = self.get(k)
                {
                    records.push((k, b));
                }
            }
        }
        records.extend(new.iter().map(|(k, b)| (*k, b.as_slice())));
        let mut sum = Xxh3::new();
        let mut len = 0u64;
        for (k, b) in &records {
            sum.update(&k.to_le_bytes());
            sum.update(&(b.len() as u32).to_le_bytes());
            sum.update(b);
            len += (RECORD_HEADER + b.len()) as u64;
        }
        let sum = sum.digest128();
        let name = format!("{:016x}.pack", sum as u64);
        let written = self.write_with(&name, |w| {
            w.write_all(PACK_MAGIC)?;
            w.write_all(&len.to_le_bytes())?;
            w.write_all(&sum.to_le_bytes())?;
            for (k, b) in &records {
                w.write_all(&k.to_le_bytes())?;
                w.write_all(&(b.len() as u32).to_le_bytes())?;
                w.write_all(b)?;
            }
            Ok(())
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

    /// Writes `bytes` to `name` in the namespace (see [`Store::write_with`]).
    fn write_atomic(&self, name: &str, bytes: &[u8]) -> bool {
        self.write_with(name, |w| w.write_all(bytes))
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

/// Namespaces kept besides the one in use: the others, least recently
/// written first, are deleted when a new one is made (each skein build
/// makes its own, see [`super::default_version`]).
const KEEP_NAMESPACES: usize = 3;

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

/// The records of a pack's bytes: (key, start, end) of each, or `None`
/// when the pack is truncated, corrupted or not a pack.
fn records(bytes: &[u8]) -> Option<Vec<(u128, usize, usize)>> {
    if bytes.len() < PACK_HEADER || &bytes[..8] != PACK_MAGIC {
        return None;
    }
    let len = u64::from_le_bytes(bytes[8..16].try_into().ok()?) as usize;
    let sum = u128::from_le_bytes(bytes[16..32].try_into().ok()?);
    let body = &bytes[PACK_HEADER..];
    if body.len() != len || xxh3_128(body) != sum {
        return None;
    }
    let mut out = Vec::new();
    let mut at = PACK_HEADER;
    while at < bytes.len() {
        let head = bytes.get(at..at + RECORD_HEADER)?;
        let key = u128::from_le_bytes(head[..16].try_into().ok()?);
        let n = u32::from_le_bytes(head[16..20].try_into().ok()?) as usize;
        let start = at + RECORD_HEADER;
        let end = start.checked_add(n).filter(|&e| e <= bytes.len())?;
        out.push((key, start, end));
        at = end;
    }
    Some(out)
}

/// Whether the permission bits of `path` allow no writing (for anyone):
/// checked by bits, not by trying, since root may write anywhere.
fn read_only(path: &Path) -> bool {
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
        let store = Store::open(&dir.path().join("c"), "ns").unwrap();
        assert!(dir.path().join("c/.gitignore").is_file());
        assert!(dir.path().join("c/CACHEDIR.TAG").is_file());
        store.write(vec![(1, b"one".to_vec()), (2, b"two".to_vec())], &[]);
        let mut s = Store::open(&dir.path().join("c"), "ns").unwrap();
        s.load_packs();
        assert_eq!(s.get(1), Some(&b"one"[..]));
        assert_eq!(s.get(2), Some(&b"two"[..]));
        // Cut the pack short: it is ignored and deleted.
        let (path, bytes) = s.packs[0].clone();
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        let mut s = Store::open(&dir.path().join("c"), "ns").unwrap();
        s.load_packs();
        assert_eq!(s.get(1), None);
        assert!(!path.exists());
    }

    #[test]
    fn old_namespaces_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..6 {
            Store::open(dir.path(), &format!("{i:016x}")).unwrap();
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
        let store = Store::open(dir.path(), "ns").unwrap();
        assert_eq!(store.load_run(), None);
        store.write_run(b"body");
        assert_eq!(store.load_run(), Some(b"body".to_vec()));
    }
}
