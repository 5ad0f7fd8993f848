//! The autofix applier (issue #15): `skein check --fix`, `--unsafe-fixes`,
//! `--diff`, `--fix-only`.
//!
//! Rules attach a [`Fix`] to a diagnostic (edits of the primary label's
//! file, safe or unsafe); this module applies them, the way ruff does:
//!
//! - per file, the fixes whose edits overlap no fix taken before them (in
//!   order of their first edit) are applied in one pass; the others wait
//!   for the next round;
//! - each round re-analyzes the project with the candidate contents in
//!   memory and keeps a candidate only when no file of the project gets a
//!   new error (a file that no longer parses is one: `SYN001` is an error).
//!   When a round's candidates together would, each file and then each fix
//!   is tried alone; a fix that still would is dropped and reported
//!   ([`Dropped`]), and never offered again in the run; the fixes of a file
//!   that pass alone are taken together while they still pass, and one that
//!   conflicts with those (two renames onto one key) waits for the next
//!   round, where it is tried against the new text;
//! - at most [`FixOptions::max_rounds`] rounds (fixes can make new findings
//!   with new fixes);
//! - nothing is written until the last round: [`write_changes`] then
//!   writes each changed file atomically (a temporary file in the same
//!   folder, renamed over it) with its permissions, and refuses any path
//!   that is not a regular file inside the project. `--diff` writes nothing
//!   and prints [`unified_diff`] instead.
//!
//! Line endings and the BOM are the file's: a replacement's `\n` becomes
//! `\r\n` in a file whose first line ends with `\r\n`, and only the
//! `byte-order-mark` rule's fix may remove a BOM (an edit that adds or
//! removes one otherwise is refused).

use crate::{Error, InputFile, Options, Report};
use skein_syntax::{Applicability, Diagnostic, Fix, Severity};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The default bound on rounds of analysis and application.
pub const DEFAULT_MAX_ROUNDS: usize = 10;

/// The code of the rule whose fix removes a BOM.
const BOM_RULE: &str = "SYN006";

/// How fixes are chosen and how hard the applier tries.
#[derive(Debug, Clone, Copy)]
pub struct FixOptions {
    /// Apply unsafe fixes too (`--unsafe-fixes`); by default only safe ones.
    pub unsafe_fixes: bool,
    /// At most this many rounds (analysis, then application); at least 1.
    pub max_rounds: usize,
}

impl Default for FixOptions {
    fn default() -> Self {
        FixOptions {
            unsafe_fixes: false,
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

impl FixOptions {
    /// Whether a fix of this applicability is applied.
    pub fn applies(&self, a: Applicability) -> bool {
        a == Applicability::Safe || self.unsafe_fixes
    }
}

/// One fix applied: the file (project-relative), the rule, the fix's message.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Applied {
    /// Project-relative path, `/`-separated.
    pub path: String,
    /// The rule's code.
    pub code: &'static str,
    /// The rule's name.
    pub name: &'static str,
    /// What the fix did (the fix's message).
    pub message: String,
}

/// A fix not applied because it would have broken something.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Dropped {
    /// Project-relative path, `/`-separated.
    pub path: String,
    /// The rule's code.
    pub code: &'static str,
    /// What the fix would have done.
    pub message: String,
    /// Why it was dropped, e.g. ``it would add an error `SYN001` in `a.json` ``.
    pub reason: String,
}

/// A file the fixes change: its text before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Project-relative path, `/`-separated.
    pub path: String,
    /// The text as read.
    pub before: String,
    /// The text with the fixes applied.
    pub after: String,
}

/// What a fix run did.
#[derive(Debug)]
pub struct FixRun {
    /// The files changed, in path order (not yet written).
    pub changes: Vec<Change>,
    /// The fixes applied, in path order.
    pub applied: Vec<Applied>,
    /// The fixes dropped, in path order.
    pub dropped: Vec<Dropped>,
    /// Rounds run (analyses that applied something).
    pub rounds: usize,
    /// True when the last round still had fixes to apply (the bound was hit).
    pub unconverged: bool,
    /// The analysis of the fixed contents (what remains).
    pub report: Report,
}

