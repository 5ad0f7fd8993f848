//! Rules about YAML as written (Loopmaster manifests, Loom specs and the
//! frontmatter of every Markdown artifact): what the YAML 1.2 grammar does
//! to a value that its author did not mean.

pub mod comment_cuts_value;
