//! Typed models of each format, deserialized from the spanned [`Document`]
//! with [`skein_syntax::from_node`] after schema validation.
//!
//! The models hold what the graph and the passes read; the schema checks the
//! rest. Every reference a rule may point at is a [`Spanned`] value. Field
//! names follow the format documents named on each type.
//!
//! [`Document`]: skein_syntax::Document

use serde::Deserialize;
use serde_json::Value;
use skein_syntax::Spanned;
use std::collections::BTreeMap;

/// A string or a list of strings (`allowed-tools: Read, Grep` or `[Read, Grep]`).
///
/// Used inside [`Spanned`], which keeps the span of the whole value.
#[derive(Debug, Clone, PartialEq)]
pub enum OneOrMany {
    /// One string (tools are comma or space separated).
    One(String),
    /// A list of strings.
    Many(Vec<String>),
}

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = OneOrMany;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or a list of strings")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<OneOrMany, E> {
                Ok(OneOrMany::One(v.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<OneOrMany, A::Error> {
                let mut v = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    v.push(s);
                }
                Ok(OneOrMany::Many(v))
            }
        }
        d.deserialize_any(V)
    }
}

impl OneOrMany {
    /// The items: a list as it is; a string split at commas, or at white
    /// space when it has no comma, never inside parentheses
    /// (`Bash(git add:*), Read` is two tools).
    pub fn items(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => {
                let sep = if s.contains(',') {
                    |c: char| c == ','
                } else {
                    |c: char| c.is_whitespace()
                };
                let mut out = Vec::new();
                let (mut depth, mut start) = (0i32, 0usize);
                for (i, c) in s.char_indices() {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        c if depth == 0 && sep(c) => {
                            out.push(s[start..i].trim());
                            start = i + c.len_utf8();
                        }
                        _ => {}
                    }
                }
                out.push(s[start..].trim());
                out.retain(|t| !t.is_empty());
                out
            }
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// skilldrop loop manifest (`formats/skilldrop-loop.schema.json`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SkilldropLoop {
    /// Loop name; equals its folder name.
    pub name: Spanned<String>,
    /// Documentation file, relative to the loop folder (`LOOP.md`).
    pub entrypoint: Option<Spanned<String>>,
    /// `loop` or `wrapper`.
    pub kind: Option<Spanned<String>>,
    /// Maximum revise rounds per gate.
    pub cap: Option<Spanned<u64>>,
    /// Stages in order; the first is the entry.
    pub stages: Vec<SkilldropStage>,
    /// The file fails its schema (set by decoding), and may have been read
    /// by [`SkilldropLoop::lenient`], with values of the wrong type left
    /// out: rules comparing the loop with other files (its `LOOP.md`) skip
    /// it, the schema finding being the one finding of the fault.
    #[serde(skip)]
    pub partial: bool,
}