/// Fixes the project at `root` (see [`crate::check`]), reading from disk and
/// writing nothing: the result's [`FixRun::changes`] are for
/// [`write_changes`] or [`unified_diff`]. Only files in `view`
/// (project-relative files or folders, `""` the whole project, as in
/// [`Report::restrict`]) are changed.
///
/// # Errors
/// As [`crate::check`]: only when `root` cannot be read.
pub fn fix_project(
    root: &Path,
    options: &Options,
    view: &[String],
    fix: &FixOptions,
) -> Result<FixRun, Error> {
    let mut err = None;
    let mut analyze = |contents: &BTreeMap<String, String>| {
        let mut o = options.clone();
        // Candidate contents change every round: no cache. The rounds read
        // the texts of every file they fix: keep them all.
        o.cache = None;
        o.retention = crate::Retention::Full;
        o.progress = None;
        o.overlays.extend(
            contents
                .iter()
                .map(|(p, t)| InputFile::new(p.clone(), t.clone().into_bytes())),
        );
        match crate::check(root, &o) {
            Ok(r) => Some(r),
            Err(e) => {
                err = Some(e);
                None
            }
        }
    };
    // A single file analyzed alone: paths are relative to its folder.
    let base = if root.is_file() {
        root.parent().unwrap_or(Path::new("."))
    } else {
        root
    };
    let on_disk = |rel: &str, text: &str| {
        // Only a file whose bytes are the text analyzed is fixed (not one
        // read lossily, not one changed since).
        safe_target(base, rel).is_ok()
            && std::fs::read(base.join(rel)).is_ok_and(|b| b == text.as_bytes())
    };
    let run = rounds(&mut analyze, view, fix, &on_disk);
    match (run, err) {
        (Some(r), _) => Ok(r),
        (None, Some(e)) => Err(e),
        (None, None) => unreachable!("an analysis fails only with an error"),
    }
}

/// [`fix_project`] over files in memory ([`crate::check_files`]): for
/// tests, the fuzz property and tools that hold the files.
pub fn fix_files(files: Vec<InputFile>, options: &Options, fix: &FixOptions) -> FixRun {
    let mut analyze = |contents: &BTreeMap<String, String>| {
        let mut given = files.clone();
        for f in &mut given {
            if let Some(t) = contents.get(&f.path) {
                f.bytes = t.clone().into_bytes();
            }
        }
        Some(crate::check_files(given, options))
    };
    let originals: BTreeMap<&str, &[u8]> = files
        .iter()
        .map(|f| (f.path.as_str(), f.bytes.as_slice()))
        .collect();
    let same = |rel: &str, text: &str| originals.get(rel).is_some_and(|b| *b == text.as_bytes());
    rounds(&mut analyze, &[String::new()], fix, &same)
        .expect("an analysis in memory always succeeds")
}

