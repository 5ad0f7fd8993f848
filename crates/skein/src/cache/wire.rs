//! The records of the persistent cache as bytes (postcard over serde): a
//! file's decoded state, its local findings, and a whole run's result.
//!
//! What is stored is what the run produced, with two substitutions:
//! - a diagnostic's rule is stored as its code and looked up in the rule
//!   table ([`crate::rules`]) on load; a code the table does not have, or a
//!   rule that differs from the table's, makes the record unusable (at
//!   store time it is not written);
//! - an artifact's typed model is not stored: it is derived again from the
//!   stored `Document` ([`skein_model::model_of`]), with the one flag
//!   decoding sets after reading (a loop's `partial`). Reading the model
//!   is serde over the document, a small share of decoding (no parse, no
//!   schema validation).
//!
//! `FileId`s: a file's records mention only the file itself (decoding and
//! the local passes see no other file), stored as 0 and renumbered to the
//! file's id on load; a record that mentions another file is not written.
//! The whole-run record stores the run's ids as they are.

use super::Entry;
use serde::{Deserialize, Serialize};
use skein_lint::Local;
use skein_model::{Artifact, Decoded, Format, Model};
use skein_syntax::{
    Diagnostic, Document, FileId, Fix, Frontmatter, Label, MarkdownBody, Rule, Severity, Span,
};
use std::collections::HashMap;
use std::sync::LazyLock;

/// The rule table by code.
static RULES: LazyLock<HashMap<&'static str, Rule>> = LazyLock::new(|| {
    crate::rules::all()
        .into_iter()
        .map(|r| (r.code, r))
        .collect()
});

#[derive(Serialize)]
struct LabelOut<'a> {
    file: u32,
    span: Span,
    message: &'a str,
}

#[derive(Deserialize)]
struct LabelIn {
    file: u32,
    span: Span,
    message: String,
}

#[derive(Serialize)]
struct DiagnosticOut<'a> {
    code: &'a str,
    severity: Severity,
    message: &'a str,
    primary: LabelOut<'a>,
    secondary: Vec<LabelOut<'a>>,
    notes: &'a [String],
    help: &'a Option<String>,
    redact: &'a [Span],
    fix: &'a Option<Fix>,
}

#[derive(Deserialize)]
struct DiagnosticIn {
    code: String,
    severity: Severity,
    message: String,
    primary: LabelIn,
    secondary: Vec<LabelIn>,
    notes: Vec<String>,
    help: Option<String>,
    redact: Vec<Span>,
    fix: Option<Fix>,
}

/// How an artifact's model is had again on load.
#[derive(Serialize, Deserialize, Clone, Copy)]
enum ModelKind {
    /// [`Model::None`].
    None,
    /// Read again from the document; `partial_loop` as decoding set it.
    Derived { partial_loop: bool },
}

#[derive(Serialize)]
struct ArtifactOut<'a> {
    format: &'static str,
    document: &'a Document,
    frontmatter: &'a Option<Frontmatter>,
    body: &'a Option<Box<MarkdownBody>>,
    model: ModelKind,
    damaged: bool,
}

#[derive(Deserialize)]
struct ArtifactIn {
    format: String,
    document: Document,
    frontmatter: Option<Frontmatter>,
    body: Option<Box<MarkdownBody>>,
    model: ModelKind,
    damaged: bool,
}

#[derive(Serialize)]
struct DecodedOut<'a> {
    artifact: Option<ArtifactOut<'a>>,
    diagnostics: Vec<DiagnosticOut<'a>>,
    comments: &'a [Span],
}

#[derive(Deserialize)]
struct DecodedIn {
    artifact: Option<ArtifactIn>,
    diagnostics: Vec<DiagnosticIn>,
    comments: Vec<Span>,
}

