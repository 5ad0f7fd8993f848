//! BAILEY007 `assistant-not-named`.

use super::{assistant, plugin_manifest};
use crate::rules::refs::dir_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "BAILEY007",
    name: "assistant-not-named",
    severity: Severity::Error,
    summary: "a plugin whose `plugin.json` does not name its `assistant.json` in `extensions[\"org.sigrix\"].assistant`",
    doc: include_str!("assistant_not_named.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Repository,
    on: On::Formats(&[Format::BaileyAssistant]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if assistant(a).is_none() {
        return Vec::new();
    }
    let path = cx.path(a.file);
    let dir = dir_of(path);
    let file_name = &path[dir.len()..];
    let Some(p) = plugin_manifest(cx, dir) else {
        return Vec::new();
    };
    let doc = &p.document;
    let Some(root) = doc.root() else {
        return Vec::new();
    };
    let named = doc
        .get(root, "extensions")
        .and_then(|e| doc.get(e, "org.sigrix"))
        .and_then(|s| doc.get(s, "assistant"));
    let at = doc
        .get_entry(root, "name")
        .map_or_else(|| doc.node(root).span, |e| doc.node(e.key).span);
    let (span, message) = match named.map(|v| (v, doc.as_str(v))) {
        Some((_, Some(v))) if v.trim_start_matches("./") == file_name => return Vec::new(),
        Some((v, Some(other))) => (
            doc.node(v).span,
            format!(
                "the plugin names {} as its assistant, not {}",
                quote(other),
                quote(file_name)
            ),
        ),
        Some((v, None)) => (
            doc.node(v).span,
            "`extensions[\"org.sigrix\"].assistant` is not a path".to_string(),
        ),
        None => (
            at,
            format!(
                "the plugin does not name {} in `extensions[\"org.sigrix\"].assistant`",
                quote(file_name)
            ),
        ),
    };
    vec![
        Diagnostic::new(RULE, p.file, span, message)
            .with_label("Bailey finds the solution document through this member")
            .with_secondary(a.file, Span::new(0, 0), "the solution document")
            .with_help(format!(
                "set `\"extensions\": {{\"org.sigrix\": {{\"assistant\": \"{file_name}\"}}}}` in `{}`",
                cx.path(p.file)
            )),
    ]
}

use skein_syntax::Span;