/// The identity of a fix across rounds (spans move): file, rule, finding
/// message, fix message.
type FixKey = (String, &'static str, String, String);

fn key(path: &str, d: &Diagnostic, f: &Fix) -> FixKey {
    (
        path.to_string(),
        d.rule.code,
        d.message.clone(),
        f.message.clone(),
    )
}

/// The round loop over an analysis `analyze` of the project with some
/// files' contents replaced; `fixable(path, text)` says whether a file may
/// be changed (its text is its bytes). `None` when an analysis failed.
fn rounds(
    analyze: &mut dyn FnMut(&BTreeMap<String, String>) -> Option<Report>,
    view: &[String],
    fix: &FixOptions,
    fixable: &dyn Fn(&str, &str) -> bool,
) -> Option<FixRun> {
    let in_view = |path: &str| {
        view.iter().any(|v| {
            v.is_empty()
                || path
                    .strip_prefix(v.as_str())
                    .is_some_and(|r| r.is_empty() || r.starts_with('/'))
        })
    };
    let mut contents: BTreeMap<String, String> = BTreeMap::new();
    let mut originals: BTreeMap<String, String> = BTreeMap::new();
    let mut applied = Vec::new();
    let mut dropped: Vec<Dropped> = Vec::new();
    let mut refused: BTreeSet<FixKey> = BTreeSet::new();
    let mut report = analyze(&contents)?;
    let mut done = 0;
    let may_fix = |p: &str, t: &str, contents: &BTreeMap<String, String>| {
        contents.contains_key(p) || fixable(p, t)
    };
    for _ in 0..fix.max_rounds.max(1) {
        let candidates = candidates(&report, fix, &refused, &in_view, &|p, t| {
            may_fix(p, t, &contents)
        });
        if candidates.is_empty() {
            break;
        }
        let with = |files: &[&Candidate]| {
            let mut c = contents.clone();
            for f in files {
                c.insert(f.path.clone(), f.after.clone());
            }
            c
        };
        let all: Vec<&Candidate> = candidates.iter().collect();
        let trial = with(&all);
        let after = analyze(&trial)?;
        let accepted: Vec<Candidate> = if worse(&report, &after).is_none() {
            candidates.clone()
        } else {
            // Find the culprits: each file alone, then each fix alone.
            let mut ok: Vec<Candidate> = Vec::new();
            for c in &candidates {
                let a = analyze(&with(&[c]))?;
                if worse(&report, &a).is_none() {
                    ok.push(c.clone());
                    continue;
                }
                // The fixes that pass alone are taken together while they
                // still pass (two renames onto one key pass alone, not
                // together); one that conflicts with those taken waits for
                // the next round, where it is tried on the new text.
                let mut kept: Vec<usize> = Vec::new();
                for i in 0..c.fixes.len() {
                    let a = analyze(&with(&[&c.only(&[i])]))?;
                    if let Some(why) = worse(&report, &a) {
                        refused.insert(c.keys[i].clone());
                        dropped.push(Dropped {
                            path: c.path.clone(),
                            code: c.rules[i].0,
                            message: c.fixes[i].message.clone(),
                            reason: why,
                        });
                        continue;
                    }
                    let mut trial = kept.clone();
                    trial.push(i);
                    if kept.is_empty()
                        || worse(&report, &analyze(&with(&[&c.only(&trial)]))?).is_none()
                    {
                        kept = trial;
                    }
                }
                if !kept.is_empty() {
                    ok.push(c.only(&kept));
                }
            }
            // What passed alone is applied together only if that passes too;
            // otherwise the first, and the rest wait for the next round.
            if ok.len() > 1
                && worse(&report, &analyze(&with(&ok.iter().collect::<Vec<_>>()))?).is_some()
            {
                ok.truncate(1);
            }
            ok
        };
        if accepted.is_empty() {
            continue;
        }
        for c in &accepted {
            originals
                .entry(c.path.clone())
                .or_insert_with(|| c.before.clone());
            for (i, f) in c.fixes.iter().enumerate() {
                applied.push(Applied {
                    path: c.path.clone(),
                    code: c.rules[i].0,
                    name: c.rules[i].1,
                    message: f.message.clone(),
                });
            }
        }
        let all_accepted = accepted.len() == candidates.len()
            && accepted
                .iter()
                .zip(&candidates)
                .all(|(a, c)| a.fixes.len() == c.fixes.len());
        contents = with(&accepted.iter().collect::<Vec<_>>());
        report = if all_accepted {
            after
        } else {
            analyze(&contents)?
        };
        done += 1;
    }
    let unconverged = done == fix.max_rounds.max(1)
        && !candidates(&report, fix, &refused, &in_view, &|p, t| {
            may_fix(p, t, &contents)
        })
        .is_empty();
    let changes = contents
        .iter()
        .filter(|(p, t)| originals.get(*p) != Some(t))
        .map(|(p, t)| Change {
            path: p.clone(),
            before: originals[p].clone(),
            after: t.clone(),
        })
        .collect();
    applied.sort();
    dropped.sort();
    Some(FixRun {
        changes,
        applied,
        dropped,
        rounds: done,
        unconverged,
        report,
    })
}

/// One file's candidate contents in a round.
#[derive(Debug, Clone)]
struct Candidate {
    path: String,
    before: String,
    after: String,
    keys: Vec<FixKey>,
    fixes: Vec<Fix>,
    rules: Vec<(&'static str, &'static str)>,
}

impl Candidate {
    /// The candidate with only the fixes at `indices` (ascending) applied.
    fn only(&self, indices: &[usize]) -> Candidate {
        let fixes: Vec<Fix> = indices.iter().map(|&i| self.fixes[i].clone()).collect();
        Candidate {
            path: self.path.clone(),
            after: apply(&self.before, &fixes).0,
            before: self.before.clone(),
            keys: indices.iter().map(|&i| self.keys[i].clone()).collect(),
            rules: indices.iter().map(|&i| self.rules[i]).collect(),
            fixes,
        }
    }
}

/// The round's candidates: per file in view, the fixes to apply that
/// overlap no earlier one, applied.
fn candidates(
    report: &Report,
    fix: &FixOptions,
    refused: &BTreeSet<FixKey>,
    in_view: &dyn Fn(&str) -> bool,
    fixable: &dyn Fn(&str, &str) -> bool,
) -> Vec<Candidate> {
    let mut per_file: BTreeMap<skein_syntax::FileId, Vec<&Diagnostic>> = BTreeMap::new();
    for d in report.diagnostics() {
        if let Some(f) = &d.fix
            && fix.applies(f.applicability)
            && !f.edits.is_empty()
        {
            per_file.entry(d.primary.file).or_default().push(d);
        }
    }
    let mut out = Vec::new();
    for (file, diags) in per_file {
        if file.0 as usize >= report.summary().files_read {
            continue; // the configuration file, the repository stand-in
        }
        let source = report.sources().get(file);
        let (path, text) = (source.path(), source.text());
        if !in_view(path) || !fixable(path, text) {
            continue;
        }
        let mut fixes: Vec<(&Diagnostic, Fix)> = diags
            .into_iter()
            .filter_map(|d| {
                let f = d.fix.clone()?;
                (!refused.contains(&key(path, d, &f))).then_some((d, f))
            })
            .collect();
        fixes.sort_by_key(|(_, f)| f.edits[0].span.start);
        let (after, taken) = apply(
            text,
            &fixes.iter().map(|(_, f)| f.clone()).collect::<Vec<_>>(),
        );
        let taken: Vec<&(&Diagnostic, Fix)> = taken.iter().map(|&i| &fixes[i]).collect();
        if taken.is_empty() || after == text || !bom_kept(text, &after, &taken) {
            continue;
        }
        let chosen: Vec<Fix> = taken.iter().map(|(_, f)| f.clone()).collect();
        out.push(Candidate {
            path: path.to_string(),
            before: text.to_string(),
            after,
            keys: taken.iter().map(|(d, f)| key(path, d, f)).collect(),
            fixes: chosen,
            rules: taken
                .iter()
                .map(|(d, _)| (d.rule.code, d.rule.name))
                .collect(),
        });
    }
    out
}

/// The BOM policy: the file keeps its BOM (or its lack of one) unless the
/// `byte-order-mark` fix is among those applied.
fn bom_kept(before: &str, after: &str, taken: &[&(&Diagnostic, Fix)]) -> bool {
    before.starts_with('\u{feff}') == after.starts_with('\u{feff}')
        || taken.iter().any(|(d, _)| d.rule.code == BOM_RULE)
}

/// Applies to `text` the fixes, in order, each whose edits are in bounds,
/// on character boundaries and overlap no edit taken before (an insertion
/// at a replaced span's end does not overlap it); returns the new text and
/// the indices of the fixes taken. Replacement newlines follow the file's
/// line ending.
pub fn apply(text: &str, fixes: &[Fix]) -> (String, Vec<usize>) {
    let crlf = text
        .find('\n')
        .is_some_and(|i| i > 0 && text.as_bytes()[i - 1] == b'\r');
    let mut taken_spans: Vec<(usize, usize)> = Vec::new();
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut taken = Vec::new();
    for (i, f) in fixes.iter().enumerate() {
        let ok = f.edits.iter().all(|e| {
            let (s, t) = (e.span.start as usize, e.span.end as usize);
            s <= t && t <= text.len() && text.is_char_boundary(s) && text.is_char_boundary(t)
        }) && f.edits.windows(2).all(|w| w[0].span.end <= w[1].span.start)
            && f.edits.iter().all(|e| {
                let e = (e.span.start as usize, e.span.end as usize);
                taken_spans.iter().all(|&t| !conflict(e, t))
            });
        if !ok {
            continue;
        }
        for e in &f.edits {
            let (s, t) = (e.span.start as usize, e.span.end as usize);
            taken_spans.push((s, t));
            let r = if crlf {
                e.replacement.replace("\r\n", "\n").replace('\n', "\r\n")
            } else {
                e.replacement.clone()
            };
            edits.push((s, t, r));
        }
        taken.push(i);
    }
    edits.sort_by_key(|e| (e.0, e.1));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, t, r) in edits {
        out.push_str(&text[at..s]);
        out.push_str(&r);
        at = t;
    }
    out.push_str(&text[at..]);
    (out, taken)
}

