//! Recognising artifacts: by path convention first, by content second
//! (DESIGN.md §1, "Detection pitfalls").
//!
//! [`classify_path`] decides from the repository-relative path alone which
//! syntax a file is parsed with and which formats it may be. After parsing,
//! [`refine`] looks at the content (`$schema`, `spec_version`, shape) to
//! settle on one format, or to say the file is of a shape skein does not know.

use crate::format::{Format, Syntax};
use crate::models::HOOK_EVENTS;
use skein_syntax::{Document, NodeKind};

/// What the path says about a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// How to parse it.
    pub syntax: Syntax,
    /// The format the path suggests; [`refine`] may change it.
    pub format: Format,
    /// Whether the path alone is conclusive. When `false` (`*contract*.json`,
    /// `agent.yaml`), a file whose content does not match is silently not an artifact.
    pub certain: bool,
    /// JSON read as JSONC by its consumer (comments allowed): OpenCode
    /// configs, VS Code's `.vscode/mcp.json`.
    pub jsonc: bool,
}

/// The verdict on a parsed candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refined {
    /// It is an artifact of this format.
    Format(Format),
    /// The path says it is an artifact but the content is of a shape skein does
    /// not know; reported once as info, never as schema errors.
    Unrecognised {
        /// What kind of file the path suggested, e.g. "loop manifest".
        what: &'static str,
        /// Why the content is not recognised.
        why: String,
    },
    /// Not an artifact after all (an uncertain candidate whose content does not match).
    NotAnArtifact,
}

impl Candidate {
    /// A candidate forced to `format` (a mapping from configuration): parsed
    /// with the format's syntax, conclusive, JSONC only for the formats whose
    /// consumers read JSONC.
    pub fn forced(format: Format) -> Candidate {
        Candidate {
            syntax: format.syntax(),
            format,
            certain: true,
            jsonc: format == Format::OpenCodeConfig,
        }
    }
}

/// Classifies `path` with extra mappings first: `extra` returns the format a
/// configuration maps the path to (`[formats]` in `skein.toml`), and a path it
/// maps wins over the conventions of [`classify_path`].
pub fn classify_with(path: &str, extra: impl Fn(&str) -> Option<Format>) -> Option<Candidate> {
    match extra(path) {
        Some(f) => Some(Candidate::forced(f)),
        None => classify_path(path),
    }
}

