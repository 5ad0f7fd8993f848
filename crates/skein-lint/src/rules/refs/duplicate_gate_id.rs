//! REF001 `duplicate-gate-id`.

use crate::{Context, Pass};
use skein_syntax::{Diagnostic, FileId, Rule, Severity, Span, quote};
use std::collections::HashMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF001",
    name: "duplicate-gate-id",
    severity: Severity::Error,
    summary: "a gate id used twice in the repository",
    doc: "## What it does\nReports a skilldrop gate id that an earlier gate (in path order, then \
stage order) already uses, anywhere in the same skilldrop repository (the folder that holds \
`packs/`; a vendored or archived copy elsewhere in the tree is its own repository). The later gate is the primary span; the \
first is shown beside it.\n\n## Why is this bad?\nskilldrop gate ids are unique across the \
repository: they are the places a human or a script points at (\"blocked at G2\"). Two gates \
with one id make every report about that gate ambiguous.\n\n## Example\n```json\n// packs/a/loops/x/loop.json\n\"gate\": {\"id\": \"G2\", ...}\n// packs/b/loops/y/loop.json\n\"gate\": {\"id\": \"G2\", ...}\n```\n\
Use instead: a fresh id such as `G7` for the second gate. An id mentioned only in a description \
or a comment is not a gate and does not count.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    // Keyed by skilldrop root: two installations in one tree (a vendored
    // copy, an archived snapshot) are two repositories.
    let mut first: HashMap<(&str, &str), (FileId, Span, &str)> = HashMap::new();
    let mut out = Vec::new();
    for l in cx.graph.loops() {
        for gate in l.gates.iter().flatten() {
            match first.get(&(l.root.as_str(), gate.id.value.as_str())) {
                Some(&(file, span, loop_name)) => out.push(
                    Diagnostic::new(
                        RULE,
                        l.file,
                        gate.id.span,
                        format!(
                            "gate id {} is already used in loop {}",
                            quote(&gate.id.value),
                            quote(loop_name)
                        ),
                    )
                    .with_label("used again here")
                    .with_secondary(file, span, "first used here")
                    .with_help("gate ids are unique across the repository; pick an unused id"),
                ),
                None => {
                    first.insert((&l.root, &gate.id.value), (l.file, gate.id.span, &l.name));
                }
            }
        }
    }
    out
}
