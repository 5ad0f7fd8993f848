//! tree-sitter trees -> [`Document`]s, for YAML and JSON, plus Markdown
//! frontmatter parsed in place (DESIGN.md §2).
//!
//! Parsing never fails: each entry point returns a document (possibly with
//! no root) and the syntax diagnostics of the file. ERROR and MISSING nodes
//! become [`rules::SYNTAX_ERROR`] diagnostics at their span and the rest of
//! the tree is still converted.

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, quote};
use crate::document::{Document, Entry, NodeId, NodeKind, Number};
use crate::frontmatter::Frontmatter;
use crate::json_fault::{self, FaultKind};
use crate::markdown::{MarkdownBody, may_link};
use crate::rules;
use crate::scalar;
use crate::source::FileId;
use crate::span::Span;
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;
use tree_sitter::{Language, Node as TsNode, Parser, Point, Range, TreeCursor};

/// Deepest value nesting the converters follow; deeper values become null
/// and a [`rules::NESTING_TOO_DEEP`] diagnostic.
pub const MAX_DEPTH: usize = 256;

/// Message of the diagnostic for a comment in JSON.
const JSON_COMMENT_MESSAGE: &str = "comments are not allowed in JSON";

/// Deepest YAML block indentation (mappings and sequences, counted as the
/// scanner counts them) the YAML front accepts; see [`block_nesting_over`].
pub const MAX_BLOCK_NESTING: usize = 128;

/// Most lines of YAML the YAML front parses (the message of
/// [`rules::YAML_TOO_LONG`] spells it out).
pub const MAX_YAML_LINES: usize = 32_767;

/// The byte offset (in `yaml`) of the start of line `limit + 1` (1-based)
/// when `yaml` has more than `limit` lines, a line ending at `\n`, `\r\n` or
/// a lone `\r` (as a YAML scanner counts them); `None` otherwise. Text shorter
/// than `limit` bytes is answered without a scan.
pub fn yaml_line_over(yaml: &str, limit: usize) -> Option<usize> {
    if yaml.len() <= limit {
        return None;
    }
    let bytes = yaml.as_bytes();
    let mut lines = 1;
    for (i, &b) in bytes.iter().enumerate() {
        let ends = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        if ends {
            lines += 1;
            if lines > limit && i + 1 < bytes.len() {
                return Some(i + 1);
            }
        }
    }
    None
}

/// The byte offset of the first line whose block indentation depth exceeds
/// `limit`, counting each distinct indentation column on the stack and each
/// compact `- ` sequence entry on a line as a level. A conservative estimate of
/// the tree-sitter-yaml scanner's indentation stack.
pub fn block_nesting_over(yaml: &str, limit: usize) -> Option<usize> {
    let mut stack: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in yaml.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start_matches(' ').len();
        let rest = &body[indent..];
        if rest.is_empty() || rest.starts_with('#') {
            continue;
        }
        // Each level of the line (its indentation, then the column after
        // each compact `- `) goes onto the stack as it is found.
        let mut push = |l: usize| {
            while stack.last().is_some_and(|&t| t > l) {
                stack.pop();
            }
            if stack.last() != Some(&l) {
                stack.push(l);
            }
        };
        let mut col = indent;
        push(col);
        let mut r = rest;
        while let Some(after) = r.strip_prefix('-').filter(|a| a.starts_with([' ', '\t'])) {
            let trimmed = after.trim_start_matches([' ', '\t']);
            col += 1 + (after.len() - trimmed.len());
            push(col);
            r = trimmed;
        }
        if stack.len() > limit {
            return Some(start);
        }
    }
    None
}

/// The result of parsing one file: its value tree and syntax diagnostics.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// The value tree; `root()` is `None` when nothing could be read.
    pub document: Document,
    /// Syntax diagnostics, in no particular order.
    pub diagnostics: Vec<Diagnostic>,
    /// Every comment of the file (YAML `# ...`, JSONC `//` and `/* */`), in
    /// source order; spans include the comment marker, not the line break.
    pub comments: Vec<Span>,
}

/// The result of parsing a Markdown artifact.
#[derive(Debug, Clone, Default)]
pub struct ParsedMarkdown {
    /// Where the frontmatter is, if the file has one that is closed.
    pub frontmatter: Option<Frontmatter>,
    /// The frontmatter's value tree (spans are byte ranges of the `.md` file);
    /// no root when there is no frontmatter or it is empty.
    pub document: Document,
    /// Syntax diagnostics.
    pub diagnostics: Vec<Diagnostic>,
    /// Comments in source order: YAML `# ...` comments of the frontmatter,
    /// then HTML comments `<!-- ... -->` of the body outside fenced code
    /// blocks (spans include the delimiters).
    pub comments: Vec<Span>,
    /// The body's links, code spans, strong emphasis, headings and table
    /// cells (the frontmatter is not part of it); `None` when the body was
    /// not parsed ([`Parsers::parse_markdown_links`]).
    pub body: Option<MarkdownBody>,
}

/// A set of tree-sitter parsers, one per language, meant to be reused for
/// many files by one thread (`rayon`'s `map_init`).
pub struct Parsers {
    yaml: Parser,
    json: Parser,
    markdown: Parser,
}

impl Default for Parsers {
    fn default() -> Self {
        Self::new()
    }
}

impl Parsers {
    /// Creates the parsers. Panics only if the linked grammars are ABI
    /// incompatible with the tree-sitter core, which the build pins.
    pub fn new() -> Self {
        let mut yaml = Parser::new();
        yaml.set_language(&tree_sitter_yaml::LANGUAGE.into())
            .expect("tree-sitter-yaml ABI is compatible with the pinned core");
        let mut json = Parser::new();
        json.set_language(&tree_sitter_json::LANGUAGE.into())
            .expect("tree-sitter-json ABI is compatible with the pinned core");
        let mut markdown = Parser::new();
        markdown
            .set_language(&crate::markdown::language())
            .expect("tree-sitter-agentmd ABI is compatible with the pinned core");
        Parsers {
            yaml,
            json,
            markdown,
        }
    }

    /// Parses a whole YAML file.
    pub fn parse_yaml(&mut self, file: FileId, text: &str) -> Parsed {
        self.parse_yaml_range(file, text, 0, text.len())
    }

