//! [`Fields`]: the top-level fields of a Markdown artifact's frontmatter,
//! read the same way by every family whose files are instructions with a
//! few activation keys (Windsurf rules, Kiro steering files, Cursor rules,
//! GitHub Copilot's files).

use skein_model::Artifact;
use skein_syntax::{Diagnostic, Document, Entry, NodeId, NodeKind, Rule};

/// An activation mode that works only with another field set: Windsurf's
/// `trigger: glob` needs `globs`, Kiro's `inclusion: fileMatch` needs
/// `fileMatchPattern`.
pub(crate) struct Needs {
    /// The mode's value.
    pub mode: &'static str,
    /// The field it needs.
    pub field: &'static str,
    /// How the mode uses the field (the finding's note).
    pub note: &'static str,
    /// What to add (the finding's help).
    pub help: &'static str,
}

/// The frontmatter of one Markdown artifact: its document and, when the
/// frontmatter is a mapping, that mapping.
pub(crate) struct Fields<'a> {
    /// The frontmatter document.
    pub doc: &'a Document,
    /// The frontmatter mapping, when there is one.
    pub mapping: Option<NodeId>,
}

impl<'a> Fields<'a> {
    /// The frontmatter of `a`, or `None` when it was repaired around a
    /// syntax error (its keys and values are then not what the author
    /// wrote).
    pub fn of(a: &'a Artifact) -> Option<Fields<'a>> {
        (!a.damaged).then(|| Fields::read(a))
    }

    /// The frontmatter of `a` as it was read, repaired or not.
    pub fn read(a: &'a Artifact) -> Fields<'a> {
        let doc = &a.document;
        let mapping = doc
            .root()
            .filter(|&r| matches!(doc.kind(r), NodeKind::Mapping(_)));
        Fields { doc, mapping }
    }

    /// The entries, in file order.
    pub fn entries(&self) -> &'a [Entry] {
        self.mapping
            .and_then(|m| self.doc.entries(m))
            .unwrap_or_default()
    }

    /// The entry of field `key`.
    pub fn field(&self, key: &str) -> Option<Entry> {
        self.mapping.and_then(|m| self.doc.get_entry(m, key))
    }

    /// Field `key`'s value when it is a string, with its entry.
    pub fn string(&self, key: &str) -> Option<(Entry, &'a str)> {
        let e = self.field(key)?;
        match self.doc.kind(e.value) {
            NodeKind::String(s) => Some((e, s.as_str())),
            _ => None,
        }
    }

    /// Whether field `key` holds something: a non-blank string, or a list
    /// holding one.
    pub fn has(&self, key: &str) -> bool {
        let Some(e) = self.field(key) else {
            return false;
        };
        match self.doc.kind(e.value) {
            NodeKind::String(s) => !s.trim().is_empty(),
            NodeKind::Sequence(items) => items
                .iter()
                .any(|&i| matches!(self.doc.kind(i), NodeKind::String(s) if !s.trim().is_empty())),
            _ => false,
        }
    }

    /// `rule`'s finding on `file` when the string value of `mode_key` is
    /// one of `needs`' modes and the field that mode needs is missing or
    /// blank, pointing at the mode's value; `who` ends the message ("Kiro
    /// has nothing to include the file by").
    pub fn missing_target(
        &self,
        rule: Rule,
        file: skein_syntax::FileId,
        mode_key: &str,
        needs: &[Needs],
        who: &str,
    ) -> Option<Diagnostic> {
        let (e, mode) = self.string(mode_key)?;
        let n = needs.iter().find(|n| n.mode == mode)?;
        if self.has(n.field) {
            return None;
        }
        Some(
            Diagnostic::new(
                rule,
                file,
                self.doc.node(e.value).span,
                format!("`{mode_key}: {mode}` but no `{}`: {who}", n.field),
            )
            .with_label(format!("needs `{}`", n.field))
            .with_note(n.note)
            .with_help(n.help),
        )
    }
}
