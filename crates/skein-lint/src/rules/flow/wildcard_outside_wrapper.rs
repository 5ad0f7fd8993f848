//! FLOW008 `wildcard-outside-wrapper`.

use crate::{Context, Pass};
use skein_model::Model;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "FLOW008",
    name: "wildcard-outside-wrapper",
    severity: Severity::Error,
    summary: "a stage skill `*` in a loop whose `kind` is not `wrapper`",
    doc: "## What it does\nReports a stage of a skilldrop loop that lists the skill `*` (\"any \
generator, chosen at run time\") when the loop's `kind` is not `wrapper`. The loop's `kind` is \
shown beside it.\n\n## Why is this bad?\nOnly a wrapper has a generator slot: its stages are the \
passes either side of a skill the caller picks. In an ordinary loop `*` names no skill, so the \
stage runs nothing, or whatever the runner happens to choose, and no check can tell which skill \
the loop depends on (skilldrop: \"`*` means any generator, and is legal only in a wrapper\").\n\n\
## Example\n```json\n{\"name\": \"review\", \"kind\": \"loop\", \"stages\": [\n  {\"id\": \"draft\", \
\"skills\": [\"*\"]}, ...]}\n```\nUse instead: name the skill (`\"skills\": [\"draft\"]`), or make \
the loop a wrapper (`\"kind\": \"wrapper\"`) if the generator really is the caller's choice.",
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
        if l.kind.as_ref().is_some_and(|k| k.value == "wrapper") {
            continue;
        }
        for stage in &l.stages {
            for skill in stage.skills.iter().filter(|s| s.value == "*") {
                let kind = match &l.kind {
                    Some(k) => format!("of kind {}", quote(&k.value)),
                    None => "with no `kind`".to_string(),
                };
                let mut d = Diagnostic::new(
                    RULE,
                    a.file,
                    skill.span,
                    format!(
                        "stage {} runs `*` (any generator), but loop {} is not a wrapper",
                        quote(&stage.id.value),
                        quote(&l.name.value)
                    ),
                )
                .with_label(format!("`*` in a loop {kind}"))
                .with_help(
                    "name the skill this stage runs, or make the loop `\"kind\": \"wrapper\"`",
                );
                if let Some(k) = &l.kind {
                    d = d.with_secondary(a.file, k.span, "the loop is not a wrapper");
                }
                out.push(d);
            }
        }
    }
    out
}
