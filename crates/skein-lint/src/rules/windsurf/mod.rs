//! WIND: Windsurf (Cascade) workspace rules, the `*.md` files of a
//! `.windsurf/rules/` folder (format `windsurf-rule`), from Windsurf's
//! "Memories & Rules" documentation
//! (<https://docs.windsurf.com/windsurf/cascade/memories>): the activation
//! mode of the frontmatter and the size of a rule file. Their links are
//! REF007's and their hidden or encoded text the SEC Markdown rules'.

pub mod invalid_windsurf_trigger;
pub mod windsurf_rule_too_long;
pub mod windsurf_trigger_without_target;

use crate::rules::frontmatter::Fields;
use skein_model::{Artifact, Format};

/// The activation modes a rule's `trigger` takes.
pub(crate) const TRIGGERS: &[&str] = &["always_on", "manual", "model_decision", "glob"];

/// The frontmatter of `a`, when it is a Windsurf rule whose frontmatter is
/// as its author wrote it (not repaired around a syntax error).
pub(crate) fn rule_of(a: &Artifact) -> Option<Fields<'_>> {
    if a.format != Format::WindsurfRule {
        return None;
    }
    Fields::of(a)
}
