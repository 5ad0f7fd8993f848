//! MCP: MCP server configurations, read with the rules of the client that
//! reads each file (`docs/formats.md`, "MCP clients", has the table and its
//! sources).
//!
//! [`mcp_file`] decides the client from the path and the format, and finds
//! the servers where that client reads them; every rule of the family goes
//! through it. The SEC rules walk the same servers with
//! [`crate::rules::sec`]'s `servers`.

pub mod command_with_arguments;
pub mod deprecated_sse;
pub mod divergent_server;
pub mod filesystem_root;
pub mod insecure_http;
pub mod invalid_header;
pub mod invalid_server_url;
pub mod invalid_transport;
pub mod misplaced_config;
pub mod missing_server_field;
pub mod mixed_transport_fields;
pub mod non_portable_command;
pub mod reserved_server_name;
pub mod undefined_input;
pub mod unexpanded_placeholder;
pub mod unknown_server_field;
pub mod unpinned_package;
pub mod wildcard_bind;
pub mod wrong_servers_key;

use crate::Context;
use crate::similar::fold;
use skein_model::{Artifact, Format};
use skein_syntax::{Document, NodeId, NodeKind, Span};

/// An MCP client whose configuration file skein reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Client {
    /// Claude Code: a project's or a plugin's `.mcp.json`, a plugin
    /// manifest's inline `mcpServers`.
    ClaudeCode,
    /// Claude Desktop, `claude_desktop_config.json`.
    ClaudeDesktop,
    /// Cursor, `.cursor/mcp.json`.
    Cursor,
    /// VS Code, `.vscode/mcp.json`.
    VsCode,
    /// Windsurf, `mcp_config.json`.
    Windsurf,
    /// Amazon Q Developer, `.amazonq/mcp.json`.
    AmazonQ,
    /// Gemini CLI, `.gemini/settings.json`.
    Gemini,
    /// Codex, `.codex/config.toml`.
    Codex,
    /// OpenCode, `opencode.json`.
    OpenCode,
    /// Agent Plugins 1.0.0, `mcp.json` with the Agent Plugins `$schema`.
    AgentPlugins,
    /// An `mcp.json` no client's convention places: only what holds for
    /// every client is checked.
    Unknown,
}

/// How a client spells environment-variable and input references.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Placeholders {
    /// `${VAR}`, `${VAR:-default}` (Claude Code).
    Shell,
    /// `${env:VAR}`, `${input:id}` and VS Code's predefined variables.
    VsCode,
    /// `${env:VAR}` and Cursor's predefined variables (no inputs).
    Cursor,
    /// `${env:VAR}`, `${file:path}` (Windsurf).
    Windsurf,
    /// `$VAR`, `${VAR}` (Gemini CLI).
    Gemini,
    /// `{env:VAR}`, `{file:path}` (OpenCode).
    OpenCode,
    /// None: values are taken literally (Codex).
    Literal,
    /// Not documented: not checked.
    Unchecked,
}

/// What a client reads: the facts of `docs/formats.md`.
#[derive(Debug)]
pub(crate) struct Spec {
    /// The client's name, for messages.
    pub name: &'static str,
    /// The key its servers sit under.
    pub key: &'static str,
    /// Valid `type` values for a local process; empty with `remote_types`
    /// empty when the client has no `type` field to check.
    pub stdio_types: &'static [&'static str],
    /// Valid `type` values for a remote server.
    pub remote_types: &'static [&'static str],
    /// `type` values the client accepts without documenting them: never
    /// reported, never suggested.
    pub quiet_types: &'static [&'static str],
    /// The `type` value of Streamable HTTP, when the client has one.
    pub http_type: Option<&'static str>,
    /// The `type` value of HTTP+SSE, when the client has one.
    pub sse_type: Option<&'static str>,
    /// Whether a server must name its `type`.
    pub type_required: bool,
    /// The keys of a local server (besides the common ones).
    pub stdio_fields: &'static [&'static str],
    /// The keys of a remote server (besides the common ones).
    pub remote_fields: &'static [&'static str],
    /// Keys of any server.
    pub common_fields: &'static [&'static str],
    /// The keys that hold a remote server's URL.
    pub url_keys: &'static [&'static str],
    /// The placeholder syntax.
    pub placeholders: Placeholders,
    /// Whether unknown per-server keys are reported (`false` where the
    /// client's list of keys is not documented well enough to tell).
    pub check_fields: bool,
    /// The documentation page the facts come from.
    pub source: &'static str,
}

