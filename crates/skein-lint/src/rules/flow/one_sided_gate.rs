//! FLOW005 `one-sided-gate`.

use crate::{Context, Pass};
use skein_model::Model;
use skein_model::graph::{GateInfo, LoopFlow, VerdictClass};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "FLOW005",
    name: "one-sided-gate",
    severity: Severity::Error,
    summary: "a gate with no pass-class verdict, or with only pass-class verdicts",
    doc: "## What it does\nReports a skilldrop gate whose verdicts (classified by the nearest \
`contracts/terminals.json`) include no pass-class word, or include nothing but pass-class words. \
skilldrop's rule: \"Every gate declares at least one `pass` verdict and at least one non-pass \
verdict. A gate that can only succeed is not a gate.\" A conditional verdict is not a pass \
verdict.\n\n## Why is this bad?\nA gate that can only succeed checks nothing: the review or \
script behind it cannot say no. A gate with no pass verdict can never accept the work as it \
is: at best it lets it through with conditions; without a conditional verdict every stage after \
it is dead (see `unreachable-stage`), and on the last stage the loop can never finish with \
`done`.\n\n## Example\n```json\n\"gate\": {\"id\": \"G1\", \"kind\": \"review\", \
\"verdicts\": [\"READY\", \"SHIP IT\"]}\n```\nUse instead: `\"verdicts\": [\"READY\", \"NOT READY\", \
\"BLOCKED\"]` with a `revise_to`.\n\n## Known problems\nOnly words the vocabulary classifies \
decide. A word outside the vocabulary (reported by `unknown-verdict`) could be a misspelt word of \
either side, so a gate with one is never called one-sided: for \"no pass\" it is given the \
benefit of the doubt (as `unreachable-stage` assumes it advances), and for \"no non-pass\" it \
counts as non-pass (as written it is not a pass word). When every verdict is unknown (a loop \
with no vocabulary), nothing can be decided and the gate is skipped; so is a gate with no \
verdicts (a schema violation). One misspelling thus gives one finding, not two.",
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
        for gate in l.gates.iter().flatten() {
            if gate.verdicts.iter().any(|(_, c)| c.is_none()) {
                continue; // unknown words: left to `unknown-verdict` (see Known problems)
            }
            let pass = gate
                .verdicts
                .iter()
                .filter(|(_, c)| *c == Some(VerdictClass::Pass))
                .count();
            let (message, label, help_class, help_what) = if gate.verdicts.is_empty() {
                continue;
            } else if pass == 0 {
                (
                    "has no pass-class verdict",
                    "no verdict of this gate is of class `pass`",
                    VerdictClass::Pass,
                    "a pass-class verdict",
                )
            } else if pass == gate.verdicts.len() {
                (
                    "has only pass-class verdicts; a gate that can only succeed is not a gate",
                    "every verdict of this gate is of class `pass`",
                    VerdictClass::Blocked,
                    "a non-pass verdict (every gate also needs a blocked one)",
                )
            } else {
                continue;
            };
            let words = words_of(cx, l, help_class);
            let help = if words.is_empty() {
                format!("add {help_what}")
            } else {
                format!("add {help_what}: {}", words.join(", "))
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    l.file,
                    gate.id.span,
                    format!("gate {} {message}", quote(&gate.id.value)),
                )
                .with_label(label)
                .with_note(describe(gate))
                .with_help(help),
            );
        }
    }
    out
}

/// `gate `G1` can emit `A` (pass), `B` (blocked)`.
fn describe(gate: &GateInfo) -> String {
    let words: Vec<String> = gate
        .verdicts
        .iter()
        .map(|(v, c)| format!("{} ({})", quote(&v.value), class_name(*c)))
        .collect();
    format!(
        "gate {} can emit {}",
        quote(&gate.id.value),
        words.join(", ")
    )
}

fn class_name(c: Option<VerdictClass>) -> &'static str {
    match c {
        Some(VerdictClass::Pass) => "pass",
        Some(VerdictClass::Conditional) => "conditional",
        Some(VerdictClass::Revise) => "revise",
        Some(VerdictClass::Redirect) => "redirect",
        Some(VerdictClass::Blocked) => "blocked",
        None => "unknown",
    }
}

/// The words of class `class` in the loop's vocabulary, quoted, in order.
fn words_of(cx: &Context, l: &LoopFlow, class: VerdictClass) -> Vec<String> {
    let Some(file) = l.vocabulary else {
        return Vec::new();
    };
    cx.artifact(file)
        .into_iter()
        .filter_map(|a| match &a.model {
            Model::SkilldropTerminals(t) => Some(t),
            _ => None,
        })
        .flat_map(|t| t.verdicts.iter())
        .filter(|(_, d)| VerdictClass::parse(&d.class.value) == Some(class))
        .map(|(w, _)| quote(w))
        .collect()
}
