//! SEC: security rules (DESIGN.md §6): hard-coded secrets, paths that
//! escape the repository, dangerous commands in hooks, MCP servers and
//! settings, hidden text in agent Markdown, settings that switch safety off.
//!
//! Every rule is a per-file pass ([`crate::FilePass`]). This module holds
//! what they share: where an artifact keeps its MCP servers ([`servers`],
//! the one entry point for every MCP client format), the shell commands an
//! artifact runs ([`shell_sites`]), and the byte span of (part of) a string
//! value in the file.

pub mod all_project_mcp_servers_enabled;
pub mod bidi_control_character;
pub mod blanket_shell_permission;
pub mod bypass_permissions_default;
pub mod destructive_git_command;
pub mod download_piped_to_shell;
pub mod encoded_payload;
pub mod eval_of_untrusted_text;
pub mod hardcoded_secret;
pub mod hidden_instructions;
pub mod invisible_character;
pub mod library_injection_env;
pub mod load_time_shell_command;
pub mod path_escapes_repo;
pub mod project_api_key_helper;
pub mod rm_rf_root_or_home;
pub mod sandbox_socket_escape;
pub mod shell;
pub mod shell_rc_write;
pub mod world_writable_chmod;

use crate::Context;
use crate::rules::hooks::{chars_of, handler_type, hooks_of};
use skein_model::{Artifact, Format};
use skein_syntax::{Document, NodeId, NodeKind, Span, quote};
use std::borrow::Cow;

/// An MCP server definition inside an artifact: its name and its mapping node.
pub(crate) struct Server {
    /// The server's name (its key), or `capabilities[N]` for a Loom capability.
    pub name: String,
    /// The server's mapping.
    pub node: NodeId,
}

/// The entries of mapping `map` whose values are mappings, as servers.
fn servers_of_map(doc: &Document, map: NodeId, skip: &[&str]) -> Vec<Server> {
    doc.entries(map)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| {
            let name = doc.as_str(e.key)?;
            if skip.contains(&name) || doc.entries(e.value).is_none() {
                return None;
            }
            Some(Server {
                name: name.to_string(),
                node: e.value,
            })
        })
        .collect()
}