const CLAUDE_CODE: Spec = Spec {
    name: "Claude Code",
    key: "mcpServers",
    stdio_types: &["stdio"],
    remote_types: &["http", "sse"],
    quiet_types: &["ws", "sdk"],
    http_type: Some("http"),
    sse_type: Some("sse"),
    type_required: false,
    stdio_fields: &["command", "args", "env", "cwd"],
    remote_fields: &["url", "headers", "headersHelper", "oauth"],
    common_fields: &["type", "timeout", "alwaysLoad", "description"],
    url_keys: &["url"],
    placeholders: Placeholders::Shell,
    check_fields: true,
    source: "https://code.claude.com/docs/en/mcp",
};

const CLAUDE_DESKTOP: Spec = Spec {
    name: "Claude Desktop",
    key: "mcpServers",
    stdio_types: &["stdio"],
    remote_types: &[],
    quiet_types: &[],
    http_type: None,
    sse_type: None,
    type_required: false,
    stdio_fields: &["command", "args", "env", "cwd"],
    remote_fields: &[],
    common_fields: &["type", "disabled"],
    url_keys: &[],
    placeholders: Placeholders::Unchecked,
    check_fields: true,
    source: "https://modelcontextprotocol.io/docs/develop/connect-local-servers",
};

const CURSOR: Spec = Spec {
    name: "Cursor",
    key: "mcpServers",
    stdio_types: &["stdio"],
    remote_types: &["http", "sse", "streamable-http"],
    quiet_types: &[],
    http_type: Some("http"),
    sse_type: Some("sse"),
    type_required: false,
    stdio_fields: &["command", "args", "env", "envFile", "cwd"],
    remote_fields: &["url", "headers", "auth"],
    common_fields: &["type", "disabled", "timeout", "description"],
    url_keys: &["url"],
    placeholders: Placeholders::Cursor,
    check_fields: true,
    source: "https://cursor.com/docs/context/mcp",
};

const VS_CODE: Spec = Spec {
    name: "VS Code",
    key: "servers",
    stdio_types: &["stdio"],
    remote_types: &["http", "sse"],
    quiet_types: &[],
    http_type: Some("http"),
    sse_type: Some("sse"),
    type_required: false,
    stdio_fields: &[
        "command",
        "args",
        "env",
        "envFile",
        "cwd",
        "sandboxEnabled",
        "sandbox",
    ],
    remote_fields: &["url", "headers"],
    common_fields: &["type", "dev", "gallery", "version", "description"],
    url_keys: &["url"],
    placeholders: Placeholders::VsCode,
    check_fields: true,
    source: "https://code.visualstudio.com/docs/copilot/reference/mcp-configuration",
};

const WINDSURF: Spec = Spec {
    name: "Windsurf",
    key: "mcpServers",
    stdio_types: &[],
    remote_types: &[],
    quiet_types: &[],
    http_type: None,
    sse_type: None,
    type_required: false,
    stdio_fields: &["command", "args", "env", "cwd"],
    remote_fields: &["serverUrl", "url", "headers"],
    common_fields: &["type", "disabled", "disabledTools"],
    url_keys: &["serverUrl", "url"],
    placeholders: Placeholders::Windsurf,
    check_fields: false,
    source: "https://docs.windsurf.com/windsurf/cascade/mcp",
};

const AMAZON_Q: Spec = Spec {
    name: "Amazon Q Developer",
    key: "mcpServers",
    stdio_types: &["stdio"],
    remote_types: &["http"],
    quiet_types: &[],
    http_type: Some("http"),
    sse_type: None,
    type_required: false,
    stdio_fields: &["command", "args", "env"],
    remote_fields: &["url", "headers", "oauthScopes", "oauth"],
    common_fields: &["type", "timeout", "disabled"],
    url_keys: &["url"],
    placeholders: Placeholders::Unchecked,
    check_fields: true,
    source: "https://docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/mcp-ide.html",
};

