//! JSON output: one object per diagnostic with byte and line/column spans.
//!
//! Schema (version [`JSON_SCHEMA_VERSION`]), stable across releases within a
//! version:
//! ```text
//! { "version": 1,
//!   "summary": { files_read, artifacts: [[format, count]...],
//!                not_analyzed,                  // only when not 0
//!                errors, warnings, infos },
//!   "diagnostics": [ { code, name, severity, message, path,
//!                      span: {start, end},             // bytes, end exclusive
//!                      start: {line, column}, end: {line, column}, // 1-based, columns in characters
//!                      labels: [ {path, span, start, end, message} ],   // secondary labels
//!                      notes: [string], help: string|null,
//!                      fix: null | { message, applicability: "safe"|"unsafe",
//!                                    edits: [ {span, start, end, replacement} ] } } ] }
//! ```

use crate::Summary;
use rayon::prelude::*;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use skein_syntax::{Applicability, Diagnostic, Label, SourceFile, SourceMap};

/// Version of the JSON output schema.
pub const JSON_SCHEMA_VERSION: u32 = 1;

/// The JSON document of one run, serialized straight from the report (no
/// [`Value`] tree in between): what [`json_value`] holds, and with
/// `root` set, a last `root` member naming the analyzed folder (what
/// `skein check --format json` writes).
pub struct JsonReport<'a> {
    /// The findings, sorted.
    pub diagnostics: &'a [Diagnostic],
    /// Their files.
    pub sources: &'a SourceMap,
    /// The counts.
    pub summary: &'a Summary,
    /// The `root` member, if any.
    pub root: Option<&'a str>,
}

impl Serialize for JsonReport<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let secrets = crate::Secrets::new(self.diagnostics, self.sources);
        let diagnostics = secrets.diagnostics(self.diagnostics);
        let mut m = serializer.serialize_map(Some(3 + usize::from(self.root.is_some())))?;
        m.serialize_entry("version", &JSON_SCHEMA_VERSION)?;
        m.serialize_entry("summary", self.summary)?;
        // Built on every thread (line and column lookups, rule URLs), then
        // written in order: rendering is the end of the run, where nothing
        // else runs beside it.
        let items: Vec<DiagnosticJson> = diagnostics
            .par_iter()
            .map(|d| DiagnosticJson::new(d, self.sources))
            .collect();
        m.serialize_entry("diagnostics", &items)?;
        if let Some(root) = self.root {
            m.serialize_entry("root", root)?;
        }
        m.end()
    }
}

impl JsonReport<'_> {
    /// Appends to `out` what `serde_json::to_writer_pretty(out, self)`
    /// writes, byte for byte (two-space indent, no newline at the end),
    /// with each diagnostic's JSON written on every thread and then put in
    /// order: at the end of a run nothing else runs beside the rendering,
    /// and writing the diagnostics one after another was a serial part of
    /// `skein check --format json` (issue #17, 50M of 3,786M instructions
    /// on the real corpus).
    ///
    /// # Errors
    /// What serializing a value returns (none happens for a report: its
    /// keys are strings and its numbers integers).
    pub fn write_pretty(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let secrets = crate::Secrets::new(self.diagnostics, self.sources);
        let diagnostics = secrets.diagnostics(self.diagnostics);
        // Each at the depth of an array item of a member of the document.
        let items: Vec<Vec<u8>> = diagnostics
            .par_iter()
            .map(|d| pretty_at(&DiagnosticJson::new(d, self.sources), 2))
            .collect::<serde_json::Result<_>>()?;
        out.extend_from_slice(b"{\n  \"version\": ");
        serde_json::to_writer(&mut *out, &JSON_SCHEMA_VERSION)?;
        out.extend_from_slice(b",\n  \"summary\": ");
        out.extend_from_slice(&pretty_at(self.summary, 1)?);
        out.extend_from_slice(b",\n  \"diagnostics\": [");
        for (i, item) in items.iter().enumerate() {
            out.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
            out.extend_from_slice(item);
        }
        if !items.is_empty() {
            out.extend_from_slice(b"\n  ");
        }
        out.push(b']');
        if let Some(root) = self.root {
            out.extend_from_slice(b",\n  \"root\": ");
            serde_json::to_writer(&mut *out, root)?;
        }
        out.extend_from_slice(b"\n}");
        Ok(())
    }
}

