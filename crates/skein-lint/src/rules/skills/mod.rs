//! SKILL: the frontmatter of Agent Skills (`SKILL.md`), checked against the
//! Agent Skills specification (agentskills.io) and Claude Code's extensions.
//!
//! Every rule but `duplicate-skill-name` is a per-file pass. They read the
//! frontmatter's [`Document`] (spans of keys and values as written) and run
//! only when the file decoded to a [`Model::Frontmatter`] from an undamaged
//! tree ([`Artifact::damaged`]), so a repaired tree is not judged and a
//! value of the wrong type (reported by SCH001) is not reported again.

pub mod agent_without_fork_context;
pub mod argument_placeholder_in_code;
pub mod backslash_path;
pub mod duplicate_skill_name;
pub mod first_person_skill_description;
pub mod hardcoded_user_path;
pub mod injected_command_not_run;
pub mod interactive_skill_script;
pub mod invalid_compatibility;
pub mod invalid_skill_agent;
pub mod invalid_skill_description;
pub mod invalid_skill_field_value;
pub mod invalid_skill_name;
pub mod long_skill_body;
pub mod long_skill_listing_entry;
pub mod misnamed_skill_file;
pub mod missing_skill_field;
pub mod model_invocable_side_effect_skill;
pub mod nested_skill_reference;
pub mod non_string_metadata_value;
pub mod placeholder_skill_description;
pub mod reference_without_contents;
pub mod reserved_skill_name;
pub mod skill_arguments_without_hint;
pub mod skill_listing_over_budget;
pub mod string_boolean;
pub mod tools_instead_of_allowed_tools;
pub mod unknown_allowed_tool;
pub mod unknown_skill_field;
pub mod unknown_skill_model;
pub mod unpinned_package_runner;
pub mod unreachable_skill;
pub mod unreferenced_skill_file;
pub mod unrestricted_skill_bash;
pub mod vague_skill_name;

use crate::Context;
use crate::RepoFiles;
use skein_model::{Artifact, Format, Model};
use skein_syntax::{Document, Entry, NodeId, NodeKind, Span};

/// A decoded `SKILL.md` frontmatter: its tree and its top-level mapping.
pub(crate) struct Skill<'a> {
    /// The frontmatter's tree.
    pub doc: &'a Document,
    /// The top-level mapping.
    pub root: NodeId,
}

impl<'a> Skill<'a> {
    /// The skill frontmatter of `a`, when `a` is a `SKILL.md` whose
    /// frontmatter is a mapping that decoded.
    pub fn of(a: &'a Artifact) -> Option<Skill<'a>> {
        if a.format != Format::AgentSkill || a.damaged || !matches!(a.model, Model::Frontmatter(_))
        {
            return None;
        }
        let doc = &a.document;
        let root = doc.root()?;
        doc.entries(root)?;
        Some(Skill { doc, root })
    }

    /// The top-level entries, in file order.
    pub fn entries(&self) -> &'a [Entry] {
        self.doc.entries(self.root).unwrap_or_default()
    }

    /// The last top-level entry with this key (as lookups do).
    pub fn entry(&self, key: &str) -> Option<Entry> {
        self.doc.get_entry(self.root, key)
    }

    /// The string value of field `key` (without reading the file's text,
    /// which [`Skill::str_field`] does for the span).
    pub fn str_value(&self, key: &str) -> Option<&'a str> {
        self.doc.as_str(self.entry(key)?.value)
    }

    /// The string value of field `key` and the span of its text as written
    /// (without quotes when it has none inside).
    pub fn str_field(&self, cx: &Context, a: &Artifact, key: &str) -> Option<(&'a str, Span)> {
        let e = self.entry(key)?;
        let s = self.doc.as_str(e.value)?;
        let text = cx.sources.get(a.file).text();
        let span = crate::rules::agents::inner_span(text, self.doc.node(e.value).span, s);
        Some((s, span))
    }

    /// Whether field `key` is the boolean `true` (or a string or number
    /// Claude Code coerces to `true`).
    pub fn is_true(&self, key: &str) -> bool {
        let Some(e) = self.entry(key) else {
            return false;
        };
        match self.doc.kind(self.doc.resolve(e.value)) {
            NodeKind::Bool(b) => *b,
            NodeKind::String(s) => {
                matches!(
                    s.trim().to_ascii_lowercase().as_str(),
                    "true" | "yes" | "on" | "1"
                )
            }
            NodeKind::Number(n) => n.as_u64() == Some(1),
            _ => false,
        }
    }

    /// Whether field `key` is the boolean `false` (or a value Claude Code
    /// reads as `false`: any non-true value of a present key).
    pub fn is_false(&self, key: &str) -> bool {
        self.entry(key)
            .is_some_and(|e| !matches!(self.doc.kind(e.value), NodeKind::Null))
            && !self.is_true(key)
    }
}

/// Whether Claude Code loads the skill at `path` into a session by itself:
/// a project's `.claude/skills/<name>/SKILL.md`, or the `skills/<name>/SKILL.md`
/// of a Claude Code plugin. Skills a workflow runs (skilldrop packs, shared
/// skill libraries) are chosen by that workflow, not by the model.
pub(crate) fn claude_loaded(cx: &Context, path: &str) -> bool {
    claude_loaded_in(cx.repo_files, path)
}

