//! HOOK: Claude Code hooks, wherever they are declared: a plugin's
//! `hooks/hooks.json` and a project's `.claude/settings.json` /
//! `.claude/settings.local.json` (the `hooks` key of both has one shape:
//! event name -> matcher groups -> handlers); and Codex's hooks (a
//! project's `.codex/hooks.json`, a Codex plugin manifest's inline `hooks`:
//! the same shape with Codex's events, [`codex_hooks`]), which only the
//! rules named for Codex read; and Cursor's (a project's
//! `.cursor/hooks.json`: camelCase events whose lists hold the hooks
//! themselves, [`cursor_hooks`]), which only the rules named for Cursor and
//! the SEC shell rules read; and GitHub Copilot's (`.github/hooks/*.json`:
//! the same shape with Copilot's events and fields, [`copilot_hooks`]),
//! which only the rules named for Copilot and the SEC shell rules read.

pub mod bare_plugin_mcp_matcher;
pub mod copilot_prompt_hook_outside_session_start;
pub mod exec_command_with_arguments;
pub mod header_env_var_not_allowed;
pub mod hook_type_unsupported_by_event;
pub mod if_on_non_tool_event;
pub mod ignored_codex_matcher;
pub mod invalid_hook_field_value;
pub mod invalid_hook_timeout;
pub mod invalid_hook_type;
pub mod invalid_matcher_regex;
pub mod matcher_not_applicable;
pub mod mcp_matcher_without_tool;
pub mod millisecond_hook_timeout;
pub mod missing_codex_hook_field;
pub mod missing_copilot_hook_field;
pub mod missing_cursor_hook_field;
pub mod missing_hook_field;
pub mod missing_hook_script;
pub mod once_outside_frontmatter;
pub mod powershell_env_var;
pub mod unknown_codex_hook_event;
pub mod unknown_codex_hooks_key;
pub mod unknown_copilot_hook_event;
pub mod unknown_cursor_hook_event;
pub mod unknown_hook_event;
pub mod unknown_matcher_tool;
pub mod unknown_matcher_value;
pub mod unquoted_plugin_root;
pub mod unsupported_codex_hook_type;
pub mod unsupported_hook_field;
pub mod user_config_in_shell_command;

use crate::Context;
use skein_model::{Artifact, Format};
use skein_syntax::{Document, Entry, NodeId, Span};

/// The handler types of the hooks reference, and the fields each requires.
pub(crate) const HANDLER_TYPES: &[(&str, &[&str])] = &[
    ("command", &["command"]),
    ("http", &["url"]),
    ("mcp_tool", &["server", "tool"]),
    ("prompt", &["prompt"]),
    ("agent", &["prompt"]),
];

/// The fields every handler may have, whatever its type (the hooks
/// reference's "Common fields").
pub(crate) const COMMON_FIELDS: &[&str] = &["type", "if", "timeout", "statusMessage", "once"];

/// The fields the hooks reference documents for each handler type, beyond
/// the common ones.
pub(crate) const TYPE_FIELDS: &[(&str, &[&str])] = &[
    (
        "command",
        &[
            "command",
            "args",
            "async",
            "asyncRewake",
            "shell",
            "onFailure",
        ],
    ),
    ("http", &["url", "headers", "allowedEnvVars"]),
    ("mcp_tool", &["server", "tool", "input"]),
    ("prompt", &["prompt", "model"]),
    ("agent", &["prompt", "model"]),
];

/// The fields documented for handler type `ty` beyond the common ones, if
/// the type is known.
pub(crate) fn type_fields(ty: &str) -> Option<&'static [&'static str]> {
    TYPE_FIELDS.iter().find(|(t, _)| *t == ty).map(|(_, f)| *f)
}

/// The fields a handler type requires, if the type is known.
pub(crate) fn required_fields(ty: &str) -> Option<&'static [&'static str]> {
    HANDLER_TYPES
        .iter()
        .find(|(t, _)| *t == ty)
        .map(|(_, f)| *f)
}

/// Where a hooks declaration lives, which decides what its paths resolve against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Home {
    /// A plugin's `hooks/hooks.json`: `${CLAUDE_PLUGIN_ROOT}` is this folder
    /// (repo-relative, `""` or ending in `/`).
    Plugin(String),
    /// A project's `.claude/settings*.json`: `$CLAUDE_PROJECT_DIR` (and the
    /// working directory of its commands) is this folder.
    Project(String),
    /// A skill's (`agent: false`) or subagent's frontmatter. `project` is the
    /// project folder when the component lives in a project's `.claude/`
    /// (its commands run there); `None` elsewhere.
    Component {
        agent: bool,
        project: Option<String>,
    },
}

/// The events whose handlers may be of every type (the hooks reference,
/// "Prompt-based hooks": "Events that support all five hook types").
pub(crate) const ALL_TYPE_EVENTS: &[&str] = &[
    "PermissionDenied",
    "PermissionRequest",
    "PostToolBatch",
    "PostToolUse",
    "PostToolUseFailure",
    "PreToolUse",
    "Stop",
    "SubagentStop",
    "TaskCompleted",
    "TaskCreated",
    "TeammateIdle",
    "UserPromptExpansion",
    "UserPromptSubmit",
];

/// The events whose matcher (and handlers' `if`) are tested against a tool
/// name.
pub(crate) const TOOL_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionDenied",
];

