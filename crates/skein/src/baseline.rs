//! Baselines: accept the findings a repository has today and report only new
//! ones (`skein check --write-baseline FILE`, then `--baseline FILE`).
//!
//! A finding is identified by a content fingerprint, not by its line: the
//! 64-bit FNV-1a hash (printed as 16 hex digits) of the rule code, the
//! repo-relative path, the text of the primary span and the text of the line
//! the span starts on, the two texts with every run of white space collapsed
//! to one space and trimmed; the four fields are separated by NUL bytes.
//! Moving a finding (blank lines above it, re-indenting) keeps its
//! fingerprint; editing the bad value or its line makes it a new finding.
//! Identical findings share a fingerprint and are counted. Secrets (SEC001)
//! are masked in those texts and scrubbed from the message first
//! (`skein_report::Secrets`), so the file holds neither a secret nor its hash.
//!
//! The file is JSON: `{"version": 1, "findings": {FINGERPRINT: {"code",
//! "path", "message", "count"}}}`, sorted by fingerprint, so it diffs well.

use skein_report::Secrets;
use skein_syntax::{Diagnostic, SourceMap};
use std::collections::BTreeMap;

/// Version of the baseline file format.
pub const BASELINE_VERSION: u64 = 1;

/// One accepted finding (or several identical ones).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    /// Rule code.
    pub code: String,
    /// Repo-relative path.
    pub path: String,
    /// The message when the baseline was written (for readers; not matched).
    pub message: String,
    /// How many findings have this fingerprint.
    pub count: usize,
}

/// A set of accepted findings, by fingerprint.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Baseline {
    /// Always [`BASELINE_VERSION`].
    pub version: u64,
    /// Entries by fingerprint.
    pub findings: BTreeMap<String, Entry>,
}

/// FNV-1a, 64 bits, over the parts joined by NUL bytes.
fn fnv1a(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, p) in parts.iter().enumerate() {
        let sep: &[u8] = if i > 0 { b"\0" } else { b"" };
        for &b in sep.iter().chain(p.as_bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The fingerprint of a finding (see the module documentation).
pub fn fingerprint(d: &Diagnostic, sources: &SourceMap) -> String {
    fingerprint_with(d, sources, &Secrets::new(std::slice::from_ref(d), sources))
}

/// [`fingerprint`] with the run's secrets already collected: the texts are
/// read with secrets masked ([`Secrets::text`]), so a baseline never holds a
/// hash of a secret.
pub fn fingerprint_with(d: &Diagnostic, sources: &SourceMap, secrets: &Secrets) -> String {
    let f = sources.get(d.primary.file);
    let text = secrets.text(d.primary.file, f.text());
    let text = text.as_ref();
    let span = d.primary.span;
    let (s, e) = (
        (span.start as usize).min(text.len()),
        (span.end as usize).min(text.len()),
    );
    let line_start = text
        .get(..s)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    let line_end = text
        .get(s..)
        .and_then(|t| t.find('\n'))
        .map_or(text.len(), |i| s + i);
    let h = fnv1a(&[
        d.rule.code,
        f.path(),
        &collapse(text.get(s..e).unwrap_or("")),
        &collapse(text.get(line_start..line_end).unwrap_or("")),
    ]);
    format!("{h:016x}")
}

impl Baseline {
    /// An empty baseline.
    pub fn new() -> Self {
        Baseline {
            version: BASELINE_VERSION,
            findings: BTreeMap::new(),
        }
    }

    /// Adds the findings of one run.
    pub fn add(&mut self, diagnostics: &[Diagnostic], sources: &SourceMap) {
        let secrets = Secrets::new(diagnostics, sources);
        for d in secrets.diagnostics(diagnostics).iter() {
            let e = self
                .findings
                .entry(fingerprint_with(d, sources, &secrets))
                .or_insert_with(|| Entry {
                    code: d.rule.code.to_string(),
                    path: sources.get(d.primary.file).path().to_string(),
                    message: d.message.clone(),
                    count: 0,
                });
            e.count += 1;
        }
    }

    /// Number of findings it accepts.
    pub fn len(&self) -> usize {
        // Counts come from a file: saturate rather than overflow on hostile input.
        self.findings
            .values()
            .fold(0usize, |n, e| n.saturating_add(e.count))
    }

    /// True when it accepts nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The file's text: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a baseline serializes") + "\n"
    }

    /// Reads a baseline file's text.
    pub fn from_json(text: &str) -> Result<Baseline, String> {
        let b: Baseline = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if b.version != BASELINE_VERSION {
            return Err(format!(
                "baseline version {} is not supported (expected {BASELINE_VERSION})",
                b.version
            ));
        }
        Ok(b)
    }
}

/// Tracks which baseline entries a run (or several) matched.
#[derive(Debug, Default)]
pub struct Matches {
    used: BTreeMap<String, usize>,
}

impl Matches {
    /// Removes from `diagnostics` those the baseline accepts (each entry
    /// accepts at most `count` findings, over every call).
    pub fn filter(
        &mut self,
        baseline: &Baseline,
        diagnostics: &mut Vec<Diagnostic>,
        sources: &SourceMap,
    ) {
        let secrets = Secrets::new(diagnostics, sources);
        diagnostics.retain(|d| {
            let fp = fingerprint_with(d, sources, &secrets);
            let Some(e) = baseline.findings.get(&fp) else {
                return true;
            };
            let used = self.used.entry(fp).or_default();
            if *used < e.count {
                *used += 1;
                false
            } else {
                true
            }
        });
    }

    /// Findings accepted so far.
    pub fn matched(&self) -> usize {
        self.used.values().fold(0usize, |n, &c| n.saturating_add(c))
    }

    /// Baseline findings no run matched: fixed since the baseline was written.
    pub fn fixed(&self, baseline: &Baseline) -> usize {
        baseline.len() - self.matched()
    }

    /// [`Matches::fixed`] counting only the baseline's findings in files of
    /// `views` (project-relative files or folders, `""` for all): a run of a
    /// subfolder does not call the findings elsewhere fixed.
    pub fn fixed_within(&self, baseline: &Baseline, views: &[String]) -> usize {
        let inside = |path: &str| {
            views.iter().any(|v| {
                v.is_empty()
                    || path
                        .strip_prefix(v.as_str())
                        .is_some_and(|r| r.is_empty() || r.starts_with('/'))
            })
        };
        baseline
            .findings
            .iter()
            .filter(|(_, e)| inside(&e.path))
            .map(|(fp, e)| {
                e.count
                    .saturating_sub(self.used.get(fp).copied().unwrap_or(0))
            })
            .sum()
    }
}
