//! WIND: Windsurf (Cascade) workspace rules, the `*.md` files of a
//! `.windsurf/rules/` folder (format `windsurf-rule`), from Windsurf's
//! "Memories & Rules" documentation
//! (<https://docs.windsurf.com/windsurf/cascade/memories>): the activation
//! mode of the frontmatter and the size of a rule file. Their links are
//! REF007's and their hidden or encoded text the SEC Markdown rules'.

pub mod invalid_windsurf_trigger;
pub mod windsurf_rule_too_long;
pub mod windsurf_trigger_without_target;

use skein_model::{Artifact, Format};
use skein_syntax::{Document, Entry, NodeId, NodeKind};

/// The activation modes a rule's `trigger` takes.
pub(crate) const TRIGGERS: &[&str] = &["always_on", "manual", "model_decision", "glob"];

/// One Windsurf rule's frontmatter.
pub(crate) struct WindsurfRule<'a> {
    /// The frontmatter document.
    pub doc: &'a Document,
    /// The frontmatter mapping, when there is one.
    pub fields: Option<NodeId>,
}

/// The rule of `a`, when it is a Windsurf rule whose frontmatter is as its
/// author wrote it (not repaired around a syntax error).
pub(crate) fn rule_of(a: &Artifact) -> Option<WindsurfRule<'_>> {
    if a.format != Format::WindsurfRule || a.damaged {
        return None;
    }
    let doc = &a.document;
    let fields = doc
        .root()
        .filter(|&r| matches!(doc.kind(r), NodeKind::Mapping(_)));
    Some(WindsurfRule { doc, fields })
}

impl WindsurfRule<'_> {
    /// The entry of field `key`.
    pub fn field(&self, key: &str) -> Option<Entry> {
        self.fields.and_then(|f| self.doc.get_entry(f, key))
    }

    /// The `trigger`'s value, when it is a string.
    pub fn trigger(&self) -> Option<(Entry, &str)> {
        let e = self.field("trigger")?;
        match self.doc.kind(e.value) {
            NodeKind::String(s) => Some((e, s.as_str())),
            _ => None,
        }
    }

    /// Whether field `key` holds something: a non-blank string, or a
    /// list with a non-blank string.
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
}