/// The span of characters `from..to` of a string node's characters.
pub(crate) fn span_of(chars: &[(char, Span)], from: usize, to: usize) -> Option<Span> {
    let first = chars.get(from)?.1;
    let last = chars.get(to.checked_sub(1)?)?.1;
    Some(Span::new(first.start as usize, last.end as usize))
}

/// The `$NAME` and `${NAME}` references of a string: name and the range of
/// characters that spell the reference.
pub(crate) fn env_refs(cs: &[char]) -> Vec<(String, usize, usize)> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        if cs[i] != '$' {
            i += 1;
            continue;
        }
        let braced = cs.get(i + 1) == Some(&'{');
        let from = i + 1 + usize::from(braced);
        let mut j = from;
        while j < cs.len() && ident(cs[j]) {
            j += 1;
        }
        let closed = !braced || cs.get(j) == Some(&'}');
        if j > from && !cs[from].is_ascii_digit() && closed {
            let end = j + usize::from(braced);
            out.push((cs[from..j].iter().collect(), i, end));
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The events that support only `command` and `mcp_tool` handlers.
pub(crate) const COMMAND_ONLY_EVENTS: &[&str] = &["SessionStart", "Setup"];

/// The handler types event `event` runs, or `None` for an event the
/// reference does not list (an unknown event is `unknown-hook-event`'s).
pub(crate) fn event_types(event: &str) -> Option<&'static [&'static str]> {
    if ALL_TYPE_EVENTS.contains(&event) {
        Some(&["command", "http", "mcp_tool", "prompt", "agent"])
    } else if COMMAND_ONLY_EVENTS.contains(&event) {
        Some(&["command", "mcp_tool"])
    } else if skein_model::models::HOOK_EVENTS.contains(&event) {
        Some(&["command", "http", "mcp_tool"])
    } else {
        None
    }
}

/// The hooks of one artifact: its document, the `hooks` mapping and its home.
pub(crate) struct Hooks<'a> {
    pub doc: &'a Document,
    pub hooks: NodeId,
    pub home: Home,
}

/// One event of a hooks mapping.
pub(crate) struct Event {
    /// The event key node.
    pub key: NodeId,
    /// The event name.
    pub name: String,
    /// Its matcher groups (the mappings of the event's list).
    pub groups: Vec<NodeId>,
}

/// A group's string `matcher` ([`Hooks::matchers`]).
pub(crate) struct Matcher<'a> {
    /// The event key node.
    pub event_key: NodeId,
    /// The event name.
    pub event: String,
    /// The matcher's value node.
    pub node: NodeId,
    /// The matcher as a string.
    pub value: &'a str,
}

fn parent(path: &str) -> &str {
    match path.trim_end_matches('/').rfind('/') {
        Some(i) => &path[..=i],
        None => "",
    }
}

/// The root of the plugin whose hooks file is `path`, in folder `dir`
/// (with its `/`): the folder above `<root>/hooks/hooks.json`, the default
/// place; for a file a manifest names by path (anywhere in its plugin), the
/// nearest folder at or above it that holds a plugin manifest
/// (`.claude-plugin/plugin.json` or `.codex-plugin/plugin.json`), else the
/// folder above `dir`.
fn plugin_home(cx: &Context, path: &str, dir: &str) -> String {
    if path.ends_with("hooks/hooks.json") {
        return parent(dir).to_string();
    }
    let mut at = dir;
    loop {
        if cx
            .repo_files
            .contains(&format!("{at}.claude-plugin/plugin.json"))
            || cx
                .repo_files
                .contains(&format!("{at}.codex-plugin/plugin.json"))
        {
            return at.to_string();
        }
        if at.is_empty() {
            return parent(dir).to_string();
        }
        at = parent(at);
    }
}

/// The project folder of a component under a project's `.claude/` (the
/// part of `path` before `.claude/`), if it is one.
fn project_of(path: &str) -> Option<String> {
    if path.starts_with(".claude/") {
        return Some(String::new());
    }
    path.find("/.claude/").map(|i| path[..=i].to_string())
}

/// The hooks of `a`, when it declares a `hooks` mapping: a plugin's hooks
/// file or manifest (inline `hooks`), a settings file, or the frontmatter of
/// a skill or subagent.
/// The formats that hold Claude Code hooks ([`hooks_of`]).
const HOOK_FORMATS: &[Format] = &[
    Format::ClaudeHooks,
    Format::ClaudePlugin,
    Format::ClaudeSettings,
    Format::AgentSkill,
    Format::PluginAgent,
];

/// The artifacts the HOOK rules on Claude Code's hooks read ([`hooks_of`]).
pub(crate) const ON: crate::On = crate::On::Formats(HOOK_FORMATS);

/// The formats that hold Codex hooks ([`codex_hooks`]).
const CODEX_HOOK_FORMATS: &[Format] =
    &[Format::CodexPlugin, Format::CodexHooks, Format::CodexConfig];

/// The artifacts the HOOK rules on Codex's hooks read ([`codex_hooks`]).
pub(crate) const CODEX_ON: crate::On = crate::On::Formats(CODEX_HOOK_FORMATS);

