//! PERM003 `conflicting-actions`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format, Model};
use skein_syntax::{Diagnostic, Document, NodeId, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PERM003",
    name: "conflicting-actions",
    severity: Severity::Error,
    summary: "a Loopmaster action both allowed and forbidden",
    doc: "## What it does\nReports an action that a Loopmaster manifest lists both in \
`permissions.allowed_actions` and in `permissions.forbidden_actions`. The later of the two \
occurrences is the primary span; the other is shown beside it. Actions compare as written \
(case-sensitive), as the manifest spec names them.\n\n## Why is this bad?\nLoopmaster v0.1 \
§5 says the loop may perform an allowed action autonomously and MUST NOT perform a forbidden \
one. An action in both lists has no meaning a runner can honour: one runner lets the loop \
spend money unattended, another stops it, and a reviewer reading either list is misled.\n\n\
## Example\n```yaml\npermissions:\n  allowed_actions: [read_web, write_report, spend_money]\n  \
forbidden_actions: [spend_money]\n```\nUse instead: keep the action in one list, \
`forbidden_actions` when the loop must ask a human first.",
    fix: None,
};

/// The pass: a manifest's own lists, so local (the repository half keeps
/// no Loopmaster tree, issue #17).
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::LoopmasterManifest]),
};

/// The strings of `permissions.<key>`, with spans, first occurrence of each.
fn actions(doc: &Document, permissions: NodeId, key: &str) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::new();
    for &i in doc
        .get(permissions, key)
        .and_then(|l| doc.items(l))
        .unwrap_or_default()
    {
        if let Some(s) = doc.as_str(i)
            && !out.iter().any(|(v, _)| v == s)
        {
            out.push((s.to_string(), doc.node(i).span));
        }
    }
    out
}

fn check(_: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Model::LoopmasterManifest(m) = &a.model else {
        return Vec::new();
    };
    let doc = &a.document;
    let Some(permissions) = doc.root().and_then(|r| doc.get(r, "permissions")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let allowed = actions(doc, permissions, "allowed_actions");
    let forbidden = actions(doc, permissions, "forbidden_actions");
    for (action, f_span) in &forbidden {
        let Some((_, a_span)) = allowed.iter().find(|(v, _)| v == action) else {
            continue;
        };
        let (primary, secondary, here, there) = if f_span.start > a_span.start {
            (*f_span, *a_span, "forbidden here", "allowed here")
        } else {
            (*a_span, *f_span, "allowed here", "forbidden here")
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                primary,
                format!(
                    "action {} of loop {} is both allowed and forbidden",
                    quote(action),
                    quote(&m.id.value)
                ),
            )
            .with_label(here)
            .with_secondary(a.file, secondary, there)
            .with_help(format!(
                "keep {} in one list: `forbidden_actions` if the loop must ask first, \
                 `allowed_actions` if it may act alone",
                quote(action)
            )),
        );
    }
    out
}