/// Every MCP server an artifact defines, in file order:
///
/// - MCP configs (`.mcp.json`, `mcp.json`, `.cursor/mcp.json`,
///   `.vscode/mcp.json`, `.amazonq/mcp.json`, `claude_desktop_config.json`,
///   Windsurf's `mcp_config.json`, Agent Plugins `mcp.json`): `mcpServers`, else
///   `servers`, else the flat form (top-level mappings but `$schema`, `inputs`);
/// - plugin manifests (Claude, Agent Plugins): an inline `mcpServers` mapping;
/// - marketplaces: the inline `mcpServers` of each `plugins` entry;
/// - Gemini CLI settings (`.gemini/settings.json`): `mcpServers`;
/// - Codex configs (`.codex/config.toml`): the `[mcp_servers.*]` tables;
/// - OpenCode configs: `mcp`;
/// - Loom agent specs: each `capabilities` entry of kind `mcp`.
pub(crate) fn servers(a: &Artifact) -> Vec<Server> {
    let doc = &a.document;
    let Some(root) = doc.root() else {
        return Vec::new();
    };
    match a.format {
        Format::McpConfig | Format::AgentPluginsMcp => {
            match doc
                .get(root, "mcpServers")
                .or_else(|| doc.get(root, "servers"))
            {
                Some(m) => servers_of_map(doc, m, &[]),
                None => servers_of_map(doc, root, &["$schema", "inputs"]),
            }
        }
        Format::ClaudePlugin | Format::CodexPlugin | Format::AgentPluginsManifest => doc
            .get(root, "mcpServers")
            .map(|m| servers_of_map(doc, m, &[]))
            .unwrap_or_default(),
        Format::ClaudeMarketplace => doc
            .get(root, "plugins")
            .and_then(|p| doc.items(p))
            .unwrap_or_default()
            .iter()
            .filter_map(|&p| doc.get(p, "mcpServers"))
            .flat_map(|m| servers_of_map(doc, m, &[]))
            .collect(),
        Format::GeminiSettings => doc
            .get(root, "mcpServers")
            .map(|m| servers_of_map(doc, m, &[]))
            .unwrap_or_default(),
        Format::CodexConfig => doc
            .get(root, "mcp_servers")
            .map(|m| servers_of_map(doc, m, &[]))
            .unwrap_or_default(),
        Format::OpenCodeConfig => doc
            .get(root, "mcp")
            .map(|m| servers_of_map(doc, m, &[]))
            .unwrap_or_default(),
        Format::LoomAgentSpec => doc
            .get(root, "capabilities")
            .and_then(|c| doc.items(c))
            .unwrap_or_default()
            .iter()
            .enumerate()
            .filter(|&(_, &c)| doc.get(c, "kind").and_then(|k| doc.as_str(k)) == Some("mcp"))
            .map(|(i, &c)| Server {
                name: format!("capabilities[{i}]"),
                node: c,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The byte span, in the file, of `value[range]` where `value` is the
/// decoded string of node `id`: exact when the node's source spells the
/// string without escapes (plain or quoted), else the whole string's
/// contents (between the quotes), which then certainly covers it.
pub(crate) fn sub_span(
    doc: &Document,
    id: NodeId,
    text: &str,
    range: std::ops::Range<usize>,
) -> Span {
    let node = doc.node(doc.resolve(id));
    let span = node.span;
    let raw = text.get(span.range()).unwrap_or("");
    let (start, inner) = match raw.as_bytes().first() {
        Some(b'"' | b'\'') if raw.len() >= 2 => (span.start as usize + 1, &raw[1..raw.len() - 1]),
        _ => (span.start as usize, raw),
    };
    match &node.kind {
        NodeKind::String(s) if s == inner && range.end <= s.len() => {
            Span::new(start + range.start, start + range.end)
        }
        _ => Span::new(start, start + inner.len()),
    }
}

/// A shell command an artifact makes a machine run: its characters (each
/// with the bytes of the file that spell it) and who runs it, for messages.
#[derive(Debug, Clone)]
pub(crate) struct ShellSite {
    pub chars: Vec<(char, Span)>,
    pub whose: String,
    /// A program with its arguments, joined (each word single-quoted).
    pub argv: bool,
}

/// Where a shell command (or a program with its arguments) is run from an
/// artifact, as its characters:
///
/// - command hooks (every place [`hooks_of`] walks, Codex's and Cursor's
///   hooks): `command` as shell
///   text, `command` with `args` (exec form) as one command line, and each
///   argument holding a space (the script of `bash -c ...`); Copilot's
///   hooks (`.github/hooks/*.json`): `bash`, `powershell`, `command`,
///   `windows`, `linux` and `osx` the same way, `exec` (with its `args`)
///   as a command line;
/// - stdio MCP servers ([`servers`]): `command`, each argument holding a
///   space (the script of `bash -c ...`), and `command` with `args` joined;
/// - `.claude/settings*.json` keys whose value Claude Code runs in a shell
///   (`apiKeyHelper`, `awsAuthRefresh`, `awsCredentialExport`,
///   `gcpAuthRefresh`, `otelHeadersHelper`, `statusLine.command`,
///   `subagentStatusLine.command`, `fileSuggestion.command`);
/// - the `` !`command` `` and ` ```! ` blocks of skill and command bodies
///   ([`bang_commands`]).
pub(crate) fn shell_sites<'a>(cx: &'a Context, a: &Artifact) -> Cow<'a, [ShellSite]> {
    let i = cx.artifacts.binary_search_by_key(&a.file, |x| x.file).ok();
    match i.and_then(|i| cx.memo.shell_sites(i)) {
        Some(cell) => Cow::Borrowed(cell.get_or_init(|| compute_shell_sites(cx, a))),
        // An artifact from outside the context: nothing to share.
        None => Cow::Owned(compute_shell_sites(cx, a)),
    }
}

fn compute_shell_sites(cx: &Context, a: &Artifact) -> Vec<ShellSite> {
    let doc = &a.document;
    let mut out = Vec::new();
    let string = |id: NodeId| chars_of(cx, a, id).filter(|c| !c.is_empty());
    let hooks = hooks_of(cx, a)
        .into_iter()
        .chain(crate::rules::hooks::codex_hooks(cx, a));
    // Cursor's event lists hold the hooks themselves.
    let cursor = crate::rules::hooks::cursor_hooks(cx, a);
    let handlers = hooks
        .flat_map(|h| h.handlers())
        .chain(cursor.iter().flat_map(|h| h.cursor_handlers()));
    for (event, handler) in handlers {
        if handler_type(doc, handler).is_some_and(|t| t != "command") {
            continue;
        }
        let whose = format!("a `{}` hook", plain(&event));
        let Some(cmd) = doc.get(handler, "command") else {
            continue;
        };
        command_sites(cx, a, handler, cmd, false, whose, &mut out);
    }
    // Copilot's command hooks run `bash` or `powershell` (or the
    // cross-platform `command`, VS Code's `windows`, `linux` and `osx`) as
    // shell text, and `exec` with its `args` without a shell.
    if let Some(h) = crate::rules::hooks::copilot_hooks(cx, a) {
        for hook in h.copilot_handlers() {
            let handler = hook.node;
            if handler_type(doc, handler).is_some_and(|t| t != "command") {
                continue;
            }
            let whose = format!("a `{}` hook", plain(&hook.event));
            for field in crate::rules::hooks::COPILOT_COMMAND_FIELDS {
                if let Some(cmd) = doc.get(handler, field) {
                    command_sites(
                        cx,
                        a,
                        handler,
                        cmd,
                        *field == "exec",
                        whose.clone(),
                        &mut out,
                    );
                }
            }
        }
    }
    for server in servers(a) {
        let whose = format!("MCP server {}", quote(&server.name));
        let Some(cmd) = doc.get(server.node, "command") else {
            continue;
        };
        if let Some(chars) = string(cmd) {
            out.push(ShellSite {
                chars,
                whose: whose.clone(),
                argv: false,
            });
        }
        let items: Vec<NodeId> = doc
            .get(server.node, "args")
            .and_then(|l| doc.items(l))
            .unwrap_or_default()
            .to_vec();
        for &i in &items {
            if doc.as_str(i).is_some_and(|s| s.contains(' '))
                && let Some(chars) = string(i)
            {
                out.push(ShellSite {
                    chars,
                    whose: whose.clone(),
                    argv: false,
                });
            }
        }
        if !items.is_empty() {
            let mut nodes = vec![cmd];
            nodes.extend(items);
            if let Some(chars) = argv(cx, a, &nodes) {
                out.push(ShellSite {
                    chars,
                    whose,
                    argv: true,
                });
            }
        }
    }
    if a.format == Format::ClaudeSettings
        && let Some(root) = doc.root()
    {
        for key in [
            "apiKeyHelper",
            "awsAuthRefresh",
            "awsCredentialExport",
            "gcpAuthRefresh",
            "otelHeadersHelper",
        ] {
            if let Some(chars) = doc.get(root, key).and_then(string) {
                out.push(ShellSite {
                    chars,
                    whose: format!("`{key}`"),
                    argv: false,
                });
            }
        }
        for key in ["statusLine", "subagentStatusLine", "fileSuggestion"] {
            if let Some(chars) = doc
                .get(root, key)
                .and_then(|s| doc.get(s, "command"))
                .and_then(string)
            {
                out.push(ShellSite {
                    chars,
                    whose: format!("`{key}.command`"),
                    argv: false,
                });
            }
        }
    }
    if matches!(a.format, Format::AgentSkill | Format::PluginCommand) {
        let text = cx.sources.get(a.file).text();
        for &(span, _) in bang_commands_of(cx, a).iter() {
            let s = &text[span.range()];
            out.push(ShellSite {
                chars: s
                    .char_indices()
                    .map(|(i, c)| {
                        let at = span.start as usize + i;
                        (c, Span::new(at, at + c.len_utf8()))
                    })
                    .collect(),
                whose: "a load-time `!` command".into(),
                argv: false,
            });
        }
    }
    out
}

/// The shell sites of hook `handler`'s command `cmd`: with the handler's
/// `args` (exec form), the program and its arguments as one command line
/// and each argument holding a space (the script of `bash -c ...`);
/// without, `cmd` as shell text, or as a program alone when `exec`.
fn command_sites(
    cx: &Context,
    a: &Artifact,
    handler: NodeId,
    cmd: NodeId,
    exec: bool,
    whose: String,
    out: &mut Vec<ShellSite>,
) {
    let doc = &a.document;
    let string = |id: NodeId| chars_of(cx, a, id).filter(|c| !c.is_empty());
    let args = doc.get(handler, "args").and_then(|l| doc.items(l));
    match args {
        Some(items) => {
            // An argument holding a space is a script of its own
            // (`bash -c "..."`).
            for &i in items {
                if doc.as_str(i).is_some_and(|s| s.contains(' '))
                    && let Some(chars) = string(i)
                {
                    out.push(ShellSite {
                        chars,
                        whose: whose.clone(),
                        argv: false,
                    });
                }
            }
            let mut nodes = vec![cmd];
            nodes.extend(items.iter().copied());
            if let Some(chars) = argv(cx, a, &nodes) {
                out.push(ShellSite {
                    chars,
                    whose,
                    argv: true,
                });
            }
        }
        None if exec => {
            if let Some(chars) = argv(cx, a, &[cmd]) {
                out.push(ShellSite {
                    chars,
                    whose,
                    argv: true,
                });
            }
        }
        None => {
            if let Some(chars) = string(cmd) {
                out.push(ShellSite {
                    chars,
                    whose,
                    argv: false,
                });
            }
        }
    }
}

/// Program and arguments as one command line: each word single-quoted (so
/// a word with spaces stays one), each character with its bytes.
fn argv(cx: &Context, a: &Artifact, nodes: &[NodeId]) -> Option<Vec<(char, Span)>> {
    let mut out: Vec<(char, Span)> = Vec::new();
    for &n in nodes {
        let cs = chars_of(cx, a, n)?;
        let (Some(first), Some(last)) = (cs.first().map(|c| c.1), cs.last().map(|c| c.1)) else {
            continue;
        };
        let quoted = !cs.iter().any(|c| c.0 == '\'');
        if !out.is_empty() {
            out.push((' ', Span::new(first.start as usize, first.start as usize)));
        }
        if quoted {
            out.push(('\'', Span::new(first.start as usize, first.start as usize)));
        }
        out.extend(cs);
        if quoted {
            out.push(('\'', Span::new(last.end as usize, last.end as usize)));
        }
    }
    (!out.is_empty()).then_some(out)
}

/// [`bang_commands`] of `a`, found once per artifact of the context
/// ([`crate::Memo`]): the shell sites and `load-time-shell-command` both
/// read them.
pub(crate) fn bang_commands_of<'a>(cx: &'a Context, a: &Artifact) -> Cow<'a, [(Span, bool)]> {
    let text = cx.sources.get(a.file).text();
    let i = cx.artifacts.binary_search_by_key(&a.file, |x| x.file).ok();
    match i.and_then(|i| cx.memo.bang_commands(i)) {
        Some(cell) => Cow::Borrowed(cell.get_or_init(|| bang_commands(a, text))),
        None => Cow::Owned(bang_commands(a, text)),
    }
}