pub(crate) fn hooks_of<'a>(cx: &Context, a: &'a Artifact) -> Option<Hooks<'a>> {
    // Only these formats hold hooks (the `home` below): the others' trees
    // are not opened (a lean run may have dropped them).
    if !HOOK_FORMATS.contains(&a.format) {
        return None;
    }
    let doc = &a.document;
    // A lean run keeps every tree that declares hooks
    // (`crate::retain::keep`): one it dropped declares none.
    if doc.is_dropped() {
        return None;
    }
    // Most artifacts declare no hooks: ask that first (every HOOK rule calls
    // this for every artifact), before working out where the hooks live.
    let hooks = doc.get(doc.root()?, "hooks")?;
    doc.entries(hooks)?;
    let path = cx.path(a.file);
    let dir = parent(path);
    let home = match a.format {
        // `<root>/hooks/hooks.json`, or a file its manifest names
        Format::ClaudeHooks => Home::Plugin(plugin_home(cx, path, dir)),
        // `<root>/.claude-plugin/plugin.json`
        Format::ClaudePlugin if dir.ends_with(".claude-plugin/") => {
            Home::Plugin(parent(dir).to_string())
        }
        // `<project>/.claude/settings.json`
        Format::ClaudeSettings => Home::Project(parent(dir).to_string()),
        Format::AgentSkill if !a.damaged => Home::Component {
            agent: false,
            project: project_of(path),
        },
        Format::PluginAgent if crate::rules::agents::subagent(cx, a).is_some() => Home::Component {
            agent: true,
            project: project_of(path),
        },
        _ => return None,
    };
    Some(Hooks { doc, hooks, home })
}

/// The hooks Codex reads from `a`:
/// - a project's `.codex/hooks.json` and the `[hooks]` tables of its
///   `.codex/config.toml` (the same shape), whose commands run in the
///   project;
/// - a Codex plugin's default `hooks/hooks.json` ([`Format::CodexHooks`]
///   when the plugin has no Claude Code manifest), and the hooks files its
///   manifest names by path (declared as [`Format::CodexHooks`] by the
///   `skein` crate's `declared` module);
/// - the hooks files written inline in a Codex plugin manifest
///   (`.codex-plugin/plugin.json`, `"hooks": [{"hooks": {"SessionStart":
///   [...]}}]`): Codex reads a manifest's `hooks` as relative paths or
///   inline hooks files (openai/codex pull request #19705, "Supports
///   `plugin.json` manifest `hooks` entries as either relative paths or
///   inline hook objects"; `PluginManifestHooks::Inline(Vec<HooksFile>)` in
///   its plugin manifest), one list of hooks per file.
///
/// Codex's events are not Claude Code's: the Claude Code `HOOK` rules never
/// read these; the Codex ones (`HOOK023`…) and the `SEC` shell rules do.
///
/// Source: Codex hooks documentation, "Where Codex looks for hooks"
/// (<https://developers.openai.com/codex/hooks>).
pub(crate) fn codex_hooks<'a>(cx: &Context, a: &'a Artifact) -> Vec<Hooks<'a>> {
    if !CODEX_HOOK_FORMATS.contains(&a.format) || a.document.is_dropped() {
        return Vec::new();
    }
    let doc = &a.document;
    let Some(value) = doc.root().and_then(|r| doc.get(r, "hooks")) else {
        return Vec::new();
    };
    let path = cx.path(a.file);
    let dir = parent(path);
    let (home, events) = match a.format {
        // `<project>/.codex/hooks.json`, `<project>/.codex/config.toml`
        Format::CodexHooks | Format::CodexConfig
            if dir == ".codex/" || dir.ends_with("/.codex/") =>
        {
            (Home::Project(parent(dir).to_string()), vec![value])
        }
        // `<root>/hooks/hooks.json` of a Codex plugin, or a file its
        // manifest names
        Format::CodexHooks => (Home::Plugin(plugin_home(cx, path, dir)), vec![value]),
        // `<root>/.codex-plugin/plugin.json`: `hooks` is a path, a list of
        // paths, or hooks files written inline, one (`{"hooks": {...}}`)
        // or a list of them; the events are each file's `hooks`.
        Format::CodexPlugin if dir.ends_with(".codex-plugin/") => {
            let files: Vec<NodeId> = match doc.items(value) {
                Some(items) => items.to_vec(),
                None => vec![value],
            };
            let events = files
                .into_iter()
                .filter_map(|f| doc.get(f, "hooks"))
                .collect();
            (Home::Plugin(parent(dir).to_string()), events)
        }
        _ => return Vec::new(),
    };
    events
        .into_iter()
        .filter(|&hooks| doc.entries(hooks).is_some())
        .map(|hooks| Hooks {
            doc,
            hooks,
            home: home.clone(),
        })
        .collect()
}

/// The findings `f` gives on each list of Codex hooks of `a`
/// ([`codex_hooks`]), in order.
pub(crate) fn on_codex_hooks(
    cx: &Context,
    a: &Artifact,
    f: impl Fn(&Hooks) -> Vec<skein_syntax::Diagnostic>,
) -> Vec<skein_syntax::Diagnostic> {
    codex_hooks(cx, a).iter().flat_map(f).collect()
}

/// What a handler Codex cannot read costs in `a`: a hooks file
/// (`.codex/hooks.json`, a plugin's `hooks/hooks.json`) fails to parse and
/// is skipped whole (openai/codex `codex-rs/hooks/src/engine/discovery.rs`).
pub(crate) fn codex_refusal(a: &Artifact) -> &'static str {
    if a.format == Format::CodexHooks {
        "Codex refuses the whole file and runs none of its hooks"
    } else {
        "Codex cannot read this handler"
    }
}