/// Classifies a `/`-separated path relative to the analyzed root.
/// Returns `None` for files that match no format (they are ignored).
pub fn classify_path(path: &str) -> Option<Candidate> {
    let mut parts = path.rsplit('/');
    let name = parts.next()?;
    let parent = parts.next().unwrap_or("");
    let grandparent = parts.next().unwrap_or("");
    let sure = |format: Format| {
        Some(Candidate {
            syntax: format.syntax(),
            format,
            certain: true,
            jsonc: format == Format::OpenCodeConfig
                || (format == Format::McpConfig && parent == ".vscode"),
        })
    };
    let maybe = |format: Format| {
        Some(Candidate {
            syntax: format.syntax(),
            format,
            certain: false,
            jsonc: false,
        })
    };
    match name {
        "SKILL.md" => sure(Format::AgentSkill),
        "CLAUDE.md" | "CLAUDE.local.md" => sure(Format::ClaudeMemory),
        "AGENTS.md" | "AGENTS.override.md" => sure(Format::AgentsMd),
        "GEMINI.md" => sure(Format::GeminiMemory),
        ".cursorrules" => sure(Format::CursorLegacyRules),
        _ if in_cursor_rules(path)
            && (name.ends_with(".mdc")
                || (name.ends_with(".md") && !name.eq_ignore_ascii_case("README.md"))) =>
        {
            sure(Format::CursorRule)
        }
        "copilot-instructions.md" if parent == ".github" => sure(Format::CopilotInstructions),
        _ if name.ends_with(".instructions.md") && in_github_instructions(path) => {
            sure(Format::CopilotPathInstructions)
        }
        _ if name.ends_with(".prompt.md") && parent == "prompts" && grandparent == ".github" => {
            sure(Format::CopilotPrompt)
        }
        // GitHub Copilot hooks: any `*.json` directly in `.github/hooks/`
        // (Copilot CLI, cloud agent and VS Code load them all), ahead of
        // the names other formats claim (`hooks.json`, `settings.json`).
        _ if name.ends_with(".json") && parent == "hooks" && grandparent == ".github" => {
            sure(Format::CopilotHooks)
        }
        "LOOP.md" if grandparent == "loops" => sure(Format::SkilldropLoopDoc),
        "loop.json" => sure(Format::SkilldropLoop),
        "terminals.json" if parent == "contracts" => sure(Format::SkilldropTerminals),
        "pack.json" if grandparent == "packs" => sure(Format::SkilldropPack),
        "catalogue.json" => sure(Format::SkilldropCatalogue),
        "assistant.json" => sure(Format::BaileyAssistant),
        "plugin.json" if parent == ".codex-plugin" => sure(Format::CodexPlugin),
        "plugin.json" => sure(Format::ClaudePlugin),
        "marketplace.json" => {
            if matches!(parent, ".claude-plugin" | ".cursor-plugin")
                || (parent == "plugin" && grandparent == ".github")
                || (parent == "plugins" && grandparent == ".agents")
            {
                sure(Format::ClaudeMarketplace)
            } else {
                maybe(Format::ClaudeMarketplace)
            }
        }
        "hooks.json" if parent == ".codex" => sure(Format::CodexHooks),
        "hooks.json" if parent == ".cursor" => sure(Format::CursorHooks),
        "hooks.json" if parent == "hooks" => sure(Format::ClaudeHooks),
        "settings.json" | "settings.local.json" if parent == ".claude" => {
            sure(Format::ClaudeSettings)
        }
        ".mcp.json" | "mcp.json" | "claude_desktop_config.json" => sure(Format::McpConfig),
        "mcp_config.json" if matches!(parent, "windsurf" | ".windsurf" | ".codeium") => {
            sure(Format::McpConfig)
        }
        "settings.json" if parent == ".gemini" => sure(Format::GeminiSettings),
        // A plugin's default settings: kept only beside a plugin manifest
        // (`unread_at_location`); an editor's settings are never read.
        "settings.json" if !matches!(parent, ".vscode" | ".cursor" | ".zed" | ".idea") => {
            maybe(Format::ClaudePluginSettings)
        }
        ".lsp.json" => sure(Format::ClaudeLspServers),
        ".claudeignore" => sure(Format::ClaudeIgnore),
        "config.toml" if parent == ".codex" => sure(Format::CodexConfig),
        "contract.json" => sure(Format::OpenCodeContract),
        "opencode.json" | "opencode.jsonc" | "opencode.json.template" => {
            sure(Format::OpenCodeConfig)
        }
        "loop.yaml" | "loop.yml" => sure(Format::LoopmasterManifest),
        "agent.yaml" | "agent.yml" => maybe(Format::LoomAgentSpec),
        _ if name.ends_with(".loop.yaml") || name.ends_with(".loop.yml") => {
            sure(Format::LoopmasterManifest)
        }
        _ if name.ends_with(".agent.yaml") || name.ends_with(".agent.yml") => {
            maybe(Format::LoomAgentSpec)
        }
        _ if name.ends_with(".json")
            && name.contains("contract")
            && !name.ends_with(".schema.json") =>
        {
            maybe(Format::OpenCodeContract)
        }
        // Any other YAML in a `loops/` folder may be a Loopmaster manifest
        // under a name the specification does not allow: read it, and keep
        // it only if it has Loopmaster's shape (LOOPMASTER001 names it).
        _ if (name.ends_with(".yaml") || name.ends_with(".yml"))
            && (parent == "loops" || grandparent == "loops") =>
        {
            maybe(Format::LoopmasterManifest)
        }
        _ if name.ends_with(".md")
            && parent == "agents"
            && grandparent == ".github"
            && !name.eq_ignore_ascii_case("README.md") =>
        {
            sure(Format::CopilotAgent)
        }
        _ if name.ends_with(".md") && (parent == "agents" || in_claude_agents(path)) => {
            sure(Format::PluginAgent)
        }
        _ if name.ends_with(".md") && (parent == "commands" || in_claude_commands(path)) => {
            sure(Format::PluginCommand)
        }
        // Claude Code's modular memory: every `*.md` under `.claude/rules/`
        // (subfolders too) is loaded like a `CLAUDE.md`.
        _ if name.ends_with(".md") && in_claude_rules(path) => sure(Format::ClaudeMemory),
        // Windsurf finds `.windsurf/rules/` in every folder of the workspace.
        _ if name.ends_with(".md")
            && (path.starts_with(".windsurf/rules/") || path.contains("/.windsurf/rules/")) =>
        {
            sure(Format::WindsurfRule)
        }
        _ if name.ends_with(".md")
            && (path.starts_with(".kiro/steering/") || path.contains("/.kiro/steering/")) =>
        {
            sure(Format::KiroSteering)
        }
        _ => None,
    }
}

