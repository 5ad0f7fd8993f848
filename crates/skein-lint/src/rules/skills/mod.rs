//! SKILL: the frontmatter of Agent Skills (`SKILL.md`), checked against the
//! Agent Skills specification (agentskills.io) and Claude Code's extensions.
//!
//! Every rule but `duplicate-skill-name` is a per-file pass. They read the
//! frontmatter's [`Document`] (spans of keys and values as written) and run
//! only when the file decoded to a [`Model::Frontmatter`] from an undamaged
//! tree ([`Artifact::damaged`]), so a repaired tree is not judged and a
//! value of the wrong type (reported by SCH001) is not reported again.

pub mod agent_without_fork_context;
pub mod duplicate_skill_name;
pub mod invalid_compatibility;
pub mod invalid_skill_description;
pub mod invalid_skill_name;
pub mod missing_skill_field;
pub mod reserved_skill_name;
pub mod string_boolean;
pub mod tools_instead_of_allowed_tools;
pub mod unknown_allowed_tool;
pub mod unknown_skill_field;

use skein_model::{Artifact, Format, Model};
use skein_syntax::{Document, Entry, NodeId};

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