/// The hook events Codex has, as `hooks.json` keys: the serde names of the
/// events of `HookEventsToml` (openai/codex `codex-rs/config/src/hook_config.rs`),
/// the events the Codex hooks documentation lists
/// (<https://developers.openai.com/codex/hooks>).
pub(crate) const CODEX_HOOK_EVENTS: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "Interrupt",
];

/// The formats that hold Cursor hooks ([`cursor_hooks`]).
const CURSOR_HOOK_FORMATS: &[Format] = &[Format::CursorHooks];

/// The artifacts the HOOK rules on Cursor's hooks read ([`cursor_hooks`]).
pub(crate) const CURSOR_ON: crate::On = crate::On::Formats(CURSOR_HOOK_FORMATS);

/// The hooks Cursor reads from `a`, a project's `.cursor/hooks.json`
/// (`{"version": 1, "hooks": {"<event>": [<hook>, ...]}}`): an event's
/// list holds the hooks themselves, so the [`Event::groups`] of these
/// [`Hooks`] are the hooks ([`Hooks::cursor_handlers`]), never matcher
/// groups. Cursor's events are not Claude Code's: the Claude Code `HOOK`
/// rules never read these; the Cursor ones (`HOOK028`, `HOOK029`) and the
/// `SEC` shell rules do.
///
/// Source: Cursor hooks documentation (<https://cursor.com/docs/agent/hooks>).
pub(crate) fn cursor_hooks<'a>(cx: &Context, a: &'a Artifact) -> Option<Hooks<'a>> {
    // `<project>/.cursor/hooks.json`
    project_hooks(cx, a, Format::CursorHooks, 1)
}

/// The `hooks` object of `a` when it is of `format` and not dropped, its
/// commands run in the project `up` folders above the file's folder: the
/// shared reading of [`cursor_hooks`] and [`copilot_hooks`], whose files
/// hold `{"hooks": {"<event>": [...]}}` at their top.
fn project_hooks<'a>(
    cx: &Context,
    a: &'a Artifact,
    format: Format,
    up: usize,
) -> Option<Hooks<'a>> {
    if a.format != format || a.document.is_dropped() {
        return None;
    }
    let doc = &a.document;
    let hooks = doc.get(doc.root()?, "hooks")?;
    doc.entries(hooks)?;
    let project = (0..=up).fold(cx.path(a.file), |dir, _| parent(dir));
    Some(Hooks {
        doc,
        hooks,
        home: Home::Project(project.to_string()),
    })
}

/// The hook events Cursor has, as `hooks.json` keys: the agent hooks and
/// the Tab hooks of the Cursor hooks documentation
/// (<https://cursor.com/docs/agent/hooks>, "Hook categories").
pub(crate) const CURSOR_HOOK_EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "subagentStop",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "preCompact",
    "stop",
    "afterAgentResponse",
    "afterAgentThought",
    "beforeTabFileRead",
    "afterTabFileEdit",
];

/// The formats that hold GitHub Copilot hooks ([`copilot_hooks`]).
const COPILOT_HOOK_FORMATS: &[Format] = &[Format::CopilotHooks];

/// The artifacts the HOOK rules on Copilot's hooks read ([`copilot_hooks`]).
pub(crate) const COPILOT_ON: crate::On = crate::On::Formats(COPILOT_HOOK_FORMATS);

/// The hooks GitHub Copilot reads from `a`, a `*.json` file in a
/// repository's `.github/hooks/` (`{"version": 1, "hooks": {"<event>":
/// [<hook>, ...]}}`): as Cursor's, an event's list holds the hooks
/// themselves ([`Hooks::copilot_handlers`]); Copilot CLI also reads a
/// list item in Claude Code's nested shape (`{"matcher": ..., "hooks":
/// [...]}`). Copilot's events are not Claude Code's: the Claude Code
/// `HOOK` rules never read these; the Copilot ones (`HOOK030` to
/// `HOOK032`) and the `SEC` shell rules do.
///
/// Source: GitHub Copilot hooks reference
/// (<https://docs.github.com/en/copilot/reference/hooks-reference>); VS
/// Code's agent hooks page, which reads the same folder
/// (<https://code.visualstudio.com/docs/agent-customization/hooks>).
pub(crate) fn copilot_hooks<'a>(cx: &Context, a: &'a Artifact) -> Option<Hooks<'a>> {
    // `<project>/.github/hooks/<name>.json`: commands run in the project
    // (`cwd` is relative to its root).
    project_hooks(cx, a, Format::CopilotHooks, 2)
}