/// The shell commands a skill or command body runs when it is loaded, as
/// Claude Code's skills page documents them ("Inject dynamic context"):
/// `` !`command` `` where `!` starts the line or follows white space (the
/// rule `injected-command-not-run` reports one glued to other text, which
/// Claude Code leaves as text), and the lines of a fenced block opened with
/// ` ```! `.
/// Each is the span of the command text and whether it is a fenced block.
pub(crate) fn bang_commands(a: &Artifact, text: &str) -> Vec<(Span, bool)> {
    let start = a
        .frontmatter
        .as_ref()
        .map_or(0, |f| f.body_start as usize)
        .min(text.len());
    let body = &text[start..];
    let mut out = Vec::new();
    // Most bodies run nothing: no `!` before a backtick, no fence whose info
    // starts with `!`. Every SEC command rule asks this of every body, so
    // answer those without the byte-by-byte scan below. Both hold a `!`:
    // a body without one (most) is answered by one memchr.
    if memchr::memchr(b'!', body.as_bytes()).is_none() {
        return out;
    }
    let bang_fence = || {
        ["```", "~~~"].iter().any(|fence| {
            memchr::memmem::find_iter(body.as_bytes(), fence).any(|p| {
                let ch = fence.as_bytes()[0];
                let rest = body.as_bytes()[p..].iter().skip_while(|&&c| c == ch);
                rest.copied()
                    .find(|&c| c != b' ' && c != b'\t')
                    .is_some_and(|c| c == b'!')
            })
        })
    };
    if memchr::memmem::find(body.as_bytes(), b"!`").is_none() && !bang_fence() {
        return out;
    }
    let mut fence: Option<(String, bool, usize)> = None;
    let mut pos = start;
    for line in body.split_inclusive('\n') {
        let line_start = pos;
        pos += line.len();
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if let Some((marker, bang, from)) = &fence {
            if t.trim_end().starts_with(marker.as_str())
                && t.trim_end()
                    .chars()
                    .all(|c| c == marker.chars().next().unwrap_or('`'))
            {
                if *bang && line_start > *from {
                    out.push((Span::new(*from, line_start), true));
                }
                fence = None;
            }
            continue;
        }
        if indent < 4 && (t.starts_with("```") || t.starts_with("~~~")) {
            let ch = t.chars().next().unwrap_or('`');
            let n = t.chars().take_while(|&c| c == ch).count();
            let info = t[n..].trim();
            fence = Some((
                std::iter::repeat_n(ch, n).collect(),
                info.starts_with('!'),
                pos,
            ));
            continue;
        }
        // Inline `!`command``, outside code spans.
        let b = content.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'`' {
                let n = b[i..].iter().take_while(|&&c| c == b'`').count();
                let close = content[i + n..].find(&"`".repeat(n)).map(|p| i + n + p);
                // Claude Code runs it only at the start of a line or after
                // white space (glued to other text it stays text: SKILL018).
                let is_bang =
                    i > 0 && b[i - 1] == b'!' && (i == 1 || matches!(b[i - 2], b' ' | b'\t'));
                match close {
                    Some(c) => {
                        if is_bang && n == 1 && c > i + n {
                            out.push((Span::new(line_start + i + n, line_start + c), false));
                        }
                        i = c + n;
                    }
                    None => i += n,
                }
            } else {
                i += 1;
            }
        }
    }
    out
}

