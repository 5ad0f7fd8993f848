//! The constraint tables of `docs/formats.md` ("Artifact formats: every
//! constraint"): for each format of skein's own, every normative statement
//! of its document, the rule that enforces it and a fixture that shows it.
//!
//! Walks every table: an enforced constraint must name a rule skein has and
//! a fixture `corpus/rules/<rule>/<case>` whose `expected.out` has a finding
//! of that rule's code whose line contains the row's `finding` text. A
//! statement judged unenforceable sits in the format's other table, with its
//! reason. Prints the counts per format (`--nocapture`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The formats whose tables must be there (the `## ` headings start so).
const FORMATS: &[&str] = &["Loopmaster", "Bailey", "Loom", "OpenCode"];
const ENFORCED: &str = "| # | statement | rule | fixture | finding |";
const UNENFORCED: &str = "| # | statement | why it is not checked |";

/// The cells of a Markdown table row, trimmed, outer pipes dropped.
/// A `\|` inside a cell is not a separator.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push('|');
                chars.next();
            }
            '|' => out.push(std::mem::take(&mut cur).trim().to_string()),
            c => cur.push(c),
        }
    }
    out.push(cur.trim().to_string());
    out
}

/// A cell's text without surrounding backticks.
fn code(cell: &str) -> &str {
    cell.trim().trim_matches('`')
}

#[test]
fn every_constraint_has_a_rule_and_a_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/formats.md")).expect("docs/formats.md");
    let part = doc
        .split("\n# Artifact formats: every constraint\n")
        .nth(1)
        .expect("docs/formats.md has the constraint part");
    let mut format = String::new();
    let mut table: Option<&str> = None;
    let mut ids = BTreeSet::new();
    // format -> (listed, enforced, unenforceable)
    let mut counts: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let mut problems = Vec::new();
    for line in part.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            format = h.trim().to_string();
            table = None;
            continue;
        }
        if line.trim() == ENFORCED || line.trim() == UNENFORCED {
            table = Some(if line.trim() == ENFORCED {
                ENFORCED
            } else {
                UNENFORCED
            });
            continue;
        }
        if !line.starts_with('|') {
            table = None;
            continue;
        }
        let Some(t) = table else { continue };
        if line.starts_with("|---") {
            continue;
        }
        let c = cells(line);
        let id = c[0].clone();
        if !ids.insert(id.clone()) {
            problems.push(format!("{id}: id used twice"));
        }
        let entry = counts.entry(format.clone()).or_default();
        entry.0 += 1;
        if t == UNENFORCED {
            entry.2 += 1;
            if c.len() != 3 || c[2].is_empty() {
                problems.push(format!("{id}: an unenforceable statement needs its reason"));
            }
            continue;
        }
        entry.1 += 1;
        if c.len() != 5 {
            problems.push(format!("{id}: expected 5 cells, got {}", c.len()));
            continue;
        }
        let (rule_cell, fixture, finding) = (code(&c[2]), code(&c[3]), code(&c[4]));
        let Some(rule) = skein::rules::find(rule_cell) else {
            problems.push(format!("{id}: no rule {rule_cell}"));
            continue;
        };
        if fixture.split('/').count() != 2 {
            problems.push(format!("{id}: fixture {fixture:?} is not <rule>/<case>"));
            continue;
        }
        let path = root.join("corpus/rules").join(fixture).join("expected.out");
        let Ok(expected) = std::fs::read_to_string(&path) else {
            problems.push(format!("{id}: no fixture corpus/rules/{fixture}"));
            continue;
        };
        let tag = format!("[{}] ", rule.code);
        if !expected
            .lines()
            .any(|l| !l.starts_with(' ') && l.contains(&tag) && l.contains(finding))
        {
            problems.push(format!(
                "{id}: corpus/rules/{fixture} has no {} finding containing {finding:?}",
                rule.code
            ));
        }
    }
    for (f, (listed, enforced, not)) in &counts {
        println!("{f}: {listed} listed, {enforced} enforced, {not} judged unenforceable");
    }
    for f in FORMATS {
        assert!(
            counts.keys().any(|k| k.starts_with(f)),
            "no constraint table for {f}"
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