impl SkilldropLoop {
    /// The loop as far as `doc` holds it, for a `loop.json` that fails its
    /// schema in a way the typed model cannot hold (a `cap` written as a
    /// string, a stage id that is a number): every value of the right type
    /// is kept, so the skills it runs are still referenced. `None` when the
    /// root is not a mapping. A `name` that is not a string is read as `""`.
    pub fn lenient(doc: &skein_syntax::Document) -> Option<SkilldropLoop> {
        use skein_syntax::{Document, NodeId, NodeKind};
        fn string(doc: &Document, id: NodeId) -> Option<Spanned<String>> {
            doc.as_str(id).map(|v| Spanned {
                span: doc.node(id).span,
                value: v.to_string(),
            })
        }
        fn field(doc: &Document, m: NodeId, key: &str) -> Option<Spanned<String>> {
            doc.get(m, key).and_then(|v| string(doc, v))
        }
        // An id written as another scalar keeps its JSON spelling (`7`).
        fn id(doc: &Document, m: NodeId) -> Spanned<String> {
            let span = doc.node(m).span;
            match doc.get(m, "id") {
                Some(v) => Spanned {
                    span: doc.node(v).span,
                    value: doc.key_text(v).unwrap_or_default(),
                },
                None => Spanned {
                    span: Span::new(span.start as usize, span.start as usize),
                    value: String::new(),
                },
            }
        }
        fn strings(doc: &Document, m: NodeId, key: &str) -> Vec<Spanned<String>> {
            doc.get(m, key)
                .and_then(|v| doc.items(v))
                .map(|items| items.iter().filter_map(|&i| string(doc, i)).collect())
                .unwrap_or_default()
        }
        use skein_syntax::Span;
        let root = doc.root()?;
        doc.entries(root)?;
        let name = field(doc, root, "name").unwrap_or(Spanned {
            span: doc
                .get(root, "name")
                .map_or(Span::new(0, 0), |v| doc.node(v).span),
            value: String::new(),
        });
        let cap = doc.get(root, "cap").and_then(|v| match doc.kind(v) {
            NodeKind::Number(n) => n.as_u64().map(|c| Spanned {
                span: doc.node(v).span,
                value: c,
            }),
            _ => None,
        });
        let stages = doc
            .get(root, "stages")
            .and_then(|v| doc.items(v))
            .unwrap_or_default()
            .iter()
            .filter(|&&st| doc.entries(st).is_some())
            .map(|&st| SkilldropStage {
                id: id(doc, st),
                skills: strings(doc, st, "skills"),
                gate: doc
                    .get(st, "gate")
                    .filter(|&g| doc.entries(g).is_some())
                    .map(|g| SkilldropGate {
                        id: id(doc, g),
                        kind: field(doc, g, "kind"),
                        script: field(doc, g, "script"),
                        verdicts: strings(doc, g, "verdicts"),
                        revise_to: field(doc, g, "revise_to"),
                    }),
            })
            .collect();
        Some(SkilldropLoop {
            name,
            entrypoint: field(doc, root, "entrypoint"),
            kind: field(doc, root, "kind"),
            cap,
            stages,
            partial: true,
        })
    }
}

/// One stage of a skilldrop loop.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SkilldropStage {
    /// Stage id, unique in the loop.
    pub id: Spanned<String>,
    /// Skills the stage runs, by name.
    #[serde(default)]
    pub skills: Vec<Spanned<String>>,
    /// The gate that closes the stage, if any.
    pub gate: Option<SkilldropGate>,
}

/// A gate: verdicts it can emit and where a revise verdict returns to.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SkilldropGate {
    /// Gate id, unique across the repository.
    pub id: Spanned<String>,
    /// `mechanical`, `human`, `panel`, ...
    pub kind: Option<Spanned<String>>,
    /// Script that decides a mechanical gate, repo-relative.
    pub script: Option<Spanned<String>>,
    /// Verdict words (from `contracts/terminals.json`) the gate can emit.
    #[serde(default)]
    pub verdicts: Vec<Spanned<String>>,
    /// Stage id a revise-class verdict returns to.
    pub revise_to: Option<Spanned<String>>,
}

/// skilldrop verdict vocabulary (`contracts/terminals.json`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SkilldropTerminals {
    /// Class name -> its description.
    pub classes: BTreeMap<String, Value>,
    /// Verdict word -> its class.
    pub verdicts: BTreeMap<String, SkilldropVerdict>,
}

/// One verdict word of the vocabulary.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SkilldropVerdict {
    /// The class (`pass`, `conditional`, `revise`, `redirect`, `blocked`).
    pub class: Spanned<String>,
}

/// skilldrop pack manifest (`packs/<pack>/pack.json`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SkilldropPack {
    /// Packs whose skills this pack's loops may use.
    #[serde(default)]
    pub requires: Vec<Spanned<String>>,
}

/// skilldrop catalogue (`catalogue.json`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SkilldropCatalogue {
    /// Pack names in display order.
    #[serde(default)]
    pub packs: Vec<Spanned<String>>,
    /// Outcome name -> the skills it lists (the catalogue's browse axis).
    #[serde(default)]
    pub outcomes: BTreeMap<String, SkilldropOutcome>,
}

/// One outcome of a skilldrop catalogue.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SkilldropOutcome {
    /// Skills by name.
    #[serde(default)]
    pub skills: Vec<Spanned<String>>,
}

