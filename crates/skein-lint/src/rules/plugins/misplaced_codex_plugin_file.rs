//! PLUGIN019 `misplaced-codex-plugin-file`.

use crate::{Context, Pass};
use skein_model::Format;
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN019",
    name: "misplaced-codex-plugin-file",
    severity: Severity::Warning,
    summary: "a file other than `plugin.json` inside a Codex plugin's `.codex-plugin/` folder, where Codex never looks for it",
    doc: include_str!("misplaced_codex_plugin_file.md"),
    fix: None,
};

/// The pass: it reads the manifests' paths and the repository's file
/// list, not the graph.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// Where Codex looks for what a misplaced file looks like, by file name.
fn home_of(name: &str) -> Option<&'static str> {
    Some(match name {
        "hooks.json" => "`hooks/hooks.json` at the plugin root",
        ".mcp.json" | "mcp.json" => "`.mcp.json` at the plugin root",
        ".app.json" | "app.json" => "`.app.json` at the plugin root",
        "SKILL.md" => "a skill folder under `skills/` at the plugin root",
        _ => return None,
    })
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in cx.artifacts {
        if a.format != Format::CodexPlugin {
            continue;
        }
        let path = cx.path(a.file);
        let Some(dir) = path.strip_suffix("plugin.json") else {
            continue;
        };
        if !(dir == ".codex-plugin/" || dir.ends_with("/.codex-plugin/")) {
            continue;
        }
        for stray in cx.repo_files.starting_with(dir) {
            if stray == path {
                continue;
            }
            let inner = &stray[dir.len()..];
            let name = inner.rsplit('/').next().unwrap_or(inner);
            let help = match home_of(name) {
                Some(home) => format!(
                    "move it out of `.codex-plugin/`: Codex reads it as {home} (or from the path the manifest names)"
                ),
                None => "move it to the plugin root and name it from the manifest with a `./` path, or remove it".to_string(),
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    Span::empty(0),
                    format!(
                        "{} is inside `.codex-plugin/`, where Codex reads only `plugin.json`",
                        quote(stray)
                    ),
                )
                .with_label("the plugin's manifest")
                .with_note("Codex never loads a skill, hooks file, MCP or app configuration from `.codex-plugin/`: the plugin installs without it")
                .with_help(help),
            );
        }
    }
    out
}
