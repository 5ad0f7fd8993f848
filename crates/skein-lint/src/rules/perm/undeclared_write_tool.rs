//! PERM001 `undeclared-write-tool`.

use crate::{Context, Pass};
use petgraph::visit::EdgeRef;
use skein_model::graph::{AssistantMcp, EdgeKind, NodeKind};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, FileId, Rule, Severity, Span, quote};
use std::collections::HashMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "PERM001",
    name: "undeclared-write-tool",
    severity: Severity::Warning,
    summary: "a tool that can change something outside the conversation and is not declared as a write",
    doc: "## What it does\nChecks each Bailey assistant's tool declarations against its MCP \
config (its `mcp` member, resolved relative to `assistant.json`) and against what its parts \
grant. It reports:\n\n\
- a server of the MCP config with no entry in the assistant's `tools` (primary span: the \
server in the config; its tools are all undeclared);\n\
- a skill the assistant loads (`instructions`, `skills[].path`), or a plugin agent of the \
assistant's plugin (`agents/*.md` beside `assistant.json`), whose `allowed-tools` or `tools` \
grants a write-capable tool the assistant declares less for.\n\n\
What \"declares less\" means, per grant:\n\n\
- `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, `Bash` (with or without a command pattern): \
always. A Bailey assistant declares writes only for MCP tools, so a built-in write tool \
granted by one of its parts is never declared.\n\
- `mcp__<server>__<tool>`: when `tools.<server>` does not list the tool (in `tools` or \
`write_tools`). A tool declared in `tools` and not in `write_tools` is declared read-only and \
not reported; one in `write_tools` is a declared write.\n\
- `mcp__<server>` or `mcp__<server>__*` (every tool of the server): always, since the grant \
covers tools the assistant does not list.\n\n\
A grant naming a server the assistant neither connects to nor declares is not about this \
assistant and is skipped. Other containers (a plain Claude Code or Agent Plugins plugin, an \
OpenCode agent) declare no read/write split at all, so they declare neither less nor more and \
this rule says nothing about their parts.\n\n## Why is this bad?\nA Bailey client asks before \
a write, and treats as a write any tool missing from its server's declaration and every tool \
of a server missing from `tools`. An undeclared tool therefore either interrupts every use \
with a question the writer never meant to ask, or, when a skill pre-approves it in \
`allowed-tools`, runs a write that nobody declared and nobody is asked about.\n\n## Example\n\
```json\n// mcp.json\n{\"mcpServers\": {\"gmail\": {\"command\": \"gmail-mcp\"}, \
\"crm\": {\"command\": \"crm-mcp\"}}}\n// assistant.json\n\"mcp\": \"mcp.json\",\n\"tools\": \
{\"gmail\": {\"tools\": [\"search_threads\"], \"write_tools\": [\"send_email\"]}}\n```\n\
Use instead: list every write in `tools` too, and declare every server:\n```json\n\"tools\": {\
\n  \"gmail\": {\"tools\": [\"search_threads\", \"send_email\"], \"write_tools\": \
[\"send_email\"]},\n  \"crm\": {\"tools\": [\"lookup_customer\"]}\n}\n```\n\n## Known \
problems\nAn MCP config that is not an MCP config artifact of the repository (a file name \
other than `mcp.json` / `.mcp.json`) is not read, so its servers are not checked.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

/// Built-in tools that change files or run commands.
const WRITE_BUILTINS: &[&str] = &["Write", "Edit", "MultiEdit", "NotebookEdit", "Bash"];

/// One grant of an `allowed-tools` / `tools` value.
enum Grant<'a> {
    /// A built-in write tool.
    Builtin,
    /// An MCP tool; `tool` is `None` for every tool of the server.
    Mcp {
        server: &'a str,
        tool: Option<&'a str>,
    },
}

fn classify(token: &str) -> Option<Grant<'_>> {
    if let Some(rest) = token.strip_prefix("mcp__") {
        let (server, tool) = match rest.split_once("__") {
            Some((s, "" | "*")) => (s, None),
            Some((s, t)) => (s, Some(t)),
            None => (rest, None),
        };
        return (!server.is_empty()).then_some(Grant::Mcp { server, tool });
    }
    let name = token.split('(').next().unwrap_or(token).trim();
    WRITE_BUILTINS.contains(&name).then_some(Grant::Builtin)
}