/// [`RunIn`] after its `entries`, which [`encode_run`] writes itself
/// (postcard writes a struct as its fields one after the other).
#[derive(Serialize)]
struct RunOutTail<'a> {
    units: &'a [&'a str],
    diagnostics: Vec<DiagnosticOut<'a>>,
    secrets: Vec<(u32, &'a [Span])>,
    extra_sources: Vec<(&'a str, &'a str)>,
    artifact_formats: Vec<(u32, &'static str)>,
    files_read: u64,
    per_format: &'a [(String, usize)],
}

#[derive(Deserialize)]
struct RunIn {
    context: u128,
    started: i128,
    entries: Vec<Entry>,
    units: Vec<String>,
    diagnostics: Vec<DiagnosticIn>,
    secrets: Vec<(u32, Vec<Span>)>,
    extra_sources: Vec<(String, String)>,
    artifact_formats: Vec<(u32, String)>,
    files_read: u64,
    per_format: Vec<(String, usize)>,
}

/// A whole run's result as [`encode_run`] stored it (ids as in that run).
#[derive(Clone)]
pub(crate) struct Run {
    /// The key of everything but the files that decided the result.
    pub(crate) context: u128,
    /// When the run started reading files (ns since the epoch).
    pub(crate) started: i128,
    /// Its inputs, sorted by path.
    pub(crate) entries: Vec<Entry>,
    /// The paths of its files read, in `FileId` order.
    pub(crate) units: Vec<String>,
    /// The final diagnostics, sorted.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Secret spans per file id, in the order they were registered.
    pub(crate) secrets: Vec<(FileId, Vec<Span>)>,
    /// The sources after the files read (the repository stand-in, the
    /// configuration file): path and text.
    pub(crate) extra_sources: Vec<(String, String)>,
    /// Each artifact's file and format.
    pub(crate) artifact_formats: Vec<(FileId, &'static str)>,
    /// `Summary::files_read`.
    pub(crate) files_read: usize,
    /// `Summary::artifacts`.
    pub(crate) per_format: Vec<(String, usize)>,
}

fn diagnostic_out<'a>(
    d: &'a Diagnostic,
    file: &impl Fn(FileId) -> Option<u32>,
) -> Option<DiagnosticOut<'a>> {
    if RULES.get(d.rule.code) != Some(&d.rule) {
        return None;
    }
    let label = |l: &'a Label| -> Option<LabelOut<'a>> {
        Some(LabelOut {
            file: file(l.file)?,
            span: l.span,
            message: &l.message,
        })
    };
    Some(DiagnosticOut {
        code: d.rule.code,
        severity: d.severity,
        message: &d.message,
        primary: label(&d.primary)?,
        secondary: d.secondary.iter().map(label).collect::<Option<_>>()?,
        notes: &d.notes,
        help: &d.help,
        redact: &d.redact,
        fix: &d.fix,
    })
}

fn diagnostic_in(d: DiagnosticIn, file: &impl Fn(u32) -> FileId) -> Option<Diagnostic> {
    let rule = *RULES.get(d.code.as_str())?;
    let label = |l: LabelIn| Label {
        file: file(l.file),
        span: l.span,
        message: l.message,
    };
    Some(Diagnostic {
        rule,
        severity: d.severity,
        message: d.message,
        primary: label(d.primary),
        secondary: d.secondary.into_iter().map(label).collect(),
        notes: d.notes,
        help: d.help,
        redact: d.redact,
        fix: d.fix,
    })
}

/// The one file of a per-file record: `own` is stored as 0.
fn own_only(own: FileId) -> impl Fn(FileId) -> Option<u32> {
    move |f| (f == own).then_some(0)
}

