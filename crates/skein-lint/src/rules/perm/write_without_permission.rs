//! PERM004 `write-without-permission`.

use crate::{Context, Pass};
use skein_model::Model;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PERM004",
    name: "write-without-permission",
    severity: Severity::Error,
    summary: "an OpenCode contract that records writes its permissions do not allow",
    doc: "## What it does\nReports an OpenCode orchestration contract whose outputs write while \
`governance.permissions.allowed_execution` is a list without `write`.\n\nOf the contract's \
`outputs`, only `code_changes` writes: each entry is a file the run created, modified or \
deleted (`change_type` `create`, `modify` or `delete`; an entry without `change_type` still \
names a changed file). `plan`, `architecture`, `test_results`, `agent_reports` and \
`score_summary` are records kept inside the contract itself and write nothing. The primary \
span is the first code change (its `change_type`, else its `file`, else the entry); \
`allowed_execution` is shown beside it.\n\nA contract without `allowed_execution` declares no \
restriction and is not reported; an `allowed_execution` that is not a list is a schema \
violation (SCH) and is not read.\n\n## Why is this bad?\nThe contract says the agents may not \
write, and its own record says they did: either the permission list is wrong and every \
pre-flight check built from it blocks the work, or the run broke its governance and the \
changes were never allowed.\n\n## Example\n```json\n\"governance\": {\"permissions\": \
{\"allowed_execution\": [\"read\", \"execute\"]}},\n\"outputs\": {\"code_changes\": \
[{\"file\": \"src/api.ts\", \"change_type\": \"modify\"}]}\n```\nUse instead: \
`\"allowed_execution\": [\"read\", \"write\", \"execute\"]`, or run the change under a \
contract that allows it.",
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
        if !matches!(a.model, Model::OpenCodeContract(_)) {
            continue;
        }
        let doc = &a.document;
        let Some(root) = doc.root() else { continue };
        let Some((allowed, granted)) = doc
            .get(root, "governance")
            .and_then(|g| doc.get(g, "permissions"))
            .and_then(|p| doc.get(p, "allowed_execution"))
            .and_then(|l| Some((l, doc.items(l)?)))
        else {
            continue;
        };
        let granted: Vec<&str> = granted.iter().filter_map(|&i| doc.as_str(i)).collect();
        if granted.contains(&"write") {
            continue;
        }
        let changes: Vec<_> = doc
            .get(root, "outputs")
            .and_then(|o| doc.get(o, "code_changes"))
            .and_then(|c| doc.items(c))
            .unwrap_or_default()
            .iter()
            .copied()
            .filter(|&i| doc.entries(i).is_some())
            .collect();
        let Some(&first) = changes.first() else {
            continue;
        };
        let change_type = doc.get(first, "change_type");
        let file = doc.get(first, "file");
        let verb = match change_type.and_then(|c| doc.as_str(c)) {
            Some(v) => quote(v),
            None => "change".to_string(),
        };
        let what = match file.and_then(|f| doc.as_str(f)) {
            Some(f) => format!("a {verb} of {}", quote(f)),
            None => format!("a {verb}"),
        };
        let span = doc.node(change_type.or(file).unwrap_or(first)).span;
        let allows = if granted.is_empty() {
            "allows nothing".to_string()
        } else {
            let q: Vec<String> = granted.iter().map(|g| quote(g)).collect();
            format!("allows only {}", q.join(", "))
        };
        let mut d = Diagnostic::new(
            RULE,
            a.file,
            span,
            format!(
                "contract records {what} in `outputs.code_changes`, but \
                 `governance.permissions.allowed_execution` does not allow `write`"
            ),
        )
        .with_label("this output writes a file")
        .with_secondary(a.file, doc.node(allowed).span, allows)
        .with_help(
            "add `write` to `allowed_execution` (valid: `read`, `write`, `execute`, `deploy`), \
             or drop the change",
        );
        if changes.len() > 1 {
            d = d.with_note(format!(
                "`outputs.code_changes` records {} changes; all write",
                changes.len()
            ));
        }
        out.push(d);
    }
    out
}
