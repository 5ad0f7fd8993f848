//! Renderers for skein diagnostics (DESIGN.md §7): human (rustc style, via
//! codespan-reporting) and JSON. One module per output format; each takes
//! the sorted diagnostics and the [`SourceMap`] they point into.

pub mod human;
pub mod json;

pub use human::{HumanOptions, render_human};
pub use json::{JSON_SCHEMA_VERSION, json_value};

use skein_syntax::SourceMap;

/// Counts shown in the summary line: files analyzed per format and
/// diagnostics per severity.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Files read (recognised by path), including ones that turned out not to be artifacts.
    pub files_read: usize,
    /// Artifacts per format id, sorted by format id.
    pub artifacts: Vec<(String, usize)>,
    /// Diagnostics at error severity.
    pub errors: usize,
    /// Diagnostics at warning severity.
    pub warnings: usize,
    /// Diagnostics at info severity.
    pub infos: usize,
}

impl Summary {
    /// The one-line summary, e.g.
    /// `checked 12 files (agent-skill 10, skilldrop-loop 2): 3 errors, 1 warning, 0 infos`.
    pub fn line(&self) -> String {
        let per: Vec<String> = self
            .artifacts
            .iter()
            .map(|(f, n)| format!("{f} {n}"))
            .collect();
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        format!(
            "checked {} ({}): {}, {}, {}",
            plural(self.files_read, "file"),
            if per.is_empty() {
                "no artifacts".to_string()
            } else {
                per.join(", ")
            },
            plural(self.errors, "error"),
            plural(self.warnings, "warning"),
            plural(self.infos, "info"),
        )
    }
}

/// Adapter so codespan-reporting can read files from a [`SourceMap`].
pub(crate) struct Files<'a>(pub &'a SourceMap);

impl<'a> codespan_reporting::files::Files<'a> for Files<'a> {
    type FileId = skein_syntax::FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: Self::FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.0.get(id).path())
    }

    fn source(&'a self, id: Self::FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.0.get(id).text())
    }

    fn line_index(
        &'a self,
        id: Self::FileId,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.0.get(id).lines().line_of(byte_index))
    }

    fn line_range(
        &'a self,
        id: Self::FileId,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        let f = self.0.get(id);
        let starts = f.lines().line_starts();
        let start =
            *starts
                .get(line_index)
                .ok_or(codespan_reporting::files::Error::LineTooLarge {
                    given: line_index,
                    max: starts.len() - 1,
                })? as usize;
        let end = starts
            .get(line_index + 1)
            .map(|&e| e as usize)
            .unwrap_or(f.text().len());
        Ok(start..end)
    }
}