/// A name for a message: controls replaced, at most 60 characters.
pub(crate) fn plain(s: &str) -> String {
    let q = quote(s);
    q[1..q.len() - 1].to_string()
}

/// The span of characters `r` of a site.
pub(crate) fn site_span(site: &ShellSite, r: &std::ops::Range<usize>) -> Option<Span> {
    let first = site.chars.get(r.start)?.1;
    let last = site
        .chars
        .get(r.end.checked_sub(1)?.min(site.chars.len() - 1))?
        .1;
    Some(Span::new(
        first.start as usize,
        last.end.max(first.end) as usize,
    ))
}

/// Runs one dangerous-command detector over every shell site of `a`: one
/// finding per span, `message(site, finding)` its message.
pub(crate) fn shell_findings(
    cx: &Context,
    a: &Artifact,
    detect: fn(&[char]) -> Vec<shell::Finding>,
    mut make: impl FnMut(&ShellSite, &shell::Finding, Span) -> skein_syntax::Diagnostic,
) -> Vec<skein_syntax::Diagnostic> {
    let mut out: Vec<skein_syntax::Diagnostic> = Vec::new();
    for site in shell_sites(cx, a).iter() {
        let cs: Vec<char> = site.chars.iter().map(|c| c.0).collect();
        for mut f in detect(&cs) {
            if site.argv {
                // The words as written, without the quotes that joined them.
                f.shown = f.shown.replace("' '", " ").trim_matches('\'').to_string();
            }
            let Some(span) = site_span(site, &f.chars) else {
                continue;
            };
            if out.iter().any(|d| d.primary.span == span) {
                continue;
            }
            out.push(make(site, &f, span));
        }
    }
    out
}

