//! MCP001 `wrong-servers-key`.

use super::{Client, WRAPPERS, mcp_file};
use crate::{Context, FilePass, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP001",
    name: "wrong-servers-key",
    severity: Severity::Error,
    summary: "MCP servers sit under a top-level key the file's client does not read",
    doc: include_str!("wrong_servers_key.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    // A plugin manifest's top-level keys are the PLUGIN rules'; the Agent
    // Plugins schema closes its file.
    if matches!(a.format, Format::ClaudePlugin | Format::AgentPluginsMcp) {
        return Vec::new();
    }
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    if f.client == Client::Unknown {
        return Vec::new();
    }
    let doc = f.doc;
    let has_own = doc.get(f.root, f.spec.key).is_some();
    let mut out = Vec::new();
    for e in doc.entries(f.root).unwrap_or_default() {
        let Some(key) = doc.as_str(e.key) else {
            continue;
        };
        if key == f.spec.key
            || !WRAPPERS.contains(&key)
            || !matches!(doc.kind(doc.resolve(e.value)), NodeKind::Mapping(_))
            // Gemini CLI's `mcp` holds its allow and deny lists.
            || (f.client == Client::Gemini && key == "mcp")
        {
            continue;
        }
        let label = if has_own {
            format!(
                "{} ignores this key: the servers under it are not configured",
                f.spec.name
            )
        } else {
            format!(
                "{} ignores this key: the file configures no MCP server",
                f.spec.name
            )
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(e.key).span,
                format!(
                    "{} reads MCP servers from {}, not {}",
                    f.spec.name,
                    quote(f.spec.key),
                    quote(key)
                ),
            )
            .with_label(label)
            .with_note(format!("{}: {}", f.spec.name, f.spec.source))
            .with_help(if has_own {
                format!("move these servers under {}", quote(f.spec.key))
            } else {
                format!("rename the key to {}", quote(f.spec.key))
            }),
        );
    }
    out
}