/// `value` pretty-printed as serde_json prints it `depth` levels deep (two
/// spaces a level after each line break; a string in JSON holds no raw
/// line break, so every one is between tokens).
fn pretty_at<T: Serialize + ?Sized>(value: &T, depth: usize) -> serde_json::Result<Vec<u8>> {
    let flat = serde_json::to_vec_pretty(value)?;
    let breaks = flat.iter().filter(|&&b| b == b'\n').count();
    let mut out = Vec::with_capacity(flat.len() + breaks * 2 * depth);
    for &b in &flat {
        out.push(b);
        if b == b'\n' {
            out.extend(std::iter::repeat_n(b' ', 2 * depth));
        }
    }
    Ok(out)
}

#[derive(serde::Serialize)]
struct Bytes {
    start: u32,
    end: u32,
}

#[derive(serde::Serialize)]
struct At {
    line: u32,
    column: u32,
}

fn at(f: &SourceFile, offset: u32) -> At {
    let p = f.line_col(offset as usize);
    At {
        line: p.line,
        column: p.column,
    }
}

/// A secondary label.
#[derive(serde::Serialize)]
struct LabelJson<'a> {
    path: &'a str,
    span: Bytes,
    start: At,
    end: At,
    message: &'a str,
}

impl<'a> LabelJson<'a> {
    fn new(l: &'a Label, sources: &'a SourceMap) -> Self {
        let f = sources.get(l.file);
        LabelJson {
            path: f.path(),
            span: Bytes {
                start: l.span.start,
                end: l.span.end,
            },
            start: at(f, l.span.start),
            end: at(f, l.span.end),
            message: &l.message,
        }
    }
}

#[derive(serde::Serialize)]
struct EditJson<'a> {
    span: Bytes,
    start: At,
    end: At,
    replacement: &'a str,
}

#[derive(serde::Serialize)]
struct FixJson<'a> {
    message: &'a str,
    applicability: Applicability,
    edits: Vec<EditJson<'a>>,
}

/// One diagnostic: its primary label's location first.
#[derive(serde::Serialize)]
struct DiagnosticJson<'a> {
    path: &'a str,
    span: Bytes,
    start: At,
    end: At,
    code: &'a str,
    name: &'a str,
    url: String,
    severity: &'a str,
    message: &'a str,
    label: &'a str,
    labels: Vec<LabelJson<'a>>,
    notes: &'a [String],
    help: Option<&'a str>,
    fix: Option<FixJson<'a>>,
}

impl<'a> DiagnosticJson<'a> {
    fn new(d: &'a Diagnostic, sources: &'a SourceMap) -> Self {
        let p = LabelJson::new(&d.primary, sources);
        let file = sources.get(d.primary.file);
        DiagnosticJson {
            path: p.path,
            span: p.span,
            start: p.start,
            end: p.end,
            code: d.rule.code,
            name: d.rule.name,
            url: crate::rule_url(&d.rule),
            severity: d.severity.as_str(),
            message: &d.message,
            label: &d.primary.message,
            labels: d
                .secondary
                .iter()
                .map(|l| LabelJson::new(l, sources))
                .collect(),
            notes: &d.notes,
            help: d.help.as_deref(),
            fix: d.fix.as_ref().map(|f| FixJson {
                message: &f.message,
                applicability: f.applicability,
                edits: f
                    .edits
                    .iter()
                    .map(|e| EditJson {
                        span: Bytes {
                            start: e.span.start,
                            end: e.span.end,
                        },
                        start: at(file, e.span.start),
                        end: at(file, e.span.end),
                        replacement: &e.replacement,
                    })
                    .collect(),
            }),
        }
    }
}

/// The JSON document for a run, as a value ([`JsonReport`] without a
/// `root`).
pub fn json_value(diagnostics: &[Diagnostic], sources: &SourceMap, summary: &Summary) -> Value {
    serde_json::to_value(JsonReport {
        diagnostics,
        sources,
        summary,
        root: None,
    })
    .expect("a report serializes to JSON")
}