/// [`claude_loaded`] of artifact `a`, judged once per artifact of the
/// context ([`crate::Memo`]): three skill rules ask it of every skill.
pub(crate) fn claude_loads(cx: &Context, a: &Artifact) -> bool {
    let i = cx.artifacts.binary_search_by_key(&a.file, |x| x.file).ok();
    match i.and_then(|i| cx.memo.claude_loaded(i)) {
        Some(cell) => *cell.get_or_init(|| claude_loaded(cx, cx.path(a.file))),
        None => claude_loaded(cx, cx.path(a.file)),
    }
}

/// [`claude_loaded`] in a repository of the paths `repo_files`.
pub(crate) fn claude_loaded_in(repo_files: &RepoFiles, path: &str) -> bool {
    if path.starts_with(".claude/skills/") || path.contains("/.claude/skills/") {
        return true;
    }
    let Some(rest) = path.strip_suffix("/SKILL.md") else {
        return false;
    };
    let Some((scope, _name)) = rest.rsplit_once('/') else {
        return false;
    };
    let Some(root) = scope.strip_suffix("skills") else {
        return false;
    };
    // Built by hand: every skill rule of Claude Code asks, and `format!`
    // was most of the cost.
    const MANIFEST: &str = ".claude-plugin/plugin.json";
    let mut manifest = String::with_capacity(root.len() + MANIFEST.len());
    manifest.push_str(root);
    manifest.push_str(MANIFEST);
    repo_files.contains(&manifest)
}

/// The folder that holds a skill's folder (`a/skills/` for
/// `a/skills/x/SKILL.md`): the scope in which names must be unique, and
/// the folder a client may load skills from ([`is_client_scope`]).
pub(crate) fn scope_of(path: &str) -> &str {
    let skill_dir = crate::rules::refs::dir_of(path).trim_end_matches('/');
    crate::rules::refs::dir_of(skill_dir)
}

/// Folders that a client loads skills from by itself (`.claude/skills/`,
/// `.agents/skills/`, `.github/skills/`, ...): skills there share one
/// namespace with the user's own skills, and the client loads every one
/// of them without being told (Claude Code: `.claude/skills/`; OpenCode:
/// `.opencode/skills/`; GitHub Copilot: `.github/skills/`; Codex:
/// `.agents/skills/` and `.codex/skills/`; Cursor: `.cursor/skills/`; Gemini CLI:
/// `.gemini/skills/`). `scope` is the folder that holds skill folders,
/// with or without its trailing `/`.
pub(crate) fn is_client_scope(scope: &str) -> bool {
    let mut parts = scope.trim_end_matches('/').rsplit('/');
    let (Some(last), Some(parent)) = (parts.next(), parts.next()) else {
        return false;
    };
    matches!(last, "skills" | "skill")
        && matches!(
            parent,
            ".claude" | ".agents" | ".github" | ".opencode" | ".cursor" | ".codex" | ".gemini"
        )
}

/// A skill file's body: its text and the byte of the file it starts at.
pub(crate) fn body<'a>(cx: &'a Context, a: &Artifact) -> (&'a str, usize) {
    let text = cx.sources.get(a.file).text();
    let start = a
        .frontmatter
        .map_or(0, |f| f.body_start as usize)
        .min(text.len());
    (&text[start..], start)
}

/// The lines of `body` outside fenced code blocks, each with its byte
/// offset in `body` (line ends stripped).
pub(crate) fn prose_lines(body: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut open: Option<(char, usize)> = None;
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        let here = at;
        at += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if let Some((c, n, rest)) = crate::rules::commands::fence(content) {
            match open {
                None => {
                    if c == '~' || !rest.contains('`') {
                        open = Some((c, n));
                        continue;
                    }
                }
                Some((oc, on)) if oc == c && n >= on && rest.trim().is_empty() => {
                    open = None;
                    continue;
                }
                Some(_) => {}
            }
        }
        if open.is_none() {
            out.push((here, content));
        }
    }
    out
}

/// Byte ranges of the tools of a string `allowed-tools` value: split at
/// commas, or at white space when there is no comma, never inside
/// parentheses (`Bash(git add:*), Read` is two tools), each piece trimmed.
pub(crate) fn tool_pieces(s: &str) -> Vec<std::ops::Range<usize>> {
    let comma = s.contains(',');
    let is_sep = |c: char| if comma { c == ',' } else { c.is_whitespace() };
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    let push = |from: usize, to: usize, out: &mut Vec<std::ops::Range<usize>>| {
        let piece = &s[from..to];
        let lead = piece.len() - piece.trim_start().len();
        let trimmed = piece.trim();
        if !trimmed.is_empty() {
            out.push(from + lead..from + lead + trimmed.len());
        }
    };
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if depth <= 0 && is_sep(c) => {
                push(start, i, &mut out);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    push(start, s.len(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::tool_pieces;

    #[test]
    fn pieces_have_exact_ranges() {
        let s = "Read, Bash(git add:*),  Grep";
        let got: Vec<&str> = tool_pieces(s).into_iter().map(|r| &s[r]).collect();
        assert_eq!(got, ["Read", "Bash(git add:*)", "Grep"]);
        let s = " Read  Glob Bash(npm run *)";
        let got: Vec<&str> = tool_pieces(s).into_iter().map(|r| &s[r]).collect();
        assert_eq!(got, ["Read", "Glob", "Bash(npm run *)"]);
    }
}