const GEMINI: Spec = Spec {
    name: "Gemini CLI",
    key: "mcpServers",
    stdio_types: &[],
    remote_types: &[],
    quiet_types: &[],
    http_type: None,
    sse_type: None,
    type_required: false,
    stdio_fields: &["command", "args", "env", "cwd"],
    remote_fields: &[
        "url",
        "httpUrl",
        "headers",
        "oauth",
        "authProviderType",
        "targetAudience",
        "targetServiceAccount",
    ],
    common_fields: &[
        "type",
        "timeout",
        "trust",
        "includeTools",
        "excludeTools",
        "description",
        "extensionName",
    ],
    url_keys: &["url", "httpUrl"],
    placeholders: Placeholders::Gemini,
    check_fields: true,
    source: "https://geminicli.com/docs/tools/mcp-server",
};

const CODEX: Spec = Spec {
    name: "Codex",
    key: "mcp_servers",
    stdio_types: &[],
    remote_types: &[],
    quiet_types: &[],
    http_type: None,
    sse_type: None,
    type_required: false,
    stdio_fields: &["command", "args", "env", "env_vars", "cwd"],
    remote_fields: &[
        "url",
        "bearer_token_env_var",
        "http_headers",
        "env_http_headers",
        "oauth",
        "scopes",
        "oauth_resource",
    ],
    common_fields: &[
        "enabled",
        "required",
        "startup_timeout_sec",
        "startup_timeout_ms",
        "tool_timeout_sec",
        "enabled_tools",
        "disabled_tools",
        "tools",
    ],
    url_keys: &["url"],
    placeholders: Placeholders::Literal,
    check_fields: true,
    source: "https://developers.openai.com/codex/mcp",
};

const OPENCODE: Spec = Spec {
    name: "OpenCode",
    key: "mcp",
    stdio_types: &["local"],
    remote_types: &["remote"],
    quiet_types: &[],
    http_type: Some("remote"),
    sse_type: None,
    type_required: true,
    stdio_fields: &["command", "environment"],
    remote_fields: &["url", "headers", "oauth"],
    common_fields: &["type", "enabled", "timeout"],
    url_keys: &["url"],
    placeholders: Placeholders::OpenCode,
    check_fields: true,
    source: "https://opencode.ai/docs/mcp-servers/",
};

const AGENT_PLUGINS: Spec = Spec {
    name: "Agent Plugins",
    key: "mcpServers",
    stdio_types: &["stdio"],
    remote_types: &["streamable-http", "sse"],
    quiet_types: &[],
    http_type: Some("streamable-http"),
    sse_type: Some("sse"),
    type_required: true,
    stdio_fields: &["command", "args", "env", "cwd"],
    remote_fields: &["url", "headers"],
    common_fields: &["type"],
    url_keys: &["url"],
    placeholders: Placeholders::Unchecked,
    // The Agent Plugins schema (SCH001) closes the server objects.
    check_fields: false,
    source: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
};

const UNKNOWN: Spec = Spec {
    name: "an MCP client",
    key: "mcpServers",
    stdio_types: &[],
    remote_types: &[],
    quiet_types: &[],
    http_type: None,
    sse_type: None,
    type_required: false,
    stdio_fields: &["command", "args", "env", "cwd", "envFile"],
    remote_fields: &["url", "headers", "serverUrl", "httpUrl"],
    common_fields: &["type"],
    url_keys: &["url", "serverUrl", "httpUrl"],
    placeholders: Placeholders::Unchecked,
    check_fields: false,
    source: "https://modelcontextprotocol.io/docs/develop/connect-local-servers",
};

impl Client {
    /// The client's facts.
    pub(crate) fn spec(self) -> &'static Spec {
        match self {
            Client::ClaudeCode => &CLAUDE_CODE,
            Client::ClaudeDesktop => &CLAUDE_DESKTOP,
            Client::Cursor => &CURSOR,
            Client::VsCode => &VS_CODE,
            Client::Windsurf => &WINDSURF,
            Client::AmazonQ => &AMAZON_Q,
            Client::Gemini => &GEMINI,
            Client::Codex => &CODEX,
            Client::OpenCode => &OPENCODE,
            Client::AgentPlugins => &AGENT_PLUGINS,
            Client::Unknown => &UNKNOWN,
        }
    }
}

impl Spec {
    /// Every valid `type` value.
    pub(crate) fn types(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.stdio_types.iter().chain(self.remote_types).copied()
    }

    /// Whether the client has a `type` field skein checks.
    pub(crate) fn checks_type(&self) -> bool {
        !self.stdio_types.is_empty() || !self.remote_types.is_empty()
    }

