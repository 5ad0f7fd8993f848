//! The artifact formats skein understands (DESIGN.md §1) and the syntax
//! each is written in.

use serde::Serialize;

/// The syntax an artifact file is parsed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Syntax {
    /// JSON, parsed with tree-sitter-json.
    Json,
    /// YAML, parsed with tree-sitter-yaml.
    Yaml,
    /// Markdown with optional YAML frontmatter.
    Markdown,
    /// TOML, parsed with the `toml` crate's spanned parser.
    Toml,
    /// Plain text, read as lines and never parsed (the scripts bundled in
    /// a skill's folder).
    Text,
}

macro_rules! formats {
    ($( $(#[$doc:meta])* $variant:ident => $id:literal, $syntax:ident, $schema:expr; )*) => {
        /// An artifact format of DESIGN.md §1.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub enum Format {
            $( $(#[$doc])* #[serde(rename = $id)] $variant, )*
        }

        impl Format {
            /// Every format, in declaration order.
            pub const ALL: &'static [Format] = &[$(Format::$variant),*];

            /// Stable kebab-case identifier, used in output and configuration.
            pub fn id(self) -> &'static str {
                match self { $(Format::$variant => $id,)* }
            }

            /// The syntax the format is written in.
            pub fn syntax(self) -> Syntax {
                match self { $(Format::$variant => Syntax::$syntax,)* }
            }

            /// The file name (under `crates/skein-model/schemas/`) of the
            /// embedded JSON Schema, if the format has one.
            pub fn schema_name(self) -> Option<&'static str> {
                match self { $(Format::$variant => $schema,)* }
            }
        }
    };
}

formats! {
    /// skilldrop loop manifest, `**/loops/<name>/loop.json`.
    SkilldropLoop => "skilldrop-loop", Json, Some("skilldrop-loop");
    /// skilldrop loop documentation, `**/loops/<name>/LOOP.md`.
    SkilldropLoopDoc => "skilldrop-loop-doc", Markdown, None;
    /// skilldrop verdict vocabulary, `contracts/terminals.json`.
    SkilldropTerminals => "skilldrop-terminals", Json, Some("skilldrop-terminals");
    /// skilldrop pack manifest, `packs/<pack>/pack.json`.
    SkilldropPack => "skilldrop-pack", Json, Some("skilldrop-pack");
    /// skilldrop catalogue index, `catalogue.json`.
    SkilldropCatalogue => "skilldrop-catalogue", Json, Some("skilldrop-catalogue");
    /// Agent Skill, any `SKILL.md` (frontmatter validated).
    AgentSkill => "agent-skill", Markdown, Some("agent-skill-frontmatter");
    /// A Markdown file bundled in a skill's folder (`references/*.md`, any
    /// `*.md` below a folder that holds a `SKILL.md`, other than a nested
    /// skill's): read for its body's links only, its frontmatter (if any)
    /// is not read by any client ([`crate::skill_file`]).
    SkillReference => "skill-reference", Markdown, None;
    /// A script bundled in a skill's folder (any file under its `scripts/`,
    /// a `.sh`, `.bash`, `.py`, `.js`, `.mjs`, `.cjs` or `.ts` file
    /// elsewhere in it): read as lines ([`crate::skill_file`]).
    SkillScript => "skill-script", Text, None;
    /// OpenCode orchestration contract, `contract.json` / `*contract*.json`.
    OpenCodeContract => "opencode-contract", Json, Some("opencode-contract");
    /// OpenCode config, `opencode.json`, `opencode.jsonc`, `opencode.json.template`
    /// (JSONC: comments allowed).
    OpenCodeConfig => "opencode-config", Json, Some("opencode-config");
    /// Loom AgentSpec v1, `*.agent.yaml` / `agent.yaml` with `spec_version: 1`.
    LoomAgentSpec => "loom-agent-spec", Yaml, Some("loom-agent-spec-v1");
    /// Loopmaster loop manifest v0.1, `loop.yaml` / `<id>.loop.yaml`.
    LoopmasterManifest => "loopmaster-manifest", Yaml, Some("loopmaster-loop");
    /// Bailey solution document, `assistant.json`.
    BaileyAssistant => "bailey-assistant", Json, Some("bailey-assistant");
    /// Agent Plugins 1.0.0 manifest, a `plugin.json` with the Agent Plugins `$schema`.
    AgentPluginsManifest => "agent-plugins-manifest", Json, Some("agent-plugins-plugin");
    /// Agent Plugins 1.0.0 MCP config, an `mcp.json` with the Agent Plugins `$schema`.
    AgentPluginsMcp => "agent-plugins-mcp", Json, Some("agent-plugins-mcp");
    /// Claude Code plugin manifest, any other `plugin.json`.
    ClaudePlugin => "claude-plugin", Json, Some("claude-plugin");
    /// Codex plugin manifest, `.codex-plugin/plugin.json` (its own format:
    /// the Claude Code plugin rules do not apply).
    CodexPlugin => "codex-plugin", Json, None;
    /// Plugin marketplace, `.claude-plugin/marketplace.json` and equivalents
    /// (`.cursor-plugin/`, `.github/plugin/`, `.agents/plugins/`).
    ClaudeMarketplace => "claude-marketplace", Json, Some("claude-marketplace");
    /// Plugin agent, `agents/*.md`.
    PluginAgent => "plugin-agent", Markdown, None;
    /// Slash command: a plugin's `commands/*.md`, a project's
    /// `.claude/commands/**/*.md` (subfolders namespace the command).
    PluginCommand => "plugin-command", Markdown, None;
    /// Claude Code hooks, `hooks/hooks.json`.
    ClaudeHooks => "claude-hooks", Json, Some("claude-hooks");
    /// Codex hooks, a project's `.codex/hooks.json` or the default
    /// `hooks/hooks.json` of a Codex plugin (one with a
    /// `.codex-plugin/plugin.json` and no `.claude-plugin/plugin.json`): the
    /// shape of Claude Code's (event name -> matcher groups -> handlers)
    /// with Codex's own events, read by the Codex HOOK rules and the SEC
    /// shell rules.
    CodexHooks => "codex-hooks", Json, Some("codex-hooks");
    /// Cursor hooks, a project's `.cursor/hooks.json`: `{"version": 1,
    /// "hooks": {"<event>": [<hook>, ...]}}`, camelCase events whose lists
    /// hold the hooks themselves (no matcher groups), read by the Cursor
    /// HOOK rules and the SEC shell rules (Cursor hooks documentation,
    /// <https://cursor.com/docs/agent/hooks>).
    CursorHooks => "cursor-hooks", Json, Some("cursor-hooks");
    /// GitHub Copilot hooks, a `*.json` file directly in a repository's
    /// `.github/hooks/` folder: `{"version": 1, "hooks": {"<event>":
    /// [<hook>, ...]}}`, camelCase events (or their VS Code-compatible
    /// PascalCase names) whose lists hold the hooks themselves, each a
    /// `command` hook (`bash`, `powershell`, `command`, `exec`), an `http`
    /// hook or a `prompt` hook; Copilot CLI, Copilot cloud agent and VS
    /// Code read them. Read by the Copilot HOOK rules and the SEC shell
    /// rules (GitHub Copilot hooks reference,
    /// <https://docs.github.com/en/copilot/reference/hooks-reference>).
    CopilotHooks => "copilot-hooks", Json, Some("copilot-hooks");
    /// Claude Code plugin default settings, `settings.json` at the root of a
    /// plugin (beside `.claude-plugin/plugin.json`).
    ClaudePluginSettings => "claude-plugin-settings", Json, None;
    /// Claude Code plugin LSP servers, `.lsp.json` at the root of a plugin.
    ClaudeLspServers => "claude-lsp-servers", Json, None;
    /// A `.claudeignore` file: no Claude Code format (SETTINGS013 says
    /// so); plain text.
    ClaudeIgnore => "claude-ignore", Text, None;
    /// Claude Code settings, `.claude/settings.json` / `.claude/settings.local.json`
    /// (its `hooks` key has the shape of a hooks file; read by the HOOK rules).
    ClaudeSettings => "claude-settings", Json, Some("claude-settings");
    /// MCP server config, one file per client: `.mcp.json` (Claude Code),
    /// `mcp.json` (`.cursor/`, `.vscode/`, `.amazonq/`, elsewhere),
    /// `claude_desktop_config.json` (Claude Desktop), Windsurf's
    /// `mcp_config.json` (`.codeium/windsurf/`, `.windsurf/`).
    McpConfig => "mcp-config", Json, Some("mcp-config");
    /// Gemini CLI settings, `.gemini/settings.json` (its `mcpServers` are
    /// read by the MCP and SEC rules; the other settings are not checked).
    GeminiSettings => "gemini-settings", Json, Some("gemini-settings");
    /// Codex configuration, `.codex/config.toml` (its `[mcp_servers.*]`
    /// tables are read by the MCP and SEC rules).
    CodexConfig => "codex-config", Toml, Some("codex-config");
    /// Claude Code memory file, `CLAUDE.md` in any folder (the project's
    /// root, `.claude/`, subfolders Claude Code reads on demand), the
    /// personal `CLAUDE.local.md` and the modular rules under
    /// `.claude/rules/`: Markdown instructions loaded into every
    /// session, read for their links, their `@path` imports and the SEC
    /// Markdown rules (Claude Code memory documentation,
    /// <https://code.claude.com/docs/en/memory>).
    ClaudeMemory => "claude-memory", Markdown, None;
    /// `AGENTS.md` (and Codex's `AGENTS.override.md`) in any folder: the
    /// agents.md instructions Codex, Copilot, Cursor and others load,
    /// read for their links, the SEC Markdown rules and Codex's size
    /// budget (<https://agents.md/>, Codex's "Custom instructions with
    /// AGENTS.md", <https://developers.openai.com/codex/guides/agents-md>).
    AgentsMd => "agents-md", Markdown, None;
    /// Gemini CLI context file, `GEMINI.md` in any folder: Markdown
    /// instructions with `@path` imports, read for their links, imports and
    /// the SEC Markdown rules (Gemini CLI "Memory Import Processor",
    /// <https://geminicli.com/docs/reference/memport>).
    GeminiMemory => "gemini-memory", Markdown, None;
    /// Windsurf (Cascade) workspace rule, any `*.md` under a
    /// `.windsurf/rules/` folder: Markdown with an optional frontmatter
    /// (`trigger`, `globs`, `description`), read for its activation, its
    /// size limit, its links and the SEC Markdown rules (Windsurf "Memories
    /// & Rules", <https://docs.windsurf.com/windsurf/cascade/memories>).
    WindsurfRule => "windsurf-rule", Markdown, None;
    /// Kiro steering file, any `*.md` under a `.kiro/steering/` folder:
    /// Markdown with an optional frontmatter (`inclusion`,
    /// `fileMatchPattern`, `name`, `description`), read for its inclusion
    /// mode, its links and the SEC Markdown rules (Kiro "Steering",
    /// <https://kiro.dev/docs/steering/>).
    KiroSteering => "kiro-steering", Markdown, None;
    /// Cursor project rule: a file under a `.cursor/rules/` folder (the
    /// project's, or a subfolder's, at any depth below it). A `*.mdc` rule
    /// is Markdown whose frontmatter (`description`, `globs`,
    /// `alwaysApply`) says when Cursor includes it; a plain `*.md` there is
    /// read only to say that Cursor ignores it (Cursor rules documentation,
    /// <https://cursor.com/docs/context/rules>).
    CursorRule => "cursor-rule", Markdown, None;
    /// Cursor's legacy rules file, `.cursorrules`: plain instructions
    /// Cursor still reads but has deprecated for `.cursor/rules/`.
    CursorLegacyRules => "cursor-legacy-rules", Markdown, None;
    /// GitHub Copilot repository-wide custom instructions,
    /// `.github/copilot-instructions.md`: plain Markdown added to every
    /// Copilot request in the repository, read for its links and the SEC
    /// Markdown rules ("Adding repository custom instructions for GitHub
    /// Copilot", <https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions>).
    CopilotInstructions => "copilot-instructions", Markdown, None;
    /// GitHub Copilot path-specific custom instructions,
    /// `.github/instructions/**/*.instructions.md`: Markdown with a
    /// frontmatter (`applyTo`, `excludeAgent`, `name`, `description`),
    /// applied to the files its `applyTo` globs match.
    CopilotPathInstructions => "copilot-path-instructions", Markdown, None;
    /// GitHub Copilot prompt file, `.github/prompts/*.prompt.md`: a slash
    /// command of Copilot Chat, Markdown with a frontmatter (`description`,
    /// `name`, `argument-hint`, `agent`, `model`, `tools`) ("Use prompt
    /// files in VS Code", <https://code.visualstudio.com/docs/agent-customization/prompt-files>).
    CopilotPrompt => "copilot-prompt", Markdown, None;
    /// GitHub Copilot custom agent, a `*.md` (usually `*.agent.md`) in
    /// `.github/agents/`: Markdown with a frontmatter (`description`,
    /// `name`, `target`, `tools`, ...) read by Copilot cloud agent, Copilot
    /// CLI and VS Code ("Custom agents configuration",
    /// <https://docs.github.com/en/copilot/reference/custom-agents-configuration>);
    /// not a Claude Code subagent.
    CopilotAgent => "copilot-agent", Markdown, None;
}
