//! FLOW010 `duplicate-stage-id`.

use crate::{Context, Pass};
use skein_model::Model;
use skein_syntax::{Diagnostic, Rule, Severity, quote};
use std::collections::HashMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "FLOW010",
    name: "duplicate-stage-id",
    severity: Severity::Error,
    summary: "two stages of one skilldrop loop with the same id",
    doc: "## What it does\nChecks that the stage ids of a skilldrop `loop.json` are unique within \
the loop (skilldrop loop format: a stage `id` is unique in its loop). Each repeat is reported at \
its own `id`, with the first stage of that id shown beside it.\n\n## Why is this bad?\nGates \
send work back by stage id (`revise_to`) and runs are recorded by stage id: with two stages of one \
id, a revise verdict silently returns to the first of them, the second can never be named, and \
a run log cannot tell which of the two ran.\n\n## Example\n```json\n\"stages\": [\n  {\"id\": \
\"draft\", ...},\n  {\"id\": \"draft\", ...}\n]\n```\nUse instead: give each stage its own id \
(`draft`, `redraft`).",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in cx.artifacts {
        let Model::SkilldropLoop(l) = &a.model else {
            continue;
        };
        let mut first = HashMap::new();
        for st in &l.stages {
            let id = &st.id;
            match first.get(id.value.as_str()) {
                None => {
                    first.insert(id.value.as_str(), id.span);
                }
                Some(&at) => out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        id.span,
                        format!(
                            "stage id {} is used twice in loop {}",
                            quote(&id.value),
                            quote(&l.name.value)
                        ),
                    )
                    .with_label("second stage with this id")
                    .with_secondary(a.file, at, "first stage with this id")
                    .with_help(
                        "give each stage its own id: `revise_to` and run logs name stages by id",
                    ),
                ),
            }
        }
    }
    out
}
