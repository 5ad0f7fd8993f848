//! The syntax layer of skein: source files, spans, diagnostics, and the
//! conversion of tree-sitter trees (YAML, JSON, Markdown frontmatter) into
//! spanned value trees ([`Document`]).
//!
//! Data flows one way (DESIGN.md §2): bytes -> tree-sitter tree -> `Document`
//! plus syntax diagnostics. This crate knows nothing about artifact formats
//! or rules beyond the SYN rules of [`rules`].
//!
//! ```
//! use skein_syntax::{FileId, Parsers, NodeKind};
//! let mut parsers = Parsers::new();
//! let parsed = parsers.parse_yaml(FileId(0), "cap: 3\nname: \"0.1\"\n");
//! let doc = &parsed.document;
//! let root = doc.root().unwrap();
//! let cap = doc.get(root, "cap").unwrap();
//! assert_eq!(doc.node(cap).span.range(), 5..6);
//! assert_eq!(doc.as_str(doc.get(root, "name").unwrap()), Some("0.1"));
//! assert!(parsed.diagnostics.is_empty());
//! ```

pub mod de;
pub mod diagnostic;
pub mod document;
pub mod frontmatter;
mod json_fault;
pub mod markdown;
pub mod parse;
pub mod rules;
pub mod scalar;
pub mod source;
pub mod span;
pub mod toml_front;

pub use de::{Spanned, from_node};
pub use diagnostic::{
    Applicability, Diagnostic, Edit, Fix, Label, Rule, Severity, escape_invisible, is_invisible,
    mask, quote, redacted,
};
pub use document::{Document, DropMark, Entry, ExpansionLimit, Node, NodeId, NodeKind, Number};
pub use frontmatter::{Frontmatter, locate_frontmatter, lone_cr_note};
pub use markdown::{BodyLink, LinkKind, MarkdownBody};
pub use parse::{MAX_DEPTH, Parsed, ParsedMarkdown, Parsers};
pub use source::{FileId, SourceFile, SourceMap, TextSource};
pub use span::{LineCol, LineIndex, Span};
