//! Source files as the analyzer sees them: a repository-relative path and text.

use crate::span::{LineCol, LineIndex, Span};

/// Index of a file in a [`crate::SourceMap`]; stable for one analysis run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// One file: its path relative to the analyzed root (always `/`-separated)
/// and its text.
///
/// Files that are not valid UTF-8 are represented by the lossy decoding of
/// their bytes; the syntax layer reports them and does not parse them.
#[derive(Debug, Clone)]
pub struct SourceFile {
    path: String,
    text: String,
    /// Built on first use: only files with a finding to render need it, and
    /// building it for every file was a sequential pass over all the bytes.
    lines: std::sync::OnceLock<LineIndex>,
    secrets: Vec<Span>,
}

impl SourceFile {
    /// Builds a file from its repo-relative path and text.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            path: path.into(),
            text: text.into(),
            lines: std::sync::OnceLock::new(),
            secrets: Vec::new(),
        }
    }

    /// The file's text, giving up the file (an incremental analysis moves
    /// the text of an unchanged file into its next source map).
    pub fn into_text(self) -> String {
        self.text
    }

    /// Marks `span` as a secret: renderers mask these bytes wherever they
    /// would show them, for every diagnostic (the analysis registers the
    /// [`crate::Diagnostic::redact`] spans of every finding here before
    /// suppressions apply, so a suppressed finding's secret stays masked in
    /// the snippets of other findings on its line).
    pub fn add_secret(&mut self, span: Span) {
        if span.end as usize <= self.text.len() && !self.secrets.contains(&span) {
            self.secrets.push(span);
        }
    }

    /// The spans marked with [`SourceFile::add_secret`], in the order added.
    pub fn secrets(&self) -> &[Span] {
        &self.secrets
    }

    /// Repository-relative path, `/`-separated.
    /// Renames the file (the CLI shows paths from the current folder).
    pub fn set_path(&mut self, path: impl Into<String>) {
        self.path = path.into();
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    /// Full text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The line index of the text.
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    /// 1-based line:column of a byte offset.
    pub fn line_col(&self, offset: usize) -> LineCol {
        self.lines().line_col(&self.text, offset)
    }

    /// The text covered by `span`.
    pub fn slice(&self, span: Span) -> &str {
        &self.text[span.range()]
    }
}

/// All files of one analysis run, addressed by [`FileId`].
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// The files, in id order, giving up the map.
    pub fn into_files(self) -> Vec<SourceFile> {
        self.files
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }

    /// The file with id `id`. Panics on an id from another map.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// The file with id `id`, to mark secrets in. Panics on an id from another map.
    pub fn get_mut(&mut self, id: FileId) -> &mut SourceFile {
        &mut self.files[id.0 as usize]
    }

    /// Every file, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
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