    /// Parses the YAML in `text[start..end]` in place: spans stay byte
    /// offsets of `text`.
    pub fn parse_yaml_range(
        &mut self,
        file: FileId,
        text: &str,
        start: usize,
        end: usize,
    ) -> Parsed {
        let range = Range {
            start_byte: start,
            end_byte: end,
            start_point: point_of(text, start),
            end_point: point_of(text, end),
        };
        // Included ranges must be non-empty to mean anything; an empty range is an empty stream.
        if start == end {
            return Parsed::default();
        }
        // The YAML the scanner cannot read, refused with one diagnostic at
        // `at` (an offset of the range).
        let refused = |rule, at: usize, message: String, label: &str| Parsed {
            diagnostics: vec![
                Diagnostic::new(rule, file, Span::new(start + at, start + at), message)
                    .with_label(label)
                    .with_note("the YAML of this file is not analyzed"),
            ],
            ..Parsed::default()
        };
        // tree-sitter-yaml's scanner keeps its indentation stack in a fixed
        // 1 KiB state buffer and aborts the process beyond it (about 250
        // levels): refuse such input before parsing.
        if let Some(at) = block_nesting_over(&text[start..end], MAX_BLOCK_NESTING) {
            return refused(
                rules::NESTING_TOO_DEEP,
                at,
                format!(
                    "YAML block structure nests deeper than {MAX_BLOCK_NESTING} indentation levels"
                ),
                "nesting limit reached here",
            );
        }
        // The scanner keeps line numbers in 16-bit integers and misreads
        // keys past line 32,767: refuse such input before parsing.
        if let Some(at) = yaml_line_over(&text[start..end], MAX_YAML_LINES) {
            return refused(
                rules::YAML_TOO_LONG,
                at,
                "this YAML is longer than 32,767 lines, more than skein's YAML parser reads correctly"
                    .to_string(),
                "line 32,768 of the YAML starts here",
            );
        }
        // tree-sitter's lexer reads a NUL byte as the end of input: parse a
        // copy with NUL as space (same offsets) and report the NUL, which
        // YAML does not allow (YAML 1.2 §5.1, c-printable).
        let nul = text[start..end].find('\0').map(|i| start + i);
        let _ = self.yaml.set_included_ranges(&[range]);
        // Only the bytes of the range are read (included ranges): a CRLF
        // whose CR lies before it, or more than one byte after it, changes
        // nothing, so the whole text is copied only for a CRLF whose CR is
        // in the range or is the first byte after it.
        let crlf_inside =
            memchr::memmem::find(&text.as_bytes()[start..(end + 2).min(text.len())], b"\r\n")
                .is_some();
        let source = if crlf_inside {
            crlf_as_space_lf(text)
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        let source = match nul {
            Some(_) => std::borrow::Cow::Owned(source.replace('\0', " ")),
            None => source,
        };
        let tree = self.yaml.parse(&*source, None);
        let _ = self.yaml.set_included_ranges(&[]);
        let mut out = Parsed::default();
        let Some(tree) = tree else {
            return out;
        };
        // Two walks of the whole tree skipped when they cannot find anything:
        // a comment needs a `#`, an ERROR or MISSING node sets `has_error`.
        if memchr::memchr(b'#', &text.as_bytes()[start..end]).is_some() {
            out.comments = collect_comments(tree.root_node(), |n| YAML.kinds.of(n) == Yk::Comment);
        }
        let mut cx = Cx::new(file, text, &mut out);
        if tree.root_node().has_error() {
            collect_errors(&mut cx, tree.root_node(), Errors::Yaml);
        }
        if tree.root_node().has_error() {
            refine_yaml_error(&mut cx, start, end);
        }
        if let Some(at) = nul.filter(|&at| {
            !cx.out
                .diagnostics
                .iter()
                .any(|d| d.rule == rules::SYNTAX_ERROR && d.primary.span.start as usize == at)
        }) {
            cx.diag(
                Diagnostic::new(
                    rules::SYNTAX_ERROR,
                    file,
                    Span::new(at, at + 1),
                    "syntax error: NUL byte in YAML",
                )
                .with_label("YAML text may not contain NUL")
                .with_help(
                    "remove the NUL byte; the file may be binary or saved in the wrong encoding",
                ),
            );
        }
        let mut yc = YamlCx {
            anchors: HashMap::new(),
            open: Vec::new(),
            region_end: end,
            grammar: &YAML,
        };
        let root = tree.root_node();
        let mut documents = Vec::new();
        let mut cursor = root.walk();
        for child in root.named_children(&mut cursor) {
            if child.kind() == "document" {
                documents.push(child);
            }
        }
        let mut first_root: Option<NodeId> = None;
        let mut seen_document = false;
        for doc in documents {
            let content = named_children(doc)
                .into_iter()
                .find(|c| matches!(c.kind(), "block_node" | "flow_node"));
            // A document with no content is still a document (whose value is
            // null, YAML 1.2 §9.1.3) when it starts with `---` (a directive
            // implies one). A lone `...` or a comment starts no document.
            let marker = {
                let mut c = doc.walk();
                doc.children(&mut c).find(|m| m.kind() == "---")
            };
            if content.is_none() && marker.is_none() {
                continue;
            }
            if seen_document {
                cx.diag(
                    Diagnostic::new(
                        rules::MULTIPLE_DOCUMENTS,
                        file,
                        span_of(doc),
                        "a second YAML document in one artifact",
                    )
                    .with_label("this document is not analyzed")
                    .with_help(
                        "keep one document per file; remove the `---` separator and this content",
                    ),
                );
                break;
            }
            seen_document = true;
            yc.anchors.clear();
            yc.open.clear();
            first_root = Some(match content {
                Some(content) => yaml_node(&mut cx, &mut yc, content, -1, 0),
                None => {
                    let end = marker.map_or(doc.end_byte(), |m| m.end_byte());
                    cx.push(Span::empty(end), NodeKind::Null)
                }
            });
        }
        cx.out.document.set_root(first_root);
        drop(cx);
        out
    }

    /// Parses a JSON file. Values decode exactly as serde_json decodes them.
    pub fn parse_json(&mut self, file: FileId, text: &str) -> Parsed {
        self.parse_json_with(file, text, false)
    }

    /// Parses JSON, or JSONC when `comments_allowed` (OpenCode configs, VS
    /// Code's `mcp.json`): then `//` and `/* */` comments are not errors.
    pub fn parse_json_with(&mut self, file: FileId, text: &str, comments_allowed: bool) -> Parsed {
        let mut out = Parsed::default();
        let bom = text.starts_with('\u{feff}');
        // tree-sitter-json has no `+` in exponents; parse a same-length copy
        // with `e+` spelled `e0` (spans are unchanged) and decode numbers from
        // the original text.
        let patched = patch_exponent_signs(text);
        let ts_text: &str = &patched;
        let tree = if bom {
            out.diagnostics.push(
                Diagnostic::new(
                    rules::BYTE_ORDER_MARK,
                    file,
                    Span::new(0, 3),
                    "JSON file starts with a byte-order mark",
                )
                .with_help("save the file as UTF-8 without BOM")
                .with_fix(crate::Fix::safe(
                    "remove the byte-order mark",
                    vec![crate::Edit::delete(Span::new(0, 3))],
                )),
            );
            let range = Range {
                start_byte: 3,
                end_byte: text.len(),
                start_point: Point { row: 0, column: 3 },
                end_point: point_of(text, text.len()),
            };
            let _ = self.json.set_included_ranges(&[range]);
            let t = self.json.parse(ts_text, None);
            let _ = self.json.set_included_ranges(&[]);
            t
        } else {
            self.json.parse(ts_text, None)
        };
        let Some(tree) = tree else {
            return out;
        };
        // A comment needs `//` or `/*`; an ERROR or MISSING node sets
        // `has_error`: skip the walks of the whole tree that cannot find one.
        // In a tree without errors a comment is a `/` outside strings, so
        // the URLs of most JSON files (`"https://…"`) cost no walk either.
        let may_comment = (text.contains("//") || text.contains("/*"))
            && (tree.root_node().has_error() || slash_outside_strings(text));
        if may_comment {
            out.comments = collect_comments(tree.root_node(), is_json_comment);
        }
        let mut cx = Cx::new(file, text, &mut out);
        let json_comments = !comments_allowed && may_comment;
        if tree.root_node().has_error() || json_comments {
            collect_errors(
                &mut cx,
                tree.root_node(),
                Errors::Json {
                    comments: json_comments,
                },
            );
        }
        let root = tree.root_node();
        // A root that is itself an ERROR node holds fragments, not values.
        let mut values = named_children(root)
            .into_iter()
            .filter(|c| !root.is_error() && !matches!(c.kind(), "comment" | "ERROR"));
        let value = values.next();
        // tree-sitter-json accepts several top-level values; JSON has one.
        for extra in values {
            cx.diag(
                Diagnostic::new(
                    rules::SYNTAX_ERROR,
                    file,
                    span_of(extra),
                    "syntax error: a second value after the JSON value",
                )
                .with_label("trailing value")
                .with_help("a JSON file holds one value; wrap several in an array"),
            );
        }
        let root_id = value.map(|v| json_node(&mut cx, v, 0));
        cx.out.document.set_root(root_id);
        drop(cx);
        out
    }

    /// Like [`Parsers::parse_markdown`] for a caller that reads only the
    /// body's links and HTML comments (every Markdown artifact but a skilldrop
    /// `LOOP.md`): when [`crate::markdown::may_link`] proves the body holds
    /// no link that may name a file, no link title and no comment, the body
    /// is not parsed; the frontmatter is then located by the
    /// line scan [`crate::locate_frontmatter`], which gives the grammar's spans
    /// on every file (tested on the whole real corpus), and `body` is `None`.
    /// Results are those of a full parse; the time is that of the YAML alone.
    pub fn parse_markdown_links(&mut self, file: FileId, text: &str) -> ParsedMarkdown {
        let fm = crate::frontmatter::locate_frontmatter(text);
        let body_start = match fm {
            Ok(Some(f)) => f.body_start as usize,
            Ok(None) | Err(_) => 0,
        };
        if may_link(text, body_start) || fm.is_err() {
            return self.parse_markdown(file, text);
        }
        let mut out = ParsedMarkdown::default();
        if let Ok(Some(fm)) = fm {
            self.parse_frontmatter(file, text, fm, &mut out);
        }
        out
    }

    /// Parses the YAML of a located frontmatter in place into `out`.
    fn parse_frontmatter(
        &mut self,
        file: FileId,
        text: &str,
        fm: Frontmatter,
        out: &mut ParsedMarkdown,
    ) {
        let parsed = self.parse_yaml_range(
            file,
            text,
            fm.content.start as usize,
            fm.content.end as usize,
        );
        out.document = parsed.document;
        out.diagnostics = parsed.diagnostics;
        out.comments = parsed.comments;
        out.frontmatter = Some(fm);
    }

    /// Parses a Markdown artifact with the agentmd grammar: locates its YAML
    /// frontmatter, parses it in place with included ranges (so spans are
    /// byte ranges of the `.md` file), and extracts the body's references
    /// ([`MarkdownBody`], `queries/agentmd/references.scm`).
    pub fn parse_markdown(&mut self, file: FileId, text: &str) -> ParsedMarkdown {
        let mut out = ParsedMarkdown::default();
        let Some(tree) = self.markdown.parse(text, None) else {
            return out;
        };
        let frontmatter = crate::markdown::frontmatter_of(&tree, text);
        let body = crate::markdown::body_of(&tree, text);
        drop(tree);
        match frontmatter {
            Ok(None) => {}
            Ok(Some(fm)) => self.parse_frontmatter(file, text, fm, &mut out),
            Err(open) => {
                out.diagnostics.push(
                    Diagnostic::new(
                        rules::UNTERMINATED_FRONTMATTER,
                        file,
                        open,
                        "frontmatter opened here is never closed",
                    )
                    .with_label("no later line is `---`")
                    .with_help("add a line `---` after the last frontmatter key"),
                );
            }
        }
        // Suppressions read the comments from `out`; the SEC rules read them
        // from the body.
        out.comments.extend(body.comments.iter().copied());
        out.body = Some(body);
        out
    }
}

/// Spells each CRLF line break as space + LF for tree-sitter-yaml, whose
/// scanner mis-reads block scalars under CRLF (it takes in lines indented
/// less than the content, which are errors with LF). A trailing space is
/// white space wherever a line break may stand, and the copy has the same
/// length, so the tree is the LF tree and every byte offset is unchanged;
/// values are still decoded from the original text.
fn crlf_as_space_lf(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("\r\n") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for (i, _) in text.match_indices("\r\n") {
        bytes[i] = b' ';
    }
    // Only an ASCII byte was replaced by an ASCII byte.
    std::borrow::Cow::Owned(String::from_utf8(bytes).expect("still UTF-8"))
}

/// Rewrites `e+`/`E+` in JSON numbers (outside strings and comments) as
/// `e0`/`E0`, which tree-sitter-json 0.24 accepts: its grammar allows only
/// `-` as an exponent sign. Same length, so every byte offset is unchanged.
fn patch_exponent_signs(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("e+") && !text.contains("E+") {
        return std::borrow::Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut plus_at = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 1;
            }
            b'+' if i >= 2
                && matches!(b[i - 1], b'e' | b'E')
                && (b[i - 2].is_ascii_digit() || b[i - 2] == b'.')
                && b.get(i + 1).is_some_and(u8::is_ascii_digit) =>
            {
                plus_at.push(i);
            }
            _ => {}
        }
        i += 1;
    }
    if plus_at.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut bytes = b.to_vec();
    for i in plus_at {
        bytes[i] = b'0';
    }
    // Only an ASCII byte was replaced by an ASCII byte.
    std::borrow::Cow::Owned(String::from_utf8(bytes).expect("still UTF-8"))
}

/// serde_json's error message without its " at line L column C" suffix
/// (the position is the span of the diagnostic instead).
fn serde_reason(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    }
}

/// Byte offset -> tree-sitter point (row, byte column).
fn point_of(text: &str, offset: usize) -> Point {
    let before = &text.as_bytes()[..offset];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count();
    Point { row, column: col }
}

fn span_of(n: TsNode) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

fn named_children(n: TsNode) -> Vec<TsNode> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