/// Whether a `plugin-agent` path is one Claude Code loads a subagent from:
/// a `*.md` directly in an `agents/` folder (a plugin's, `.claude/agents/`,
/// or any other), except the files other tools keep in folders of that
/// name: GitHub Copilot's `*.agent.md` and anything under `.github/agents/`,
/// Cursor's `.cursor/agents/`, OpenCode's `.opencode/agents/`, Gemini CLI's
/// `.gemini/agents/`, and a folder's `README.md`. The rules on subagents
/// also look at the content (an OpenCode `mode:`, a skill's own `agents/`).
/// A project's `.claude/agents/` is read with its subfolders
/// (`.claude/agents/review/security.md`): the subagents page lets
/// definitions be organised in subfolders, named by `name` alone.
pub fn claude_subagent_path(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or("");
    let parent = parts.next().unwrap_or("");
    let grandparent = parts.next().unwrap_or("");
    (parent == "agents" || in_claude_agents(path))
        && name.ends_with(".md")
        && !name.ends_with(".agent.md")
        && !name.eq_ignore_ascii_case("README.md")
        && !matches!(grandparent, ".github" | ".cursor" | ".opencode" | ".gemini")
}

/// Whether `path` is under a `.cursor/rules/` folder, at any depth (the
/// project's, a subfolder's own `.cursor/rules/`, and their subfolders).
pub fn in_cursor_rules(path: &str) -> bool {
    path.starts_with(".cursor/rules/") || path.contains("/.cursor/rules/")
}

/// Whether `path` is under a project's `.claude/agents/` folder, at any
/// depth.
fn in_claude_agents(path: &str) -> bool {
    path.starts_with(".claude/agents/") || path.contains("/.claude/agents/")
}

/// Whether `path` is under a project's `.claude/rules/` folder, at any
/// depth (Claude Code memory documentation, "Organize rules with
/// `.claude/rules/`": files are discovered recursively).
fn in_claude_rules(path: &str) -> bool {
    path.starts_with(".claude/rules/") || path.contains("/.claude/rules/")
}

/// Whether `path` is under a `.github/instructions/` folder, at any depth:
/// Copilot reads path-specific instructions "within or below" it.
fn in_github_instructions(path: &str) -> bool {
    path.starts_with(".github/instructions/") || path.contains("/.github/instructions/")
}

/// Whether `path` is under a project's `.claude/commands/` folder, at any
/// depth: subfolders there namespace the commands they hold.
fn in_claude_commands(path: &str) -> bool {
    path.starts_with(".claude/commands/") || path.contains("/.claude/commands/")
}

fn top_str<'a>(doc: &'a Document, key: &str) -> Option<&'a str> {
    doc.get(doc.root()?, key).and_then(|v| doc.as_str(v))
}

fn has_key(doc: &Document, key: &str) -> bool {
    doc.root().and_then(|r| doc.get(r, key)).is_some()
}

/// Whether the `hooks` of a hooks file is an object keyed like Claude Code's:
/// some key is a Claude Code event, or every key is PascalCase. GitHub
/// Copilot's hooks (`version: 1`) key theirs by camelCase events
/// (`sessionStart`), so a `version` alone does not settle the format.
fn claude_hooks_shape(doc: &Document) -> bool {
    let Some(entries) = doc
        .root()
        .and_then(|r| doc.get(r, "hooks"))
        .and_then(|h| doc.entries(h))
    else {
        return false;
    };
    let keys: Vec<String> = entries.iter().filter_map(|e| doc.key_text(e.key)).collect();
    !keys.is_empty()
        && (keys.iter().any(|k| HOOK_EVENTS.contains(&k.as_str()))
            || keys
                .iter()
                .all(|k| k.starts_with(|c: char| c.is_ascii_uppercase())))
}

/// Whether a mapping has at least three of the sections only a Loopmaster
/// manifest has (v0.1 §2): another project's `loop.yaml` (agent-toolkit's
/// `goal`/`allowlist`/`budget`) has none.
fn loopmaster_shape(doc: &Document) -> bool {
    const KEYS: &[&str] = &[
        "purpose",
        "audience",
        "trigger",
        "permissions",
        "human_gates",
        "failure_policy",
        "maintenance",
        "backends",
        "verification",
    ];
    KEYS.iter().filter(|k| has_key(doc, k)).count() >= 3
}

/// Whether a mapping has the required members of a Loom AgentSpec besides
/// `spec_version` (`name`, `description`, `instructions`, `output`).
fn loom_shape(doc: &Document) -> bool {
    ["name", "instructions", "output"]
        .iter()
        .all(|k| has_key(doc, k))
}

