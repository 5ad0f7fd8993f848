//! AGENT: Claude Code subagents (`agents/*.md` of a plugin, `.claude/agents/*.md`).
//!
//! Which `plugin-agent` files are Claude Code subagents is decided by
//! [`subagent`]: the path ([`skein_model::claude_subagent_path`]) and the
//! content around it (a skill's own `agents/` prompts, an OpenCode agent).

pub mod bypass_permissions_agent;
pub mod disallowed_tool_specifier;
pub mod duplicate_agent_name;
pub mod invalid_agent_field_value;
pub mod invalid_agent_name;
pub mod invalid_permission_mode;
pub mod missing_agent_field;
pub mod tool_both_allowed_and_disallowed;
pub mod unknown_agent_field;
pub mod unknown_agent_model;
pub mod unknown_agent_tool;

use crate::Context;
use crate::similar::within;
use skein_model::{Artifact, Format, claude_subagent_path};
use skein_syntax::{Document, NodeId, NodeKind, SourceFile, Span};

/// A Claude Code subagent file: its frontmatter tree and its text.
pub(crate) struct Subagent<'a> {
    /// The frontmatter tree.
    pub doc: &'a Document,
    /// The frontmatter mapping, if the frontmatter is one.
    pub root: Option<NodeId>,
    /// The file (its text is read only when asked for, by
    /// [`Subagent::text`]: a repository pass asks every agent its name and
    /// reads no more of most).
    pub source: &'a SourceFile,
}

impl<'a> Subagent<'a> {
    /// The whole file.
    pub fn text(&self) -> &'a str {
        self.source.text()
    }

    /// The value of a top-level field.
    pub fn field(&self, key: &str) -> Option<NodeId> {
        self.root.and_then(|r| self.doc.get(r, key))
    }

    /// The top-level entries of the frontmatter.
    pub fn entries(&self) -> &'a [skein_syntax::Entry] {
        self.root.and_then(|r| self.doc.entries(r)).unwrap_or(&[])
    }

    /// The bytes of `node` as written in the file.
    pub fn written(&self, node: NodeId) -> &'a str {
        let span = self.doc.node(node).span;
        self.text()
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
            .trim_end()
    }

    /// The string value of a top-level field, with the span of its text
    /// (inside the quotes of a quoted scalar).
    pub fn str_field(&self, key: &str) -> Option<(&'a str, Span)> {
        let n = self.field(key)?;
        let s = self.doc.as_str(n)?;
        Some((s, inner_span(self.text(), self.doc.node(n).span, s)))
    }
}

/// The frontmatter fields the subagents page documents ("Supported
/// frontmatter fields"), and `capabilities`, which the plugins reference
/// shows in its agent example.
pub(crate) const FIELDS: &[&str] = &[
    "name",
    "description",
    "tools",
    "disallowedTools",
    "model",
    "permissionMode",
    "maxTurns",
    "skills",
    "mcpServers",
    "hooks",
    "memory",
    "background",
    "effort",
    "isolation",
    "color",
    "initialPrompt",
    "omitClaudeMd",
    "experimental",
    "capabilities",
    "autoCompactWindow",
    "observer",
    "observerMessage",
    "observeToolResults",
    "observeSubagents",
];

/// `memory` scopes.
pub(crate) const MEMORY_SCOPES: &[&str] = &["user", "project", "local"];
/// `effort` levels.
pub(crate) const EFFORT_LEVELS: &[&str] = &["low", "medium", "high", "xhigh", "max"];
/// `isolation` values.
pub(crate) const ISOLATIONS: &[&str] = &["worktree", "remote"];
/// `color` values.
pub(crate) const COLORS: &[&str] = &[
    "red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan",
];

/// What is wrong with a documented field's value.
pub(crate) struct BadValue {
    /// The message, the value quoted as written.
    pub message: String,
    /// The primary label.
    pub label: &'static str,
    /// The valid values.
    pub note: String,
    /// A likely fix.
    pub help: Option<String>,
}

