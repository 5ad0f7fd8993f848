//! JSON output: one object per diagnostic with byte and line/column spans.
//!
//! Schema (version [`JSON_SCHEMA_VERSION`]), stable across releases within a
//! version:
//! ```text
//! { "version": 1,
//!   "summary": { files_read, artifacts: [[format, count]...], errors, warnings, infos },
//!   "diagnostics": [ { code, name, severity, message, path,
//!                      span: {start, end},             // bytes, end exclusive
//!                      start: {line, column}, end: {line, column}, // 1-based, columns in characters
//!                      labels: [ {path, span, start, end, message} ],   // secondary labels
//!                      notes: [string], help: string|null,
//!                      fix: null | { message, applicability: "safe"|"unsafe",
//!                                    edits: [ {span, start, end, replacement} ] } } ] }
//! ```

use crate::Summary;
use serde_json::{Value, json};
use skein_syntax::{Diagnostic, Label, SourceMap};

/// Version of the JSON output schema.
pub const JSON_SCHEMA_VERSION: u32 = 1;

fn location(l: &Label, sources: &SourceMap) -> Value {
    let f = sources.get(l.file);
    let s = f.line_col(l.span.start as usize);
    let e = f.line_col(l.span.end as usize);
    json!({
        "path": f.path(),
        "span": {"start": l.span.start, "end": l.span.end},
        "start": {"line": s.line, "column": s.column},
        "end": {"line": e.line, "column": e.column},
    })
}

/// The JSON document for a run.
pub fn json_value(diagnostics: &[Diagnostic], sources: &SourceMap, summary: &Summary) -> Value {
    let secrets = crate::Secrets::new(diagnostics, sources);
    let diags: Vec<Value> = secrets
        .diagnostics(diagnostics)
        .iter()
        .map(|d| {
            let mut v = location(&d.primary, sources);
            let o = v.as_object_mut().expect("location is an object");
            o.insert("code".into(), json!(d.rule.code));
            o.insert("name".into(), json!(d.rule.name));
            o.insert("url".into(), json!(crate::rule_url(&d.rule)));
            o.insert("severity".into(), json!(d.severity.as_str()));
            o.insert("message".into(), json!(d.message));
            o.insert("label".into(), json!(d.primary.message));
            let labels: Vec<Value> = d
                .secondary
                .iter()
                .map(|l| {
                    let mut lv = location(l, sources);
                    lv.as_object_mut()
                        .expect("object")
                        .insert("message".into(), json!(l.message));
                    lv
                })
                .collect();
            o.insert("labels".into(), json!(labels));
            o.insert("notes".into(), json!(d.notes));
            o.insert("help".into(), json!(d.help));
            let file = sources.get(d.primary.file);
            let fix = d.fix.as_ref().map(|f| {
                let edits: Vec<Value> = f
                    .edits
                    .iter()
                    .map(|e| {
                        let s = file.line_col(e.span.start as usize);
                        let t = file.line_col(e.span.end as usize);
                        json!({
                            "span": {"start": e.span.start, "end": e.span.end},
                            "start": {"line": s.line, "column": s.column},
                            "end": {"line": t.line, "column": t.column},
                            "replacement": e.replacement,
                        })
                    })
                    .collect();
                json!({
                    "message": f.message,
                    "applicability": f.applicability,
                    "edits": edits,
                })
            });
            o.insert("fix".into(), json!(fix));
            v
        })
        .collect();
    json!({
        "version": JSON_SCHEMA_VERSION,
        "summary": summary,
        "diagnostics": diags,
    })
}