/// Splits a tool list at commas and blanks outside parentheses
/// (`Read, Bash(git log:*)`).
fn split_tools(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if depth == 0 && (c == ',' || c.is_whitespace()) => {
                if start < i {
                    out.push(&s[start..i]);
                }
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Every tool granted by `allowed-tools` and `tools` of a Markdown artifact's
/// frontmatter, with the span of each token in `text` (the whole value when
/// the token cannot be found in the source, as in a folded or escaped
/// scalar, or `text` is `None`: the tokens are read from the document, and
/// the text only for the spans of a finding's tokens).
fn grants_in(a: &Artifact, text: Option<&str>) -> Vec<(String, Span)> {
    let doc = &a.document;
    let Some(root) = doc.root() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut scalar = |id| {
        let Some(s) = doc.as_str(id) else { return };
        let span = doc.node(id).span;
        let raw = text.and_then(|t| t.get(span.range())).unwrap_or("");
        let mut cursor = 0;
        for t in split_tools(s) {
            let sub = match raw[cursor..].find(t) {
                Some(p) => {
                    cursor += p + t.len();
                    Span::new(
                        span.start as usize + cursor - t.len(),
                        span.start as usize + cursor,
                    )
                }
                None => span,
            };
            out.push((t.to_string(), sub));
        }
    };
    for key in ["allowed-tools", "tools"] {
        let Some(v) = doc.get(root, key) else {
            continue;
        };
        match doc.items(v) {
            Some(items) => items.iter().for_each(|&i| scalar(i)),
            None => scalar(v),
        }
    }
    out
}

/// What a grant asks of the assistant, when it declares less: the message
/// tail and the help.
fn undeclared(a: &AssistantMcp, servers: &[&str], token: &str) -> Option<(String, String)> {
    match classify(token)? {
        Grant::Builtin => Some((
            "a built-in write tool, which a Bailey assistant cannot declare".to_string(),
            format!(
                "remove {} from the grant; a Bailey assistant declares writes only for MCP tools",
                quote(token)
            ),
        )),
        Grant::Mcp { server, tool } => {
            let decl = a.decl(server);
            if decl.is_none() && !servers.contains(&server) {
                return None; // not a server of this assistant
            }
            let declared: Vec<String> = decl
                .map(|d| {
                    let mut v: Vec<String> = Vec::new();
                    for t in d.tools.iter().chain(&d.write_tools) {
                        let name = format!("mcp__{server}__{}", t.value);
                        if !v.contains(&name) {
                            v.push(name);
                        }
                    }
                    v
                })
                .unwrap_or_default();
            let listed = if declared.is_empty() {
                format!("the assistant declares no tool of {}", quote(server))
            } else {
                let q: Vec<String> = declared.iter().map(|d| quote(d)).collect();
                format!("declared tools of {}: {}", quote(server), q.join(", "))
            };
            match tool {
                Some(t) if decl.is_some_and(|d| d.declares(t)) => None,
                Some(t) => Some((
                    format!(
                        "a tool of server {} that is not declared, so it is a write",
                        quote(server)
                    ),
                    format!("declare {} in `tools.{server}`; {listed}", quote(t)),
                )),
                None => Some((
                    format!(
                        "every tool of server {}, including tools that are not declared",
                        quote(server)
                    ),
                    format!("grant the declared tools by name; {listed}"),
                )),
            }
        }
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let g = cx.graph;
    let by_file: HashMap<FileId, &Artifact> = cx.artifacts.iter().map(|a| (a.file, a)).collect();
    // Plugin agents by path, so each assistant finds those of its
    // `agents/` folder by bisection rather than by a pass over every
    // artifact (assistants times artifacts at monorepo scale).
    let mut plugin_agents: Vec<(&str, &Artifact)> = cx
        .artifacts
        .iter()
        .filter(|x| x.format == Format::PluginAgent)
        .map(|x| (cx.path(x.file), x))
        .collect();
    plugin_agents.sort_by(|x, y| x.0.cmp(y.0));
    let mut out = Vec::new();
    for a in g.assistant_mcp() {
        let assistant = &g.node(a.node).name;
        // Servers of the config with no entry in `tools`.
        if let Some(config) = a.config {
            for &s in &a.servers {
                let server = g.node(s);
                if a.decl(&server.name).is_some() {
                    continue;
                }
                let (span, label) = match (a.tools_key, &a.mcp) {
                    (Some(k), _) => (k, format!("no entry for {} here", quote(&server.name))),
                    (None, Some(m)) => (
                        m.span,
                        format!("assistant {} connects to this config", quote(assistant)),
                    ),
                    (None, None) => continue,
                };
                let keys: Vec<String> = a.declared.iter().map(|d| quote(&d.server.value)).collect();
                let mut diag = Diagnostic::new(
                    RULE,
                    config,
                    server.span,
                    format!(
                        "MCP server {} has no entry in the `tools` of assistant {}, so every tool of it is an undeclared write",
                        quote(&server.name),
                        quote(assistant)
                    ),
                )
                .with_label("undeclared server")
                .with_secondary(a.file, span, label)
                .with_help(format!(
                    "declare its tools in `tools.{}` of {}, with `write_tools` for those that write",
                    server.name,
                    quote(cx.path(a.file))
                ));
                if !keys.is_empty() {
                    diag = diag.with_note(format!("`tools` declares {}", keys.join(", ")));
                }
                out.push(diag);
            }
        }
        // Grants of the parts: skills the assistant loads, agents of its plugin.
        let servers: Vec<&str> = a.servers.iter().map(|&s| g.node(s).name.as_str()).collect();
        let mut parts: Vec<(&Artifact, &'static str, String, FileId, Span, &'static str)> =
            Vec::new();
        for e in g.graph().edges(a.node) {
            let target = g.node(e.target());
            if e.weight().kind != EdgeKind::Uses || target.kind != NodeKind::Skill {
                continue;
            }
            if let Some(art) = by_file.get(&target.file) {
                let w = e.weight();
                parts.push((
                    art,
                    "skill",
                    target.name.clone(),
                    w.file,
                    w.span,
                    "loaded here",
                ));
            }
        }
        let agents_dir = format!(
            "{}agents/",
            cx.path(a.file).strip_suffix("assistant.json").unwrap_or("")
        );
        let first = plugin_agents.partition_point(|(p, _)| *p < agents_dir.as_str());
        for &(p, art) in plugin_agents[first..]
            .iter()
            .take_while(|(p, _)| p.starts_with(agents_dir.as_str()))
        {
            let Some(file_name) = p.strip_prefix(&agents_dir) else {
                continue;
            };
            if file_name.contains('/') {
                continue;
            }
            let doc = &art.document;
            let name = doc
                .root()
                .and_then(|r| doc.get(r, "name"))
                .and_then(|n| doc.as_str(n))
                .unwrap_or_else(|| file_name.strip_suffix(".md").unwrap_or(file_name))
                .to_string();
            let at = g.node(a.node);
            parts.push((
                art,
                "agent",
                name,
                at.file,
                at.span,
                "the assistant of its plugin",
            ));
        }
        parts.sort_by_key(|p| (p.0.file, p.4));
        for (art, kind, name, lfile, lspan, label) in parts {
            // The spans of the tokens are read from the text only when one
            // is reported (the text a lean run dropped is read for it).
            let found: Vec<(usize, (String, String))> = grants_in(art, None)
                .iter()
                .enumerate()
                .filter_map(|(i, (token, _))| Some((i, undeclared(a, &servers, token)?)))
                .collect();
            if found.is_empty() {
                continue;
            }
            let located = cx
                .sources
                .get(art.file)
                .with_text(|text| grants_in(art, Some(text)));
            for (i, (what, help)) in found {
                let (token, span) = &located[i];
                out.push(
                    Diagnostic::new(
                        RULE,
                        art.file,
                        *span,
                        format!(
                            "{kind} {} grants {} inside assistant {}: {what}",
                            quote(&name),
                            quote(token),
                            quote(assistant)
                        ),
                    )
                    .with_label("granted here")
                    .with_secondary(lfile, lspan, label)
                    .with_help(help),
                );
            }
        }
    }
    out
}
