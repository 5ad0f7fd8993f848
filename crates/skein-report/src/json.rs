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
