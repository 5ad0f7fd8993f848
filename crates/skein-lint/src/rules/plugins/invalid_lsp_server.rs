//! PLUGIN016 `invalid-lsp-server`.

use super::{kind_name, manifests, root_mapping, written};
use crate::rules::refs::closest;
use crate::{Context, Pass};
use skein_model::Format;
use skein_syntax::{Diagnostic, Document, FileId, NodeId, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN016",
    name: "invalid-lsp-server",
    severity: Severity::Error,
    summary: "a plugin LSP server without `command` or `extensionToLanguage`, or with a wrong `transport` or extension map",
    doc: include_str!("invalid_lsp_server.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// The transports the reference lists.
const TRANSPORTS: &[&str] = &["stdio", "socket"];

/// Every LSP server table of the run: a manifest's inline `lspServers`
/// object and each plugin's `.lsp.json`, as (file, document, table).
fn tables<'a>(cx: &'a Context) -> Vec<(FileId, &'a Document, NodeId, &'static str)> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        if let Some(t) = root_mapping(doc).and_then(|r| doc.get(r, "lspServers")) {
            // A string (or a list of strings) names a file: `.lsp.json` is
            // read as its own artifact.
            if matches!(doc.kind(t), NodeKind::Mapping(_)) {
                out.push((a.file, doc, t, "lspServers."));
            }
        }
    }
    for a in cx
        .artifacts
        .iter()
        .filter(|a| a.format == Format::ClaudeLspServers)
    {
        if let Some(r) = a.document.root() {
            out.push((a.file, &a.document, r, ""));
        }
    }
    out
}

fn server(
    cx: &Context,
    file: FileId,
    doc: &Document,
    at: &str,
    key: NodeId,
    value: NodeId,
    out: &mut Vec<Diagnostic>,
) {
    let name = doc.key_text(key).unwrap_or_default();
    if !matches!(doc.kind(value), NodeKind::Mapping(_)) {
        out.push(
            Diagnostic::new(
                RULE,
                file,
                doc.node(value).span,
                format!(
                    "LSP server `{at}{name}` is {}, not an object",
                    kind_name(doc, value)
                ),
            )
            .with_label("expected an object with `command` and `extensionToLanguage`"),
        );
        return;
    }
    let missing: Vec<&str> = ["command", "extensionToLanguage"]
        .into_iter()
        .filter(|f| doc.get(value, f).is_none())
        .collect();
    if !missing.is_empty() {
        let list = missing
            .iter()
            .map(|m| format!("`{m}`"))
            .collect::<Vec<_>>()
            .join(" or ");
        let mut d = Diagnostic::new(
            RULE,
            file,
            doc.node(key).span,
            format!("LSP server `{at}{name}` has no {list}"),
        )
        .with_label("Claude Code skips this server at startup")
        .with_note("`command` (the binary, on PATH) and `extensionToLanguage` (file extension to language id) are required");
        if missing.contains(&"extensionToLanguage") {
            d = d.with_help("add e.g. `\"extensionToLanguage\": {\".go\": \"go\"}`");
        }
        out.push(d);
    }
    if let Some(c) = doc.get(value, "command")
        && doc.as_str(c).is_none_or(|s| s.trim().is_empty())
    {
        out.push(
            Diagnostic::new(
                RULE,
                file,
                doc.node(c).span,
                format!(
                    "`{at}{name}.command` is {}, not the name of a program",
                    quote(written(cx, file, doc.node(c).span))
                ),
            )
            .with_label("expected a non-empty string"),
        );
    }
    if let Some(m) = doc.get(value, "extensionToLanguage") {
        match doc.entries(m) {
            None => out.push(
                Diagnostic::new(
                    RULE,
                    file,
                    doc.node(m).span,
                    format!(
                        "`{at}{name}.extensionToLanguage` is {}, not an object",
                        kind_name(doc, m)
                    ),
                )
                .with_label("expected an object of file extensions to language ids"),
            ),
            Some([]) => out.push(
                Diagnostic::new(
                    RULE,
                    file,
                    doc.node(m).span,
                    format!("`{at}{name}.extensionToLanguage` is empty"),
                )
                .with_label("the server handles no file"),
            ),
            Some(entries) => {
                for e in entries {
                    let ext = doc.key_text(e.key).unwrap_or_default();
                    if !ext.starts_with('.') || ext.len() < 2 {
                        out.push(
                            Diagnostic::new(
                                RULE,
                                file,
                                doc.node(e.key).span,
                                format!("file extension {} does not start with `.`", quote(&ext)),
                            )
                            .with_label("Claude Code matches extensions with their dot")
                            .with_help(format!(
                                "write {}",
                                quote(&format!(".{}", ext.trim_start_matches('.')))
                            )),
                        );
                    }
                    if doc.as_str(e.value).is_none_or(str::is_empty) {
                        out.push(
                            Diagnostic::new(
                                RULE,
                                file,
                                doc.node(e.value).span,
                                format!(
                                    "language id for {} is {}, not a string",
                                    quote(&ext),
                                    quote(written(cx, file, doc.node(e.value).span))
                                ),
                            )
                            .with_label("expected a language id such as `\"go\"`"),
                        );
                    }
                }
            }
        }
    }
    if let Some(t) = doc.get(value, "transport")
        && !doc.as_str(t).is_some_and(|s| TRANSPORTS.contains(&s))
    {
        let span = doc.node(t).span;
        let mut d = Diagnostic::new(
            RULE,
            file,
            span,
            format!(
                "`{at}{name}.transport` is {}, not `stdio` or `socket`",
                quote(written(cx, file, span))
            ),
        )
        .with_label("not a transport");
        if let Some((near, _)) = doc
            .as_str(t)
            .and_then(|s| closest(&s.to_ascii_lowercase(), TRANSPORTS.iter().copied()))
        {
            d = d.with_help(format!("did you mean {}?", quote(near)));
        }
        out.push(d);
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (file, doc, table, at) in tables(cx) {
        let Some(entries) = doc.entries(table) else {
            out.push(
                Diagnostic::new(
                    RULE,
                    file,
                    doc.node(table).span,
                    format!("LSP servers are {}, not an object", kind_name(doc, table)),
                )
                .with_label("expected an object of server names to server configs"),
            );
            continue;
        };
        for e in entries {
            server(cx, file, doc, at, e.key, e.value, &mut out);
        }
    }
    out
}
