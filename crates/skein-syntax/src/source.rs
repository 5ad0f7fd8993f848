//! Source files as the analyzer sees them: a repository-relative path and text.

use crate::span::{LineCol, LineIndex, Span};
use std::sync::{Arc, OnceLock};

/// Index of a file in a [`crate::SourceMap`]; stable for one analysis run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// One file: its path relative to the analyzed root (always `/`-separated)
/// and its text.
///
/// Files that are not valid UTF-8 are represented by the lossy decoding of
/// their bytes; the syntax layer reports them and does not parse them.
///
/// The text may be *dropped* ([`SourceFile::drop_text`]): a run that keeps
/// memory bounded (skein's lean retention, issue #17) lets go of a file's
/// text once the file is decoded, and the first reader gets it back from
/// the [`TextSource`] that dropped it.
#[derive(Debug, Clone, Default)]
pub struct SourceFile {
    /// Boxed, as the secrets: a report holds every file (issue #17).
    path: Box<str>,
    text: Text,
    /// Built on first use: only files with a finding to render need it, and
    /// building it for every file was a sequential pass over all the bytes.
    /// Boxed: most files never build one, and a report holds every file.
    lines: OnceLock<Box<LineIndex>>,
    secrets: Option<Box<[Span]>>,
}

/// Where a dropped text comes back from: the code that dropped it, which
/// knows where the file is and what it held (skein reads the file again
/// and compares a hash of its bytes). This crate does no IO itself.
pub trait TextSource: Send + Sync {
    /// The text of the file at `path` as it was when it was dropped, which
    /// the dropper fingerprinted as `version`; `None` when it cannot be
    /// given back (the file changed or is gone). The source remembers such
    /// a failure: its readers got an empty text, and the run that dropped
    /// the text cannot stand (skein runs the analysis again, keeping every
    /// text).
    fn reload(&self, path: &str, version: u128) -> Option<String>;
}

/// A file's text, in memory or to be read again.
#[derive(Clone)]
enum Text {
    Held(String),
    Dropped(Box<Dropped>),
}

/// A text given up by [`SourceFile::drop_text`]: 64 bytes, one per file
/// of a lean run (issue #17).
#[derive(Clone)]
struct Dropped {
    /// The text's length in bytes.
    len: usize,
    /// The dropper's fingerprint of the file's bytes, high and low halves
    /// (a `u128` would align the whole to 16 bytes).
    version: [u64; 2],
    source: Arc<dyn TextSource>,
    /// The text, once read again (boxed twice: a thin pointer keeps the
    /// whole at 64 bytes, and few texts are read again).
    #[allow(clippy::box_collection)]
    loaded: OnceLock<Box<String>>,
    /// The pieces of the text kept when it was dropped
    /// ([`SourceFile::drop_text_keeping`]), if any.
    pieces: Option<Box<Pieces>>,
}

/// Pieces of a dropped text, each by its byte span in the file: what the
/// readers of a file whose text a lean run dropped read of it (the
/// destinations of a Markdown body's links, a configuration's path-like
/// words), given back by [`SourceFile::slice`] and [`SourceFile::pieces`]
/// without reading the file again.
///
/// One buffer (a run keeps pieces of tens of thousands of files):
/// the count `n` (`u32`), then per piece its start, end, and end in the
/// texts (`u32` each, little-endian), the pieces ordered by start then end
/// without repeats, then the pieces' texts one after the other (each
/// starts where the one before ends).
#[derive(Clone)]
struct Pieces(Box<[u8]>);

