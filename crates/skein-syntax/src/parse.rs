//! tree-sitter trees -> [`Document`]s, for YAML and JSON, plus Markdown
//! frontmatter parsed in place (DESIGN.md §2).
//!
//! Parsing never fails: each entry point returns a document (possibly with
//! no root) and the syntax diagnostics of the file. ERROR and MISSING nodes
//! become [`rules::SYNTAX_ERROR`] diagnostics at their span and the rest of
//! the tree is still converted.

use crate::diagnostic::{Diagnostic, quote};
use crate::document::{Document, Entry, NodeId, NodeKind, Number};
use crate::frontmatter::{Frontmatter, locate_frontmatter};
use crate::rules;
use crate::scalar;
use crate::source::FileId;
use crate::span::Span;
use std::collections::HashMap;
use tree_sitter::{Node as TsNode, Parser, Point, Range};

/// Deepest value nesting the converters follow; deeper values become null
/// and a [`rules::NESTING_TOO_DEEP`] diagnostic.
pub const MAX_DEPTH: usize = 256;

/// The result of parsing one file: its value tree and syntax diagnostics.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// The value tree; `root()` is `None` when nothing could be read.
    pub document: Document,
    /// Syntax diagnostics, in no particular order.
    pub diagnostics: Vec<Diagnostic>,
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
}

