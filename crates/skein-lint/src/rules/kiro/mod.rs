//! KIRO: Kiro steering files, the `*.md` files of a `.kiro/steering/`
//! folder (format `kiro-steering`), from Kiro's "Steering" documentation
//! (<https://kiro.dev/docs/steering/>): the inclusion mode of the
//! frontmatter and what each mode needs. Their links are REF007's and their
//! hidden or encoded text the SEC Markdown rules'.

pub mod foreign_steering_field;
pub mod invalid_steering_inclusion;
pub mod steering_inclusion_without_target;

use crate::rules::frontmatter::Fields;
use skein_model::{Artifact, Format};

/// The inclusion modes of a steering file.
pub(crate) const INCLUSIONS: &[&str] = &["always", "fileMatch", "manual", "auto"];

/// The frontmatter of `a`, when it is a Kiro steering file whose
/// frontmatter is as its author wrote it.
pub(crate) fn steering_of(a: &Artifact) -> Option<Fields<'_>> {
    if a.format != Format::KiroSteering {
        return None;
    }
    Fields::of(a)
}