/// The formats [`is_agent_markdown`] may answer `true` for.
const AGENT_MARKDOWN_FORMATS: &[Format] = &[
    Format::AgentSkill,
    Format::PluginCommand,
    Format::ClaudeMemory,
    Format::AgentsMd,
    Format::GeminiMemory,
    Format::WindsurfRule,
    Format::KiroSteering,
    Format::CursorLegacyRules,
    Format::CopilotInstructions,
    Format::CopilotPathInstructions,
    Format::CopilotPrompt,
    Format::CopilotAgent,
    Format::CursorRule,
    Format::PluginAgent,
];

/// The artifacts of the rules on [`is_agent_markdown`] files.
pub(crate) const AGENT_MARKDOWN: crate::On = crate::On::Formats(AGENT_MARKDOWN_FORMATS);

/// Whether `a` is Markdown an agent reads as instructions: a skill, a
/// subagent, a slash command, a `CLAUDE.md`, an `AGENTS.md`, a
/// `GEMINI.md`, a Windsurf rule, a Kiro steering file, a Cursor rule
/// (`*.mdc`; Cursor ignores a plain `*.md` in `.cursor/rules/`), a legacy
/// `.cursorrules`, or GitHub Copilot's custom instructions, prompt files
/// and custom agents (one of [`AGENT_MARKDOWN_FORMATS`]).
pub(crate) fn is_agent_markdown(cx: &Context, a: &Artifact) -> bool {
    match a.format {
        Format::AgentSkill
        | Format::PluginCommand
        | Format::ClaudeMemory
        | Format::AgentsMd
        | Format::GeminiMemory
        | Format::WindsurfRule
        | Format::KiroSteering
        | Format::CursorLegacyRules
        | Format::CopilotInstructions
        | Format::CopilotPathInstructions
        | Format::CopilotPrompt
        | Format::CopilotAgent => true,
        Format::CursorRule => cx.path(a.file).ends_with(".mdc"),
        Format::PluginAgent => crate::rules::agents::subagent(cx, a).is_some(),
        _ => false,
    }
}

/// The byte range of a Markdown artifact's body (after the frontmatter).
pub(crate) fn body_range(a: &Artifact, text: &str) -> (usize, usize) {
    let start = a
        .frontmatter
        .as_ref()
        .map_or(0, |f| f.body_start as usize)
        .min(text.len());
    (start, text.len())
}