/// A set of tree-sitter parsers, one per language, meant to be reused for
/// many files by one thread (`rayon`'s `map_init`).
pub struct Parsers {
    yaml: Parser,
    json: Parser,
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
        Parsers { yaml, json }
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
        let _ = self.yaml.set_included_ranges(&[range]);
        let tree = self.yaml.parse(text, None);
        let _ = self.yaml.set_included_ranges(&[]);
        let mut out = Parsed::default();
        let Some(tree) = tree else {
            return out;
        };
        let mut cx = Cx::new(file, text, &mut out);
        collect_errors(&mut cx, tree.root_node(), false);
        let mut yc = YamlCx {
            anchors: HashMap::new(),
            region_end: end,
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
        let mut seen_content = false;
        for doc in documents {
            let content = named_children(doc)
                .into_iter()
                .find(|c| matches!(c.kind(), "block_node" | "flow_node"));
            let Some(content) = content else { continue };
            if seen_content {
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
            seen_content = true;
            yc.anchors.clear();
            first_root = Some(yaml_node(&mut cx, &mut yc, content, -1, 0));
        }
        cx.out.document.set_root(first_root);
        out
    }

    /// Parses a JSON file. Values decode exactly as serde_json decodes them.
    pub fn parse_json(&mut self, file: FileId, text: &str) -> Parsed {
        let mut out = Parsed::default();
        let bom = text.starts_with('\u{feff}');
        let tree = if bom {
            out.diagnostics.push(
                Diagnostic::new(
                    rules::BYTE_ORDER_MARK,
                    file,
                    Span::new(0, 3),
                    "JSON file starts with a byte-order mark",
                )
                .with_help("save the file as UTF-8 without BOM"),
            );
            let range = Range {
                start_byte: 3,
                end_byte: text.len(),
                start_point: Point { row: 0, column: 3 },
                end_point: point_of(text, text.len()),
            };
            let _ = self.json.set_included_ranges(&[range]);
            let t = self.json.parse(text, None);
            let _ = self.json.set_included_ranges(&[]);
            t
        } else {
            self.json.parse(text, None)
        };
        let Some(tree) = tree else {
            return out;
        };
        let mut cx = Cx::new(file, text, &mut out);
        collect_errors(&mut cx, tree.root_node(), true);
        let root = tree.root_node();
        let value = named_children(root)
            .into_iter()
            .find(|c| !matches!(c.kind(), "comment" | "ERROR"));
        let root_id = value.map(|v| json_node(&mut cx, v, 0));
        cx.out.document.set_root(root_id);
        out
    }

    /// Parses a Markdown artifact: locates its YAML frontmatter and parses it
    /// in place with included ranges, so spans are byte ranges of the `.md` file.
    pub fn parse_markdown(&mut self, file: FileId, text: &str) -> ParsedMarkdown {
        let mut out = ParsedMarkdown::default();
        match locate_frontmatter(text) {
            Ok(None) => {}
            Ok(Some(fm)) => {
                let parsed = self.parse_yaml_range(
                    file,
                    text,
                    fm.content.start as usize,
                    fm.content.end as usize,
                );
                out.document = parsed.document;
                out.diagnostics = parsed.diagnostics;
                out.frontmatter = Some(fm);
            }
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
        out
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

struct Cx<'a> {
    file: FileId,
    text: &'a str,
    out: &'a mut Parsed,
    deep_reported: bool,
}

impl<'a> Cx<'a> {
    fn new(file: FileId, text: &'a str, out: &'a mut Parsed) -> Self {
        Cx {
            file,
            text,
            out,
            deep_reported: false,
        }
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
        let mut seen: HashMap<String, NodeId> = HashMap::new();
        for e in &entries {
            let doc = &self.out.document;
            let Some(key) = doc.key_text(e.key) else {
                continue;
            };
            let tagged = match doc.kind(e.key) {
                NodeKind::String(_) => key.clone(),
                _ => format!("\u{0}{key}"),
            };
            if let Some(&first) = seen.get(&tagged) {
                let first_span = doc.node(first).span;
                let span = doc.node(e.key).span;
                let d = Diagnostic::new(rules::DUPLICATE_KEY, self.file, span, format!("duplicate key {}", quote(&key)))
                    .with_label("defined again here")
                    .with_secondary(self.file, first_span, "first defined here")
                    .with_note("serde_json and most YAML loaders keep the last value; others keep the first or reject the file");
                self.diag(d);
            } else {
                seen.insert(tagged, e.key);
            }
        }
        self.push(span, NodeKind::Mapping(entries))
    }
}

/// Reports ERROR and MISSING nodes (not descending into an ERROR) and, when
/// `json` is set, comments (tree-sitter-json accepts them; JSON does not).
fn collect_errors(cx: &mut Cx, root: TsNode, json: bool) {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.is_error() {
            let snippet = cx.src(n).lines().next().unwrap_or("").trim();
            let msg = if snippet.is_empty() {
                "syntax error".to_string()
            } else {
                format!("syntax error: unexpected {}", quote(snippet))
            };
            // Point at the first line of a multi-line ERROR node.
            let mut span = span_of(n);
            if let Some(nl) = cx.text[span.range()].find('\n') {
                if nl > 0 {
                    span = Span::new(span.start as usize, span.start as usize + nl);
                }
            }
            cx.diag(
                Diagnostic::new(rules::SYNTAX_ERROR, cx.file, span, msg)
                    .with_label("the parser could not read this"),
            );
            continue;
        }
        if n.is_missing() {
            let kind = n.kind();
            cx.diag(
                Diagnostic::new(
                    rules::SYNTAX_ERROR,
                    cx.file,
                    span_of(n),
                    format!("syntax error: missing {}", quote(kind)),
                )
                .with_label(format!("expected {} here", quote(kind))),
            );
            continue;
        }
        if json && n.kind() == "comment" {
            cx.diag(
                Diagnostic::new(
                    rules::SYNTAX_ERROR,
                    cx.file,
                    span_of(n),
                    "comments are not allowed in JSON",
                )
                .with_label("comment")
                .with_help("remove the comment; strict JSON parsers reject the file"),
            );
            continue;
        }
        if !json && !n.has_error() {
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
}

// ---------------------------------------------------------------- YAML

struct YamlCx {
    anchors: HashMap<String, NodeId>,
    region_end: usize,
}

/// Converts a `block_node`/`flow_node` (or a bare content node) to a value.
/// `parent_indent` is the column of the owning mapping pair or sequence item
/// (-1 at top level), needed by block scalars with an indentation indicator.
fn yaml_node(cx: &mut Cx, yc: &mut YamlCx, n: TsNode, parent_indent: i64, depth: usize) -> NodeId {
    if let Some(id) = cx.too_deep(n, depth) {
        return id;
    }
    let mut tag: Option<&str> = None;
    let mut anchor: Option<String> = None;
    let mut content: Option<TsNode> = None;
    if matches!(n.kind(), "block_node" | "flow_node") {
        for c in named_children(n) {
            match c.kind() {
                "tag" => tag = Some(cx.src(c)),
                "anchor" => {
                    anchor = named_children(c)
                        .into_iter()
                        .find(|a| a.kind() == "anchor_name")
                        .map(|a| cx.src(a).to_string())
                }
                "comment" | "ERROR" => {}
                _ if content.is_none() => content = Some(c),
                _ => {}
            }
        }
    } else {
        content = Some(n);
    }
    let id = match content {
        None => cx.push(span_of(n), NodeKind::Null),
        Some(c) => yaml_content(cx, yc, c, tag, parent_indent, depth),
    };
    if let Some(a) = anchor {
        yc.anchors.insert(a, id);
    }
    id
}

fn yaml_content(
    cx: &mut Cx,
    yc: &mut YamlCx,
    c: TsNode,
    tag: Option<&str>,
    parent_indent: i64,
    depth: usize,
) -> NodeId {
    let span = span_of(c);
    match c.kind() {
        "block_mapping" | "flow_mapping" => {
            let mut entries = Vec::new();
            for p in named_children(c) {
                match p.kind() {
                    "block_mapping_pair" | "flow_pair" => {
                        let indent = p.start_position().column as i64;
                        let key = match p.child_by_field_name("key") {
                            Some(k) => yaml_node(cx, yc, k, indent, depth + 1),
                            None => continue, // error recovery left a pair without key
                        };
                        let value = match p.child_by_field_name("value") {
                            Some(v) => yaml_node(cx, yc, v, indent, depth + 1),
                            None => {
                                let end = p.end_byte();
                                cx.push(Span::new(end, end), NodeKind::Null)
                            }
                        };
                        entries.push(Entry { key, value });
                    }
                    "flow_node" => {
                        // `{a, b}`: a key with a null value.
                        let key = yaml_node(cx, yc, p, parent_indent, depth + 1);
                        let end = p.end_byte();
                        let value = cx.push(Span::new(end, end), NodeKind::Null);
                        entries.push(Entry { key, value });
                    }
                    _ => {}
                }
            }
            cx.mapping(span, entries)
        }
        "block_sequence" | "flow_sequence" => {
            let mut items = Vec::new();
            for it in named_children(c) {
                match it.kind() {
                    "block_sequence_item" => {
                        let indent = it.start_position().column as i64;
                        let inner = named_children(it)
                            .into_iter()
                            .find(|x| matches!(x.kind(), "block_node" | "flow_node"));
                        items.push(match inner {
                            Some(x) => yaml_node(cx, yc, x, indent, depth + 1),
                            None => {
                                let end = it.end_byte();
                                cx.push(Span::new(end, end), NodeKind::Null)
                            }
                        });
                    }
                    "flow_node" => items.push(yaml_node(cx, yc, it, parent_indent, depth + 1)),
                    "flow_pair" => {
                        // `[a: 1]`: a single-pair mapping.
                        let key = match it.child_by_field_name("key") {
                            Some(k) => yaml_node(cx, yc, k, parent_indent, depth + 2),
                            None => {
                                cx.push(Span::new(it.start_byte(), it.start_byte()), NodeKind::Null)
                            }
                        };
                        let value = match it.child_by_field_name("value") {
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
            cx.push(span, NodeKind::Sequence(items))
        }
        "alias" => {
            let name = named_children(c)
                .into_iter()
                .find(|a| a.kind() == "alias_name")
                .map(|a| cx.src(a).to_string())
                .unwrap_or_default();
            match yc.anchors.get(&name) {
                Some(&target) => cx.push(span, NodeKind::Alias(target)),
                None => {
                    cx.diag(
                        Diagnostic::new(
                            rules::UNDEFINED_ALIAS,
                            cx.file,
                            span,
                            format!("alias {} refers to no anchor", quote(&format!("*{name}"))),
                        )
                        .with_label("undefined alias")
                        .with_help(format!("define `&{name}` on an earlier node")),
                    );
                    cx.push(span, NodeKind::Null)
                }
            }
        }
        "plain_scalar" => {
            let raw = scalar::fold_flow(cx.src(c), false);
            let kind = match tag {
                Some(t) => apply_tag(t, &raw, true),
                None => scalar::resolve_plain(&raw),
            };
            cx.push(span, kind)
        }
        "double_quote_scalar" | "single_quote_scalar" => {
            let src = cx.src(c);
            let inner = if src.len() >= 2 {
                &src[1..src.len() - 1]
            } else {
                ""
            };
            let s = if c.kind() == "double_quote_scalar" {
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
        "block_scalar" => {
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

fn json_node(cx: &mut Cx, n: TsNode, depth: usize) -> NodeId {
    if let Some(id) = cx.too_deep(n, depth) {
        return id;
    }
    let span = span_of(n);
    match n.kind() {
        "object" => {
            let mut entries = Vec::new();
            for p in named_children(n) {
                if p.kind() != "pair" {
                    continue;
                }
                let (Some(k), Some(v)) =
                    (p.child_by_field_name("key"), p.child_by_field_name("value"))
                else {
                    continue;
                };
                if k.is_missing() || v.is_missing() {
                    continue;
                }
                let key = json_node(cx, k, depth + 1);
                let value = json_node(cx, v, depth + 1);
                entries.push(Entry { key, value });
            }
            cx.mapping(span, entries)
        }
        "array" => {
            let items = named_children(n)
                .into_iter()
                .filter(|c| !matches!(c.kind(), "comment" | "ERROR") && !c.is_missing())
                .map(|c| json_node(cx, c, depth + 1))
                .collect();
            cx.push(span, NodeKind::Sequence(items))
        }
        "string" => {
            let kind = match serde_json::from_str::<String>(cx.src(n)) {
                Ok(s) => NodeKind::String(s),
                Err(_) => NodeKind::String(cx.src(n).trim_matches('"').to_string()),
            };
            cx.push(span, kind)
        }
        "number" => {
            let kind = match serde_json::from_str::<serde_json::Number>(cx.src(n)) {
                Ok(num) => NodeKind::Number(if let Some(u) = num.as_u64() {
                    Number::PosInt(u)
                } else if let Some(i) = num.as_i64() {
                    Number::NegInt(i)
                } else {
                    Number::Float(num.as_f64().unwrap_or(f64::NAN))
                }),
                Err(_) => NodeKind::Null,
            };
            cx.push(span, kind)
        }
        "true" => cx.push(span, NodeKind::Bool(true)),
        "false" => cx.push(span, NodeKind::Bool(false)),
        _ => cx.push(span, NodeKind::Null),
    }
}
