//! FLOW003 `revise-to-not-earlier`.

use crate::{Context, Pass};
use skein_model::graph::LoopFlow;
use skein_syntax::{Diagnostic, Rule, Severity, quote};
use std::collections::HashMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "FLOW003",
    name: "revise-to-not-earlier",
    severity: Severity::Error,
    summary: "a gate's `revise_to` names no earlier stage of its loop",
    doc: "## What it does\nChecks the `revise_to` of every gate of a skilldrop loop: it must name \
a stage of the same loop that comes before the gate's own stage. A name that is no stage of the \
loop is reported with the stages that would be valid (the five nearest the gate); a name of the gate's own stage or of a \
later stage is reported with that stage shown beside it.\n\n## Why is this bad?\nA revise \
verdict sends the work back to be fixed before it is judged again. Pointing at a stage that does \
not exist leaves the runner nowhere to go; pointing at the gate's own stage or a later one skips \
the stages that produce the fix, so the gate judges the same work again (or work not yet made), \
and the revise cap is spent for nothing.\n\n## Example\n```json\n{\"id\": \"draft\", ...},\n{\"id\": \
\"check\", \"gate\": {\"id\": \"G1\", \"kind\": \"review\",\n  \"verdicts\": [\"READY\", \"NOT READY\", \
\"BLOCKED\"], \"revise_to\": \"ship\"}},\n{\"id\": \"ship\", ...}\n```\nUse instead: `\"revise_to\": \
\"draft\"`, a stage before `check`.\n\n## Known problems\nWhen two stages share an id, the gate \
is accepted if any of them comes before it (the duplicate id is reported by `duplicate-stage-id`).",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.graph
        .loops()
        .iter()
        .flat_map(|l| check_loop(cx, l))
        .collect()
}

/// How many earlier stages a help names at most: the nearest ones (a loop
/// of thousands of stages would otherwise list them all in every finding).
const SHOWN: usize = 5;

fn check_loop(cx: &Context, l: &LoopFlow) -> Vec<Diagnostic> {
    let stage = |i: usize| cx.graph.node(l.stages[i]);
    // Each stage id's positions, in order: one pass over the stages, not
    // one per gate.
    let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
    for j in 0..l.stages.len() {
        at.entry(stage(j).name.as_str()).or_default().push(j);
    }
    let mut out = Vec::new();
    for (i, gate) in l.gates.iter().enumerate() {
        let Some(gate) = gate else { continue };
        let Some(target) = &gate.revise_to else {
            continue;
        };
        let positions: &[usize] = at.get(target.value.as_str()).map_or(&[], Vec::as_slice);
        if positions.first().is_some_and(|&j| j < i) {
            continue;
        }
        let own = &stage(i).name;
        // The nearest earlier stages, in loop order.
        let earlier: Vec<String> = (i.saturating_sub(SHOWN)..i)
            .map(|j| quote(&stage(j).name))
            .collect();
        let more = if i > SHOWN {
            format!(" (the {SHOWN} nearest of {i} earlier stages)")
        } else {
            String::new()
        };
        let help = if earlier.is_empty() {
            format!(
                "stage {} is the first stage of loop {}, so no stage comes before it; \
                 remove `revise_to` and the gate's revise verdicts",
                quote(own),
                quote(&l.name)
            )
        } else {
            format!(
                "name a stage before {}: {}{more}",
                quote(own),
                earlier.join(", ")
            )
        };
        let d = match positions.first() {
            None => Diagnostic::new(
                RULE,
                l.file,
                target.span,
                format!(
                    "`revise_to` of gate {} names {}, which is no stage of loop {}",
                    quote(&gate.id.value),
                    quote(&target.value),
                    quote(&l.name)
                ),
            )
            .with_label("no stage has this id"),
            Some(&j) if j == i => Diagnostic::new(
                RULE,
                l.file,
                target.span,
                format!(
                    "`revise_to` of gate {} names its own stage {}, not an earlier one",
                    quote(&gate.id.value),
                    quote(&target.value)
                ),
            )
            .with_label("the gate's own stage")
            .with_secondary(stage(i).file, stage(i).span, "the gate closes this stage"),
            Some(&j) => {
                let later = stage(j);
                Diagnostic::new(
                    RULE,
                    l.file,
                    target.span,
                    format!(
                        "`revise_to` of gate {} names {}, a stage after the gate's stage {}",
                        quote(&gate.id.value),
                        quote(&target.value),
                        quote(own)
                    ),
                )
                .with_label("a later stage")
                .with_secondary(
                    later.file,
                    later.span,
                    "that stage comes after the gate",
                )
            }
        };
        out.push(d.with_help(help));
    }
    out
}
