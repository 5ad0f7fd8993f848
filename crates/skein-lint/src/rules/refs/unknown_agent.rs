//! REF003 `unknown-agent`.

use super::closest;
use crate::{Context, Pass};
use skein_model::Model;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF003",
    name: "unknown-agent",
    severity: Severity::Info,
    summary: "an a2a delegation to an agent outside the repository whose name is one edit or two from a repository agent",
    doc: include_str!("unknown_agent.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

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
        // Loom resolves an a2a agent from `ai.a2a_agents` in deployment
        // configuration: one absent from the repository is normal. Only a
        // name a repository agent nearly has is worth a word (a likely typo).
        let Some((name, _)) = closest(&u.name, agents.iter().copied()) else {
            continue;
        };
        out.push(
            Diagnostic::new(
                RULE,
                u.file,
                u.span,
                format!(
                    "agent {} is not in the repository; Loom resolves it from `ai.a2a_agents` in deployment configuration",
                    quote(&u.name)
                ),
            )
            .with_label(format!("close to the repository's agent {}", quote(name)))
            .with_note(format!("skein looked for {}", u.searched))
            .with_help(format!(
                "if you meant the repository's agent, write {}; otherwise make sure the deployment declares {}",
                quote(name),
                quote(&u.name)
            )),
        );
    }
    out
}