/// Whether two edits' spans (start, end) conflict: they share a byte, or
/// both insert at one offset, or one inserts strictly inside the other.
fn conflict(a: (usize, usize), b: (usize, usize)) -> bool {
    match (a.0 == a.1, b.0 == b.1) {
        (true, true) => a.0 == b.0,
        (true, false) => b.0 < a.0 && a.0 < b.1,
        (false, true) => a.0 < b.0 && b.0 < a.1,
        (false, false) => a.0.max(b.0) < a.1.min(b.1),
    }
}

/// Why `after` is worse than `before`, if it is: some file has more
/// findings of an error rule than before (a file that no longer parses has
/// a `SYN001`), or lost its analysis.
fn worse(before: &Report, after: &Report) -> Option<String> {
    let errors = |r: &Report| {
        let mut m: BTreeMap<(String, &'static str), usize> = BTreeMap::new();
        for d in r.diagnostics() {
            if d.severity == Severity::Error {
                let path = r.sources().get(d.primary.file).path().to_string();
                *m.entry((path, d.rule.code)).or_default() += 1;
            }
        }
        m
    };
    let (b, a) = (errors(before), errors(after));
    for ((path, code), n) in &a {
        if b.get(&(path.clone(), code)).copied().unwrap_or(0) < *n {
            let what = if *code == skein_syntax::rules::SYNTAX_ERROR.code {
                "it would make the file fail to parse"
            } else {
                "it would add an error"
            };
            return Some(format!("{what}: `{code}` in {path}"));
        }
    }
    None
}

/// `rel` as a file the applier may write: a relative path without `.` or
/// `..` components, naming a regular file (not a link) whose folder is
/// inside `root`.
fn safe_target(root: &Path, rel: &str) -> Result<PathBuf, String> {
    let inside = !rel.is_empty()
        && !rel.starts_with('/')
        && rel
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != "..");
    if !inside {
        return Err(format!("`{rel}` is not a path inside the project"));
    }
    let path = root.join(rel);
    let meta = std::fs::symlink_metadata(&path).map_err(|e| format!("cannot read {rel}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{rel} is not a regular file"));
    }
    let root = std::fs::canonicalize(root).map_err(|e| e.to_string())?;
    let parent = path
        .parent()
        .and_then(|p| std::fs::canonicalize(p).ok())
        .ok_or_else(|| format!("cannot resolve the folder of {rel}"))?;
    if !parent.starts_with(&root) {
        return Err(format!("{rel} is outside the project"));
    }
    Ok(path)
}