/// The record of `d`, decoded as file `own`; `None` when it cannot be
/// stored (a rule not in the table, a mention of another file, an internal
/// error: a panic is not an answer to keep).
pub(crate) fn encode_decoded(d: &Decoded, own: FileId) -> Option<Vec<u8>> {
    let ids = own_only(own);
    if d.diagnostics
        .iter()
        .any(|d| d.rule.code == skein_lint::INTERNAL_ERROR.code)
    {
        return None;
    }
    let artifact = match &d.artifact {
        None => None,
        Some(a) => {
            if a.file != own {
                return None;
            }
            let model = match &a.model {
                Model::None => ModelKind::None,
                Model::SkilldropLoop(l) => ModelKind::Derived {
                    partial_loop: l.partial,
                },
                _ => ModelKind::Derived {
                    partial_loop: false,
                },
            };
            debug_assert!(
                matches!(model, ModelKind::None)
                    || skein_model::model_of(
                        a.format,
                        &a.document,
                        matches!(model, ModelKind::Derived { partial_loop: true })
                    ) == a.model,
                "the model of {:?} must read again from its document",
                a.format
            );
            Some(ArtifactOut {
                format: a.format.id(),
                document: &a.document,
                frontmatter: &a.frontmatter,
                body: &a.body,
                model,
                damaged: a.damaged,
            })
        }
    };
    let out = DecodedOut {
        artifact,
        diagnostics: d
            .diagnostics
            .iter()
            .map(|d| diagnostic_out(d, &ids))
            .collect::<Option<_>>()?,
        comments: &d.comments,
    };
    postcard::to_allocvec(&out).ok()
}

/// The decoded state of a record, as file `file`; `None` when the record
/// does not read (then the file is decoded again).
pub(crate) fn decode_decoded(bytes: &[u8], file: FileId) -> Option<Decoded> {
    let d: DecodedIn = postcard::from_bytes(bytes).ok()?;
    let ids = |_| file;
    let artifact = match d.artifact {
        None => None,
        Some(a) => {
            let format = *Format::ALL.iter().find(|f| f.id() == a.format)?;
            let model = match a.model {
                ModelKind::None => Model::None,
                ModelKind::Derived { partial_loop } => {
                    skein_model::model_of(format, &a.document, partial_loop)
                }
            };
            Some(Artifact {
                file,
                format,
                document: a.document,
                frontmatter: a.frontmatter,
                body: a.body,
                model,
                damaged: a.damaged,
            })
        }
    };
    Some(Decoded {
        artifact,
        diagnostics: d
            .diagnostics
            .into_iter()
            .map(|d| diagnostic_in(d, &ids))
            .collect::<Option<_>>()?,
        comments: d.comments,
    })
}

/// The record of an artifact's local findings, computed as file `own`;
/// `None` when they cannot be stored (as [`encode_decoded`]).
pub(crate) fn encode_local(l: &Local, own: FileId) -> Option<Vec<u8>> {
    if !l.internal_errors.is_empty() {
        return None;
    }
    let ids = own_only(own);
    let out: Vec<DiagnosticOut> = l
        .diagnostics
        .iter()
        .map(|d| diagnostic_out(d, &ids))
        .collect::<Option<_>>()?;
    postcard::to_allocvec(&out).ok()
}

/// The local findings of a record, as file `file`.
pub(crate) fn decode_local(bytes: &[u8], file: FileId) -> Option<Local> {
    let list: Vec<DiagnosticIn> = postcard::from_bytes(bytes).ok()?;
    let ids = |_| file;
    Some(Local {
        diagnostics: list
            .into_iter()
            .map(|d| diagnostic_in(d, &ids))
            .collect::<Option<_>>()?,
        internal_errors: Vec::new(),
    })
}

/// The record of a whole run: the key of its `context` (configuration,
/// path list, rules), when it `started` reading, its inputs (`entries`),
/// its files read (`units`, in `FileId` order) and its result (`report` as
/// the analysis returned it, before any view or renaming); `None` when it
/// cannot be stored.
///
/// `entries` are each [`Entry`]'s encoding ([`encode_entry`]), sorted
/// by path, then kind: a run of many files holds them so, a third of the
/// size of the entries themselves, and each is freed once copied into the
/// record, which is allocated once, whole (issue #17: this is the peak of
/// a cold run).
pub(crate) fn encode_run(
    report: &crate::Report,
    context: u128,
    started: i128,
    entries: Vec<Box<[u8]>>,
    units: &[&str],
) -> Option<Vec<u8>> {
    let head = encode_run_head(context, started, entries.len())?;
    let tail = encode_run_tail(report, units)?;
    let len = head.len() + entries.iter().map(|e| e.len()).sum::<usize>() + tail.len();
    let mut bytes = Vec::with_capacity(len);
    bytes.extend_from_slice(&head);
    for e in entries {
        bytes.extend_from_slice(&e);
    }
    bytes.extend_from_slice(&tail);
    Some(bytes)
}

