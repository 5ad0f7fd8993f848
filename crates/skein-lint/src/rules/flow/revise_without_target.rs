//! FLOW004 `revise-without-target`.

use crate::{Context, Pass};
use skein_model::graph::VerdictClass;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "FLOW004",
    name: "revise-without-target",
    severity: Severity::Error,
    summary: "a gate that can emit a revise verdict but has no `revise_to`",
    doc: "## What it does\nReports a skilldrop gate that lists a revise-class verdict (class from \
the nearest `contracts/terminals.json`) but no `revise_to`. The primary span is the first revise \
verdict; the help names the stages before the gate, the valid targets.\n\n## Why is this bad?\n\
A revise verdict means \"the fix is known: go back and redo it\". Without `revise_to` the loop \
does not say where to go back to, so the runner either stops or guesses, and the revise edge is \
missing from the loop's flow (its cap never applies).\n\n## Example\n```json\n{\"id\": \"draft\", \
...},\n{\"id\": \"check\", \"gate\": {\"id\": \"G1\", \"kind\": \"review\",\n  \"verdicts\": [\"READY\", \
\"NOT READY\", \"BLOCKED\"]}}\n```\nUse instead: add `\"revise_to\": \"draft\"`, or drop `NOT READY` \
if the gate cannot send work back.\n\n## Known problems\nVerdicts outside the vocabulary have no \
class and are not considered (`unknown-verdict` reports them).",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for l in cx.graph.loops() {
        for (i, gate) in l.gates.iter().enumerate() {
            let Some(gate) = gate else { continue };
            if gate.revise_to.is_some() {
                continue;
            }
            let mut revise = gate
                .verdicts
                .iter()
                .filter(|(_, c)| *c == Some(VerdictClass::Revise))
                .map(|(v, _)| v);
            let Some(first) = revise.next() else { continue };
            let stage = |j: usize| &cx.graph.node(l.stages[j]).name;
            let earlier: Vec<String> = (0..i).map(|j| quote(stage(j))).collect();
            let help = if earlier.is_empty() {
                format!(
                    "gate {} closes the first stage {}, so there is nothing to return to; \
                     use a redirect or blocked verdict instead",
                    quote(&gate.id.value),
                    quote(stage(i))
                )
            } else {
                format!(
                    "add `revise_to` naming a stage before {}: {}",
                    quote(stage(i)),
                    earlier.join(", ")
                )
            };
            let mut d = Diagnostic::new(
                RULE,
                l.file,
                first.span,
                format!(
                    "gate {} can emit revise verdict {} but has no `revise_to`",
                    quote(&gate.id.value),
                    quote(&first.value)
                ),
            )
            .with_label("a revise verdict with nowhere to return to")
            .with_help(help);
            for other in revise {
                d = d.with_secondary(l.file, other.span, "another revise verdict");
            }
            out.push(d);
        }
    }
    out
}