/// What is wrong with `node` as the value of the enumerated or typed field
/// `field`; `None` when it is valid, empty, or `field` is not checked.
pub(crate) fn bad_value(agent: &Subagent, field: &str, node: NodeId) -> Option<BadValue> {
    let doc = agent.doc;
    let kind = doc.kind(node);
    if matches!(kind, NodeKind::Null) {
        return None;
    }
    let written = agent.written(node);
    let shown = match kind {
        NodeKind::Sequence(_) => "a list".to_string(),
        NodeKind::Mapping(_) => "a mapping".to_string(),
        _ => skein_syntax::quote(written),
    };
    let quoted_text = |s: &str| {
        (written.starts_with('"') || written.starts_with('\''))
            .then(|| format!("write it without quotes: `{field}: {s}`"))
    };
    // Claude Code takes an effort level or a whole number of thinking effort.
    if field == "effort"
        && (matches!(kind, NodeKind::Number(n) if n.as_u64().is_some())
            || doc
                .as_str(node)
                .is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())))
    {
        return None;
    }
    let (what, values): (&str, &[&str]) = match field {
        "memory" => ("memory scope", MEMORY_SCOPES),
        "effort" => ("effort level", EFFORT_LEVELS),
        "isolation" => ("isolation mode", ISOLATIONS),
        "color" => ("color", COLORS),
        "maxTurns" => {
            if let NodeKind::Number(n) = kind
                && n.as_u64().is_some_and(|u| u > 0)
            {
                return None;
            }
            let digits = doc.as_str(node).filter(|s| {
                !s.is_empty()
                    && s.bytes().all(|b| b.is_ascii_digit())
                    && s.parse::<u64>().is_ok_and(|u| u > 0)
            });
            return Some(BadValue {
                message: format!("subagent `maxTurns` is {shown}, not a positive integer"),
                label: "not a positive integer",
                note: "`maxTurns` is the number of agentic turns before the subagent stops: a whole number, 1 or more".into(),
                help: match digits {
                    Some(d) => quoted_text(d),
                    None => Some("write a whole number of turns, such as `maxTurns: 10`".into()),
                },
            });
        }
        "background" => {
            // Claude Code also takes the strings `"true"` and `"false"`.
            if matches!(kind, NodeKind::Bool(_))
                || doc
                    .as_str(node)
                    .is_some_and(|s| s == "true" || s == "false")
            {
                return None;
            }
            let word = doc.as_str(node).filter(|s| *s == "true" || *s == "false");
            return Some(BadValue {
                message: format!("subagent `background` is {shown}, not `true` or `false`"),
                label: "not a boolean",
                note: "`background` is `true` (always run as a background task) or `false`".into(),
                help: word.and_then(quoted_text),
            });
        }
        _ => return None,
    };
    let note = format!("`{field}` is one of {}", listed(values));
    let Some(s) = doc.as_str(node) else {
        return Some(BadValue {
            message: format!("subagent `{field}` is {shown}, not a {what}"),
            label: "expected a string",
            note,
            help: None,
        });
    };
    if values.contains(&s) {
        return None;
    }
    Some(BadValue {
        message: format!("unknown {what} {} in `{field}`", skein_syntax::quote(s)),
        label: match field {
            "memory" => "not a memory scope",
            "effort" => "not an effort level",
            "isolation" => "not an isolation mode",
            _ => "not a documented color",
        },
        note,
        help: suggest(s, values).map(|v| format!("did you mean {}?", skein_syntax::quote(v))),
    })
}

/// The artifacts the AGENT rules read: Claude Code subagents
/// ([`subagent`]).
pub(crate) const ON: crate::On = crate::On::Formats(&[Format::PluginAgent]);

/// Whether `path` is a project subagent (`.claude/agents/`), not a plugin's.
pub(crate) fn project_agent(path: &str) -> bool {
    path.starts_with(".claude/agents/") || path.contains("/.claude/agents/")
}