    /// Whether `key` is a key of some server of this client.
    pub(crate) fn knows(&self, key: &str) -> bool {
        self.common_fields.contains(&key)
            || self.stdio_fields.contains(&key)
            || self.remote_fields.contains(&key)
    }
}

/// The client that reads the MCP servers of artifact `a` at `path`.
///
/// Every MCP rule asks this of every artifact, so the format decides first
/// and only an `McpConfig`'s path is split.
/// The artifacts the MCP rules read: every format [`client_of`] knows a
/// client of.
pub(crate) const ON: crate::On = crate::On::Formats(&[
    Format::McpConfig,
    Format::AgentPluginsMcp,
    Format::ClaudePlugin,
    Format::GeminiSettings,
    Format::CodexConfig,
    Format::OpenCodeConfig,
]);

pub(crate) fn client_of(path: &str, format: Format) -> Option<Client> {
    Some(match format {
        Format::McpConfig => {
            let mut parts = path.rsplit('/');
            let name = parts.next().unwrap_or("");
            let parent = parts.next().unwrap_or("");
            match (name, parent) {
                (".mcp.json", _) => Client::ClaudeCode,
                ("claude_desktop_config.json", _) => Client::ClaudeDesktop,
                ("mcp_config.json", _) => Client::Windsurf,
                ("mcp.json", ".cursor") => Client::Cursor,
                ("mcp.json", ".vscode") => Client::VsCode,
                ("mcp.json", ".amazonq") => Client::AmazonQ,
                _ => Client::Unknown,
            }
        }
        Format::AgentPluginsMcp => Client::AgentPlugins,
        Format::ClaudePlugin => Client::ClaudeCode,
        Format::GeminiSettings => Client::Gemini,
        Format::CodexConfig => Client::Codex,
        Format::OpenCodeConfig => Client::OpenCode,
        _ => return None,
    })
}

/// One server of an MCP file.
pub(crate) struct Server {
    /// Its name as written.
    pub name: String,
    /// The key's span.
    pub key_span: Span,
    /// Its mapping.
    pub node: NodeId,
}

/// An artifact's MCP servers, read as its client reads them.
pub(crate) struct McpFile<'a> {
    /// The client.
    pub client: Client,
    /// Its facts.
    pub spec: &'static Spec,
    /// The document.
    pub doc: &'a Document,
    /// The root mapping.
    pub root: NodeId,
    /// The servers under the client's key (for Claude Code's `.mcp.json`,
    /// also the flat form: every top-level key a server), in file order.
    pub servers: Vec<Server>,
}

fn is_mapping(doc: &Document, id: NodeId) -> bool {
    matches!(doc.kind(id), NodeKind::Mapping(_))
}

/// The MCP servers of `a`, as the client of the file reads them; `None`
/// when `a` is not an MCP file or its root is not a mapping. An MCP file
/// whose name no client reads by itself, inside a Claude Code plugin (a
/// file the plugin's manifest names by path, `mcpServers`), is Claude
/// Code's.
pub(crate) fn mcp_file<'a>(cx: &Context, a: &'a Artifact) -> Option<McpFile<'a>> {
    let path = cx.path(a.file);
    let client = match client_of(path, a.format)? {
        Client::Unknown if in_claude_plugin(cx.repo_files, path) => Client::ClaudeCode,
        c => c,
    };
    let spec = client.spec();
    let doc = &a.document;
    let root = doc.root().filter(|&r| is_mapping(doc, r))?;
    let map = match doc.get(root, spec.key) {
        Some(m) => Some(m),
        // Claude Code reads a plugin's `.mcp.json` without the wrapper too.
        None if a.format == Format::McpConfig
            && matches!(client, Client::ClaudeCode | Client::Unknown)
            && flat(doc, root) =>
        {
            Some(root)
        }
        // Servers under another client's key are not configured (MCP001),
        // but they are what the author meant: check them as this client's.
        None => doc
            .entries(root)
            .unwrap_or_default()
            .iter()
            .find(|e| {
                doc.as_str(e.key).is_some_and(|k| {
                    WRAPPERS.contains(&k) && !(client == Client::Gemini && k == "mcp")
                }) && is_mapping(doc, e.value)
            })
            .map(|e| e.value),
    };
    let servers = map
        .filter(|&m| is_mapping(doc, m))
        .and_then(|m| doc.entries(m))
        .unwrap_or_default()
        .iter()
        .filter(|e| is_mapping(doc, e.value))
        .filter_map(|e| {
            Some(Server {
                name: doc.as_str(e.key)?.to_string(),
                key_span: doc.node(e.key).span,
                node: e.value,
            })
        })
        .collect();
    Some(McpFile {
        client,
        spec,
        doc,
        root,
        servers,
    })
}

