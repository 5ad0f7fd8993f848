//! REF003 `unknown-agent`.

use super::closest;
use crate::{Context, Pass};
use skein_model::Model;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF003",
    name: "unknown-agent",
    severity: Severity::Error,
    summary: "a delegation to an agent that does not exist",
    doc: "## What it does\nReports a Loom AgentSpec `a2a` capability whose `agent` names no Loom \
agent spec (`*.agent.yaml`, `agent.yaml` with `spec_version`) anywhere in the repository. The \
help names the closest existing agent when one is within two edits.\n\n## Why is this bad?\nThe \
delegation fails at run time, the first time the agent tries to hand work over: the caller \
either errors or carries on without the answer it needed.\n\n## Example\n```yaml\n# planner.agent.yaml\n\
capabilities:\n  - kind: a2a\n    agent: reseacher\n```\nUse instead:\n```yaml\ncapabilities:\n  - kind: a2a\n    \
agent: researcher   # researcher.agent.yaml has name: researcher\n```",
};

/// The pass.
pub const PASS: Pass = Pass { rule: RULE, check };

fn check(cx: &Context) -> Vec<Diagnostic> {
    let agents: Vec<&str> = cx
        .artifacts
        .iter()
        .filter_map(|a| match &a.model {
            Model::LoomAgentSpec(s) => Some(s.name.value.as_str()),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for u in cx
        .graph
        .unresolved()
        .iter()
        .filter(|u| u.expected == "agent")
    {
        let mut d = Diagnostic::new(
            RULE,
            u.file,
            u.span,
            format!("unknown agent {}", quote(&u.name)),
        )
        .with_label("no agent has this name")
        .with_note(format!("skein looked for {}", u.searched));
        if let Some((name, _)) = closest(&u.name, agents.iter().copied()) {
            d = d.with_help(format!("did you mean {}?", quote(name)));
        }
        out.push(d);
    }
    out
}
