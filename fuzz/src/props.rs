//! The properties every fuzz target checks, shared by the libFuzzer targets
//! (`fuzz_targets/*.rs`) and the stable replay harness
//! (`crates/skein/tests/fuzz_replay.rs`, which includes this file by path).
//!
//! Properties (issue #7): no panic; every diagnostic span (primary and
//! secondary) lies within its file and on character boundaries; every
//! document node span too; rendering in every output format never panics.
//! The time bound is the fuzzer's (`-timeout=10`) or the replay harness's.
//!
//! Only `skein::…` paths are used, so the file compiles in any crate that
//! depends on `skein`.

#![allow(dead_code)]

use skein::skein_model::{classify_path, decode};
use skein::skein_report::{
    HumanOptions, SarifBuilder, json_value, render_concise, render_github, render_human,
};
use skein::skein_syntax::{Diagnostic, Document, FileId, Parsers, SourceFile, SourceMap};
use skein::{InputFile, Options};

/// Which front a single-file target drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Front {
    /// YAML files (`loop.yaml`, `*.agent.yaml`).
    Yaml,
    /// JSON files (`.mcp.json`, `assistant.json`, `loop.json`, JSONC `opencode.json`).
    Json,
    /// Markdown with YAML frontmatter (`SKILL.md`, plugin agents).
    Markdown,
}

impl Front {
    /// Paths whose formats the target decodes each input as.
    pub fn paths(self) -> &'static [&'static str] {
        match self {
            Front::Yaml => &["l/loop.yaml", "a/x.agent.yaml"],
            Front::Json => &[
                ".mcp.json",
                "assistant.json",
                "packs/p/loops/l/loop.json",
                "opencode.json",
                ".claude-plugin/plugin.json",
            ],
            Front::Markdown => &["skills/x/SKILL.md", "p/agents/a.md"],
        }
    }
}

/// Asserts that `span` is inside `text` and on character boundaries.
fn check_span(text: &str, start: u32, end: u32, what: &dyn std::fmt::Display) {
    let (s, e) = (start as usize, end as usize);
    assert!(s <= e, "{what}: span {s}..{e} is reversed");
    assert!(
        e <= text.len(),
        "{what}: span {s}..{e} past the end ({})",
        text.len()
    );
    assert!(
        text.is_char_boundary(s) && text.is_char_boundary(e),
        "{what}: span {s}..{e} not on character boundaries"
    );
}

/// Every diagnostic's labels are inside their files, on character boundaries.
pub fn check_diagnostics(diagnostics: &[Diagnostic], sources: &SourceMap) {
    for d in diagnostics {
        for l in std::iter::once(&d.primary).chain(&d.secondary) {
            assert!(
                (l.file.0 as usize) < sources.len(),
                "{}: no file {:?}",
                d.rule.code,
                l.file
            );
            let text = sources.get(l.file).text();
            check_span(text, l.span.start, l.span.end, &d.rule.code);
        }
        for r in &d.redact {
            check_span(
                sources.get(d.primary.file).text(),
                r.start,
                r.end,
                &"redaction",
            );
        }
    }
}

/// Every node of a document is inside the text, on character boundaries.
pub fn check_document(doc: &Document, text: &str) {
    for i in 0..doc.len() {
        let n = doc.node(skein::skein_syntax::NodeId(i as u32));
        check_span(text, n.span.start, n.span.end, &"node");
    }
}

/// Renders in every output format (the outputs are dropped: not panicking,
/// and producing valid JSON where JSON is promised, is the property).
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap) {
    let _ = render_human(diagnostics, sources, HumanOptions::default());
    let _ = render_concise(diagnostics, sources);
    let _ = render_github(diagnostics, sources, "sub/");
    let summary = skein::skein_report::Summary::default();
    let v = json_value(diagnostics, sources, &summary);
    let text = serde_json::to_string(&v).expect("JSON output serializes");
    serde_json::from_str::<serde_json::Value>(&text).expect("JSON output parses");
    // Rules are added as results name them (the full table's documentation
    // would dominate the cost of every input).
    let mut sarif = SarifBuilder::new(&[]);
    sarif.add(diagnostics, sources, "");
    let text = serde_json::to_string(&sarif.finish()).expect("SARIF serializes");
    serde_json::from_str::<serde_json::Value>(&text).expect("SARIF parses");
}

/// One file through one front: parse, Document, decode (+ schema) as each
/// format of the front, then render the diagnostics in every format.
pub fn check_front(front: Front, data: &[u8]) {
    thread_local! {
        static PARSERS: std::cell::RefCell<Option<Parsers>> = const { std::cell::RefCell::new(None) };
    }
    // A parser set per thread, as the analysis keeps one per worker; a
    // panicking input aborts the fuzzer anyway, so reuse is safe.
    PARSERS.with(|p| {
        let mut p = p.borrow_mut();
        let parsers = p.get_or_insert_with(Parsers::new);
        front_with(parsers, front, data);
    });
}