/// Whether `path` lies in a folder with a Claude Code plugin manifest
/// (`.claude-plugin/plugin.json`) at or above it.
pub(crate) fn in_claude_plugin(repo_files: &crate::RepoFiles, path: &str) -> bool {
    let mut dir = path;
    while let Some((parent, _)) = dir.rsplit_once('/') {
        if repo_files.contains(&format!("{parent}/.claude-plugin/plugin.json")) {
            return true;
        }
        dir = parent;
    }
    repo_files.contains(".claude-plugin/plugin.json")
}

/// Whether the top level reads as servers (flat form): no wrapper key of
/// any client, and some entry a mapping with `command` or `url`.
fn flat(doc: &Document, root: NodeId) -> bool {
    let entries = doc.entries(root).unwrap_or_default();
    !entries
        .iter()
        .any(|e| doc.as_str(e.key).is_some_and(|k| WRAPPERS.contains(&k)))
        && entries.iter().any(|e| {
            is_mapping(doc, e.value)
                && (doc.get(e.value, "command").is_some() || doc.get(e.value, "url").is_some())
        })
}

/// The keys any client keeps its servers under.
pub(crate) const WRAPPERS: &[&str] = &[
    "mcpServers",
    "servers",
    "mcp_servers",
    "mcp-servers",
    "mcp",
    "context_servers",
    "mcpservers",
];

/// How a server connects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    /// A local process.
    Stdio,
    /// Streamable HTTP (or a client's generic remote type).
    Http,
    /// HTTP+SSE.
    Sse,
    /// Cannot tell (no `type`, no `command`, no URL; or an invalid `type`).
    Unknown,
}

impl McpFile<'_> {
    /// The `type` string of server `s`, with its node.
    pub(crate) fn type_of(&self, s: &Server) -> Option<(NodeId, &str)> {
        let t = self.doc.get(s.node, "type")?;
        Some((t, self.doc.as_str(t)?))
    }

    /// The URL key and node of server `s`, if it has one.
    pub(crate) fn url_of(&self, s: &Server) -> Option<(&'static str, NodeId)> {
        self.spec
            .url_keys
            .iter()
            .find_map(|&k| self.doc.get(s.node, k).map(|n| (k, n)))
    }

    /// How server `s` connects: by its `type` when the client knows it,
    /// else by its fields.
    pub(crate) fn transport(&self, s: &Server) -> Transport {
        if self.spec.checks_type()
            && let Some((_, t)) = self.type_of(s)
        {
            if self.spec.stdio_types.contains(&t) {
                return Transport::Stdio;
            }
            if Some(t) == self.spec.sse_type {
                return Transport::Sse;
            }
            if self.spec.remote_types.contains(&t) || self.spec.quiet_types.contains(&t) {
                return Transport::Http;
            }
            return Transport::Unknown;
        }
        match self.client {
            Client::Gemini if self.doc.get(s.node, "httpUrl").is_some() => Transport::Http,
            Client::Gemini if self.doc.get(s.node, "url").is_some() => Transport::Sse,
            _ if self.url_of(s).is_some() && self.doc.get(s.node, "command").is_none() => {
                Transport::Http
            }
            _ if self.doc.get(s.node, "command").is_some() => Transport::Stdio,
            _ => Transport::Unknown,
        }
    }
}

/// The `type` value `value` was probably meant to be, among the values
/// `spec` accepts (never a value it rejects): the same value but for case
/// and `-`/`_`, else the value of the transport the word names (anything
/// with `http` or `stream` is Streamable HTTP, `sse`/`event` is SSE,
/// `local`/`process`/`command` is stdio), else the nearest by spelling.
pub(crate) fn type_suggestion(spec: &Spec, value: &str) -> Option<&'static str> {
    let folded = fold(value);
    if let Some(t) = spec.types().find(|t| fold(t) == folded) {
        return Some(t);
    }
    let stdio = spec.stdio_types.first().copied();
    let by_meaning = if folded.contains("sse") || folded.contains("event") {
        spec.sse_type.or(spec.http_type)
    } else if folded.contains("http") || folded.contains("stream") || folded == "remote" {
        spec.http_type
    } else if [
        "stdio", "local", "process", "command", "stdin", "stdout", "studio",
    ]
    .iter()
    .any(|w| folded.contains(w))
    {
        stdio
    } else {
        None
    };
    by_meaning.or_else(|| crate::rules::refs::closest(value, spec.types()).map(|(c, _)| c))
}