/// The node kinds a converter tells apart, by kind id: each id of a
/// grammar is classed once by its name (the name [`TsNode::kind`] gives
/// for that id), so classing a node is a table read, not a C string's
/// length, UTF-8 check and comparison.
struct Kinds<K: 'static> {
    by_id: Vec<K>,
    of_name: fn(&str) -> K,
}

impl<K: Copy> Kinds<K> {
    fn new(language: &Language, of_name: fn(&str) -> K) -> Self {
        let by_id = (0..language.node_kind_count())
            .map(|id| of_name(language.node_kind_for_id(id as u16).unwrap_or("")))
            .collect();
        Kinds { by_id, of_name }
    }

    /// The class of `n`; by name for an id outside the table (`ERROR`).
    fn of(&self, n: TsNode) -> K {
        match self.by_id.get(usize::from(n.kind_id())) {
            Some(&k) => k,
            None => (self.of_name)(n.kind()),
        }
    }
}

/// A grammar's [`Kinds`] and the ids of its `key` and `value` fields
/// (0, which names no field, when the grammar has none).
struct Grammar<K: 'static> {
    kinds: Kinds<K>,
    key: u16,
    value: u16,
}

impl<K: Copy> Grammar<K> {
    fn new(language: Language, of_name: fn(&str) -> K) -> Self {
        let field = |name: &str| language.field_id_for_name(name).map_or(0, |f| f.get());
        Grammar {
            key: field("key"),
            value: field("value"),
            kinds: Kinds::new(&language, of_name),
        }
    }
}

/// The tree-sitter-yaml node kinds [`yaml_node`] and [`yaml_content`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Yk {
    Other,
    BlockNode,
    FlowNode,
    Tag,
    Anchor,
    AnchorName,
    Comment,
    Error,
    BlockMapping,
    FlowMapping,
    BlockMappingPair,
    FlowPair,
    BlockSequence,
    FlowSequence,
    BlockSequenceItem,
    Alias,
    AliasName,
    PlainScalar,
    DoubleQuoteScalar,
    SingleQuoteScalar,
    BlockScalar,
}

fn yaml_kind(name: &str) -> Yk {
    match name {
        "block_node" => Yk::BlockNode,
        "flow_node" => Yk::FlowNode,
        "tag" => Yk::Tag,
        "anchor" => Yk::Anchor,
        "anchor_name" => Yk::AnchorName,
        "comment" => Yk::Comment,
        "ERROR" => Yk::Error,
        "block_mapping" => Yk::BlockMapping,
        "flow_mapping" => Yk::FlowMapping,
        "block_mapping_pair" => Yk::BlockMappingPair,
        "flow_pair" => Yk::FlowPair,
        "block_sequence" => Yk::BlockSequence,
        "flow_sequence" => Yk::FlowSequence,
        "block_sequence_item" => Yk::BlockSequenceItem,
        "alias" => Yk::Alias,
        "alias_name" => Yk::AliasName,
        "plain_scalar" => Yk::PlainScalar,
        "double_quote_scalar" => Yk::DoubleQuoteScalar,
        "single_quote_scalar" => Yk::SingleQuoteScalar,
        "block_scalar" => Yk::BlockScalar,
        _ => Yk::Other,
    }
}

static YAML: LazyLock<Grammar<Yk>> =
    LazyLock::new(|| Grammar::new(tree_sitter_yaml::LANGUAGE.into(), yaml_kind));

/// The tree-sitter-json node kinds [`json_node`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Jk {
    Other,
    Comment,
    Error,
    Pair,
    Object,
    Array,
    String,
    Number,
    True,
    False,
}

fn json_kind(name: &str) -> Jk {
    match name {
        "comment" => Jk::Comment,
        "ERROR" => Jk::Error,
        "pair" => Jk::Pair,
        "object" => Jk::Object,
        "array" => Jk::Array,
        "string" => Jk::String,
        "number" => Jk::Number,
        "true" => Jk::True,
        "false" => Jk::False,
        _ => Jk::Other,
    }
}

static JSON: LazyLock<Grammar<Jk>> =
    LazyLock::new(|| Grammar::new(tree_sitter_json::LANGUAGE.into(), json_kind));

/// Whether `n` is a JSON (JSONC) comment.
fn is_json_comment(n: TsNode) -> bool {
    JSON.kinds.of(n) == Jk::Comment
}

/// The named children of a node, in order (what [`TsNode::named_children`]
/// gives), read with a cursor of [`Cx`]'s pool: give it back with
/// [`Cx::recycle`].
struct NamedChildren<'t> {
    cursor: TreeCursor<'t>,
    started: bool,
    done: bool,
}

impl<'t> NamedChildren<'t> {
    fn next(&mut self) -> Option<TsNode<'t>> {
        while !self.done {
            let moved = if self.started {
                self.cursor.goto_next_sibling()
            } else {
                self.started = true;
                self.cursor.goto_first_child()
            };
            if !moved {
                self.done = true;
                break;
            }
            let n = self.cursor.node();
            if n.is_named() {
                return Some(n);
            }
        }
        None
    }
}

struct Cx<'a, 't> {
    file: FileId,
    text: &'a str,
    out: &'a mut Parsed,
    deep_reported: bool,
    /// Cursors not in use: one per level of the walk at most, reset for
    /// each node whose children are read (a new cursor allocates).
    cursors: Vec<TreeCursor<'t>>,
}

impl<'a, 't> Cx<'a, 't> {
    fn new(file: FileId, text: &'a str, out: &'a mut Parsed) -> Self {
        Cx {
            file,
            text,
            out,
            deep_reported: false,
            cursors: Vec::new(),
        }
    }

    /// The named children of `n`, with a cursor of the pool.
    fn named_children(&mut self, n: TsNode<'t>) -> NamedChildren<'t> {
        let cursor = match self.cursors.pop() {
            Some(mut c) => {
                c.reset(n);
                c
            }
            None => n.walk(),
        };
        NamedChildren {
            cursor,
            started: false,
            done: false,
        }
    }

    /// Gives the cursor of `children` back to the pool.
    fn recycle(&mut self, children: NamedChildren<'t>) {
        self.cursors.push(children.cursor);
    }

    /// The first named child of `n` that `pick` takes.
    fn find_named(
        &mut self,
        n: TsNode<'t>,
        pick: impl Fn(TsNode<'t>) -> bool,
    ) -> Option<TsNode<'t>> {
        let mut children = self.named_children(n);
        let mut found = None;
        while let Some(c) = children.next() {
            if pick(c) {
                found = Some(c);
                break;
            }
        }
        self.recycle(children);
        found
    }

    fn diag(&mut self, d: Diagnostic) {
        self.out.diagnostics.push(d);
    }

    fn src(&self, n: TsNode) -> &'a str {
        &self.text[n.start_byte()..n.end_byte()]
    }

    fn push(&mut self, span: Span, kind: NodeKind) -> NodeId {
        self.out.document.push(span, kind)
    }

    /// Depth guard: returns a null node and reports once when too deep.
    fn too_deep(&mut self, n: TsNode, depth: usize) -> Option<NodeId> {
        if depth <= MAX_DEPTH {
            return None;
        }
        if !self.deep_reported {
            self.deep_reported = true;
            self.diag(
                Diagnostic::new(
                    rules::NESTING_TOO_DEEP,
                    self.file,
                    Span::new(n.start_byte(), n.start_byte()),
                    format!("values nest deeper than {MAX_DEPTH} levels"),
                )
                .with_label("nesting limit reached here; deeper values are read as null"),
            );
        }
        Some(self.push(span_of(n), NodeKind::Null))
    }

    /// Builds a mapping node from entries, reporting duplicate keys.
    fn mapping(&mut self, span: Span, entries: Vec<Entry>) -> NodeId {
        // One entry has no duplicate: no key is read.
        if entries.len() > 1 {
            for (again, first) in duplicate_keys(&self.out.document, &entries) {
                let doc = &self.out.document;
                let key = doc.key_text(again).unwrap_or_default();
                let first_span = doc.node(first).span;
                let span = doc.node(again).span;
                let d = Diagnostic::new(rules::DUPLICATE_KEY, self.file, span, format!("duplicate key {}", quote(&key)))
                    .with_label("defined again here")
                    .with_secondary(self.file, first_span, "first defined here")
                    .with_note("serde_json and most YAML loaders keep the last value; others keep the first or reject the file");
                self.diag(d);
            }
        }
        self.push(span, NodeKind::Mapping(entries))
    }
}

/// Mappings with up to this many entries are searched for duplicate keys
/// pair by pair (no hashing); larger ones with a hash map.
const LINEAR_KEYS: usize = 16;

/// The duplicate keys of a mapping's entries, in entry order: each key
/// equal to an earlier one, with the first of them. Keys are equal when
/// their values are (YAML 1.2 §3.2.1.3): the string `1`, the integer 1 and
/// the float 1.0 are three keys; a collection key is never compared.
fn duplicate_keys(doc: &Document, entries: &[Entry]) -> Vec<(NodeId, NodeId)> {
    // A key's text, tagged by its kind unless it is a string (a string key
    // is compared as it is, without a copy).
    let tagged = |key: NodeId| -> Option<std::borrow::Cow<'_, str>> {
        let kind = doc.kind(key);
        if let NodeKind::String(s) = kind {
            return Some(std::borrow::Cow::Borrowed(s.as_str()));
        }
        let text = doc.key_text(key)?;
        Some(std::borrow::Cow::Owned(match kind {
            NodeKind::Number(Number::Float(_)) => format!("\u{0}f{text}"),
            NodeKind::Number(_) => format!("\u{0}i{text}"),
            _ => format!("\u{0}{text}"),
        }))
    };
    let mut duplicates = Vec::new();
    if entries.len() <= LINEAR_KEYS {
        let mut seen: Vec<(std::borrow::Cow<'_, str>, NodeId)> = Vec::with_capacity(entries.len());
        for e in entries {
            let Some(t) = tagged(e.key) else { continue };
            match seen.iter().find(|(s, _)| *s == t) {
                Some(&(_, first)) => duplicates.push((e.key, first)),
                None => seen.push((t, e.key)),
            }
        }
    } else {
        let mut seen: HashMap<std::borrow::Cow<'_, str>, NodeId> =
            HashMap::with_capacity(entries.len());
        for e in entries {
            let Some(t) = tagged(e.key) else { continue };
            match seen.get(&t) {
                Some(&first) => duplicates.push((e.key, first)),
                None => {
                    seen.insert(t, e.key);
                }
            }
        }
    }
    duplicates
}