impl Pieces {
    /// The pieces of `text` at `spans` (spans that are no text of it are
    /// left out); `None` when none is.
    fn of(text: &str, spans: impl IntoIterator<Item = Span>) -> Option<Pieces> {
        let mut spans: Vec<Span> = spans
            .into_iter()
            .filter(|s| text.get(s.range()).is_some())
            .collect();
        if spans.is_empty() {
            return None;
        }
        spans.sort_by_key(|s| (s.start, s.end));
        spans.dedup();
        let bytes: usize = spans.iter().map(|s| s.len()).sum();
        let mut out = Vec::with_capacity(4 + 12 * spans.len() + bytes);
        out.extend_from_slice(&(spans.len() as u32).to_le_bytes());
        let mut end = 0u32;
        for s in &spans {
            end += s.len() as u32;
            for v in [s.start, s.end, end] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for s in &spans {
            out.extend_from_slice(&text.as_bytes()[s.range()]);
        }
        Some(Pieces(out.into_boxed_slice()))
    }

    fn word(&self, at: usize) -> u32 {
        u32::from_le_bytes(self.0[at..at + 4].try_into().expect("four bytes"))
    }

    /// How many pieces there are.
    fn len(&self) -> usize {
        self.word(0) as usize
    }

    /// Piece `k`: its span and its text.
    fn piece(&self, k: usize) -> (Span, &str) {
        let at = 4 + 12 * k;
        let (start, end) = (self.word(at), self.word(at + 4));
        let to = self.word(at + 8) as usize;
        let from = to - (end - start) as usize;
        let texts = 4 + 12 * self.len();
        let text = std::str::from_utf8(&self.0[texts + from..texts + to]).expect("pieces of a str");
        (Span { start, end }, text)
    }

    /// The text at `span`, when a kept piece holds it: the piece of that
    /// span, else the first piece around it.
    fn get(&self, span: Span) -> Option<&str> {
        let n = self.len();
        let key = |k: usize| {
            let at = 4 + 12 * k;
            (self.word(at), self.word(at + 4))
        };
        // The first piece not before `span`, by start then end.
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if key(mid) < (span.start, span.end) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let k = if lo < n && key(lo) == (span.start, span.end) {
            lo
        } else {
            (0..n).find(|&k| {
                let (start, end) = key(k);
                start <= span.start && span.end <= end
            })?
        };
        let (s, text) = self.piece(k);
        let from = (span.start - s.start) as usize;
        text.get(from..from + span.len())
    }
}

impl Dropped {
    /// The text as its source gives it back (empty when it cannot).
    fn reload(&self, path: &str) -> String {
        let version = (u128::from(self.version[0]) << 64) | u128::from(self.version[1]);
        self.source.reload(path, version).unwrap_or_default()
    }
}

impl Default for Text {
    fn default() -> Self {
        Text::Held(String::new())
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Text::Held(t) => t.fmt(f),
            Text::Dropped(d) => match d.loaded.get() {
                Some(t) => t.fmt(f),
                None => write!(f, "<{} bytes, dropped>", d.len),
            },
        }
    }
}

