//! CUR: Cursor project rules, `*.mdc` files under a `.cursor/rules/`
//! folder (format `cursor-rule`), and the legacy `.cursorrules` file
//! (format `cursor-legacy-rules`), from Cursor's rules documentation
//! (<https://cursor.com/docs/context/rules>). A rule's frontmatter has
//! three fields, `description`, `globs` and `alwaysApply`, which together
//! decide when Cursor includes the rule; its body is what is included.
//! Their links are REF007's and their hidden or encoded text the SEC
//! Markdown rules' (`sec::is_agent_markdown`).

pub mod always_apply_not_boolean;
pub mod empty_rule;
pub mod ignored_globs;
pub mod ignored_markdown_rule;
pub mod legacy_cursorrules;
pub mod long_rule;
pub mod manual_only_rule;
pub mod unknown_rule_field;

use crate::Context;
use crate::rules::frontmatter::Fields;
use skein_model::{Artifact, Format};
use skein_syntax::{Entry, NodeKind};

/// The frontmatter fields of a Cursor rule ("Rule anatomy": "the three
/// frontmatter fields interact to determine when a rule is included").
pub(crate) const RULE_FIELDS: &[&str] = &["alwaysApply", "description", "globs"];

/// One Cursor rule file (`*.mdc`): its frontmatter ([`Fields`], which it
/// dereferences to) and its text.
pub(crate) struct CursorRule<'a> {
    /// The frontmatter.
    pub fm: Fields<'a>,
    /// The whole file.
    pub text: &'a str,
    /// Where the body starts.
    pub body_start: usize,
}

/// The Cursor rule of `a`, when it is a `*.mdc` rule file.
pub(crate) fn rule_of<'a>(cx: &'a Context, a: &'a Artifact) -> Option<CursorRule<'a>> {
    if a.format != Format::CursorRule || !cx.path(a.file).ends_with(".mdc") {
        return None;
    }
    Some(CursorRule {
        fm: Fields::read(a),
        text: cx.sources.get(a.file).text(),
        body_start: a.frontmatter.map_or(0, |f| f.body_start as usize),
    })
}

impl<'a> std::ops::Deref for CursorRule<'a> {
    type Target = Fields<'a>;

    fn deref(&self) -> &Fields<'a> {
        &self.fm
    }
}

impl CursorRule<'_> {
    /// Whether the frontmatter has no root, or a root that is a mapping:
    /// a frontmatter whose fields can be read.
    pub fn readable(&self) -> bool {
        self.doc.root().is_none() || self.mapping.is_some()
    }

    /// Whether the body holds nothing but blanks (CUR005).
    pub fn empty(&self) -> bool {
        self.text[self.body_start.min(self.text.len())..]
            .trim()
            .is_empty()
    }

    /// Whether `alwaysApply` is the boolean `true`.
    pub fn always_applied(&self) -> bool {
        self.field("alwaysApply").is_some_and(|e| {
            matches!(
                self.doc.kind(self.doc.resolve(e.value)),
                NodeKind::Bool(true)
            )
        })
    }

    /// The `globs` entry, when it gives at least one pattern: a string
    /// with more than blanks and commas, or a non-empty list.
    pub fn globs(&self) -> Option<Entry> {
        let e = self.field("globs")?;
        let given = match self.doc.kind(self.doc.resolve(e.value)) {
            NodeKind::String(s) => s.split(',').any(|p| !p.trim().is_empty()),
            NodeKind::Sequence(items) => !items.is_empty(),
            NodeKind::Null => false,
            _ => true,
        };
        given.then_some(e)
    }

    /// Whether `description` is a string with more than blanks.
    pub fn described(&self) -> bool {
        self.field("description")
            .is_some_and(|e| match self.doc.kind(self.doc.resolve(e.value)) {
                NodeKind::String(s) => !s.trim().is_empty(),
                NodeKind::Null => false,
                _ => true,
            })
    }
}
