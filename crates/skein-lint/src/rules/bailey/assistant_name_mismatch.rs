//! BAILEY006 `assistant-name-mismatch`.

use super::{assistant, plugin_manifest};
use crate::rules::refs::dir_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format, Model};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "BAILEY006",
    name: "assistant-name-mismatch",
    severity: Severity::Error,
    summary: "a Bailey assistant whose `name` differs from its plugin's `plugin.json` name",
    doc: include_str!("assistant_name_mismatch.md"),
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
    let Some((b, _, _)) = assistant(a) else {
        return Vec::new();
    };
    let Some(p) = plugin_manifest(cx, dir_of(cx.path(a.file))) else {
        return Vec::new();
    };
    let Model::Plugin(m) = &p.model else {
        return Vec::new();
    };
    let (Some(name), Some(written)) = (m.name_str(), m.name.as_ref()) else {
        return Vec::new();
    };
    // A name outside the plugin name grammar is the schema's finding.
    let grammar = |n: &str| {
        n.bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'.' || c == b'-')
    };
    if name == b.name.value || !grammar(&b.name.value) {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            b.name.span,
            format!(
                "assistant name {} differs from the plugin's name {}",
                quote(&b.name.value),
                quote(name)
            ),
        )
        .with_label(format!("`{}` says {}", cx.path(p.file), quote(name)))
        .with_secondary(p.file, written.span, "the plugin's name")
        .with_help(format!("set `\"name\": \"{name}\"` (or rename the plugin)")),
    ]
}