impl SourceFile {
    /// Builds a file from its repo-relative path and text.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            path: path.into().into_boxed_str(),
            text: Text::Held(text.into()),
            lines: OnceLock::new(),
            secrets: None,
        }
    }

    /// Drops the text: the file keeps its length, and the first call of
    /// [`SourceFile::text`] (or of anything that reads it) asks `source` for
    /// it again, by this path and `version`, and keeps what it gives (an
    /// empty text when it gives nothing).
    pub fn drop_text(&mut self, version: u128, source: Arc<dyn TextSource>) {
        self.drop_text_keeping(version, source, []);
    }

    /// [`SourceFile::drop_text`], keeping the text at `spans`: reading
    /// those ([`SourceFile::slice`], of a kept span or of part of one)
    /// does not read the text again. The pieces are copied out of the
    /// text, so they cost their bytes and 12 bytes each.
    pub fn drop_text_keeping(
        &mut self,
        version: u128,
        source: Arc<dyn TextSource>,
        spans: impl IntoIterator<Item = Span>,
    ) {
        let len = self.len();
        let pieces = match &self.text {
            Text::Held(t) => Pieces::of(t, spans).map(Box::new),
            Text::Dropped(d) => d.pieces.clone(),
        };
        self.text = Text::Dropped(Box::new(Dropped {
            len,
            version: [(version >> 64) as u64, version as u64],
            source,
            loaded: OnceLock::new(),
            pieces,
        }));
        self.lines = OnceLock::new();
    }

    /// Whether the text is in memory: never dropped, or read again since.
    pub fn is_held(&self) -> bool {
        match &self.text {
            Text::Held(_) => true,
            Text::Dropped(d) => d.loaded.get().is_some(),
        }
    }

    /// Keeps the text from now on without its [`TextSource`]: reads a
    /// dropped text again now (see [`SourceFile::text`]).
    pub fn hold(&mut self) {
        if let Text::Dropped(_) = self.text {
            let text = self.text().to_string();
            self.text = Text::Held(text);
        }
    }

    /// Gives up the text for good: from now on it reads as empty (a report
    /// that shows no finding in the file, and masks no secret of it, has no
    /// use for it). Its line index goes with it.
    pub fn forget_text(&mut self) {
        self.text = Text::Held(String::new());
        self.lines = OnceLock::new();
    }

    /// The file's text, giving up the file (an incremental analysis moves
    /// the text of an unchanged file into its next source map).
    pub fn into_text(mut self) -> String {
        self.hold();
        match self.text {
            Text::Held(t) => t,
            Text::Dropped(_) => unreachable!("held above"),
        }
    }

    /// The text's length in bytes (a dropped text is not read again for it).
    pub fn len(&self) -> usize {
        match &self.text {
            Text::Held(t) => t.len(),
            Text::Dropped(d) => d.len,
        }
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Marks `span` as a secret: renderers mask these bytes wherever they
    /// would show them, for every diagnostic (the analysis registers the
    /// [`crate::Diagnostic::redact`] spans of every finding here before
    /// suppressions apply, so a suppressed finding's secret stays masked in
    /// the snippets of other findings on its line).
    pub fn add_secret(&mut self, span: Span) {
        if span.end as usize <= self.len() && !self.secrets().contains(&span) {
            // Rare and few: the list is made again for each.
            let mut all = self.secrets.take().map(Vec::from).unwrap_or_default();
            all.push(span);
            self.secrets = Some(all.into_boxed_slice());
        }
    }

    /// The spans marked with [`SourceFile::add_secret`], in the order added.
    pub fn secrets(&self) -> &[Span] {
        self.secrets.as_deref().unwrap_or(&[])
    }

    /// Repository-relative path, `/`-separated.
    /// Renames the file (the CLI shows paths from the current folder).
    pub fn set_path(&mut self, path: impl Into<String>) {
        self.path = path.into().into_boxed_str();
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    /// Full text. A dropped text ([`SourceFile::drop_text`]) is read again
    /// on the first call.
    pub fn text(&self) -> &str {
        match &self.text {
            Text::Held(t) => t,
            Text::Dropped(d) => d.loaded.get_or_init(|| Box::new(d.reload(&self.path))),
        }
    }

    /// Calls `f` with the text. A dropped text not read again yet is read
    /// for the call and let go after it, not kept: for a reader that scans
    /// many files once (the text of one a lean run dropped is in no
    /// finding).
    pub fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        match &self.text {
            Text::Dropped(d) if d.loaded.get().is_none() => f(&d.reload(&self.path)),
            _ => f(self.text()),
        }
    }

    /// The pieces a dropped text kept ([`SourceFile::drop_text_keeping`]),
    /// each with its span, ordered by start then end; `None` when the text
    /// is in memory (never dropped, or read again since).
    pub fn pieces(&self) -> Option<impl Iterator<Item = (Span, &str)>> {
        let Text::Dropped(d) = &self.text else {
            return None;
        };
        if d.loaded.get().is_some() {
            return None;
        }
        let p = d.pieces.as_deref();
        let n = p.map_or(0, Pieces::len);
        Some((0..n).map(move |k| p.expect("a piece").piece(k)))
    }

    /// The line index of the text.
    pub fn lines(&self) -> &LineIndex {
        self.lines
            .get_or_init(|| Box::new(LineIndex::new(self.text())))
    }

    /// 1-based line:column of a byte offset.
    pub fn line_col(&self, offset: usize) -> LineCol {
        self.lines().line_col(self.text(), offset)
    }

    /// The text covered by `span`. Of a dropped text, a piece kept
    /// ([`SourceFile::drop_text_keeping`]) that holds the span is read
    /// instead of the text; any other span reads the text again, as
    /// [`SourceFile::text`] does.
    pub fn slice(&self, span: Span) -> &str {
        if let Text::Dropped(d) = &self.text
            && d.loaded.get().is_none()
            && let Some(piece) = d.pieces.as_ref().and_then(|p| p.get(span))
        {
            return piece;
        }
        &self.text()[span.range()]
    }
}