/// Settles the format of a parsed candidate from its content.
pub fn refine(candidate: Candidate, doc: &Document) -> Refined {
    let is_mapping = doc
        .root()
        .map(|r| matches!(doc.kind(r), NodeKind::Mapping(_)))
        .unwrap_or(false);
    let agent_plugins = top_str(doc, "$schema").is_some_and(|s| s.contains("agent-plugins"));
    match candidate.format {
        Format::ClaudePlugin if agent_plugins => Refined::Format(Format::AgentPluginsManifest),
        Format::McpConfig if agent_plugins => Refined::Format(Format::AgentPluginsMcp),
        Format::OpenCodeContract => {
            let by_id = top_str(doc, "$schema")
                .or_else(|| top_str(doc, "$id"))
                .is_some_and(|s| s.contains("contract.schema.json"));
            let by_shape = is_mapping && has_key(doc, "requirements") && has_key(doc, "governance");
            if by_id || by_shape {
                Refined::Format(Format::OpenCodeContract)
            } else if candidate.certain {
                Refined::Unrecognised {
                    what: "orchestration contract",
                    why: "it has neither the OpenCode contract `$schema` nor its `requirements` and `governance` sections".into(),
                }
            } else {
                Refined::NotAnArtifact
            }
        }
        Format::LoomAgentSpec => {
            // Loom's shape without `spec_version` is a Loom spec whose version
            // is missing: the schema reports it, rather than skipping the file.
            if has_key(doc, "spec_version") || loom_shape(doc) {
                Refined::Format(Format::LoomAgentSpec)
            } else if candidate.certain {
                // `<name>.agent.yaml` is Loom's naming; a plain `agent.yaml` is anyone's.
                Refined::Unrecognised {
                    what: "agent spec",
                    why: "it has no `spec_version`, so it is not a Loom AgentSpec".into(),
                }
            } else {
                Refined::NotAnArtifact
            }
        }
        Format::LoopmasterManifest => {
            // A manifest of Loopmaster's shape without (or with a wrong)
            // `spec_version` is still one: the schema reports the version.
            if loopmaster_shape(doc) || (candidate.certain && has_key(doc, "spec_version")) {
                Refined::Format(Format::LoopmasterManifest)
            } else if !candidate.certain {
                Refined::NotAnArtifact
            } else {
                Refined::Unrecognised {
                    what: "loop manifest",
                    why: "it has no `spec_version`, so it is not a Loopmaster v0.1 manifest".into(),
                }
            }
        }
        Format::ClaudeHooks if has_key(doc, "version") && !claude_hooks_shape(doc) => {
            Refined::Unrecognised {
                what: "hooks file",
                why: "it has a top-level `version`, the shape of GitHub Copilot hooks, not Claude Code hooks".into(),
            }
        }
        Format::ClaudeMarketplace if !candidate.certain => {
            if has_key(doc, "owner") && has_key(doc, "plugins") {
                Refined::Format(Format::ClaudeMarketplace)
            } else {
                Refined::Unrecognised {
                    what: "marketplace",
                    why: "it is outside `.claude-plugin/` and lacks the `owner` and `plugins` of a Claude marketplace".into(),
                }
            }
        }
        f => Refined::Format(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        let f = |p| classify_path(p).map(|c| (c.format, c.certain));
        assert_eq!(
            f("packs/core/loops/build/loop.json"),
            Some((Format::SkilldropLoop, true))
        );
        assert_eq!(
            f("packs/core/loops/build/LOOP.md"),
            Some((Format::SkilldropLoopDoc, true))
        );
        assert_eq!(f("x/SKILL.md"), Some((Format::AgentSkill, true)));
        assert_eq!(
            f(".cursor/rules/react.mdc"),
            Some((Format::CursorRule, true))
        );
        assert_eq!(
            f("pkg/.cursor/rules/frontend/components.mdc"),
            Some((Format::CursorRule, true))
        );
        // A plain `.md` there is read to say Cursor ignores it; a folder's
        // README is not a rule.
        assert_eq!(f(".cursor/rules/api.md"), Some((Format::CursorRule, true)));
        assert_eq!(f(".cursor/rules/README.md"), None);
        assert_eq!(f("docs/rules/style.mdc"), None);
        assert_eq!(f(".cursor/style.mdc"), None);
        assert_eq!(f(".cursorrules"), Some((Format::CursorLegacyRules, true)));
        assert_eq!(
            f("web/.cursorrules"),
            Some((Format::CursorLegacyRules, true))
        );
        assert_eq!(f("p/agents/reviewer.md"), Some((Format::PluginAgent, true)));
        assert!(claude_subagent_path("p/agents/reviewer.md"));
        assert!(claude_subagent_path(".claude/agents/reviewer.md"));
        assert!(claude_subagent_path("agents/reviewer.md"));
        assert!(claude_subagent_path(".claude/agents/review/security.md"));
        assert!(claude_subagent_path("app/.claude/agents/a/b/c.md"));
        for other in [
            ".github/agents/reviewer.agent.md",
            ".github/agents/reviewer.md",
            "agents/reviewer.agent.md",
            ".cursor/agents/reviewer.md",
            "p/agents/README.md",
            "p/agents/sub/reviewer.md",
            "p/commands/reviewer.md",
        ] {
            assert!(!claude_subagent_path(other), "{other}");
        }
        assert_eq!(f("contract.schema.json"), None);
        assert_eq!(
            f("a/superpowers-contract.json"),
            Some((Format::OpenCodeContract, false))
        );
        assert_eq!(f("a/b/.vscode/mcp.json"), Some((Format::McpConfig, true)));
        assert_eq!(f("README.md"), None);
        // Instruction files of each client, in any folder.
        assert_eq!(f("CLAUDE.local.md"), Some((Format::ClaudeMemory, true)));
        assert_eq!(
            f(".claude/rules/api.md"),
            Some((Format::ClaudeMemory, true))
        );
        assert_eq!(
            f("app/.claude/rules/frontend/react.md"),
            Some((Format::ClaudeMemory, true))
        );
        assert_eq!(f("docs/rules/api.md"), None);
        assert_eq!(
            f("web/.windsurf/rules/react.md"),
            Some((Format::WindsurfRule, true))
        );
        assert_eq!(
            f(".kiro/steering/tech.md"),
            Some((Format::KiroSteering, true))
        );
        assert_eq!(f("pkg/AGENTS.md"), Some((Format::AgentsMd, true)));
        assert_eq!(f("AGENTS.override.md"), Some((Format::AgentsMd, true)));
        assert_eq!(f("docs/GEMINI.md"), Some((Format::GeminiMemory, true)));
        assert_eq!(f("agents.md"), None);
        assert_eq!(
            f("app/.claude/settings.local.json"),
            Some((Format::ClaudeSettings, true))
        );
        // A plugin's default settings only beside `.claude-plugin/`
        // (`unread_at_location`); never an editor's.
        assert_eq!(
            f("settings.json"),
            Some((Format::ClaudePluginSettings, false))
        );
        assert_eq!(f(".vscode/settings.json"), None);
        assert_eq!(
            f(".claude/commands/frontend/review.md"),
            Some((Format::PluginCommand, true))
        );
        assert_eq!(
            f("app/.claude/commands/a/b/c.md"),
            Some((Format::PluginCommand, true))
        );
        assert_eq!(f("docs/commands/a/b.md"), None);
        assert_eq!(
            f("kit/opencode.json.template"),
            Some((Format::OpenCodeConfig, true))
        );
        assert_eq!(f("opencode.jsonc"), Some((Format::OpenCodeConfig, true)));
        assert_eq!(
            f("x/research.loop.yaml"),
            Some((Format::LoopmasterManifest, true))
        );
        assert_eq!(
            f("loops/research-watch/manifest.yaml"),
            Some((Format::LoopmasterManifest, false))
        );
        assert_eq!(f("docs/manifest.yaml"), None);
        // GitHub Copilot: repository-wide and path-specific instructions
        // (any depth under `.github/instructions/`), prompt files.
        assert_eq!(
            f(".github/copilot-instructions.md"),
            Some((Format::CopilotInstructions, true))
        );
        assert_eq!(f("docs/copilot-instructions.md"), None);
        assert_eq!(
            f(".github/instructions/rust.instructions.md"),
            Some((Format::CopilotPathInstructions, true))
        );
        assert_eq!(
            f("app/.github/instructions/backend/api.instructions.md"),
            Some((Format::CopilotPathInstructions, true))
        );
        assert_eq!(f(".github/instructions/README.md"), None);
        assert_eq!(f("docs/rust.instructions.md"), None);
        assert_eq!(
            f(".github/prompts/review.prompt.md"),
            Some((Format::CopilotPrompt, true))
        );
        assert_eq!(f("prompts/review.prompt.md"), None);
        assert_eq!(
            f(".github/agents/reviewer.agent.md"),
            Some((Format::CopilotAgent, true))
        );
        assert_eq!(
            f("app/.github/agents/reviewer.md"),
            Some((Format::CopilotAgent, true))
        );
        assert_eq!(
            f(".github/agents/README.md"),
            Some((Format::PluginAgent, true))
        );
    }
}

/// Whether a recognised path is not read after all because of where it is:
/// a `SKILL.md` that no plugin loader discovers, or a `settings.json` that is
/// no plugin's default settings (no `.claude-plugin/plugin.json` beside it).
/// `exists` answers whether a repository path exists.
///
/// A plugin's skills are loaded from `skills/<name>/SKILL.md` only: a
/// `SKILL.md` nested more than one folder below a plugin's `skills/` (`P/skills/a/b/SKILL.md`
/// where `P/.claude-plugin/plugin.json` or `P/plugin.json` exists). Claude
/// Code and the Agent Plugins specification load a plugin's skills from
/// `skills/<name>/SKILL.md` only, so such a file is not an artifact (it is
/// usually an example or a template kept inside a skill).
///
/// Source: Agent Plugins v1 ("skills: each immediate subfolder of
/// `skills/` that holds a `SKILL.md`"); Claude Code plugins reference,
/// "Plugin directory structure" (`skills/<name>/SKILL.md`) and "File
/// locations reference" (`settings.json`).
pub fn unread_at_location(path: &str, exists: impl Fn(&str) -> bool) -> bool {
    undiscovered_plugin_skill(path, &exists) || stray_plugin_settings(path, &exists)
}

/// Whether `path` is a `settings.json` that [`classify_path`] offers as a
/// plugin's default settings but that sits in no plugin root (no
/// `.claude-plugin/plugin.json` beside it): any other tool's settings file.
///
/// Source: Claude Code plugins reference, "File locations reference"
/// (`settings.json` at the plugin root).
fn stray_plugin_settings(path: &str, exists: impl Fn(&str) -> bool) -> bool {
    (path == "settings.json" || path.ends_with("/settings.json"))
        && classify_path(path).is_some_and(|c| c.format == Format::ClaudePluginSettings)
        && !exists(&format!(
            "{}.claude-plugin/plugin.json",
            &path[..path.rfind('/').map_or(0, |i| i + 1)]
        ))
}

/// Whether `path` is a `SKILL.md` that no plugin loader discovers; see
/// [`unread_at_location`].
pub fn undiscovered_plugin_skill(path: &str, exists: impl Fn(&str) -> bool) -> bool {
    if path != "SKILL.md" && !path.ends_with("/SKILL.md") {
        return false;
    }
    let mut from = 0;
    while let Some(i) = path[from..].find("skills/").map(|i| i + from) {
        from = i + "skills/".len();
        if i > 0 && !path[..i].ends_with('/') {
            continue;
        }
        let below = &path[from..];
        if below.matches('/').count() < 2 {
            continue;
        }
        let plugin = &path[..i];
        if exists(&format!("{plugin}.claude-plugin/plugin.json"))
            || exists(&format!("{plugin}plugin.json"))
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod plugin_skill_depth_tests {
    use super::undiscovered_plugin_skill;

    #[test]
    fn only_nested_skills_of_a_plugin_are_undiscovered() {
        let files = ["p/.claude-plugin/plugin.json", "q/plugin.json"];
        let exists = |p: &str| files.contains(&p);
        assert!(undiscovered_plugin_skill("p/skills/a/b/SKILL.md", exists));
        assert!(undiscovered_plugin_skill(
            "q/skills/a/templates/SKILL.md",
            exists
        ));
        assert!(!undiscovered_plugin_skill("p/skills/a/SKILL.md", exists));
        assert!(!undiscovered_plugin_skill("r/skills/a/b/SKILL.md", exists));
        assert!(!undiscovered_plugin_skill(
            "p/myskills/a/b/SKILL.md",
            exists
        ));
        assert!(!undiscovered_plugin_skill("p/skills/a/b/README.md", exists));
    }
}

/// The extensions of the scripts read in a skill's folder outside its
/// `scripts/` (shell, Python, JavaScript, TypeScript).
pub const SCRIPT_EXTENSIONS: &[&str] = &[".sh", ".bash", ".py", ".js", ".mjs", ".cjs", ".ts"];

/// Whether a file name is one every folder may hold besides its content
/// (licence, readme, changelog, notice, a dotfile): not a skill's reference.
pub fn incidental_file(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    name.starts_with('.')
        || [
            "LICENSE",
            "LICENCE",
            "README",
            "CHANGELOG",
            "NOTICE",
            "COPYING",
        ]
        .iter()
        .any(|p| upper.starts_with(p))
}

/// What the path alone says a file bundled in a skill's folder may be,
/// before the folder is known: a `*.md` may be a [`Format::SkillReference`],
/// a file under a `scripts/` folder or with a [`SCRIPT_EXTENSIONS`] one a
/// [`Format::SkillScript`]. A cheap superset for the walk;
/// [`skill_file`] decides.
pub fn skill_file_shape(path: &str) -> Option<Format> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == "SKILL.md" || incidental_file(name) {
        return None;
    }
    if name.ends_with(".md") || misnamed_skill_name(name) {
        Some(Format::SkillReference)
    } else if path.starts_with("scripts/")
        || path.contains("/scripts/")
        || SCRIPT_EXTENSIONS.iter().any(|e| name.ends_with(e))
    {
        Some(Format::SkillScript)
    } else {
        None
    }
}

/// The folder (with a trailing `/`) of the skill whose folder holds `path`:
/// the nearest folder above it that holds a `SKILL.md` (so a nested
/// skill's files are its own). `exists` answers whether a repository path
/// exists.
pub fn skill_folder_of(path: &str, exists: impl Fn(&str) -> bool) -> Option<&str> {
    // The length of the folder prefix tried, `/` included; 0 is the root.
    let mut end = path.rfind('/').map_or(0, |i| i + 1);
    let mut probe = String::with_capacity(end + 8);
    loop {
        probe.clear();
        probe.push_str(&path[..end]);
        probe.push_str("SKILL.md");
        if exists(&probe) {
            return Some(&path[..end]);
        }
        if end == 0 {
            return None;
        }
        end = path[..end - 1].rfind('/').map_or(0, |i| i + 1);
    }
}

/// Folders of a skill whose files are not read as its references or
/// scripts: output templates and resources (`assets/`, `templates/`, the
/// specification's place for them), test harnesses (`evals/`), installed
/// dependencies and caches.
const NOT_SKILL_FILES: &[&str] = &[
    "assets",
    "templates",
    "evals",
    "node_modules",
    "__pycache__",
    ".venv",
    "venv",
];

/// Classifies a file bundled in a skill's folder that [`classify_path`]
/// does not recognise: a `*.md` is a [`Format::SkillReference`]; a file
/// under the skill's `scripts/`, or with a script extension anywhere in the
/// folder, a [`Format::SkillScript`] (one without an extension is kept only
/// if it starts with `#!`, decided when it is read). `None` when no folder
/// above it holds a `SKILL.md`, or it lies in a folder of
/// [`NOT_SKILL_FILES`]. A script without a script extension is not
/// `certain`: it is kept only if it opens with `#!`; a file that turns out
/// not to be UTF-8 text is silently not an artifact.
///
/// Source: Agent Skills specification, "Optional directories" (`scripts/`,
/// `references/`, `assets/`) and "File references"
/// (<https://agentskills.io/specification>).
pub fn skill_file(path: &str, exists: impl Fn(&str) -> bool) -> Option<Candidate> {
    let format = skill_file_shape(path)?;
    let dir = skill_folder_of(path, exists)?;
    let rel = &path[dir.len()..];
    let mut folders = rel.split('/');
    folders.next_back();
    if folders.any(|f| NOT_SKILL_FILES.contains(&f) || f.starts_with('.')) {
        return None;
    }
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let script_ext = SCRIPT_EXTENSIONS.iter().any(|e| name.ends_with(e));
    if format == Format::SkillScript && !script_ext && !rel.starts_with("scripts/") {
        return None;
    }
    Some(Candidate {
        syntax: format.syntax(),
        format,
        certain: format == Format::SkillReference || script_ext,
        jsonc: false,
    })
}

/// [`classify_with`], then [`misnamed_skill`] (read as the
/// [`Format::AgentSkill`] it was meant to be), then [`skill_file`]: the
/// one classification of a path when the repository's files are known.
pub fn classify_in_repo(
    path: &str,
    extra: impl Fn(&str) -> Option<Format>,
    exists: impl Fn(&str) -> bool,
) -> Option<Candidate> {
    if let Some(f) = extra(path) {
        return Some(Candidate::forced(f));
    }
    classify_path(path)
        .map(|c| codex_plugin_hooks(c, path, &exists))
        .or_else(|| {
            misnamed_skill(path, &exists).then_some(Candidate {
                syntax: Format::AgentSkill.syntax(),
                format: Format::AgentSkill,
                certain: true,
                jsonc: false,
            })
        })
        .or_else(|| skill_file(path, exists))
}

/// A plugin's default `hooks/hooks.json` is Codex's ([`Format::CodexHooks`])
/// when the plugin root above it has a Codex manifest
/// (`.codex-plugin/plugin.json`) and no Claude Code one
/// (`.claude-plugin/plugin.json`); `candidate` otherwise. Codex reads a
/// plugin's `hooks/hooks.json` by default (Codex hooks documentation,
/// "Where Codex looks for hooks", <https://developers.openai.com/codex/hooks>),
/// with Codex's events, not Claude Code's.
fn codex_plugin_hooks(
    candidate: Candidate,
    path: &str,
    exists: impl Fn(&str) -> bool,
) -> Candidate {
    if candidate.format != Format::ClaudeHooks {
        return candidate;
    }
    let Some(root) = path
        .strip_suffix("hooks/hooks.json")
        .filter(|r| r.is_empty() || r.ends_with('/'))
    else {
        return candidate;
    };
    if exists(&format!("{root}.codex-plugin/plugin.json"))
        && !exists(&format!("{root}.claude-plugin/plugin.json"))
    {
        Candidate {
            format: Format::CodexHooks,
            ..candidate
        }
    } else {
        candidate
    }
}

/// Whether a file name is `SKILL.md` spelled in another case (`skill.md`,
/// `Skill.md`, `SKILL.MD`).
pub fn misnamed_skill_name(name: &str) -> bool {
    name != "SKILL.md" && name.eq_ignore_ascii_case("SKILL.md")
}

/// Whether `path` is a skill's entry file named in the wrong case: a
/// [`misnamed_skill_name`] in a skill's own folder (`…/skills/<name>/`),
/// with no `SKILL.md` beside it (`exists` answers whether a repository
/// path exists). Clients look for `SKILL.md` exactly (Agent Skills
/// specification, "Directory structure"; Claude Code skills docs), so
/// such a skill loads only where the file system ignores case (macOS and
/// Windows by default) and never on Linux. skein reads it as the skill it
/// was meant to be, and `SKILL034 misnamed-skill-file` reports the name.
pub fn misnamed_skill(path: &str, exists: impl Fn(&str) -> bool) -> bool {
    let mut parts = path.rsplit('/');
    let (Some(name), Some(_folder), Some("skills")) = (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    misnamed_skill_name(name) && !exists(&format!("{}SKILL.md", &path[..path.len() - name.len()]))
}

#[cfg(test)]
mod skill_file_tests {
    use super::*;

    #[test]
    fn files_of_a_skill_folder() {
        let files = ["s/a/SKILL.md", "s/a/inner/SKILL.md", "SKILL.md"];
        let exists = |p: &str| files.contains(&p);
        let f = |p| skill_file(p, exists).map(|c| c.format);
        assert_eq!(f("s/a/references/api.md"), Some(Format::SkillReference));
        assert_eq!(f("s/a/guide.md"), Some(Format::SkillReference));
        assert_eq!(f("s/a/scripts/run"), Some(Format::SkillScript));
        assert_eq!(f("s/a/scripts/lib/x.py"), Some(Format::SkillScript));
        assert_eq!(f("s/a/tool.sh"), Some(Format::SkillScript));
        assert_eq!(f("s/a/bin/tool"), None);
        assert_eq!(f("s/a/README.md"), None);
        assert_eq!(f("s/a/assets/template.md"), None);
        assert_eq!(f("s/a/scripts/node_modules/x/index.js"), None);
        assert_eq!(f("s/a/data.csv"), None);
        assert_eq!(
            skill_folder_of("s/a/inner/x.md", exists),
            Some("s/a/inner/")
        );
        assert_eq!(skill_folder_of("docs/x.md", exists), Some(""));
        assert_eq!(skill_folder_of("x.md", |_| false), None);
    }

    #[test]
    fn misnamed_skills() {
        let files = [
            "s/skills/a/skill.md",
            "s/skills/b/SKILL.md",
            "s/skills/b/Skill.md",
        ];
        let exists = |p: &str| files.contains(&p);
        let f = |p| classify_in_repo(p, |_| None, exists).map(|c| c.format);
        assert_eq!(f("s/skills/a/skill.md"), Some(Format::AgentSkill));
        assert_eq!(f(".claude/skills/a/SKILL.MD"), Some(Format::AgentSkill));
        // Beside a SKILL.md it is one more file of that skill's folder.
        assert_eq!(f("s/skills/b/Skill.md"), Some(Format::SkillReference));
        // Not in a skill's own folder under `skills/`.
        assert_eq!(f("docs/skill.md"), None);
        assert_eq!(f("skills/skill.md"), None);
        assert!(!misnamed_skill("s/skills/a/SKILL.md", exists));
        assert!(!misnamed_skill_name("SKILL.md"));
        assert!(misnamed_skill_name("sKiLl.Md"));
        assert_eq!(skill_file_shape("x/SKILL.MD"), Some(Format::SkillReference));
    }

    #[test]
    fn codex_plugin_hooks_files() {
        let files = [
            "c/.codex-plugin/plugin.json",
            "b/.codex-plugin/plugin.json",
            "b/.claude-plugin/plugin.json",
        ];
        let exists = |p: &str| files.contains(&p);
        let f = |p| classify_in_repo(p, |_| None, exists).map(|c| c.format);
        assert_eq!(f("c/hooks/hooks.json"), Some(Format::CodexHooks));
        // Both manifests: Claude Code's rules apply, as before.
        assert_eq!(f("b/hooks/hooks.json"), Some(Format::ClaudeHooks));
        assert_eq!(f("a/hooks/hooks.json"), Some(Format::ClaudeHooks));
        assert_eq!(f(".codex/hooks.json"), Some(Format::CodexHooks));
        assert_eq!(f(".cursor/hooks.json"), Some(Format::CursorHooks));
        assert_eq!(f("app/.cursor/hooks.json"), Some(Format::CursorHooks));
        // Copilot's `.github/hooks/*.json`, whatever the name; not a
        // subfolder's file, which Copilot does not load.
        assert_eq!(f(".github/hooks/hooks.json"), Some(Format::CopilotHooks));
        assert_eq!(f(".github/hooks/guard.json"), Some(Format::CopilotHooks));
        assert_eq!(
            f("app/.github/hooks/settings.json"),
            Some(Format::CopilotHooks)
        );
        assert_eq!(f(".github/hooks/logger/hooks.json"), None);
        assert_eq!(f("hooks/guard.json"), None);
        // A configuration's mapping wins.
        let forced = classify_in_repo("c/hooks/hooks.json", |_| Some(Format::ClaudeHooks), exists);
        assert_eq!(forced.map(|c| c.format), Some(Format::ClaudeHooks));
    }
}
