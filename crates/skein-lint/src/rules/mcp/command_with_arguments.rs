//! MCP018 `command-with-arguments`.

use super::mcp_file;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP018",
    name: "command-with-arguments",
    severity: Severity::Warning,
    summary: "a local MCP server's `command` is a whole command line, which the client runs as one executable name",
    doc: include_str!("command_with_arguments.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// The words of `command` when it reads as a command line: a bare program
/// name (no path, no placeholder) followed by more words.
pub(crate) fn command_line(command: &str) -> Option<Vec<&str>> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let first = words.first()?;
    if words.len() < 2
        || first.contains(['/', '\\', '$', '{', '%', '"', '\''])
        || !first
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return None;
    }
    Some(words)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    let doc = f.doc;
    let mut out = Vec::new();
    for s in &f.servers {
        let Some(c) = doc.get(s.node, "command") else {
            continue;
        };
        let Some(command) = doc.as_str(c) else {
            continue;
        };
        let Some(words) = command_line(command) else {
            continue;
        };
        let args = words[1..]
            .iter()
            .map(|w| format!("\"{w}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let shell = command.contains(['|', '&', ';', '>', '<']);
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(c).span,
                format!(
                    "`command` of MCP server {} is a command line: {}",
                    quote(&s.name),
                    quote(command)
                ),
            )
            .with_label(format!(
                "{} starts a program named {} (no shell splits it)",
                f.spec.name,
                quote(command)
            ))
            .with_help(if shell {
                "shell syntax needs a shell: `\"command\": \"sh\", \"args\": [\"-c\", \"...\"]`, or better a script".to_string()
            } else {
                format!("write `\"command\": \"{}\", \"args\": [{args}]`", words[0])
            }),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::command_line;

    #[test]
    fn lines() {
        assert!(command_line("npx -y docs-mcp").is_some());
        assert!(command_line("node server.js").is_some());
        assert!(command_line("node").is_none());
        assert!(command_line("/Applications/My App/bin/x").is_none());
        assert!(command_line("C:\\Program Files\\x\\x.exe").is_none());
        assert!(command_line("${CLAUDE_PLUGIN_ROOT}/bin/x --flag").is_none());
    }
}
