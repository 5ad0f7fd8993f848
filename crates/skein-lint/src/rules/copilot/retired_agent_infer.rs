//! COP011 `retired-agent-infer`.

use super::copilot_file;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP011",
    name: "retired-agent-infer",
    severity: Severity::Warning,
    summary: "a Copilot custom agent that sets `infer`, retired in favour of `disable-model-invocation` and `user-invocable`",
    doc: include_str!("retired_agent_infer.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CopilotAgent]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(file) = copilot_file(cx, a, Format::CopilotAgent) else {
        return Vec::new();
    };
    if a.damaged {
        return Vec::new();
    }
    let Some(e) = file.field("infer") else {
        return Vec::new();
    };
    let doc = file.doc;
    let help = match doc.kind(doc.resolve(e.value)) {
        NodeKind::Bool(true) => {
            "remove `infer`: both fields that replace it default to letting the agent be picked by hand and used automatically".to_string()
        }
        NodeKind::Bool(false) => {
            "write `disable-model-invocation: true` in place of `infer: false` (GitHub's equivalent), and `user-invocable: false` as well if the agent should not be offered in the agent picker".to_string()
        }
        _ => "remove `infer`; set `disable-model-invocation` and `user-invocable` (booleans) instead".to_string(),
    };
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(e.key).span,
            "`infer` is retired in custom agents; use `disable-model-invocation` and `user-invocable`",
        )
        .with_label("retired field")
        .with_note("GitHub's custom agent configuration marks `infer` retired and VS Code's marks it deprecated: the two fields that replace it control automatic use and manual selection separately")
        .with_help(help),
    ]
}