/// A placeholder written in a string: its byte range in the decoded value
/// and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Placeholder {
    /// Byte range in the string.
    pub range: std::ops::Range<usize>,
    /// The text as written.
    pub text: String,
    /// Its syntax.
    pub kind: PlaceholderKind,
}

/// The syntaxes of placeholders in MCP configs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PlaceholderKind {
    /// `${VAR}` or `${VAR:-default}` (shell style); the variable's name.
    Shell(String, bool),
    /// `${env:VAR}`.
    Env(String),
    /// `${input:id}`.
    Input(String),
    /// `${file:path}` (Windsurf) or another `${prefix:...}` (`config`, `command`).
    Prefixed(String),
    /// A predefined editor variable: `${workspaceFolder}`, `${userHome}`, ...
    Editor(String),
    /// `{env:VAR}` (OpenCode).
    Brace(String),
    /// `$VAR` with no braces.
    Bare(String),
}

/// VS Code's predefined variables (Cursor's are a subset).
pub(crate) const EDITOR_VARIABLES: &[&str] = &[
    "workspaceFolder",
    "workspaceFolderBasename",
    "workspaceRoot",
    "userHome",
    "pathSeparator",
    "/",
    "cwd",
    "file",
    "fileBasename",
    "fileDirname",
    "relativeFile",
    "execPath",
    "defaultBuildTask",
    "lineNumber",
    "selectedText",
];

fn is_var_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// Every placeholder of string `s`, in order.
pub(crate) fn placeholders(s: &str) -> Vec<Placeholder> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' && b.get(i + 1) == Some(&b'{') {
            let Some(close) = s[i + 2..].find('}') else {
                break;
            };
            let inner = &s[i + 2..i + 2 + close];
            let end = i + 3 + close;
            let kind = if let Some(v) = inner.strip_prefix("env:") {
                PlaceholderKind::Env(v.to_string())
            } else if let Some(v) = inner.strip_prefix("input:") {
                PlaceholderKind::Input(v.to_string())
            } else if EDITOR_VARIABLES.contains(&inner) {
                PlaceholderKind::Editor(inner.to_string())
            } else if let Some((name, _)) = inner.split_once(":-") {
                PlaceholderKind::Shell(name.to_string(), true)
            } else if let Some((p, _)) = inner.split_once(':')
                && is_var_name(p)
            {
                PlaceholderKind::Prefixed(inner.to_string())
            } else {
                PlaceholderKind::Shell(inner.to_string(), false)
            };
            out.push(Placeholder {
                range: i..end,
                text: s[i..end].to_string(),
                kind,
            });
            i = end;
        } else if b[i] == b'{' && s[i..].starts_with("{env:") && (i == 0 || b[i - 1] != b'$') {
            let Some(close) = s[i..].find('}') else {
                break;
            };
            let end = i + close + 1;
            out.push(Placeholder {
                range: i..end,
                text: s[i..end].to_string(),
                kind: PlaceholderKind::Brace(s[i + 5..i + close].to_string()),
            });
            i = end;
        } else if b[i] == b'$'
            && b.get(i + 1)
                .is_some_and(|c| c.is_ascii_uppercase() || *c == b'_')
            && (i == 0 || b[i - 1] != b'$')
        {
            let len = s[i + 1..]
                .bytes()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
                .count();
            let name = &s[i + 1..i + 1 + len];
            // `$API_KEY` and `$HOME`, not `$1` or a `$` in a price.
            if len >= 2 && name.bytes().all(|c| !c.is_ascii_lowercase()) {
                out.push(Placeholder {
                    range: i..i + 1 + len,
                    text: s[i..i + 1 + len].to_string(),
                    kind: PlaceholderKind::Bare(name.to_string()),
                });
            }
            i += 1 + len;
        } else {
            i += 1;
        }
    }
    out
}