/// All files of one analysis run, addressed by [`FileId`].
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    /// The id of the first file: 0, but for [`SourceMap::one`].
    first: u32,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// A map of one file, with id `id`: what a per-file pass needs to read
    /// that file before the run's map exists (the other ids are not in it).
    pub fn one(id: FileId, file: SourceFile) -> Self {
        SourceMap {
            files: vec![file],
            first: id.0,
        }
    }

    /// A map of `files`, with ids 0, 1, ... in their order.
    pub fn from_files(files: Vec<SourceFile>) -> Self {
        SourceMap { files, first: 0 }
    }

    /// The files, in id order, giving up the map.
    pub fn into_files(self) -> Vec<SourceFile> {
        self.files
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(self.first + self.files.len() as u32 - 1)
    }

    /// The file with id `id`. Panics on an id from another map.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[(id.0 - self.first) as usize]
    }

    /// The file with id `id`, to mark secrets in. Panics on an id from another map.
    pub fn get_mut(&mut self, id: FileId) -> &mut SourceFile {
        &mut self.files[(id.0 - self.first) as usize]
    }

    /// Every file, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        let first = self.first;
        self.files
            .iter()
            .enumerate()
            .map(move |(i, f)| (FileId(first + i as u32), f))
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when no file was added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Gives back one text, counting the reads.
    struct Disk(&'static str, AtomicUsize);

    impl TextSource for Disk {
        fn reload(&self, _: &str, _: u128) -> Option<String> {
            self.1.fetch_add(1, Ordering::Relaxed);
            Some(self.0.to_string())
        }
    }

    #[test]
    fn kept_pieces_are_read_without_the_text() {
        let text = "see [a](x/y.md) and `G2` in **bold**";
        let disk = Arc::new(Disk(text, AtomicUsize::new(0)));
        let mut f = SourceFile::new("LOOP.md", text);
        let (link, code, strong) = (Span::new(8, 14), Span::new(21, 23), Span::new(30, 34));
        f.drop_text_keeping(
            0,
            disk.clone(),
            [strong, link, code, link, Span::new(0, 99)],
        );
        assert_eq!(f.slice(link), "x/y.md");
        assert_eq!(f.slice(code), "G2");
        assert_eq!(f.slice(strong), "bold");
        // Part of a piece.
        assert_eq!(f.slice(Span::new(10, 14)), "y.md");
        let kept: Vec<&str> = f.pieces().expect("dropped").map(|(_, t)| t).collect();
        assert_eq!(kept, ["x/y.md", "G2", "bold"]);
        assert_eq!(disk.1.load(Ordering::Relaxed), 0);
        // Anything else reads the text again, and keeps it.
        assert_eq!(f.slice(Span::new(0, 3)), "see");
        assert_eq!(f.slice(link), "x/y.md");
        assert_eq!(disk.1.load(Ordering::Relaxed), 1);
        assert!(f.pieces().is_none());
    }
}
