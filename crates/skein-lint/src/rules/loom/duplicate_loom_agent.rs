//! LOOM007 `duplicate-loom-agent`.

use crate::rules::refs::dir_of;
use crate::{Context, Pass};
use skein_model::Model;
use skein_syntax::{Diagnostic, Rule, Severity, quote};
use std::collections::BTreeMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOM007",
    name: "duplicate-loom-agent",
    severity: Severity::Error,
    summary: "two Loom agent specs of one application with the same `name`",
    doc: include_str!("duplicate_loom_agent.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// The folder a spec's application loads agents from: the spec's own folder
/// for `<name>.agent.yaml`, the folder above for `<name>/agent.yaml`.
fn application(path: &str) -> &str {
    let dir = dir_of(path);
    let name = &path[dir.len()..];
    if matches!(name, "agent.yaml" | "agent.yml") {
        dir_of(dir.trim_end_matches('/'))
    } else {
        dir
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut seen: BTreeMap<(&str, &str), (skein_syntax::FileId, skein_syntax::Span)> =
        BTreeMap::new();
    let mut out = Vec::new();
    for a in cx.artifacts {
        let Model::LoomAgentSpec(s) = &a.model else {
            continue;
        };
        let app = application(cx.path(a.file));
        match seen.get(&(app, s.name.value.as_str())) {
            Some(&(file, span)) => out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    s.name.span,
                    format!(
                        "agent name {} is already used in this application",
                        quote(&s.name.value)
                    ),
                )
                .with_label("used again here")
                .with_secondary(file, span, "first used here")
                .with_help("agent names are unique within an application (they are published in the A2A card); rename one"),
            ),
            None => {
                seen.insert((app, s.name.value.as_str()), (a.file, s.name.span));
            }
        }
    }
    out
}