/// Agent Skills frontmatter (agentskills specification; also the
/// frontmatter of plugin agents and commands).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SkillFrontmatter {
    /// Skill name; equals the folder name.
    pub name: Option<Spanned<String>>,
    /// What the skill does and when to use it.
    pub description: Option<Spanned<String>>,
    /// Tools the skill may use without asking.
    #[serde(rename = "allowed-tools")]
    pub allowed_tools: Option<Spanned<OneOrMany>>,
    /// Tools of a plugin agent (`tools:` in `agents/*.md`).
    pub tools: Option<Spanned<OneOrMany>>,
    /// Skills an agent loads (`skills:` in `agents/*.md`): a list or a
    /// comma-separated string; the graph reads each name's span from the tree.
    pub skills: Option<Spanned<OneOrMany>>,
}

/// OpenCode orchestration contract (`formats/opencode-contract.schema.json`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OpenCodeContract {
    /// Lifecycle state.
    pub state: Option<Spanned<String>>,
    /// Governance: mode and permissions.
    pub governance: Option<Value>,
    /// Retry policy.
    pub retry: Option<Spanned<Value>>,
}

/// OpenCode configuration (`opencode.json`, `opencode.jsonc`, `opencode.json.template`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OpenCodeConfig {
    /// Agents by name.
    #[serde(default)]
    pub agent: BTreeMap<String, OpenCodeAgent>,
    /// Skill search paths.
    pub skills: Option<OpenCodeSkills>,
    /// MCP servers by name.
    #[serde(default)]
    pub mcp: BTreeMap<String, Spanned<Value>>,
    /// Tool switches for every agent.
    #[serde(default)]
    pub tools: BTreeMap<String, Spanned<bool>>,
}

/// An agent of an OpenCode configuration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OpenCodeAgent {
    /// Skills the agent loads, by name.
    #[serde(default)]
    pub skills: Vec<Spanned<String>>,
    /// Tool switches of this agent.
    #[serde(default)]
    pub tools: BTreeMap<String, Spanned<bool>>,
}

/// `skills` of an OpenCode configuration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct OpenCodeSkills {
    /// Folders holding `<name>/SKILL.md`.
    #[serde(default)]
    pub paths: Vec<Spanned<String>>,
}

/// Loom AgentSpec v1 (`formats/loom-agent-spec-v1.schema-emitter.py.txt`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LoomAgentSpec {
    /// Agent name.
    pub name: Spanned<String>,
    /// Capabilities (skills, mcp, a2a, native, ...), kept as values.
    #[serde(default)]
    pub capabilities: Vec<Spanned<Value>>,
    /// Runtime policies (`max_iterations`, retries, ...).
    pub policies: Option<Value>,
}

/// Loopmaster loop manifest v0.1 (`formats/loopmaster-loop-spec-v0.1.md`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LoopmasterManifest {
    /// Loop id.
    pub id: Spanned<String>,
    /// Permissions (`allowed_actions`, `forbidden_actions`, ...).
    pub permissions: Option<Value>,
    /// Failure policy, including `retry`.
    pub failure_policy: Option<Value>,
}

/// Bailey solution document (`formats/bailey-assistant.schema.json`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct BaileyAssistant {
    /// Assistant name.
    pub name: Spanned<String>,
    /// Instructions file, relative to the document.
    pub instructions: Option<Spanned<String>>,
    /// Persona file.
    pub persona: Option<Spanned<String>>,
    /// MCP config file.
    pub mcp: Option<Spanned<String>>,
    /// Skills the assistant loads.
    #[serde(default)]
    pub skills: Vec<BaileySkill>,
    /// Tool grants per MCP server.
    #[serde(default)]
    pub tools: BTreeMap<String, Value>,
}

/// A skill reference of a Bailey assistant.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct BaileySkill {
    /// Skill name.
    pub name: Spanned<String>,
    /// Path of the skill folder or file.
    pub path: Option<Spanned<String>>,
}