/// The byte offset in `src` of the first tab in the indentation of a line
/// after its first: where saphyr's "while scanning a plain scalar, found a
/// tab" fault is (it names the value's start).
fn indenting_tab(src: &str) -> Option<usize> {
    let mut offset = src.find('\n')? + 1;
    for line in src[offset..].split_inclusive('\n') {
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        if let Some(t) = line[..indent].find('\t') {
            return Some(offset + t);
        }
        offset += line.len();
    }
    None
}

/// tree-sitter-yaml recovers coarsely: one unquoted `: ` in a value turns the
/// whole document into an ERROR node that starts at its first key. When the
/// tree has errors, the reference YAML 1.2 parser (saphyr) is asked where it
/// stops and why; its position and reason replace tree-sitter's ERROR-node
/// diagnostics. When saphyr accepts the text, tree-sitter's diagnostics stay.
fn refine_yaml_error(cx: &mut Cx, start: usize, end: usize) {
    let src = &cx.text[start..end];
    let mut found = None;
    for event in saphyr_parser::Parser::new_from_str(src) {
        if let Err(e) = event {
            let index = e.marker().index();
            let byte = src
                .char_indices()
                .nth(index)
                .map(|(b, _)| b)
                .unwrap_or(src.len());
            found = Some((byte, e.info().to_string()));
            break;
        }
    }
    let Some((byte, info)) = found else { return };
    let mut at = start + byte;
    let mut len = cx.text[at..]
        .chars()
        .next()
        .map(char::len_utf8)
        .unwrap_or(0);
    let tab = info.contains("tabs disallowed") || info.contains("found a tab");
    // Where a plain value that goes on to a line indented with a tab starts
    // (saphyr names the value, the fault is the tab of a later line).
    let mut scalar = None;
    if info.contains("found a tab") {
        if let Some(t) = indenting_tab(&cx.text[at..end]) {
            scalar = Some(Span::new(at, at + len));
            at += t;
            len = cx.text[at..].bytes().take_while(|&b| b == b'\t').count();
        }
    } else if tab {
        // The parser stops after the indentation; the fault is its tabs.
        let line_start = cx.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let indent = &cx.text[line_start..at];
        if let (Some(first), Some(last)) = (indent.find('\t'), indent.rfind('\t')) {
            at = line_start + first;
            len = last + 1 - first;
        }
    }
    cx.out.diagnostics.retain(|d| {
        d.rule != rules::SYNTAX_ERROR || d.message.starts_with("syntax error: missing")
    });
    let mut d = Diagnostic::new(
        rules::SYNTAX_ERROR,
        cx.file,
        Span::new(at, at + len),
        format!("syntax error: {info}"),
    )
    .with_label("the YAML parser stops here");
    if tab {
        d = d
            .with_label("a tab in the indentation")
            .with_help("YAML indents with spaces only: replace the tab with spaces");
        if let Some(value) = scalar {
            d = d.with_secondary(cx.file, value, "in the plain value that starts here");
        }
    } else if info.contains("mapping values are not allowed") {
        d = d.with_help(
            "a plain value cannot contain `: `; quote the value or use a block scalar (`>-`)",
        );
    } else if let Some(value) = plain_star_value(cx.text, at) {
        // `applyTo: **/*.ts,**/*.tsx`: globs written plain, which YAML
        // reads as an alias and then cannot go on.
        let written = &cx.text[value.range()];
        let quoted = quote_scalar(written);
        d = d
            .with_note("a plain YAML value cannot start with `*`: YAML reads it as an alias, not as a glob")
            .with_help(format!("quote the whole value: {quoted}"))
            .with_fix(Fix {
                message: format!("quote the value: {quoted}"),
                applicability: Applicability::Unsafe,
                edits: vec![Edit {
                    span: value,
                    replacement: quoted,
                }],
            });
    } else if let Some(value) = flow_then_text(cx.text, at) {
        // `argument-hint: [name] [--flag]`: the value opens a flow list
        // and text follows its end.
        let written = &cx.text[value.range()];
        let quoted = quote_scalar(written);
        d = d
            .with_help(format!(
                "a value that starts with `{}` is a YAML {}, so nothing may follow its end; to write the text as it is, quote the whole value: {quoted}",
                &written[..1],
                if written.starts_with('[') { "list" } else { "mapping" },
            ))
            .with_fix(Fix {
                message: format!("quote the value: {quoted}"),
                applicability: Applicability::Unsafe,
                edits: vec![Edit {
                    span: value,
                    replacement: quoted,
                }],
            });
    }
    cx.diag(d);
}

/// The span of the value of the `key: value` line holding byte `at` (up to
/// a ` #` comment, without trailing blanks) when it starts with `*`: a glob
/// written plain (`applyTo: **/*.ts,**/*.tsx`) is what made the parser
/// stop there.
fn plain_star_value(text: &str, at: usize) -> Option<Span> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find(['\n', '\r']).map_or(text.len(), |i| at + i);
    let line = &text[line_start..line_end];
    let colon = line.find(": ")?;
    let after = &line[colon + 2..];
    let lead = after.len() - after.trim_start().len();
    let value = after.trim_start();
    if !value.starts_with('*') {
        return None;
    }
    let value = value.find(" #").map_or(value, |i| &value[..i]).trim_end();
    let start = line_start + colon + 2 + lead;
    Some(Span::new(start, start + value.len()))
}

/// The span of the value of the `key: value` line holding byte `at`, up to
/// a ` #` comment, when it opens a flow collection (`[`, `{`) that closes
/// before `at` on the same line: text after a flow collection is what made
/// the parser stop there.
fn flow_then_text(text: &str, at: usize) -> Option<Span> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find(['\n', '\r']).map_or(text.len(), |i| at + i);
    let line = &text[line_start..line_end];
    let colon = line.find(": ")?;
    let after = &line[colon + 2..];
    let lead = after.len() - after.trim_start().len();
    let mut value = after.trim_start();
    if let Some(c) = value.find(" #") {
        value = &value[..c];
    }
    let value = value.trim_end();
    let opens = value.starts_with('[') || value.starts_with('{');
    let closes_before = text[line_start..at].contains([']', '}']);
    let from = line_start + colon + 2 + lead;
    (opens && closes_before && at > line_start + colon && at < from + value.len())
        .then(|| Span::new(from, from + value.len()))
}