/// The string values of server `node` that a client expands placeholders
/// in (every string under it but its keys), with their nodes.
pub(crate) fn string_values(doc: &Document, node: NodeId) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let n = doc.resolve(n);
        match doc.kind(n) {
            NodeKind::String(_) => out.push(n),
            NodeKind::Sequence(items) => stack.extend(items.iter().rev().copied()),
            NodeKind::Mapping(entries) => stack.extend(entries.iter().rev().map(|e| e.value)),
            _ => {}
        }
        if out.len() > 10_000 {
            break;
        }
    }
    out
}

/// The host of an `http://` / `https://` URL (lowercase, brackets of an
/// IPv6 literal kept), with its byte range in `url`.
pub(crate) fn host_of(url: &str) -> Option<(String, std::ops::Range<usize>)> {
    let scheme_end = url.find("://")?;
    let start = scheme_end + 3;
    let rest = &url[start..];
    let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..auth_end];
    let at = authority.rfind('@').map_or(0, |i| i + 1);
    let hostport = &authority[at..];
    let host_len = if hostport.starts_with('[') {
        hostport.find(']').map_or(hostport.len(), |i| i + 1)
    } else {
        hostport.find(':').unwrap_or(hostport.len())
    };
    let h = start + at;
    Some((hostport[..host_len].to_ascii_lowercase(), h..h + host_len))
}

/// Whether `host` is this machine's loopback interface.
pub(crate) fn loopback(host: &str) -> bool {
    host == "localhost"
        || host.ends_with(".localhost")
        || host.starts_with("127.")
        || host == "[::1]"
        || host == "::1"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_suggestions_are_valid_values() {
        assert_eq!(
            type_suggestion(&CLAUDE_CODE, "streamableHttp"),
            Some("http")
        );
        assert_eq!(
            type_suggestion(&CLAUDE_CODE, "streamable-http"),
            Some("http")
        );
        assert_eq!(type_suggestion(&CLAUDE_CODE, "STDIO"), Some("stdio"));
        assert_eq!(type_suggestion(&CLAUDE_CODE, "local"), Some("stdio"));
        assert_eq!(type_suggestion(&CLAUDE_CODE, "websocket"), None);
        assert_eq!(
            type_suggestion(&AGENT_PLUGINS, "http"),
            Some("streamable-http")
        );
        assert_eq!(type_suggestion(&OPENCODE, "stdio"), Some("local"));
        assert_eq!(type_suggestion(&OPENCODE, "http"), Some("remote"));
        assert_eq!(type_suggestion(&AMAZON_Q, "sse"), Some("http"));
        for spec in [
            &CLAUDE_CODE,
            &CURSOR,
            &VS_CODE,
            &AMAZON_Q,
            &OPENCODE,
            &AGENT_PLUGINS,
        ] {
            for v in [
                "streamableHttp",
                "websocket",
                "sse",
                "ws",
                "stdio",
                "Remote",
                "x",
            ] {
                if let Some(s) = type_suggestion(spec, v) {
                    assert!(spec.types().any(|t| t == s), "{} {v} -> {s}", spec.name);
                }
            }
        }
    }

    #[test]
    fn placeholder_syntaxes() {
        let kinds = |s: &str| -> Vec<PlaceholderKind> {
            placeholders(s).into_iter().map(|p| p.kind).collect()
        };
        assert_eq!(
            kinds("Bearer ${TOKEN}"),
            vec![PlaceholderKind::Shell("TOKEN".into(), false)]
        );
        assert_eq!(
            kinds("${A:-x}/${env:B}/${input:c}/{env:D}/$E_F/${workspaceFolder}"),
            vec![
                PlaceholderKind::Shell("A".into(), true),
                PlaceholderKind::Env("B".into()),
                PlaceholderKind::Input("c".into()),
                PlaceholderKind::Brace("D".into()),
                PlaceholderKind::Bare("E_F".into()),
                PlaceholderKind::Editor("workspaceFolder".into()),
            ]
        );
        assert!(kinds("costs $5 or $x").is_empty());
        assert_eq!(
            placeholders("a ${B}").first().map(|p| p.range.clone()),
            Some(2..6)
        );
    }

    #[test]
    fn hosts() {
        assert_eq!(
            host_of("http://u:p@Example.com:80/x").unwrap().0,
            "example.com"
        );
        assert_eq!(host_of("http://[::1]:8/x").unwrap().0, "[::1]");
        assert!(loopback("127.0.0.1") && loopback("localhost") && !loopback("0.0.0.0"));
    }
}