/// GitHub Copilot's hook events, as `.github/hooks/*.json` keys: each
/// camelCase name with the PascalCase one it also answers to, if any,
/// which selects VS Code-compatible snake_case payloads.
///
/// - The camelCase events are the GitHub Copilot hooks reference's ("Hook
///   events", <https://docs.github.com/en/copilot/reference/hooks-reference>).
/// - The PascalCase names are its "Hook event input payloads" headings
///   (`agentStop` / `Stop`, `userPromptSubmitted` / `UserPromptSubmit`),
///   and `PermissionRequest` of its "Claude-format matchers" note.
/// - `SubagentStart` is an event of VS Code, which reads the same folder
///   ("Hook lifecycle events",
///   <https://code.visualstudio.com/docs/agent-customization/hooks>).
pub(crate) const COPILOT_HOOK_EVENTS: &[(&str, Option<&str>)] = &[
    ("sessionStart", Some("SessionStart")),
    ("sessionEnd", Some("SessionEnd")),
    ("userPromptSubmitted", Some("UserPromptSubmit")),
    ("userPromptTransformed", None),
    ("preToolUse", Some("PreToolUse")),
    ("postToolUse", Some("PostToolUse")),
    ("postToolUseFailure", Some("PostToolUseFailure")),
    ("permissionRequest", Some("PermissionRequest")),
    ("notification", None),
    ("preCompact", Some("PreCompact")),
    ("subagentStart", Some("SubagentStart")),
    ("subagentStop", Some("SubagentStop")),
    ("agentStop", Some("Stop")),
    ("errorOccurred", Some("ErrorOccurred")),
];

/// The camelCase names of Copilot's hook events ([`COPILOT_HOOK_EVENTS`]).
pub(crate) fn copilot_camel_events() -> impl Iterator<Item = &'static str> {
    COPILOT_HOOK_EVENTS.iter().map(|&(c, _)| c)
}

/// The PascalCase names of Copilot's hook events ([`COPILOT_HOOK_EVENTS`]).
pub(crate) fn copilot_pascal_events() -> impl Iterator<Item = &'static str> {
    COPILOT_HOOK_EVENTS.iter().filter_map(|&(_, p)| p)
}

/// Whether `name` is one of Copilot's hook events, by either name.
pub(crate) fn is_copilot_event(name: &str) -> bool {
    COPILOT_HOOK_EVENTS
        .iter()
        .any(|&(c, p)| c == name || p == Some(name))
}

/// The other name of Copilot event `name` (camelCase for PascalCase and
/// back), if it has one.
pub(crate) fn copilot_other_name(name: &str) -> Option<&'static str> {
    COPILOT_HOOK_EVENTS.iter().find_map(|&(c, p)| {
        if c == name {
            p
        } else if p == Some(name) {
            Some(c)
        } else {
            None
        }
    })
}

/// The Copilot event a hooks key `name` that is none was probably meant to
/// be, as the name it is nearest to (one spelled the same but for case,
/// else the nearest within edit distance 2, among every name) and the name
/// suggested: that event's name in the key's style, camelCase or
/// PascalCase, when it has one (the two select different payloads), so
/// `userPromptSubmit` (nearest `UserPromptSubmit`) is meant as
/// `userPromptSubmitted`.
pub(crate) fn copilot_event_match(name: &str) -> Option<(&'static str, &'static str)> {
    let names = || copilot_camel_events().chain(copilot_pascal_events());
    let nearest = names()
        .find(|e| e.eq_ignore_ascii_case(name))
        .or_else(|| crate::rules::refs::closest(name, names()).map(|(c, _)| c))?;
    let pascal = |n: &str| n.starts_with(|c: char| c.is_ascii_uppercase());
    let suggested = match copilot_other_name(nearest) {
        Some(other) if pascal(other) == pascal(name) && pascal(nearest) != pascal(name) => other,
        _ => nearest,
    };
    Some((nearest, suggested))
}

/// The name [`copilot_event_match`] suggests for hooks key `name`.
pub(crate) fn copilot_event_suggestion(name: &str) -> Option<&'static str> {
    copilot_event_match(name).map(|(_, s)| s)
}

/// The events a Copilot `prompt` hook runs on: `sessionStart` (the hooks
/// reference, "Prompt hooks": "only supported on `sessionStart`"), by
/// either of its names.
pub(crate) const COPILOT_PROMPT_EVENTS: &[&str] = &["sessionStart", "SessionStart"];

/// The fields a Copilot command hook may run, any one of which is enough:
/// Copilot CLI's `bash`, `powershell`, `command` and `exec` (the hooks
/// reference, "Command hooks"), and VS Code's `command` with its `windows`,
/// `linux` and `osx` overrides ("Hook command properties").
pub(crate) const COPILOT_COMMAND_FIELDS: &[&str] = &[
    "bash",
    "powershell",
    "command",
    "exec",
    "windows",
    "linux",
    "osx",
];

/// One hook of Copilot's hooks ([`Hooks::copilot_handlers`]).
pub(crate) struct CopilotHook {
    /// The event name.
    pub event: String,
    /// The hook's mapping.
    pub node: NodeId,
}

/// The handler types Codex runs (openai/codex `codex-rs/hooks/src/engine/discovery.rs`).
pub(crate) const CODEX_HANDLER_TYPES: &[&str] = &["command", "mcp_tool"];