/// `text` as a YAML scalar that reads back as `text`: double-quoted, or
/// single-quoted when it holds `"` or `\\` and no `'` (no escapes needed),
/// else double-quoted with `\\` and `"` escaped.
fn quote_scalar(text: &str) -> String {
    if !text.contains(['"', '\\']) {
        format!("\"{text}\"")
    } else if !text.contains('\'') {
        format!("'{text}'")
    } else {
        format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// Whether `text` has a `/` outside JSON strings. In a JSON tree without
/// errors every token but a comment is a string (from `"` to the next
/// unescaped `"`, one line), a number, a literal or punctuation, so a
/// `comment` node exists exactly when this is true: up to the first `/`
/// outside strings, the strings found here are the tree's.
fn slash_outside_strings(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(j) = memchr::memchr2(b'"', b'/', &b[i..]) {
        i += j;
        if b[i] == b'/' {
            return true;
        }
        // In a string: to its closing quote, over escapes.
        i += 1;
        loop {
            match memchr::memchr2(b'"', b'\\', &b[i..]) {
                None => return false,
                Some(k) if b[i + k] == b'"' => {
                    i += k + 1;
                    break;
                }
                Some(k) => i += k + 2,
            }
            if i >= b.len() {
                return false;
            }
        }
    }
    false
}

/// Spans of every `comment` node of a tree, in source order; `is_comment`
/// says which nodes are (by their [`Kinds`] class).
fn collect_comments(root: TsNode, is_comment: impl Fn(TsNode) -> bool) -> Vec<Span> {
    let mut out = Vec::new();
    let mut c = root.walk();
    'walk: loop {
        let n = c.node();
        if is_comment(n) {
            out.push(span_of(n));
        } else if c.goto_first_child() {
            continue;
        }
        while !c.goto_next_sibling() {
            if !c.goto_parent() {
                break 'walk;
            }
        }
    }
    out
}

/// How many JSON ERROR nodes of a file [`collect_errors`] places at their
/// token at fault ([`json_fault`]); the rest, past what any report shows
/// (skein-model keeps 50 syntax diagnostics a file), keep the node's own
/// span, so a file of 100,000 faults costs no more than before.
const LOCATED_FAULTS: usize = 64;

/// What [`collect_errors`] reads.
#[derive(Clone, Copy)]
enum Errors {
    Yaml,
    /// JSON: an ERROR node is reported at its faulty token
    /// ([`json_fault`]); with `comments` (a JSON text containing `//` or
    /// `/*` that is not JSONC) comments are errors too (tree-sitter-json
    /// accepts them; JSON does not).
    Json {
        comments: bool,
    },
}

/// Reports ERROR and MISSING nodes (not descending into an ERROR) and, in
/// JSON, comments where `Errors::Json::comments` says.
fn collect_errors(cx: &mut Cx, root: TsNode, errors: Errors) {
    let (json, comments) = match errors {
        Errors::Yaml => (false, false),
        Errors::Json { comments } => (true, comments),
    };
    // Tokens the parser inserted, by (offset, depth): those at one offset are
    // one fault (a file cut short misses its closing `"`, `]` and `}` at
    // once) and become one diagnostic, innermost first.
    let mut missing: BTreeMap<usize, Vec<(usize, String)>> = BTreeMap::new();
    // Document order (children pushed last first), so the ERROR nodes given
    // their token at fault are the first ones, those a report shows.
    let mut located = 0;
    let mut stack = vec![(root, 0usize)];
    while let Some((n, depth)) = stack.pop() {
        if n.is_error() {
            // JSON: the token at fault, read with the grammar around the node.
            let fault = (json && located < LOCATED_FAULTS)
                .then(|| json_fault::fault(n, cx.text))
                .flatten();
            if let Some(f) = fault {
                located += 1;
                let snippet = quote(cx.text[f.span.range()].trim());
                let (msg, label) = match f.kind {
                    FaultKind::Unexpected(expected) => (
                        format!("syntax error: unexpected {snippet}"),
                        format!("expected {expected} here"),
                    ),
                    FaultKind::TrailingComma => (
                        format!("syntax error: unexpected {snippet}"),
                        "JSON allows no `,` before a closing bracket".to_string(),
                    ),
                    FaultKind::Unterminated => (
                        "syntax error: unterminated string".to_string(),
                        "no closing `\"` on this line".to_string(),
                    ),
                    FaultKind::End(expected) => (
                        "syntax error: unexpected end of file".to_string(),
                        format!("expected {expected} here"),
                    ),
                };
                cx.diag(
                    Diagnostic::new(rules::SYNTAX_ERROR, cx.file, f.span, msg).with_label(label),
                );
                continue;
            }
            let snippet = cx.src(n).lines().next().unwrap_or("").trim();
            let msg = if snippet.is_empty() {
                "syntax error".to_string()
            } else {
                format!("syntax error: unexpected {}", quote(snippet))
            };
            // Point at the first line of a multi-line ERROR node.
            let mut span = span_of(n);
            if let Some(nl) = cx.text[span.range()].find('\n')
                && nl > 0
            {
                span = Span::new(span.start as usize, span.start as usize + nl);
            }
            cx.diag(
                Diagnostic::new(rules::SYNTAX_ERROR, cx.file, span, msg)
                    .with_label("the parser could not read this"),
            );
            continue;
        }
        if n.is_missing() {
            missing
                .entry(n.start_byte())
                .or_default()
                .push((depth, n.kind().to_string()));
            continue;
        }
        if comments && n.kind() == "comment" {
            cx.diag(
                Diagnostic::new(
                    rules::SYNTAX_ERROR,
                    cx.file,
                    span_of(n),
                    JSON_COMMENT_MESSAGE,
                )
                .with_label("comment")
                .with_help("remove the comment; strict JSON parsers reject the file"),
            );
            continue;
        }
        if !comments && !n.has_error() {
            continue;
        }
        let mut c = n.walk();
        let children: Vec<TsNode> = n.children(&mut c).collect();
        stack.extend(children.into_iter().rev().map(|ch| (ch, depth + 1)));
    }
    for (at, mut kinds) in missing {
        kinds.sort_by_key(|&(depth, _)| std::cmp::Reverse(depth));
        kinds.dedup_by(|a, b| a.1 == b.1);
        let names: Vec<String> = kinds.iter().map(|(_, k)| quote(k)).collect();
        let (list, then) = match names.as_slice() {
            [one] => (one.clone(), one.clone()),
            [init @ .., last] => (
                format!("{} and {last}", init.join(", ")),
                format!("{}, then {last}", init.join(", ")),
            ),
            [] => continue,
        };
        let mut d = Diagnostic::new(
            rules::SYNTAX_ERROR,
            cx.file,
            Span::new(at, at),
            format!("syntax error: missing {list}"),
        )
        .with_label(format!("expected {then} here"));
        if cx.text[at..].trim().is_empty() {
            d = d.with_note("the file ends here: was it cut short?");
        }
        cx.diag(d);
    }
}

// ---------------------------------------------------------------- YAML

struct YamlCx {
    anchors: HashMap<String, NodeId>,
    /// The anchors whose values are being converted, innermost last: an
    /// alias to one of them is inside the value it names (recursive).
    open: Vec<String>,
    region_end: usize,
    grammar: &'static Grammar<Yk>,
}

/// SYN008 for alias `*name` at `span`, inside the value of its own anchor.
/// Built out of line: [`yaml_content`] recurses once per nesting level,
/// and a diagnostic built in its frame makes every level's frame larger
/// (a debug build then overflows a 2 MiB worker stack before the depth
/// cut at 256 levels, `tests/hostile.rs`).
#[cold]
#[inline(never)]
fn recursive_alias(file: FileId, span: Span, name: &str) -> Diagnostic {
    Diagnostic::new(
        rules::ALIAS_EXPANSION,
        file,
        span,
        format!(
            "alias {} is inside the value of its own anchor {}: expanding it never ends",
            quote(&format!("*{name}")),
            quote(&format!("&{name}"))
        ),
    )
    .with_label("recursive alias")
    .with_note("a client that turns this YAML into JSON fails on it or loops")
    .with_help("write the value out here instead of referring to the value that holds it")
}

/// SYN007 for alias `*name` at `span`, which names no anchor. A name that
/// looks like a glob (`applyTo: **/*.py`, `paths: *.md`: a glob written
/// plain, which YAML reads as an alias) gets help to quote it. Out of
/// line, as [`recursive_alias`].
#[cold]
#[inline(never)]
fn undefined_alias(file: FileId, span: Span, name: &str) -> Diagnostic {
    let d = Diagnostic::new(
        rules::UNDEFINED_ALIAS,
        file,
        span,
        format!("alias {} refers to no anchor", quote(&format!("*{name}"))),
    )
    .with_label("undefined alias");
    if !(name.starts_with(['*', '.']) || name.contains(['/', '*'])) {
        return d.with_help(format!("define `&{name}` on an earlier node"));
    }
    let written = format!("*{name}");
    d.with_note(format!(
        "a plain YAML value cannot start with `*`: {} is read as an alias, not as a glob",
        quote(&written)
    ))
    .with_help(format!(
        "quote the glob: {}",
        quote(&serde_json::to_string(&written).unwrap_or(written.clone()))
    ))
}

/// Converts a `block_node`/`flow_node` (or a bare content node) to a value.
/// `parent_indent` is the column of the owning mapping pair or sequence item
/// (-1 at top level), needed by block scalars with an indentation indicator.
fn yaml_node<'t>(
    cx: &mut Cx<'_, 't>,
    yc: &mut YamlCx,
    n: TsNode<'t>,
    parent_indent: i64,
    depth: usize,
) -> NodeId {
    if let Some(id) = cx.too_deep(n, depth) {
        return id;
    }
    let grammar: &'static Grammar<Yk> = yc.grammar;
    let kinds = &grammar.kinds;
    let mut tag: Option<&str> = None;
    let mut anchor: Option<String> = None;
    let mut content: Option<TsNode> = None;
    if matches!(kinds.of(n), Yk::BlockNode | Yk::FlowNode) {
        let mut children = cx.named_children(n);
        while let Some(c) = children.next() {
            match kinds.of(c) {
                Yk::Tag => tag = Some(cx.src(c)),
                Yk::Anchor => {
                    anchor = cx
                        .find_named(c, |a| kinds.of(a) == Yk::AnchorName)
                        .map(|a| cx.src(a).to_string())
                }
                Yk::Comment | Yk::Error => {}
                _ if content.is_none() => content = Some(c),
                _ => {}
            }
        }
        cx.recycle(children);
    } else {
        content = Some(n);
    }
    if let Some(a) = &anchor {
        yc.open.push(a.clone());
    }
    let id = match content {
        // An empty node: null, unless a tag says otherwise (`!!str` is "").
        None => {
            let kind = match tag {
                Some(t) => apply_tag(t, "", true),
                None => NodeKind::Null,
            };
            cx.push(span_of(n), kind)
        }
        Some(c) => yaml_content(cx, yc, c, tag, parent_indent, depth),
    };
    if let Some(a) = anchor {
        yc.open.pop();
        yc.anchors.insert(a, id);
    }
    id
}

fn yaml_content<'t>(
    cx: &mut Cx<'_, 't>,
    yc: &mut YamlCx,
    c: TsNode<'t>,
    tag: Option<&str>,
    parent_indent: i64,
    depth: usize,
) -> NodeId {
    let span = span_of(c);
    let grammar = yc.grammar;
    let kinds = &grammar.kinds;
    match kinds.of(c) {
        Yk::BlockMapping | Yk::FlowMapping => {
            let mut entries = Vec::new();
            let mut children = cx.named_children(c);
            while let Some(p) = children.next() {
                match kinds.of(p) {
                    Yk::BlockMappingPair | Yk::FlowPair => {
                        let indent = p.start_position().column as i64;
                        let key = match p.child_by_field_id(grammar.key) {
                            Some(k) => yaml_node(cx, yc, k, indent, depth + 1),
                            None => continue, // error recovery left a pair without key
                        };
                        let value = match p.child_by_field_id(grammar.value) {
                            Some(v) => yaml_node(cx, yc, v, indent, depth + 1),
                            None => {
                                let end = p.end_byte();
                                cx.push(Span::new(end, end), NodeKind::Null)
                            }
                        };
                        entries.push(Entry { key, value });
                    }
                    Yk::FlowNode => {
                        // `{a, b}`: a key with a null value.
                        let key = yaml_node(cx, yc, p, parent_indent, depth + 1);
                        let end = p.end_byte();
                        let value = cx.push(Span::new(end, end), NodeKind::Null);
                        entries.push(Entry { key, value });
                    }
                    _ => {}
                }
            }
            cx.recycle(children);
            cx.mapping(span, entries)
        }
        Yk::BlockSequence | Yk::FlowSequence => {
            let mut items = Vec::new();
            let mut children = cx.named_children(c);
            while let Some(it) = children.next() {
                match kinds.of(it) {
                    Yk::BlockSequenceItem => {
                        let indent = it.start_position().column as i64;
                        let inner = cx.find_named(it, |x| {
                            matches!(kinds.of(x), Yk::BlockNode | Yk::FlowNode)
                        });
                        items.push(match inner {
                            Some(x) => yaml_node(cx, yc, x, indent, depth + 1),
                            None => {
                                let end = it.end_byte();
                                cx.push(Span::new(end, end), NodeKind::Null)
                            }
                        });
                    }
                    Yk::FlowNode => items.push(yaml_node(cx, yc, it, parent_indent, depth + 1)),
                    Yk::FlowPair => {
                        // `[a: 1]`: a single-pair mapping.
                        let key = match it.child_by_field_id(grammar.key) {
                            Some(k) => yaml_node(cx, yc, k, parent_indent, depth + 2),
                            None => {
                                cx.push(Span::new(it.start_byte(), it.start_byte()), NodeKind::Null)
                            }
                        };
                        let value = match it.child_by_field_id(grammar.value) {
                            Some(v) => yaml_node(cx, yc, v, parent_indent, depth + 2),
                            None => {
                                cx.push(Span::new(it.end_byte(), it.end_byte()), NodeKind::Null)
                            }
                        };
                        items.push(cx.mapping(span_of(it), vec![Entry { key, value }]));
                    }
                    _ => {}
                }
            }
            cx.recycle(children);
            cx.push(span, NodeKind::Sequence(items))
        }
        Yk::Alias => {
            let name = cx
                .find_named(c, |a| kinds.of(a) == Yk::AliasName)
                .map_or("", |a| cx.src(a));
            match yc.anchors.get(name) {
                Some(&target) => cx.push(span, NodeKind::Alias(target)),
                // Inside the value of its own anchor: a recursive value,
                // which no expansion finishes (YAML 1.2 allows it; JSON,
                // what clients make of frontmatter, cannot hold it).
                None if yc.open.iter().any(|o| o == name) => {
                    cx.diag(recursive_alias(cx.file, span, name));
                    cx.push(span, NodeKind::Null)
                }
                None => {
                    cx.diag(undefined_alias(cx.file, span, name));
                    cx.push(span, NodeKind::Null)
                }
            }
        }
        Yk::PlainScalar => {
            let raw = scalar::fold_flow_cow(cx.src(c), false);
            let kind = match tag {
                Some(t) => apply_tag(t, &raw, true),
                None => scalar::resolve_plain_cow(raw),
            };
            cx.push(span, kind)
        }
        k @ (Yk::DoubleQuoteScalar | Yk::SingleQuoteScalar) => {
            let src = cx.src(c);
            let inner = if src.len() >= 2 {
                &src[1..src.len() - 1]
            } else {
                ""
            };
            let s = if k == Yk::DoubleQuoteScalar {
                scalar::decode_double_quoted(inner)
            } else {
                scalar::fold_flow(inner, true)
            };
            let kind = match tag {
                Some(t) => apply_tag(t, &s, false),
                None => NodeKind::String(s),
            };
            cx.push(span, kind)
        }
        Yk::BlockScalar => {
            let text = &cx.text[c.start_byte()..yc.region_end.max(c.end_byte())];
            let s = scalar::decode_block(text, parent_indent);
            let kind = match tag {
                Some(t) => apply_tag(t, &s, false),
                None => NodeKind::String(s),
            };
            cx.push(span, kind)
        }
        _ => cx.push(span, NodeKind::Null),
    }
}

