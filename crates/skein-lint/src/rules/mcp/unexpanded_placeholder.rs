//! MCP007 `unexpanded-placeholder`.

use super::{
    Client, McpFile, PlaceholderKind, Placeholders, mcp_file, placeholders, string_values,
};
use crate::rules::sec::sub_span;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP007",
    name: "unexpanded-placeholder",
    severity: Severity::Warning,
    summary: "a placeholder in an MCP server is in a syntax its client does not expand, so it reaches the server as written",
    doc: include_str!("unexpanded_placeholder.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Repository,
    on: super::ON,
};

/// Variables Claude Code sets only when it expands a plugin's MCP config
/// (its changelog, 2.1.139: "Plugin configs can reference
/// `${CLAUDE_PROJECT_DIR}`"; the plugin reference for the other two).
const PLUGIN_ONLY: &[&str] = &[
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_PLUGIN_ROOT",
    "CLAUDE_PLUGIN_DATA",
];

/// Cursor's predefined variables.
const CURSOR_VARIABLES: &[&str] = &[
    "workspaceFolder",
    "workspaceFolderBasename",
    "userHome",
    "pathSeparator",
    "/",
];

/// What the client would expand instead, or `None` when it expands `p` as written.
fn fix(style: Placeholders, p: &PlaceholderKind) -> Option<String> {
    use PlaceholderKind as K;
    let var = match p {
        K::Shell(v, _) | K::Env(v) | K::Brace(v) | K::Bare(v) => Some(v.as_str()),
        _ => None,
    };
    let or = |f: &dyn Fn(&str) -> String| match var {
        Some(v) => f(v),
        None => "a value the client expands".into(),
    };
    match style {
        Placeholders::Shell => match p {
            K::Shell(..) => None,
            _ => Some(or(&|v| format!("`${{{v}}}`"))),
        },
        Placeholders::VsCode => match p {
            K::Env(_) | K::Input(_) | K::Editor(_) | K::Prefixed(_) => None,
            _ => Some(or(&|v| format!("`${{env:{v}}}`"))),
        },
        Placeholders::Cursor => match p {
            K::Env(_) => None,
            K::Editor(e) if CURSOR_VARIABLES.contains(&e.as_str()) => None,
            K::Input(_) => Some("`${env:NAME}` (Cursor has no `inputs`)".into()),
            _ => Some(or(&|v| format!("`${{env:{v}}}`"))),
        },
        Placeholders::Windsurf => match p {
            K::Env(_) => None,
            K::Prefixed(x) if x.starts_with("file:") => None,
            _ => Some(or(&|v| format!("`${{env:{v}}}`"))),
        },
        Placeholders::Gemini => match p {
            K::Shell(..) | K::Bare(_) => None,
            _ => Some(or(&|v| format!("`${{{v}}}`"))),
        },
        Placeholders::OpenCode => match p {
            K::Brace(_) => None,
            _ => Some(or(&|v| format!("`{{env:{v}}}`"))),
        },
        Placeholders::Literal => Some(
            "`env_vars = [\"NAME\"]` to pass a variable through (or `bearer_token_env_var` for a token); Codex expands no placeholders"
                .into(),
        ),
        Placeholders::Unchecked => None,
    }
}

/// Whether folder `dir` is a plugin's root: it has a manifest, or a
/// marketplace of the repository lists it as a local source (a `strict:
/// false` entry needs no manifest).
fn plugin_dir(cx: &Context, dir: &str) -> bool {
    let manifest = if dir.is_empty() {
        ".claude-plugin/plugin.json".to_string()
    } else {
        format!("{dir}/.claude-plugin/plugin.json")
    };
    cx.repo_files.contains(&manifest)
        || cx.graph.marketplaces().iter().any(|m| {
            m.entries.iter().any(|e| {
                matches!(&e.source, skein_model::graph::EntrySource::Local { target: Some(t), .. } if t == dir)
            })
        })
}

/// Whether server `node` runs a shell, which expands `$VAR` in its arguments itself.
fn runs_shell(f: &McpFile, node: skein_syntax::NodeId) -> bool {
    let cmd = f.doc.get(node, "command");
    let first = cmd.and_then(|c| {
        f.doc.as_str(c).or_else(|| {
            f.doc
                .items(c)
                .and_then(|i| i.first())
                .and_then(|&i| f.doc.as_str(i))
        })
    });
    first.is_some_and(|c| {
        let base = c.rsplit(['/', '\\']).next().unwrap_or(c);
        let base = base.trim_end_matches(".exe");
        matches!(
            base,
            "sh" | "bash" | "zsh" | "dash" | "ksh" | "fish" | "cmd" | "powershell" | "pwsh" | "env"
        )
    })
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    let style = f.spec.placeholders;
    if style == Placeholders::Unchecked {
        return Vec::new();
    }
    // Read only for a finding's span.
    let src = cx.sources.get(a.file);
    let path = cx.path(a.file);
    // A project's `.mcp.json` (not a plugin's): Claude Code sets the
    // plugin variables and `CLAUDE_PROJECT_DIR` only for plugin configs.
    // A plugin's is at its root, or anywhere in it when its manifest names
    // it (`"mcpServers": "./.claude-plugin/mcp.json"`).
    let project = f.client == Client::ClaudeCode
        && a.format == skein_model::Format::McpConfig
        && !plugin_dir(cx, path.rsplit_once('/').map_or("", |(d, _)| d))
        && !super::in_claude_plugin(cx.repo_files, path);
    let mut out = Vec::new();
    for s in &f.servers {
        let shell = runs_shell(&f, s.node);
        for n in string_values(f.doc, s.node) {
            let Some(v) = f.doc.as_str(n) else {
                continue;
            };
            for p in placeholders(v) {
                if matches!(p.kind, PlaceholderKind::Bare(_)) && shell {
                    continue;
                }
                if project
                    && let PlaceholderKind::Shell(name, false) = &p.kind
                    && PLUGIN_ONLY.contains(&name.as_str())
                {
                    let span = sub_span(f.doc, n, src.text(), p.range.clone());
                    out.push(
                        Diagnostic::new(
                            RULE,
                            a.file,
                            span,
                            format!(
                                "{} in MCP server {} is not set for a project's `.mcp.json`",
                                quote(&p.text),
                                quote(&s.name)
                            ),
                        )
                        .with_label("Claude Code provides this variable to plugin configs, not to a project's `.mcp.json`")
                        .with_help(if name == "CLAUDE_PROJECT_DIR" {
                            "give it a default, `${CLAUDE_PROJECT_DIR:-.}`, or a path relative to the project".to_string()
                        } else {
                            "use a path relative to the project (this file is not a plugin's)".to_string()
                        }),
                    );
                    continue;
                }
                // `${input:...}` in VS Code is MCP008's when undefined.
                let Some(instead) = fix(style, &p.kind) else {
                    continue;
                };
                let span = sub_span(f.doc, n, src.text(), p.range.clone());
                let label = if f.client == Client::Codex {
                    "Codex passes this text as written".to_string()
                } else {
                    format!("{} does not expand this syntax", f.spec.name)
                };
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        span,
                        format!(
                            "{} in MCP server {} is not expanded by {}",
                            quote(&p.text),
                            quote(&s.name),
                            f.spec.name
                        ),
                    )
                    .with_label(label)
                    .with_help(format!("write {instead}")),
                );
            }
        }
    }
    out
}