/// A plugin manifest: Claude Code `.claude-plugin/plugin.json`, Codex
/// `.codex-plugin/plugin.json` or Agent Plugins 1.0.0. Every field is
/// optional and untyped here: the PLUGIN rules report a missing or mistyped
/// value (the schema no longer does), so decoding never fails on them.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PluginManifest {
    /// Plugin name as written (a string when valid).
    pub name: Option<Spanned<Value>>,
    /// Custom skill folders (Claude Code).
    pub skills: Option<Value>,
    /// Custom agent files (Claude Code).
    pub agents: Option<Value>,
    /// Custom command files (Claude Code).
    pub commands: Option<Value>,
    /// Inline or referenced MCP servers (Claude Code).
    #[serde(rename = "mcpServers")]
    pub mcp_servers: Option<Value>,
}

impl PluginManifest {
    /// The name when it is a string.
    pub fn name_str(&self) -> Option<&str> {
        self.name.as_ref().and_then(|n| n.value.as_str())
    }
}

/// A plugin marketplace (`.claude-plugin/marketplace.json`). Its entries
/// are read from the document by the graph (`RepoGraph::marketplaces`);
/// the MKT rules report missing or mistyped fields.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Marketplace {
    /// Marketplace name as written.
    pub name: Option<Spanned<Value>>,
}

/// Every Claude Code hook event, exact case, as the hooks reference lists them
/// (<https://code.claude.com/docs/en/hooks>).
pub const HOOK_EVENTS: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SessionEnd",
    "Setup",
    "Elicitation",
    "ElicitationResult",
    "InstructionsLoaded",
    "ConfigChange",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "WorktreeCreate",
    "WorktreeRemove",
    "PreModelSwitch",
    "PostModelSwitch",
    "MessageDisplay",
];

/// The hook events the hooks reference says do not support a `matcher`
/// (one given is silently ignored).
pub const MATCHERLESS_HOOK_EVENTS: &[&str] = &[
    "UserPromptSubmit",
    "Stop",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "WorktreeCreate",
    "WorktreeRemove",
    "CwdChanged",
];

/// Claude Code hooks (`hooks/hooks.json`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Hooks {
    /// Event name -> matcher groups.
    pub hooks: BTreeMap<String, Value>,
}

/// An MCP server config (`mcpServers`, or VS Code's `servers`, or the flat
/// form where server names are top-level keys).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct McpConfig {
    /// `mcpServers` form.
    #[serde(rename = "mcpServers")]
    pub mcp_servers: Option<BTreeMap<String, Spanned<Value>>>,
    /// VS Code `servers` form.
    pub servers: Option<BTreeMap<String, Spanned<Value>>>,
}

/// The typed model of an artifact.
///
/// Each model is boxed: an artifact is one of tens of thousands in a list,
/// and would otherwise be as large as the largest model (a plugin
/// manifest's, 368 bytes) whatever its format (issue #17).
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)]
pub enum Model {
    SkilldropLoop(Box<SkilldropLoop>),
    SkilldropTerminals(Box<SkilldropTerminals>),
    SkilldropPack(Box<SkilldropPack>),
    SkilldropCatalogue(Box<SkilldropCatalogue>),
    /// Frontmatter of a SKILL.md, plugin agent or command.
    Frontmatter(Box<SkillFrontmatter>),
    OpenCodeContract(Box<OpenCodeContract>),
    OpenCodeConfig(Box<OpenCodeConfig>),
    LoomAgentSpec(Box<LoomAgentSpec>),
    LoopmasterManifest(Box<LoopmasterManifest>),
    BaileyAssistant(Box<BaileyAssistant>),
    Plugin(Box<PluginManifest>),
    Marketplace(Box<Marketplace>),
    Hooks(Box<Hooks>),
    McpConfig(Box<McpConfig>),
    /// A format with no typed model (LOOP.md: its body is read by a later pass).
    None,
}

#[cfg(test)]
mod tests {
    use super::OneOrMany;

    #[test]
    fn tool_lists_split_outside_parentheses() {
        let one = OneOrMany::One("Bash(git add:*), Read, mcp__db__query".into());
        assert_eq!(one.items(), ["Bash(git add:*)", "Read", "mcp__db__query"]);
        assert_eq!(
            OneOrMany::One("Read Grep  Glob".into()).items(),
            ["Read", "Grep", "Glob"]
        );
        assert_eq!(OneOrMany::Many(vec!["Write".into()]).items(), ["Write"]);
    }
}
