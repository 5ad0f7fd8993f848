//! MCP016 `non-portable-command`.

use super::{Client, mcp_file};
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP016",
    name: "non-portable-command",
    severity: Severity::Error,
    summary: "an Agent Plugins stdio server's `command` is neither a bare executable name nor a `./` path in the plugin",
    doc: include_str!("non_portable_command.md"),
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
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    if f.client != Client::AgentPlugins {
        return Vec::new();
    }
    let doc = f.doc;
    let mut out = Vec::new();
    for s in &f.servers {
        let Some(c) = doc.get(s.node, "command") else {
            continue;
        };
        let Some(cmd) = doc.as_str(c) else {
            continue;
        };
        let bare = !cmd.is_empty() && !cmd.contains(['/', '\\']);
        if bare || cmd.starts_with("./") || cmd.starts_with("${PLUGIN_ROOT}/") {
            continue;
        }
        let absolute = cmd.starts_with(['/', '\\', '~'])
            || (cmd.len() >= 3
                && cmd.as_bytes()[1] == b':'
                && matches!(cmd.as_bytes()[2], b'\\' | b'/'));
        let (why, help) = if absolute {
            (
                "an absolute path names a file of one machine",
                "name the executable alone (found on `PATH`) or ship it in the plugin as `./bin/...`"
                    .to_string(),
            )
        } else {
            (
                "a relative path must start with `./` (resolved from the plugin root)",
                format!(
                    "write {}",
                    quote(&format!("./{}", cmd.trim_start_matches("../")))
                ),
            )
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(c).span,
                format!(
                    "`command` of MCP server {} is {}, which Agent Plugins does not resolve",
                    quote(&s.name),
                    quote(cmd)
                ),
            )
            .with_label(why)
            .with_help(help),
        );
    }
    out
}