/// `a` as a Claude Code subagent, or `None` when it is not one (or its tree
/// was repaired around a syntax error: nothing is reported on it then).
pub(crate) fn subagent<'a>(cx: &'a Context, a: &'a Artifact) -> Option<Subagent<'a>> {
    if a.format != Format::PluginAgent || a.damaged {
        return None;
    }
    // A dozen rules ask this of every agent file: judged once per artifact
    // of the context ([`crate::Memo`]).
    let i = cx.artifacts.binary_search_by_key(&a.file, |x| x.file).ok();
    let is = match i.and_then(|i| cx.memo.subagent(i)) {
        Some(cell) => *cell.get_or_init(|| judge_subagent(cx, a).is_some()),
        None => judge_subagent(cx, a).is_some(),
    };
    is.then(|| {
        let doc = &a.document;
        Subagent {
            doc,
            root: doc
                .root()
                .filter(|&r| matches!(doc.kind(r), NodeKind::Mapping(_))),
            source: cx.sources.get(a.file),
        }
    })
}

/// `Some` when `a`, an undamaged agent file, is a Claude Code subagent:
/// what [`subagent`] judges.
fn judge_subagent(cx: &Context, a: &Artifact) -> Option<()> {
    let path = cx.path(a.file);
    if !claude_subagent_path(path) {
        return None;
    }
    // The folder that holds `agents/` (`.claude/` for a subfolder of a
    // project's `.claude/agents/`).
    let home = match path.find(".claude/agents/") {
        Some(i) if i == 0 || path[..i].ends_with('/') => &path[..i + ".claude/".len()],
        _ => path[..path.rfind('/')?].strip_suffix("agents")?,
    };
    let doc = &a.document;
    let root = doc
        .root()
        .filter(|&r| matches!(doc.kind(r), NodeKind::Mapping(_)));
    // `mode: subagent|primary|all` is OpenCode's agent frontmatter.
    if root.is_some_and(|r| doc.get(r, "mode").is_some()) {
        return None;
    }
    // A skill's own `agents/` holds prompts the skill hands to subagents it
    // starts itself; an OpenCode kit's `agents/` holds OpenCode agents.
    // (Every AGENT and HOOK rule asks this of every agent file: one buffer,
    // no allocation per name.)
    let mut beside = String::with_capacity(home.len() + 24);
    for name in [
        "SKILL.md",
        "opencode.json",
        "opencode.jsonc",
        "opencode.json.template",
    ] {
        beside.clear();
        beside.push_str(home);
        beside.push_str(name);
        if cx.repo_files.contains(&beside) {
            return None;
        }
    }
    Some(())
}

/// The span of `value`'s own text inside a scalar written at `span`: the
/// span itself for a plain scalar, without the quotes for a quoted one
/// without escapes, `span` when the text is not `value` as written.
pub(crate) fn inner_span(text: &str, span: Span, value: &str) -> Span {
    match value_offset(text, span, value) {
        Some(o) => Span::new(
            span.start as usize + o,
            span.start as usize + o + value.len(),
        ),
        None => span,
    }
}

/// Where `value` starts inside the scalar at `span`, when it is written
/// there byte for byte.
fn value_offset(text: &str, span: Span, value: &str) -> Option<usize> {
    let raw = text.get(span.start as usize..span.end as usize)?;
    if raw == value {
        return Some(0);
    }
    let quoted = raw.len() >= 2
        && ((raw.starts_with('"') && raw.ends_with('"'))
            || (raw.starts_with('\'') && raw.ends_with('\'')));
    (quoted && &raw[1..raw.len() - 1] == value).then_some(1)
}

/// One entry of a `tools` or `disallowedTools` value, as written.
#[derive(Debug, Clone)]
pub(crate) struct ToolEntry {
    /// The entry, trimmed (`Bash(git:*)`).
    pub text: String,
    /// Its bytes in the file (the whole scalar when they cannot be told apart).
    pub span: Span,
    /// The scalar that holds it (a list item, or the whole string).
    pub node: NodeId,
}

impl ToolEntry {
    /// The tool the entry names: the text before a `(` pattern.
    pub fn tool(&self) -> &str {
        self.text.split('(').next().unwrap_or("").trim()
    }
}