/// Applies an explicit tag to a scalar's text (YAML 1.2 §10.3: `!!str`,
/// `!!int`, `!!float`, `!!bool`, `!!null`; the non-specific `!` makes a
/// string). Other tags keep the untagged resolution.
fn apply_tag(tag: &str, text: &str, plain: bool) -> NodeKind {
    let untagged = || {
        if plain {
            scalar::resolve_plain(text)
        } else {
            NodeKind::String(text.to_string())
        }
    };
    match tag {
        "!!str" | "!" | "tag:yaml.org,2002:str" => NodeKind::String(text.to_string()),
        "!!int" => scalar::parse_int(text)
            .map(NodeKind::Number)
            .unwrap_or_else(untagged),
        "!!float" => scalar::parse_float(text)
            .map(|f| NodeKind::Number(Number::Float(f)))
            .or_else(|| {
                scalar::parse_int(text).map(|n| NodeKind::Number(Number::Float(n.as_f64())))
            })
            .unwrap_or_else(untagged),
        "!!bool" => match scalar::resolve_plain(text) {
            b @ NodeKind::Bool(_) => b,
            _ => untagged(),
        },
        "!!null" => NodeKind::Null,
        _ => untagged(),
    }
}

// ---------------------------------------------------------------- JSON

fn json_node<'t>(cx: &mut Cx<'_, 't>, n: TsNode<'t>, depth: usize) -> NodeId {
    if let Some(id) = cx.too_deep(n, depth) {
        return id;
    }
    let grammar: &'static Grammar<Jk> = &JSON;
    let kinds = &grammar.kinds;
    let span = span_of(n);
    match kinds.of(n) {
        Jk::Object => {
            let mut entries = Vec::new();
            let mut children = cx.named_children(n);
            while let Some(p) = children.next() {
                if kinds.of(p) != Jk::Pair {
                    continue;
                }
                let (Some(k), Some(v)) = (
                    p.child_by_field_id(grammar.key),
                    p.child_by_field_id(grammar.value),
                ) else {
                    continue;
                };
                if k.is_missing() || v.is_missing() {
                    continue;
                }
                let key = json_node(cx, k, depth + 1);
                let value = json_node(cx, v, depth + 1);
                entries.push(Entry { key, value });
            }
            cx.recycle(children);
            cx.mapping(span, entries)
        }
        Jk::Array => {
            let mut items = Vec::new();
            let mut children = cx.named_children(n);
            while let Some(c) = children.next() {
                if !matches!(kinds.of(c), Jk::Comment | Jk::Error) && !c.is_missing() {
                    items.push(json_node(cx, c, depth + 1));
                }
            }
            cx.recycle(children);
            cx.push(span, NodeKind::Sequence(items))
        }
        Jk::String => {
            // tree-sitter-json accepts strings serde_json rejects (raw control
            // characters, `\u` without four hex digits, lone surrogates).
            let src = cx.src(n);
            let kind = match plain_json_string(src) {
                Some(s) => NodeKind::String(s.to_string()),
                None => match serde_json::from_str::<String>(src) {
                    Ok(s) => NodeKind::String(s),
                    Err(e) => {
                        if !n.has_error() {
                            cx.diag(
                                Diagnostic::new(
                                    rules::SYNTAX_ERROR,
                                    cx.file,
                                    span,
                                    format!("syntax error: invalid string: {}", serde_reason(&e)),
                                )
                                .with_label("JSON parsers reject this string"),
                            );
                        }
                        NodeKind::String(src.trim_matches('"').to_string())
                    }
                },
            };
            cx.push(span, kind)
        }
        Jk::Number => {
            // tree-sitter-json accepts numbers serde_json rejects (`1.`, `1e400`).
            let src = cx.src(n);
            let kind = match plain_json_integer(src) {
                Some(u) => NodeKind::Number(Number::PosInt(u)),
                None => match serde_json::from_str::<serde_json::Number>(src) {
                    Ok(num) => NodeKind::Number(if let Some(u) = num.as_u64() {
                        Number::PosInt(u)
                    } else if let Some(i) = num.as_i64() {
                        Number::NegInt(i)
                    } else {
                        Number::Float(num.as_f64().unwrap_or(f64::NAN))
                    }),
                    Err(e) => {
                        cx.diag(
                            Diagnostic::new(
                                rules::SYNTAX_ERROR,
                                cx.file,
                                span,
                                format!(
                                    "syntax error: invalid number {}: {}",
                                    quote(src),
                                    serde_reason(&e)
                                ),
                            )
                            .with_label("JSON parsers reject this number"),
                        );
                        NodeKind::Null
                    }
                },
            };
            cx.push(span, kind)
        }
        Jk::True => cx.push(span, NodeKind::Bool(true)),
        Jk::False => cx.push(span, NodeKind::Bool(false)),
        _ => cx.push(span, NodeKind::Null),
    }
}

/// The value of JSON string `src` (quotes included) when it has no escape
/// and no control character, so it is its text between the quotes: what
/// serde_json reads from it, without running serde_json. `None` for any
/// other string (serde_json decodes it, or says why not).
fn plain_json_string(src: &str) -> Option<&str> {
    let inner = src.strip_prefix('"')?.strip_suffix('"')?;
    inner
        .bytes()
        .all(|b| b >= 0x20 && b != b'"' && b != b'\\')
        .then_some(inner)
}