fn front_with(parsers: &mut Parsers, front: Front, data: &[u8]) {
    // One format per input, chosen by the first byte (the fuzzer mutates it
    // like any other), so every input costs one parse and one decode.
    let paths = front.paths();
    let path = paths[data.first().map_or(0, |&b| b as usize) % paths.len()];
    let candidate = classify_path(path).expect("an artifact path");
    let d = decode(parsers, FileId(0), candidate, data);
    let text = String::from_utf8_lossy(data);
    let mut sources = SourceMap::new();
    sources.add(SourceFile::new(path, text.as_ref()));
    if let Some(a) = &d.artifact {
        check_document(&a.document, &text);
        let _ = a.document.to_json(a.document.len() + 10_000);
    }
    check_diagnostics(&d.diagnostics, &sources);
    render_all(&d.diagnostics, &sources);
}

/// The separator of files in a repository input: a line `#>> PATH`.
pub const FILE_MARK: &[u8] = b"#>> ";

/// Splits a repository input into files: each line starting with
/// [`FILE_MARK`] names the file whose contents follow; text before the first
/// mark is `skills/x/SKILL.md`.
pub fn split_repo(data: &[u8]) -> Vec<InputFile> {
    let mut files = Vec::new();
    let mut path = b"skills/x/SKILL.md".to_vec();
    let mut start = 0;
    let mut i = 0;
    while i <= data.len() {
        let at_line = i == 0 || data[i - 1] == b'\n';
        if i < data.len() && at_line && data[i..].starts_with(FILE_MARK) {
            files.push(InputFile::new(
                String::from_utf8_lossy(&path).into_owned(),
                data[start..i].to_vec(),
            ));
            let name_start = i + FILE_MARK.len();
            let name_end = data[name_start..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(data.len(), |n| name_start + n);
            path = data[name_start..name_end].to_vec();
            start = (name_end + 1).min(data.len());
            i = start;
            continue;
        }
        i += 1;
    }
    files.push(InputFile::new(
        String::from_utf8_lossy(&path).into_owned(),
        data[start..].to_vec(),
    ));
    files
}

/// Joins files into a repository input (the inverse of [`split_repo`]).
pub fn join_repo(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, (path, bytes)) in files.iter().enumerate() {
        if i > 0 || path != "skills/x/SKILL.md" {
            out.extend_from_slice(FILE_MARK);
            out.extend_from_slice(path.as_bytes());
            out.push(b'\n');
        }
        out.extend_from_slice(bytes);
        if !bytes.ends_with(b"\n") {
            out.push(b'\n');
        }
    }
    out
}

/// A small repository through the whole in-memory check (`skein::check_files`,
/// one thread, no configuration discovery beyond the input's own
/// `skein.toml`), then every renderer.
pub fn check_repo(data: &[u8]) {
    let files = split_repo(data);
    if files.len() > 64 {
        return;
    }
    let options = Options {
        threads: 1,
        ..Options::default()
    };
    let report = skein::check_files(files, &options);
    check_diagnostics(report.diagnostics(), report.sources());
    render_all(report.diagnostics(), report.sources());
    let _ = report.summary().line();
}

/// The files of a report that do not parse: those with a syntax error
/// (`SYN001`) or an unterminated frontmatter (`SYN003`).
fn unparsed(report: &skein::Report) -> std::collections::BTreeSet<String> {
    report
        .diagnostics()
        .iter()
        .filter(|d| matches!(d.rule.code, "SYN001" | "SYN003"))
        .map(|d| report.sources().get(d.primary.file).path().to_string())
        .collect()
}

/// Issue #15: fixes never make a file that parses fail to parse. Each safe
/// fix alone (at most 8 per input), applied without the applier's
/// re-check, keeps its file parsing; and every fix offered, unsafe ones
/// too, applied through the applier ([`skein::fix::fix_files`], 3 rounds),
/// leaves every file that parsed parsing.
pub fn check_fixes(data: &[u8]) {
    use skein::skein_syntax::Applicability;
    let files = split_repo(data);
    if files.len() > 16 {
        return;
    }
    let options = Options {
        threads: 1,
        ..Options::default()
    };
    let report = skein::check_files(files.clone(), &options);
    let before = unparsed(&report);
    let safe = report
        .diagnostics()
        .iter()
        .filter(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == Applicability::Safe)
        })
        .take(8);
    for d in safe {
        let source = report.sources().get(d.primary.file);
        let path = source.path();
        let Some(original) = files.iter().position(|f| f.path == path) else {
            continue;
        };
        if before.contains(path) || files[original].bytes != source.text().as_bytes() {
            continue;
        }
        let fix = d.fix.clone().expect("filtered");
        let (text, taken) = skein::fix::apply(source.text(), &[fix]);
        if taken.is_empty() {
            continue;
        }
        let mut changed = files.clone();
        changed[original].bytes = text.clone().into_bytes();
        let r = skein::check_files(changed, &options);
        assert!(
            !unparsed(&r).contains(path),
            "the safe fix of {} makes {path} fail to parse:\n{text}",
            d.rule.code
        );
    }
    let fix = skein::fix::FixOptions {
        unsafe_fixes: true,
        max_rounds: 3,
    };
    let run = skein::fix::fix_files(files, &options, &fix);
    let after = unparsed(&run.report);
    assert!(
        after.is_subset(&before),
        "fixes make {:?} fail to parse",
        after.difference(&before).collect::<Vec<_>>()
    );
}
