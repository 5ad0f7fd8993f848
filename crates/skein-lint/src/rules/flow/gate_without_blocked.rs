//! FLOW006 `gate-without-blocked`.

use crate::{Context, Pass};
use skein_model::Model;
use skein_model::graph::VerdictClass;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "FLOW006",
    name: "gate-without-blocked",
    severity: Severity::Error,
    summary: "a gate that cannot emit a blocked-class verdict",
    doc: "## What it does\nReports a skilldrop gate none of whose verdicts is of class `blocked` \
in the nearest `contracts/terminals.json`. skilldrop's rule: \"Every gate can emit BLOCKED. A \
missing input is always possible and must never be fabricated past.\"\n\n## Why is this bad?\n\
When a required input, decision or permission is missing, a gate without a blocked verdict has \
to pick one of the verdicts it has: it passes work it could not evaluate, or sends it round a \
revise cycle that cannot fix a missing input. A blocked verdict is also what a capped revise \
cycle falls back to.\n\n## Example\n```json\n\"gate\": {\"id\": \"G1\", \"kind\": \"human\", \
\"verdicts\": [\"PROCEED\", \"RECONSIDER\"]}\n```\nUse instead: `\"verdicts\": [\"PROCEED\", \
\"RECONSIDER\", \"BLOCKED\"]`.\n\n## Known problems\nA gate with a verdict outside the vocabulary \
(reported by `unknown-verdict`, often a misspelling such as `BLOKED`) is not judged, and neither \
is a loop with no vocabulary.",
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
        let Some(vocab_file) = l.vocabulary else {
            continue;
        };
        let blocked: Vec<String> = cx
            .artifact(vocab_file)
            .into_iter()
            .filter_map(|a| match &a.model {
                Model::SkilldropTerminals(t) => Some(t),
                _ => None,
            })
            .flat_map(|t| t.verdicts.iter())
            .filter(|(_, d)| VerdictClass::parse(&d.class.value) == Some(VerdictClass::Blocked))
            .map(|(w, _)| quote(w))
            .collect();
        for gate in l.gates.iter().flatten() {
            if gate.verdicts.is_empty()
                || gate
                    .verdicts
                    .iter()
                    .any(|(_, c)| c.is_none() || *c == Some(VerdictClass::Blocked))
            {
                continue;
            }
            let help = if blocked.is_empty() {
                format!(
                    "the vocabulary {} has no blocked-class verdict; add one (skilldrop's is \
                     `BLOCKED`) and list it in gate {}",
                    code(cx.path(vocab_file)),
                    quote(&gate.id.value)
                )
            } else {
                format!(
                    "add a blocked-class verdict to gate {}: {}",
                    quote(&gate.id.value),
                    blocked.join(", ")
                )
            };
            let words: Vec<String> = gate.verdicts.iter().map(|(v, _)| quote(&v.value)).collect();
            let mut d = Diagnostic::new(
                RULE,
                l.file,
                gate.id.span,
                format!(
                    "gate {} cannot emit a blocked-class verdict",
                    quote(&gate.id.value)
                ),
            )
            .with_label("no verdict of this gate is of class `blocked`")
            .with_note(format!(
                "gate {} can emit only {}",
                quote(&gate.id.value),
                words.join(", ")
            ))
            .with_help(help);
            // A revise verdict is capped; at the cap the gate must fall back
            // to a conditional or blocked verdict. One fault, one finding: the
            // missing exit is said here, not also as an uncapped cycle.
            let conditional = gate
                .verdicts
                .iter()
                .any(|(_, c)| *c == Some(VerdictClass::Conditional));
            if let Some((v, _)) = gate
                .verdicts
                .iter()
                .find(|(_, c)| *c == Some(VerdictClass::Revise))
                && !conditional
            {
                d = d.with_note(format!(
                    "so its revise verdict {} has no exit when the cap of {} rounds is reached",
                    quote(&v.value),
                    l.cap.0
                ));
                if let Some(span) = l.cap.1 {
                    d = d.with_secondary(l.file, span, "the cap");
                }
            }
            out.push(d);
        }
    }
    out
}

/// A repository path in backticks, never shortened (unlike `quote`: a path
/// cut in the middle cannot be looked up).
fn code(path: &str) -> String {
    format!("`{path}`")
}