/// A file [`write_changes`] could not write.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {why}")]
pub struct WriteError {
    /// Project-relative path.
    pub path: String,
    /// Why.
    pub why: String,
}

/// Writes each change into the project at `root`, atomically: a temporary
/// file in the file's folder, given the file's permissions, then renamed
/// over it. A file changed on disk since it was read, or that is not a
/// regular file inside the project, is not written (an error for it); the
/// others are.
pub fn write_changes(root: &Path, changes: &[Change]) -> Vec<WriteError> {
    let mut errors = Vec::new();
    for c in changes {
        if let Err(why) = write_one(root, c) {
            errors.push(WriteError {
                path: c.path.clone(),
                why,
            });
        }
    }
    errors
}

fn write_one(root: &Path, c: &Change) -> Result<(), String> {
    use std::io::Write;
    let path = safe_target(root, &c.path)?;
    let now = std::fs::read(&path).map_err(|e| e.to_string())?;
    if now != c.before.as_bytes() {
        return Err("it changed since it was read; run again".into());
    }
    let perms = std::fs::metadata(&path)
        .map_err(|e| e.to_string())?
        .permissions();
    let folder = path.parent().ok_or("no folder")?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".skein-fix-")
        .tempfile_in(folder)
        .map_err(|e| e.to_string())?;
    tmp.write_all(c.after.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| e.to_string())?;
    std::fs::set_permissions(tmp.path(), perms).map_err(|e| e.to_string())?;
    tmp.persist(&path).map_err(|e| e.error.to_string())?;
    Ok(())
}

/// The changes as one unified diff that `patch -p1` applies from the
/// project root (`--- a/PATH`, `+++ b/PATH`, 3 lines of context). The
/// `secrets` of a path (the secret values the analysis found in it) are
/// masked wherever they occur, as every output masks them
/// ([`skein_syntax::mask`]); a hunk with a masked line then no longer
/// applies, which is the price of never printing a secret.
pub fn unified_diff(changes: &[Change], secrets: &dyn Fn(&str) -> Vec<String>) -> String {
    let mut out = String::new();
    for c in changes {
        let (mut before, mut after) = (c.before.clone(), c.after.clone());
        for secret in secrets(&c.path).iter().filter(|s| !s.is_empty()) {
            let masked = skein_syntax::mask(secret);
            before = before.replace(secret.as_str(), &masked);
            after = after.replace(secret.as_str(), &masked);
        }
        let diff = similar::TextDiff::from_lines(&before, &after);
        out.push_str(
            &diff
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{}", c.path), &format!("b/{}", c.path))
                .to_string(),
        );
    }
    out
}
