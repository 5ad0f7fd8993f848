//! MCP002 `unknown-server-field`.

use super::{Client, Spec, mcp_file};
use crate::rules::refs::closest;
use crate::similar::fold;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP002",
    name: "unknown-server-field",
    severity: Severity::Warning,
    summary: "a key of an MCP server that the file's client does not read",
    doc: include_str!("unknown_server_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// Keys other clients (or nobody) spell for a key of this one.
const ALIASES: &[(&str, &str)] = &[
    ("transport", "type"),
    ("transportType", "type"),
    ("environment", "env"),
    ("env", "environment"),
    ("envs", "env"),
    ("serverUrl", "url"),
    ("httpUrl", "url"),
    ("endpoint", "url"),
    ("uri", "url"),
    ("headers", "http_headers"),
    ("cmd", "command"),
    ("executable", "command"),
    ("arguments", "args"),
    ("argv", "args"),
    ("workingDirectory", "cwd"),
    ("working_directory", "cwd"),
    ("workdir", "cwd"),
    ("timeout", "tool_timeout_sec"),
    ("disabled", "enabled"),
];

/// The key `key` was probably meant to be, among the keys `spec` reads.
pub(crate) fn suggestion(spec: &Spec, key: &str) -> Option<&'static str> {
    let all = || {
        spec.common_fields
            .iter()
            .chain(spec.stdio_fields)
            .chain(spec.remote_fields)
            .copied()
    };
    if let Some(&(_, to)) = ALIASES
        .iter()
        .find(|(from, to)| *from == key && spec.knows(to))
    {
        return all().find(|k| *k == to);
    }
    let folded = fold(key);
    all()
        .find(|k| fold(k) == folded)
        .or_else(|| closest(key, all()).map(|(c, _)| c))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    if !f.spec.check_fields {
        return Vec::new();
    }
    let doc = f.doc;
    let mut out = Vec::new();
    for s in &f.servers {
        for e in doc.entries(s.node).unwrap_or_default() {
            let Some(key) = doc.as_str(e.key) else {
                continue;
            };
            if f.spec.knows(key) {
                continue;
            }
            let span = doc.node(e.key).span;
            let mut d = match suggestion(f.spec, key) {
                Some(to) => Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "MCP server {} has unknown key {}; did you mean {}?",
                        quote(&s.name),
                        quote(key),
                        quote(to)
                    ),
                )
                .with_label(format!("{} does not read this key", f.spec.name))
                .with_help(format!("rename the key to {}", quote(to))),
                None => Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "MCP server {} has unknown key {}",
                        quote(&s.name),
                        quote(key)
                    ),
                )
                .with_label(format!("{} does not read this key", f.spec.name))
                .with_help(format!(
                    "{} reads {}; remove the key if it is not one of them",
                    f.spec.name,
                    list(f.spec)
                )),
            };
            if key == "transport" && doc.entries(e.value).is_some() {
                d = d.with_note(format!(
                    "{} reads `type`, `url`, `command` and `headers` on the server itself: move them out of `transport`",
                    f.spec.name
                ));
            }
            if f.client == Client::ClaudeDesktop && (key == "url" || key == "headers") {
                d = d.with_note(
                    "Claude Desktop starts only local servers from this file; remote servers are added as connectors in its settings",
                );
            }
            out.push(d);
        }
    }
    out
}

fn list(spec: &Spec) -> String {
    let mut keys: Vec<&str> = spec
        .common_fields
        .iter()
        .chain(spec.stdio_fields)
        .chain(spec.remote_fields)
        .copied()
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys.iter().map(|k| quote(k)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::Client;
    use super::suggestion;

    #[test]
    fn suggestions() {
        let cc = Client::ClaudeCode.spec();
        assert_eq!(suggestion(cc, "transport"), Some("type"));
        assert_eq!(suggestion(cc, "environment"), Some("env"));
        assert_eq!(suggestion(cc, "Command"), Some("command"));
        let oc = Client::OpenCode.spec();
        assert_eq!(suggestion(oc, "env"), Some("environment"));
        let cx = Client::Codex.spec();
        assert_eq!(suggestion(cx, "headers"), Some("http_headers"));
        assert_eq!(suggestion(cx, "transport"), None);
    }
}