/// The entries of a tool list: a YAML list (one entry per item) or a
/// comma-separated string (one entry per piece; commas inside a
/// parenthesised pattern such as `Agent(a, b)` do not separate).
pub(crate) fn tool_entries(agent: &Subagent, node: NodeId) -> Vec<ToolEntry> {
    let doc = agent.doc;
    match doc.kind(doc.resolve(node)) {
        NodeKind::Sequence(items) => items
            .iter()
            .filter_map(|&i| {
                let s = doc.as_str(i)?;
                let span = inner_span(agent.text(), doc.node(i).span, s);
                let (text, span) = trim_piece(s, span, value_offset_known(agent, i, s));
                (!text.is_empty()).then(|| ToolEntry {
                    text: text.to_string(),
                    span,
                    node: i,
                })
            })
            .collect(),
        NodeKind::String(s) => {
            let span = doc.node(node).span;
            let offset = value_offset(agent.text(), span, s);
            split_top_level(s)
                .into_iter()
                .filter_map(|(start, piece)| {
                    let piece_span = match offset {
                        Some(o) => {
                            let at = span.start as usize + o + start;
                            Span::new(at, at + piece.len())
                        }
                        None => span,
                    };
                    let (text, piece_span) = trim_piece(piece, piece_span, offset.is_some());
                    (!text.is_empty()).then(|| ToolEntry {
                        text: text.to_string(),
                        span: piece_span,
                        node,
                    })
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

fn value_offset_known(agent: &Subagent, node: NodeId, s: &str) -> bool {
    value_offset(agent.text(), agent.doc.node(node).span, s).is_some()
}

/// `piece` without surrounding whitespace, its span narrowed to match when
/// the span is exact.
fn trim_piece(piece: &str, span: Span, exact: bool) -> (&str, Span) {
    let text = piece.trim();
    if !exact || text.is_empty() {
        return (text, span);
    }
    let lead = piece.len() - piece.trim_start().len();
    let start = span.start as usize + lead;
    (text, Span::new(start, start + text.len()))
}

/// `s` split at the commas outside parentheses, each piece with its byte offset.
fn split_top_level(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push((start, &s[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, &s[start..]));
    out
}

/// The candidate `value` most likely meant: one equal but for case, else
/// the nearest within two edits (compared without case; ties to the first).
pub(crate) fn suggest<'a>(value: &str, candidates: &[&'a str]) -> Option<&'a str> {
    if let Some(c) = candidates.iter().find(|c| c.eq_ignore_ascii_case(value)) {
        return Some(c);
    }
    let lower = value.to_lowercase();
    if lower.chars().count() > 64 {
        return None;
    }
    candidates
        .iter()
        .filter_map(|c| Some((c, within(&lower, &c.to_lowercase(), 2)?)))
        .min_by_key(|&(_, d)| d)
        .map(|(c, _)| *c)
}

/// Every candidate, each in backquotes, joined by commas.
pub(crate) fn listed(candidates: &[&str]) -> String {
    candidates
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_outside_parentheses() {
        assert_eq!(
            split_top_level("Read, Agent(a, b),Bash"),
            vec![(0, "Read"), (5, " Agent(a, b)"), (18, "Bash")]
        );
        assert_eq!(split_top_level(""), vec![(0, "")]);
    }

    #[test]
    fn offsets_of_quoted_and_plain_scalars() {
        let text = "tools: \"Read, Bash\"";
        assert_eq!(
            inner_span(text, Span::new(7, 19), "Read, Bash"),
            Span::new(8, 18)
        );
        assert_eq!(inner_span("x: ab", Span::new(3, 5), "ab"), Span::new(3, 5));
        // Escapes: the text is not the value as written; the span stays whole.
        assert_eq!(
            inner_span("x: \"a\\tb\"", Span::new(3, 9), "a\tb"),
            Span::new(3, 9)
        );
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("bash", &["Bash", "Read"]), Some("Bash"));
        assert_eq!(suggest("sonet", &["sonnet", "opus"]), Some("sonnet"));
        assert_eq!(suggest("gpt-4", &["sonnet", "opus"]), None);
    }
}