/// The value of JSON number `src` when it is a non-negative integer of at
/// most 19 digits without a leading zero (so it fits `u64`): what
/// serde_json reads from it (`Number::as_u64`), without running serde_json.
/// `None` for any other number.
fn plain_json_integer(src: &str) -> Option<u64> {
    let b = src.as_bytes();
    if b.is_empty() || b.len() > 19 || (b[0] == b'0' && b.len() > 1) {
        return None;
    }
    b.iter().try_fold(0u64, |acc, &d| {
        d.is_ascii_digit().then(|| acc * 10 + u64::from(d - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recursive_alias_is_an_endless_expansion_not_an_undefined_one() {
        let p = yaml("meta: &meta\n  author: a\n  history: *meta\nagain: *meta\n");
        assert_eq!(codes(&p), ["SYN008"]);
        assert_eq!(
            p.diagnostics[0].message,
            "alias `*meta` is inside the value of its own anchor `&meta`: expanding it never ends"
        );
        // The same alias after its anchor's value is complete is fine, and
        // one to an anchor never defined stays SYN007.
        assert!(
            yaml("meta: &meta\n  author: a\nagain: *meta\n")
                .diagnostics
                .is_empty()
        );
        assert_eq!(codes(&yaml("again: *nowhere\n")), ["SYN007"]);
    }

    #[test]
    fn plain_globs_get_quoted() {
        // One glob: an undefined alias, SYN007, with the quoting help.
        let p = yaml("applyTo: **/*.py\n");
        assert_eq!(codes(&p), ["SYN007"]);
        assert_eq!(
            p.diagnostics[0].help.as_deref(),
            Some("quote the glob: `\"**/*.py\"`")
        );
        // A list of globs: the parser stops at the comma; SYN001 offers to
        // quote the whole value.
        let p = yaml("applyTo: **/*.ts,**/*.tsx # TypeScript\n");
        assert_eq!(codes(&p), ["SYN001"]);
        let fix = p.diagnostics[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.edits[0].span, Span::new(9, 25));
        assert_eq!(fix.edits[0].replacement, "\"**/*.ts,**/*.tsx\"");
        assert_eq!(plain_star_value("a: b\n", 3), None);
    }

    #[test]
    fn yaml_line_limit_counts_every_line_ending() {
        assert_eq!(yaml_line_over("a\nb\nc", 3), None);
        assert_eq!(yaml_line_over("a\nb\nc\n", 3), None);
        assert_eq!(yaml_line_over("a\nb\nc\nd", 3), Some(6));
        assert_eq!(yaml_line_over("a\r\nb\rc\r\nd", 3), Some(8));
        assert_eq!(yaml_line_over("\n\n\n\n", 3), Some(3));
        let at_limit = "k: v\n".repeat(MAX_YAML_LINES);
        assert_eq!(yaml_line_over(&at_limit, MAX_YAML_LINES), None);
        let over = format!("{at_limit}k: v\n");
        assert_eq!(yaml_line_over(&over, MAX_YAML_LINES), Some(at_limit.len()));
    }

    #[test]
    fn yaml_past_the_line_limit_is_refused_not_misread() {
        let mut p = Parsers::new();
        let text = format!("name: x\n{}description: y\n", "\n".repeat(MAX_YAML_LINES));
        let parsed = p.parse_yaml(FileId(0), &text);
        let codes: Vec<&str> = parsed.diagnostics.iter().map(|d| d.rule.code).collect();
        assert_eq!(codes, ["SYN017"]);
        // Line 32,768 (an empty one) starts after `name: x\n` and 32,766
        // line breaks.
        assert_eq!(
            parsed.diagnostics[0].primary.span,
            Span::new(8 + 32_766, 8 + 32_766)
        );
        assert!(parsed.document.root().is_none());
    }

    fn codes(p: &Parsed) -> Vec<&'static str> {
        let mut c: Vec<_> = p.diagnostics.iter().map(|d| d.rule.code).collect();
        c.sort_unstable();
        c
    }

    fn yaml(text: &str) -> Parsed {
        Parsers::new().parse_yaml(FileId(0), text)
    }

    fn json(text: &str) -> Parsed {
        Parsers::new().parse_json(FileId(0), text)
    }

    #[test]
    fn comments_are_collected_in_yaml_frontmatter_and_markdown_body() {
        let text = "a: 1 # one\n# two\nb: \"# not\"\n";
        let p = yaml(text);
        let got: Vec<&str> = p.comments.iter().map(|s| &text[s.range()]).collect();
        assert_eq!(got, ["# one", "# two"]);
        let md = "---\n# fm\nname: x\n---\n<!-- a -->\n```\n<!-- in fence -->\n```\n~~~~\n<!-- b\n~~~\n-->\n~~~~\ntext <!-- c\nd --> e\n";
        let p = Parsers::new().parse_markdown(FileId(0), md);
        let got: Vec<&str> = p.comments.iter().map(|s| &md[s.range()]).collect();
        assert_eq!(got, ["# fm", "<!-- a -->", "<!-- c\nd -->"]);
    }

    #[test]
    fn explicit_empty_document_is_null() {
        for text in ["---\n", "--- # c\n", "%YAML 1.2\n---\n", "---\n...\n"] {
            let p = yaml(text);
            assert!(p.diagnostics.is_empty(), "{text:?}: {:?}", p.diagnostics);
            let root = p.document.root().expect(text);
            assert_eq!(p.document.kind(root), &NodeKind::Null, "{text:?}");
        }
        // No `---`: no document at all.
        for text in ["", "# c\n", "...\n"] {
            assert_eq!(yaml(text).document.root(), None, "{text:?}");
        }
        let p = yaml("---\n");
        assert_eq!(
            p.document.node(p.document.root().unwrap()).span,
            Span::new(3, 3)
        );
    }

    #[test]
    fn empty_second_document_is_a_second_document() {
        for text in ["a: 1\n---\n", "a: 1\n---\n# c\n", "---\n---\n"] {
            assert_eq!(codes(&yaml(text)), ["SYN004"], "{text:?}");
        }
        assert!(yaml("a: 1\n...\n# c\n").diagnostics.is_empty());
    }

    #[test]
    fn tagged_empty_node_takes_its_tag() {
        let p = yaml("- !!str\n- !\n- !!null\n- !custom\n- \n");
        let doc = &p.document;
        let items = doc.items(doc.root().unwrap()).unwrap();
        let kinds: Vec<_> = items.iter().map(|&i| doc.kind(i).clone()).collect();
        assert_eq!(
            kinds,
            [
                NodeKind::String(String::new()),
                NodeKind::String(String::new()),
                NodeKind::Null,
                NodeKind::Null,
                NodeKind::Null,
            ]
        );
    }

    #[test]
    fn int_float_and_string_keys_are_distinct() {
        assert!(yaml("1: a\n1.0: b\n'1': c\n").diagnostics.is_empty());
        assert_eq!(codes(&yaml("1: a\n0x1: b\n")), ["SYN002"]);
        assert_eq!(codes(&yaml("1.0: a\n1.00: b\n")), ["SYN002"]);
    }

    #[test]
    fn crlf_block_scalar_reads_like_lf() {
        // Less indented than the content after the first line: an error with
        // LF and CRLF alike.
        for text in ["a: >\n   lead\n  x\n", "a: |\n     \n  x\n"] {
            assert_eq!(codes(&yaml(text)), ["SYN001"], "{text:?}");
            let crlf = text.replace('\n', "\r\n");
            assert_eq!(codes(&yaml(&crlf)), ["SYN001"], "{crlf:?}");
        }
        let text = "a: |\r\n  x\r\n\r\n  y\r\nb: \"q\"\r\n";
        let p = yaml(text);
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let doc = &p.document;
        let root = doc.root().unwrap();
        assert_eq!(doc.as_str(doc.get(root, "a").unwrap()), Some("x\n\ny\n"));
        let b = doc.get(root, "b").unwrap();
        assert_eq!(doc.as_str(b), Some("q"));
        assert_eq!(doc.node(b).span, Span::new(21, 24));
    }

    #[test]
    fn json_exponent_with_plus_sign() {
        let p = json("[1.5e+3, 2E+0, -1e+2]");
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let doc = &p.document;
        let items = doc.items(doc.root().unwrap()).unwrap();
        assert_eq!(doc.kind(items[0]), &NodeKind::Number(Number::Float(1500.0)));
        assert_eq!(doc.kind(items[1]), &NodeKind::Number(Number::Float(2.0)));
        assert_eq!(doc.kind(items[2]), &NodeKind::Number(Number::Float(-100.0)));
        assert_eq!(doc.node(items[0]).span, Span::new(1, 7));
        // Not inside strings or comments.
        let p = json("{\"a\": \"1e+3\"}");
        let doc = &p.document;
        assert_eq!(
            doc.as_str(doc.get(doc.root().unwrap(), "a").unwrap()),
            Some("1e+3")
        );
    }

    /// A JSON syntax error points at the token at fault, not at the pair or
    /// line tree-sitter's ERROR node spans, and says what JSON expected.
    #[test]
    fn json_syntax_errors_point_at_the_token_at_fault() {
        for (text, at, message, label) in [
            (
                "{\"a\": tru}",
                "tru",
                "unexpected `tru`",
                "expected a value here",
            ),
            ("{\"a\" 1}", "1", "unexpected `1`", "expected `:` here"),
            (
                "{\"a\": 01}",
                "1",
                "unexpected `1`",
                "expected `,` or `}` here",
            ),
            ("[1 2 3]", "2", "unexpected `2`", "expected `,` or `]` here"),
            (
                "[\"a\" \"b\"]",
                "\"b\"",
                "unexpected `\"b\"`",
                "expected `,` or `]` here",
            ),
            (
                "{\"a\": 1 \"b\"}",
                "\"b\"",
                "unexpected `\"b\"`",
                "expected `,` or `}` here",
            ),
            (
                "{\"a\":: 1}",
                ":",
                "unexpected `:`",
                "expected a value here",
            ),
            (
                "{\"a\": 1}}",
                "}",
                "unexpected `}`",
                "expected the end of the file here",
            ),
            (
                "{\"a\": True}",
                "True",
                "unexpected `True`",
                "expected a value here",
            ),
            (
                "{\"a\": 1,}",
                ",",
                "unexpected `,`",
                "JSON allows no `,` before a closing bracket",
            ),
            (
                "{\"a\": \"x\n",
                "\"x",
                "unterminated string",
                "no closing `\"` on this line",
            ),
        ] {
            let p = json(text);
            let d = &p.diagnostics[0];
            // The last occurrence is the one at fault in every case.
            let start = text.rfind(at).unwrap();
            assert_eq!(
                (
                    p.diagnostics.len(),
                    d.primary.span,
                    d.message.as_str(),
                    d.primary.message.as_str()
                ),
                (
                    1,
                    Span::new(start, start + at.len()),
                    format!("syntax error: {message}").as_str(),
                    label
                ),
                "{text:?}"
            );
        }
        // A pair before a missing `,`: the next key, on its own line, not
        // the pair tree-sitter set aside.
        let text = "{\n  \"name\": \"x\"\n  \"version\": \"1\"\n}\n";
        let d = &json(text).diagnostics[0];
        assert_eq!(&text[d.primary.span.range()], "\"version\"");
        assert_eq!(
            d.primary.span.start as usize,
            text.find("\"version").unwrap()
        );
        // An unquoted key: the key, then the `}` that no longer closes
        // anything (tree-sitter set the `{` aside with the key).
        let mut got: Vec<(Span, String)> = json("{a: 1}")
            .diagnostics
            .into_iter()
            .map(|d| (d.primary.span, d.message))
            .collect();
        got.sort();
        assert_eq!(
            got,
            [
                (Span::new(1, 2), "syntax error: unexpected `a`".to_string()),
                (Span::new(5, 6), "syntax error: unexpected `}`".to_string())
            ]
        );
        // The first LOCATED_FAULTS ERROR nodes in file order are placed;
        // the rest (past what a report shows) keep the node's span.
        let text = format!("[{}1]", "x, 1, ".repeat(100));
        let mut got: Vec<(Span, String)> = json(&text)
            .diagnostics
            .into_iter()
            .map(|d| (d.primary.span, d.primary.message))
            .collect();
        got.sort();
        assert_eq!(got.len(), 100);
        assert!(
            got.iter().enumerate().all(|(i, (span, label))| {
                // Placed: `x` (a value expected); not: the node, `x,`.
                let (end, placed) = if i < LOCATED_FAULTS {
                    (2, label.starts_with("expected a value"))
                } else {
                    (3, label == "the parser could not read this")
                };
                *span == Span::new(1 + 6 * i, end + 6 * i) && placed
            }),
            "{got:?}"
        );
        // `1.0.0`: the second `.`.
        let text = "{\"version\": 1.0.0}";
        let d = &json(text).diagnostics[0];
        assert_eq!(d.primary.span, Span::new(15, 16));
        assert_eq!(d.message, "syntax error: unexpected `.`");
    }

    #[test]
    fn json_values_serde_json_rejects_are_syntax_errors() {
        for (text, span) in [
            ("[1e400]", Span::new(1, 6)),
            ("[1.]", Span::new(1, 3)),
            ("[\"\\ud800\"]", Span::new(1, 9)),
            ("[\"a\tb\"]", Span::new(1, 6)),
            ("[\"\\u00\"]", Span::new(1, 7)),
            ("[1] [2]", Span::new(4, 7)),
        ] {
            let p = json(text);
            assert_eq!(codes(&p), ["SYN001"], "{text:?}");
            assert_eq!(p.diagnostics[0].primary.span, span, "{text:?}");
        }
        // The first value is still read.
        let p = json("[1] [2]");
        assert_eq!(
            p.document.items(p.document.root().unwrap()).unwrap().len(),
            1
        );
    }
}

#[cfg(test)]
mod json_comment_tests {
    use super::*;

    /// `slash_outside_strings` says whether a JSON tree without errors has
    /// a comment node, on every JSON file of the real corpus and the
    /// fixtures and on small cases.
    #[test]
    fn a_slash_outside_strings_is_a_comment_in_a_tree_without_errors() {
        let mut texts: Vec<(String, String)> = [
            r#"{"url": "https://example.com/a//b", "c": "/*"}"#,
            r#"{"a": "q\"//"} // trailing"#,
            r#"{"a": "\\", "b": 1} /* block */"#,
            "[1, 2]\n// last\n",
            r#"{"k": "\u002f/"}"#,
        ]
        .iter()
        .map(|t| (t.to_string(), t.to_string()))
        .collect();
        let root = skein_test_support::workspace_root();
        let mut dirs = vec![root.join("corpus")];
        // Without the shared corpus (it prints why), the fixtures alone.
        let real = skein_test_support::real_corpus();
        let least = if real.is_some() { 1000 } else { 500 };
        dirs.extend(real);
        while let Some(dir) = dirs.pop() {
            for e in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap()) {
                let path = e.path();
                if e.file_type().unwrap().is_dir() {
                    dirs.push(path);
                } else if path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(".json") || n.ends_with(".jsonc"))
                    && let Ok(text) = String::from_utf8(std::fs::read(&path).unwrap())
                {
                    texts.push((path.display().to_string(), text));
                }
            }
        }
        let mut parsers = Parsers::new();
        let (mut compared, mut with_comments) = (0, 0);
        for (what, text) in &texts {
            if text.starts_with('\u{feff}') {
                continue;
            }
            let patched = patch_exponent_signs(text);
            let tree = parsers.json.parse(patched.as_ref(), None).unwrap();
            if tree.root_node().has_error() {
                continue;
            }
            let comments = !collect_comments(tree.root_node(), is_json_comment).is_empty();
            assert_eq!(slash_outside_strings(text), comments, "{what}");
            compared += 1;
            with_comments += usize::from(comments);
        }
        assert!(
            compared > least && with_comments >= 3,
            "{compared} compared, {with_comments} with comments"
        );
    }
}

#[cfg(test)]
mod saphyr_refinement_tests {
    use super::*;

    #[test]
    fn nul_byte_is_reported_and_does_not_end_the_document() {
        // Regression: tree-sitter read NUL as end of input, so everything after
        // a NUL in a comment was silently dropped.
        let text = "a: 1\n# \0\nb: 2\n";
        let parsed = Parsers::new().parse_yaml(FileId(0), text);
        let d: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| (d.rule.code, d.primary.span.start))
            .collect();
        assert_eq!(d, [("SYN001", 7)]);
        let doc = &parsed.document;
        assert_eq!(
            doc.to_json(100).unwrap(),
            serde_json::json!({"a": 1, "b": 2})
        );
    }

    #[test]
    fn a_file_cut_short_is_one_syntax_error_naming_every_missing_closer() {
        let text = "{\"name\": \"x\",\n \"keywords\": [\"a\", \"b\"";
        let parsed = Parsers::new().parse_json(FileId(0), text);
        let d: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.rule.code,
                    d.primary.span.start as usize,
                    d.message.as_str(),
                    d.primary.message.as_str(),
                    d.notes.clone(),
                )
            })
            .collect();
        assert_eq!(
            d,
            [(
                "SYN001",
                text.len(),
                "syntax error: missing `]` and `}`",
                "expected `]`, then `}` here",
                vec!["the file ends here: was it cut short?".to_string()]
            )]
        );
        // One missing token in the middle of a file: as before, no note.
        let parsed = Parsers::new().parse_json(FileId(0), "{\"a\": [1, 2}\n");
        let d: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| (d.message.as_str(), d.notes.len()))
            .collect();
        assert_eq!(d, [("syntax error: missing `]`", 0)]);
    }

    #[test]
    fn deep_block_nesting_is_refused_before_the_scanner_overflows() {
        let deep: String = (0..300).map(|i| format!("{}a:\n", " ".repeat(i))).collect();
        let parsed = Parsers::new().parse_yaml(FileId(0), &deep);
        let codes: Vec<_> = parsed.diagnostics.iter().map(|d| d.rule.code).collect();
        assert_eq!(codes, ["SYN009"]);
        assert_eq!(
            parsed.diagnostics[0].primary.span.start as usize,
            deep.find(&format!("\n{}a:", " ".repeat(128))).unwrap() + 1
        );
        let seq: String = (0..150)
            .map(|i| format!("{}- a:\n", "  ".repeat(i)))
            .collect();
        assert_eq!(
            Parsers::new().parse_yaml(FileId(0), &seq).diagnostics[0]
                .rule
                .code,
            "SYN009"
        );
        let fine: String = (0..100).map(|i| format!("{}a:\n", " ".repeat(i))).collect();
        assert!(
            Parsers::new()
                .parse_yaml(FileId(0), &fine)
                .diagnostics
                .is_empty()
        );
    }

    #[test]
    fn unquoted_colon_is_reported_where_the_yaml_parser_stops() {
        let text = "---\nname: x\ndescription: Use it when: things happen\n---\n";
        let parsed = Parsers::new().parse_markdown(FileId(0), text);
        let d: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.rule.code,
                    d.message.as_str(),
                    &text[d.primary.span.range()],
                    d.primary.span.start,
                )
            })
            .collect();
        // Byte 36 is the `:` after "when", not the start of the frontmatter.
        assert_eq!(
            d,
            [(
                "SYN001",
                "syntax error: mapping values are not allowed in this context",
                ":",
                36
            )]
        );
    }

    #[test]
    fn text_after_a_flow_collection_is_quoted_by_the_fix() {
        let cases = [
            ("k: [a] [b]\n", "\"[a] [b]\""),
            ("k: [a] [b]   # the hint\n", "\"[a] [b]\""),
            ("k:   {a: 1} x\r\n", "\"{a: 1} x\""),
            (
                "k: [\"text\"] [--from-error]\n",
                "'[\"text\"] [--from-error]'",
            ),
            ("k: [\"it's\"] [\\d]\n", "\"[\\\"it's\\\"] [\\\\d]\""),
        ];
        for (text, want) in cases {
            let p = Parsers::new().parse_yaml(FileId(0), text);
            let fixes: Vec<_> = p
                .diagnostics
                .iter()
                .filter_map(|d| d.fix.as_ref())
                .collect();
            assert_eq!(fixes.len(), 1, "{text:?}");
            let [edit] = &fixes[0].edits[..] else {
                panic!("one edit for {text:?}")
            };
            assert_eq!(edit.replacement, want, "{text:?}");
            assert_eq!(fixes[0].applicability, Applicability::Unsafe);
            let fixed = format!(
                "{}{}{}",
                &text[..edit.span.start as usize],
                edit.replacement,
                &text[edit.span.end as usize..]
            );
            let again = Parsers::new().parse_yaml(FileId(0), &fixed);
            assert!(
                again.diagnostics.is_empty(),
                "{fixed:?}: {:?}",
                again.diagnostics
            );
            let doc = &again.document;
            let v = doc.get(doc.root().unwrap(), "k").unwrap();
            assert_eq!(
                doc.as_str(v),
                Some(&text[edit.span.range()]),
                "{fixed:?} reads back as written"
            );
        }
    }

    #[test]
    fn a_tab_in_the_indentation_is_pointed_at() {
        for text in ["tools:\n\t- Read\n", "a:\n  b:\n  \t\tc: 1\n"] {
            let p = Parsers::new().parse_yaml(FileId(0), text);
            let d: Vec<(&str, &str, Option<&str>)> = p
                .diagnostics
                .iter()
                .map(|d| {
                    (
                        &text[d.primary.span.range()],
                        d.primary.message.as_str(),
                        d.help.as_deref(),
                    )
                })
                .collect();
            let tabs = if text.contains("\t\t") { "\t\t" } else { "\t" };
            assert_eq!(
                d,
                [(
                    tabs,
                    "a tab in the indentation",
                    Some("YAML indents with spaces only: replace the tab with spaces")
                )],
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_tab_after_a_plain_value_is_pointed_at_not_the_value() {
        let text = "name: s\n\tdescription: hi\n";
        let p = Parsers::new().parse_yaml(FileId(0), text);
        let [d] = p.diagnostics.as_slice() else {
            panic!("one diagnostic: {:?}", p.diagnostics)
        };
        let secondary: Vec<(std::ops::Range<usize>, &str)> = d
            .secondary
            .iter()
            .map(|l| (l.span.range(), l.message.as_str()))
            .collect();
        assert_eq!(
            (
                d.primary.span.range(),
                d.primary.message.as_str(),
                secondary
            ),
            (
                8..9,
                "a tab in the indentation",
                vec![(6..7, "in the plain value that starts here")]
            )
        );
        assert_eq!(
            p.diagnostics[0].message,
            "syntax error: while scanning a plain scalar, found a tab"
        );
    }

    #[test]
    fn text_after_a_flow_list_gets_the_advice_to_quote() {
        let text =
            "description: Make a component\nargument-hint: [component-name] [--typescript]\n";
        let p = Parsers::new().parse_yaml(FileId(0), text);
        let d: Vec<(&str, Option<&str>)> = p
            .diagnostics
            .iter()
            .map(|d| (&text[d.primary.span.range()], d.help.as_deref()))
            .collect();
        assert_eq!(
            d,
            [(
                "[",
                Some(
                    "a value that starts with `[` is a YAML list, so nothing may follow its end; to write the text as it is, quote the whole value: \"[component-name] [--typescript]\""
                )
            )]
        );
    }
}