/// The start of [`encode_run`]'s record, before its `entries` entries:
/// `RunIn`'s first fields and the length of its entry sequence (postcard
/// writes a sequence as its length, then each element).
pub(crate) fn encode_run_head(context: u128, started: i128, entries: usize) -> Option<Vec<u8>> {
    postcard::to_allocvec(&(context, started, entries as u64)).ok()
}

/// The end of [`encode_run`]'s record, after its entries: what `report`
/// found, with `units` the paths of its files read.
pub(crate) fn encode_run_tail(report: &crate::Report, units: &[&str]) -> Option<Vec<u8>> {
    postcard::to_allocvec(&run_tail(report, units)?).ok()
}

/// [`encode_run_tail`] written to `out` as it is encoded, with no buffer
/// of the whole (issue #17: at 100k files the tail is about 9 MB, made at
/// the end of a cached cold run beside the whole report); false when it
/// cannot be encoded or written.
pub(crate) fn write_run_tail(
    report: &crate::Report,
    units: &[&str],
    out: &mut impl std::io::Write,
) -> bool {
    run_tail(report, units).is_some_and(|t| postcard::to_io(&t, out).is_ok())
}

/// The tail of a run's record, borrowing from `report`.
fn run_tail<'a>(report: &'a crate::Report, units: &'a [&'a str]) -> Option<RunOutTail<'a>> {
    let any = |f: FileId| Some(f.0);
    let sources = &report.sources;
    let files_read = report.summary.files_read;
    Some(RunOutTail {
        units,
        diagnostics: report
            .diagnostics
            .iter()
            .map(|d| diagnostic_out(d, &any))
            .collect::<Option<_>>()?,
        secrets: sources
            .iter()
            .filter(|(_, f)| !f.secrets().is_empty())
            .map(|(id, f)| (id.0, f.secrets()))
            .collect(),
        extra_sources: sources
            .iter()
            .skip(files_read)
            .map(|(_, f)| (f.path(), f.text()))
            .collect(),
        artifact_formats: report
            .artifact_formats
            .iter()
            .map(|(f, id)| (f.0, *id))
            .collect(),
        files_read: files_read as u64,
        per_format: &report.summary.artifacts,
    })
}

/// The encoding of `e` as [`encode_run`] takes it.
pub(crate) fn encode_entry(e: &Entry) -> Option<Box<[u8]>> {
    postcard::to_allocvec(e).ok().map(Vec::into_boxed_slice)
}

/// A whole run's result from its record.
pub(crate) fn decode_run(bytes: &[u8]) -> Option<Run> {
    let r: RunIn = postcard::from_bytes(bytes).ok()?;
    let ids = |f| FileId(f);
    Some(Run {
        context: r.context,
        started: r.started,
        entries: r.entries,
        units: r.units,
        diagnostics: r
            .diagnostics
            .into_iter()
            .map(|d| diagnostic_in(d, &ids))
            .collect::<Option<_>>()?,
        secrets: r.secrets.into_iter().map(|(f, s)| (FileId(f), s)).collect(),
        extra_sources: r.extra_sources,
        artifact_formats: r
            .artifact_formats
            .into_iter()
            .map(|(f, id)| Some((FileId(f), Format::ALL.iter().find(|x| x.id() == id)?.id())))
            .collect::<Option<_>>()?,
        files_read: usize::try_from(r.files_read).ok()?,
        per_format: r.per_format,
    })
}