impl Hooks<'_> {
    /// The events, in file order, with the mapping items of their lists.
    pub fn events(&self) -> Vec<Event> {
        let doc = self.doc;
        doc.entries(self.hooks)
            .unwrap_or_default()
            .iter()
            .filter_map(|&Entry { key, value }| {
                let name = doc.as_str(key)?.to_string();
                let groups = doc
                    .items(value)
                    .unwrap_or_default()
                    .iter()
                    .copied()
                    .filter(|&g| doc.entries(g).is_some())
                    .collect();
                Some(Event { key, name, groups })
            })
            .collect()
    }

    /// Every group's `matcher` written as a string, in file order: the
    /// event's key node and name, the matcher's node and its value.
    pub fn matchers(&self) -> Vec<Matcher<'_>> {
        let doc = self.doc;
        self.events()
            .into_iter()
            .flat_map(|e| {
                let (key, name) = (e.key, e.name);
                e.groups
                    .into_iter()
                    .filter_map(|g| doc.get(g, "matcher"))
                    .filter_map(|m| {
                        Some(Matcher {
                            event_key: key,
                            event: name.clone(),
                            node: m,
                            value: doc.as_str(m)?,
                        })
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Every handler (a mapping in a group's `hooks` list), with its event name.
    pub fn handlers(&self) -> Vec<(String, NodeId)> {
        self.events()
            .iter()
            .flat_map(|e| self.handlers_of(e).into_iter().map(|h| (e.name.clone(), h)))
            .collect()
    }

    /// Every hook of Cursor's hooks ([`cursor_hooks`]), with its event
    /// name: the mappings of each event's list.
    pub fn cursor_handlers(&self) -> Vec<(String, NodeId)> {
        self.events()
            .into_iter()
            .flat_map(|e| {
                let name = e.name;
                e.groups.into_iter().map(move |h| (name.clone(), h))
            })
            .collect()
    }

    /// Every hook of Copilot's hooks ([`copilot_hooks`]), in file order:
    /// each mapping of an event's list, or, for an item in Claude Code's
    /// nested shape (one with a `hooks` list), each mapping of that list.
    pub fn copilot_handlers(&self) -> Vec<CopilotHook> {
        let doc = self.doc;
        let mut out = Vec::new();
        for e in self.events() {
            for item in e.groups {
                match doc.get(item, "hooks").and_then(|l| doc.items(l)) {
                    Some(list) => out.extend(
                        list.iter()
                            .filter(|&&h| doc.entries(h).is_some())
                            .map(|&h| CopilotHook {
                                event: e.name.clone(),
                                node: h,
                            }),
                    ),
                    None => out.push(CopilotHook {
                        event: e.name.clone(),
                        node: item,
                    }),
                }
            }
        }
        out
    }

    /// The handlers of one event.
    pub fn handlers_of(&self, e: &Event) -> Vec<NodeId> {
        let doc = self.doc;
        e.groups
            .iter()
            .filter_map(|&g| doc.get(g, "hooks").and_then(|l| doc.items(l)))
            .flat_map(|list| list.iter().copied())
            .filter(|&h| doc.entries(h).is_some())
            .collect()
    }
}

/// The event of `events` that `name` was probably meant to be: one spelled
/// the same but for case, else the nearest within edit distance 2.
pub(crate) fn event_suggestion(
    name: &str,
    events: &'static [&'static str],
) -> Option<&'static str> {
    events
        .iter()
        .copied()
        .find(|e| e.eq_ignore_ascii_case(name))
        .or_else(|| crate::rules::refs::closest(name, events.iter().copied()).map(|(c, _)| c))
}

/// The help for an event key meant as `to`: rename it, or, when `h`
/// already has an event `to` (a rename would make a duplicate key), move
/// its groups into that one.
pub(crate) fn rename_help(h: &Hooks, to: &str) -> String {
    if h.events().iter().any(|e| e.name == to) {
        format!(
            "move these hook groups into the existing {} list and remove this key",
            skein_syntax::quote(to)
        )
    } else {
        format!("rename the key to {}", skein_syntax::quote(to))
    }
}

/// The unsafe fix that renames the event key `key` of `h` (in `a`'s text)
/// from `from` to `to`, when the two are near (a case slip, one edit) and
/// the rename makes no duplicate key: `h` has no event `to` yet, and no
/// other key of `h` is spelt `from` or would be renamed to `to` too
/// (`events` are the client's events, as [`event_suggestion`] reads them).
/// A duplicate event makes Codex refuse the whole file and Claude Code
/// keep one of the two lists. The hooks under the key then start to run,
/// which a person should review.
pub(crate) fn rename_event(
    cx: &Context,
    a: &Artifact,
    h: &Hooks,
    key: NodeId,
    from: &str,
    to: &str,
    events: &'static [&'static str],
) -> Option<skein_syntax::Fix> {
    rename_event_with(cx, a, h, key, from, to, |n| event_suggestion(n, events))
}

/// [`rename_event`] for a client whose suggestions `suggest` makes (what
/// it would suggest for each key), such as Copilot's
/// ([`copilot_event_suggestion`]).
pub(crate) fn rename_event_with(
    cx: &Context,
    a: &Artifact,
    h: &Hooks,
    key: NodeId,
    from: &str,
    to: &str,
    suggest: impl Fn(&str) -> Option<&'static str>,
) -> Option<skein_syntax::Fix> {
    let clash = h.events().iter().any(|e| {
        e.name == to || (e.key != key && (e.name == from || suggest(&e.name) == Some(to)))
    });
    if !crate::fix::near(from, to) || clash {
        return None;
    }
    let edit = crate::fix::replace_string(h.doc, key, cx.sources.get(a.file).text(), to)?;
    Some(skein_syntax::Fix::unsafe_(
        format!("rename to `{to}`"),
        vec![edit],
    ))
}

/// The findings of `rule` on the matchers of `h`'s groups under `events`,
/// which `client` ignores (an empty matcher, `*` and `null` match
/// everything and are passed over); `message` words one from the matcher
/// as written and the event.
pub(crate) fn ignored_matchers(
    cx: &Context,
    a: &Artifact,
    h: &Hooks,
    events: &[&str],
    rule: skein_syntax::Rule,
    client: &str,
    message: impl Fn(&str, &str) -> String,
) -> Vec<skein_syntax::Diagnostic> {
    use skein_syntax::Diagnostic;
    let doc = h.doc;
    let mut out = Vec::new();
    for e in h.events() {
        if !events.contains(&e.name.as_str()) {
            continue;
        }
        for &g in &e.groups {
            let Some(m) = doc.get_entry(g, "matcher") else {
                continue;
            };
            let written = match doc.as_str(m.value) {
                Some("" | "*") => continue,
                Some(s) => s,
                None => cx.sources.get(a.file).slice(doc.node(m.value).span),
            };
            if written == "null" {
                continue;
            }
            out.push(
                Diagnostic::new(
                    rule,
                    a.file,
                    doc.node(m.key).span,
                    message(written, &e.name),
                )
                .with_label(format!("ignored by {client}"))
                .with_secondary(
                    a.file,
                    doc.node(e.key).span,
                    "the hooks run on every occurrence of this event",
                )
                .with_help("remove the `matcher`, or filter inside the hook's command"),
            );
        }
    }
    out
}

/// Where a finding about a whole handler of `doc` points: its first byte
/// (the `{` of a JSON handler, the `[` of a TOML table), not the handler
/// across all its lines.
pub(crate) fn handler_opening(doc: &Document, handler: NodeId) -> Span {
    let at = doc.node(handler).span.start as usize;
    Span::new(at, at + 1)
}

/// A handler's `type` string, if it has one.
pub(crate) fn handler_type(doc: &Document, handler: NodeId) -> Option<&str> {
    doc.get(handler, "type").and_then(|t| doc.as_str(t))
}

/// The characters of a string node as the consumer reads them, each with
/// the bytes of the file that spell it (a JSON escape spells one
/// character with several bytes). `None` when the node is not a string.
pub(crate) fn chars_of(cx: &Context, a: &Artifact, id: NodeId) -> Option<Vec<(char, Span)>> {
    let doc = &a.document;
    let value = doc.as_str(id)?;
    let whole = doc.node(id).span;
    let raw = cx.sources.get(a.file).slice(whole);
    let decoded = (raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"'))
        .then(|| decode_json(&raw[1..raw.len() - 1], whole.start as usize + 1))
        .flatten()
        .filter(|cs| cs.iter().map(|c| c.0).eq(value.chars()));
    // A YAML plain scalar, or a quoted one without escapes, spells its value
    // verbatim (after the quote).
    let verbatim = || {
        let at = if raw == value {
            0
        } else if raw.len() >= 2
            && (raw.starts_with('\'') && raw.ends_with('\'')
                || raw.starts_with('"') && raw.ends_with('"'))
            && &raw[1..raw.len() - 1] == value
        {
            1
        } else {
            return None;
        };
        let base = whole.start as usize + at;
        Some(
            value
                .char_indices()
                .map(|(i, c)| (c, Span::new(base + i, base + i + c.len_utf8())))
                .collect(),
        )
    };
    Some(
        decoded
            .or_else(verbatim)
            .unwrap_or_else(|| value.chars().map(|c| (c, whole)).collect()),
    )
}

/// Decodes the inside of a JSON string that starts at byte `base`.
fn decode_json(raw: &str, base: usize) -> Option<Vec<(char, Span)>> {
    let mut out = Vec::new();
    let mut it = raw.char_indices().peekable();
    let hex = |s: &str| u32::from_str_radix(s, 16).ok();
    while let Some((i, c)) = it.next() {
        if c != '\\' {
            out.push((c, Span::new(base + i, base + i + c.len_utf8())));
            continue;
        }
        let (_, e) = it.next()?;
        let (ch, end) = match e {
            '"' | '\\' | '/' => (e, i + 2),
            'b' => ('\u{8}', i + 2),
            'f' => ('\u{c}', i + 2),
            'n' => ('\n', i + 2),
            'r' => ('\r', i + 2),
            't' => ('\t', i + 2),
            'u' => {
                let hi = hex(raw.get(i + 2..i + 6)?)?;
                let mut end = i + 6;
                let code = if (0xD800..0xDC00).contains(&hi)
                    && raw.get(end..end + 2) == Some("\\u")
                    && let Some(lo) = raw.get(end + 2..end + 6).and_then(hex)
                    && (0xDC00..0xE000).contains(&lo)
                {
                    end += 6;
                    0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                } else {
                    hi
                };
                while it.peek().is_some_and(|&(j, _)| j < end) {
                    it.next();
                }
                (char::from_u32(code).unwrap_or('\u{fffd}'), end)
            }
            _ => return None,
        };
        out.push((ch, Span::new(base + i, base + end)));
    }
    Some(out)
}

/// Quoting state of a shell scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quote {
    None,
    Single,
    Double,
}

/// One shell word of a command: its text with quotes removed, and its span.
#[derive(Debug, Clone)]
pub(crate) struct Word {
    pub text: String,
    pub span: Span,
}

/// Scans a command: the quoting state at each character, and the words of
/// its first simple command (up to an unquoted `;`, `|`, `&`, `<`, `>`,
/// `(` or `)`).
pub(crate) fn scan(chars: &[(char, Span)]) -> (Vec<Quote>, Vec<Word>) {
    let mut states = Vec::with_capacity(chars.len());
    let mut words = Vec::new();
    let mut q = Quote::None;
    let mut cur: Option<Word> = None;
    let mut done = false;
    let mut escaped = false;
    for &(c, sp) in chars {
        states.push(q);
        let mut literal = None;
        if escaped {
            escaped = false;
            literal = Some(c);
        } else {
            match (q, c) {
                (Quote::None, '\\') | (Quote::Double, '\\') => escaped = true,
                (Quote::None, '\'') => q = Quote::Single,
                (Quote::Single, '\'') => q = Quote::None,
                (Quote::None, '"') => q = Quote::Double,
                (Quote::Double, '"') => q = Quote::None,
                (Quote::None, c) if c.is_whitespace() => {
                    if let Some(w) = cur.take()
                        && !done
                    {
                        words.push(w);
                    }
                    continue;
                }
                (Quote::None, ';' | '|' | '&' | '<' | '>' | '(' | ')') => {
                    if let Some(w) = cur.take()
                        && !done
                    {
                        words.push(w);
                    }
                    done = true;
                    continue;
                }
                (_, c) => literal = Some(c),
            }
        }
        let w = cur.get_or_insert(Word {
            text: String::new(),
            span: sp,
        });
        w.span = Span::new(w.span.start as usize, sp.end as usize);
        if let Some(c) = literal {
            w.text.push(c);
        }
    }
    if let Some(w) = cur
        && !done
    {
        words.push(w);
    }
    (states, words)
}

/// The finding of a hooks key that is no event of `client` (`"Codex"`,
/// `"Cursor"`) and near none of its `events`: named as Claude Code's when
/// `claude` (an event Claude Code has), with every event `client` has.
/// Shared by HOOK023, HOOK028 and HOOK030.
pub(crate) fn unknown_client_event(
    rule: skein_syntax::Rule,
    file: skein_syntax::FileId,
    span: skein_syntax::Span,
    name: &str,
    client: &str,
    events: &[&str],
    claude: bool,
) -> skein_syntax::Diagnostic {
    use skein_syntax::quote;
    let message = if claude {
        format!(
            "{} is a Claude Code hook event, not a {client} one; {client}'s events are {}",
            quote(name),
            events.join(", ")
        )
    } else {
        format!(
            "unknown {client} hook event {}; {client}'s events are {}",
            quote(name),
            events.join(", ")
        )
    };
    let label = if claude {
        format!("Claude Code has this event, {client} does not")
    } else {
        format!("not a {client} event")
    };
    skein_syntax::Diagnostic::new(rule, file, span, message).with_label(label)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<(char, Span)> {
        s.char_indices()
            .map(|(i, c)| (c, Span::new(i, i + c.len_utf8())))
            .collect()
    }

    #[test]
    fn env_references() {
        let cs: Vec<char> = "Bearer $A and ${B_1}, $1, ${C, $env:D $".chars().collect();
        let r: Vec<_> = env_refs(&cs).into_iter().map(|r| r.0).collect();
        assert_eq!(r, ["A", "B_1", "env"]);
    }

    #[test]
    fn words_and_quotes() {
        let (_, w) = scan(&chars(r#"bash "${X}/a b.sh" --x; rm y"#));
        let t: Vec<_> = w.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(t, ["bash", "${X}/a b.sh", "--x"]);
        assert_eq!(w[1].span, Span::new(5, 18));
        let (q, _) = scan(&chars(r#"a "$B" $C '$D'"#));
        assert_eq!(q[3], Quote::Double);
        assert_eq!(q[7], Quote::None);
        assert_eq!(q[11], Quote::Single);
    }

    #[test]
    fn copilot_suggestions_keep_the_case_style() {
        let s = copilot_event_suggestion;
        assert_eq!(s("userPromptSubmit"), Some("userPromptSubmitted"));
        assert_eq!(s("UserPromptSubmitted"), Some("UserPromptSubmit"));
        assert_eq!(s("pretooluse"), Some("preToolUse"));
        assert_eq!(s("PretoolUse"), Some("PreToolUse"));
        assert_eq!(s("PostToolUsed"), Some("PostToolUse"));
        assert_eq!(s("Notification"), Some("notification"));
        assert_eq!(s("stop"), Some("agentStop"));
        assert_eq!(s("AgentStop"), Some("Stop"));
        assert_eq!(s("onSave"), None);
        assert_eq!(
            copilot_event_match("userPromptSubmit"),
            Some(("UserPromptSubmit", "userPromptSubmitted"))
        );
        assert!(is_copilot_event("agentStop") && is_copilot_event("Stop"));
        assert!(!is_copilot_event("stop") && !is_copilot_event("Notification"));
        assert_eq!(copilot_other_name("Stop"), Some("agentStop"));
        assert_eq!(copilot_other_name("agentStop"), Some("Stop"));
        assert_eq!(copilot_other_name("notification"), None);
    }

    #[test]
    fn json_escapes_keep_their_bytes() {
        let d = decode_json(r#"\"a\u00e9\ud83d\ude00"#, 10).unwrap();
        let cs: String = d.iter().map(|c| c.0).collect();
        assert_eq!(cs, "\"aé😀");
        assert_eq!(d[0].1, Span::new(10, 12));
        assert_eq!(d[2].1, Span::new(13, 19));
        assert_eq!(d[3].1, Span::new(19, 31));
    }
}
