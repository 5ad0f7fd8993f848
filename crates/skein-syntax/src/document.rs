//! The spanned value tree every parser front produces (DESIGN.md §2, "Document").
//!
//! A [`Document`] is an arena of [`Node`]s. Every mapping key, value,
//! sequence item and scalar is a node with the byte [`Span`] it occupies in the
//! original file. YAML aliases are nodes that point at their anchor's node, so
//! the tree never expands an alias: an alias bomb costs one node per alias.
//! Expansion happens only in [`Document::to_json`], under a node budget.

use crate::span::Span;
use serde_json::{Map, Number as JsonNumber, Value};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Index of a node in its [`Document`].
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct NodeId(pub u32);

/// A number as serde_json reads it: non-negative integers that fit `u64`,
/// negative integers that fit `i64`, everything else `f64`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Number {
    /// An integer `>= 0`.
    PosInt(u64),
    /// An integer `< 0`.
    NegInt(i64),
    /// A float, possibly infinite or NaN (YAML `.inf`, `.nan`).
    Float(f64),
}

impl Number {
    /// The value as `f64` (lossy for large integers).
    pub fn as_f64(self) -> f64 {
        match self {
            Number::PosInt(u) => u as f64,
            Number::NegInt(i) => i as f64,
            Number::Float(f) => f,
        }
    }

    /// The value as `i64` when it is an integer in range.
    pub fn as_i64(self) -> Option<i64> {
        match self {
            Number::PosInt(u) => i64::try_from(u).ok(),
            Number::NegInt(i) => Some(i),
            Number::Float(_) => None,
        }
    }

    /// The value as `u64` when it is a non-negative integer.
    pub fn as_u64(self) -> Option<u64> {
        match self {
            Number::PosInt(u) => Some(u),
            _ => None,
        }
    }
}

/// A mapping entry: the key node and the value node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    /// The key (usually a string scalar).
    pub key: NodeId,
    /// The value; a `Null` node with an empty span for `key:` with no value.
    pub value: NodeId,
}

/// What a node holds.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum NodeKind {
    /// `null`, `~`, or an empty YAML value.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string with escapes resolved and line folding applied.
    String(String),
    /// A sequence of item nodes, in source order.
    Sequence(Vec<NodeId>),
    /// A mapping, entries in source order. Duplicate keys stay in the list
    /// (and are reported by the front); lookups return the last, as serde_json does.
    Mapping(Vec<Entry>),
    /// A YAML alias `*name`; points at the anchored node.
    Alias(NodeId),
}

/// One value in the tree with its byte range.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Node {
    /// The bytes of the value in the original file (for a block scalar: from
    /// the indicator to the end of its content; for a mapping: from its first
    /// key or `{` to its end).
    pub span: Span,
    /// The value.
    pub kind: NodeKind,
}

/// A spanned value tree: an arena of nodes and an optional root.
///
/// `root` is `None` when the file holds no value (an empty YAML stream, a
/// file whose only content is a syntax error).
///
/// A document may be *dropped* ([`Document::dropped`]): a run that keeps
/// memory bounded (skein's lean retention, issue #17) keeps no tree for an
/// artifact whose tree nothing reads after its own file's passes. A dropped
/// document reads as empty, and the first read raises its [`DropMark`], so
/// the run can tell that its guess was wrong and start again keeping
/// every tree.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Document {
    nodes: Vec<Node>,
    root: Option<NodeId>,
    /// For each node that is a mapping value, the key it belongs to.
    keys: Vec<Option<NodeId>>,
    /// Set on a dropped document: raised when it is read. Shared: a clone
    /// of a dropped document allocates nothing.
    #[serde(skip)]
    dropped: Option<Arc<Dropped>>,
}

/// What a dropped [`Document`] keeps: its mark, and the answers of
/// [`Document::pointer_span`] for the pointers kept.
#[derive(Debug, Clone, Default, PartialEq)]
struct Dropped {
    mark: DropMark,
    /// Pointer, and the span of the value it names (`None`: it names none).
    spans: Vec<(String, Option<Span>)>,
}

/// The flag a dropped [`Document`] raises when something reads it (its
/// root, its length, a pointer, its JSON view): shared by every document
/// a run dropped, and asked by that run when its report is made.
#[derive(Debug, Clone, Default)]
pub struct DropMark(Arc<AtomicBool>);

impl DropMark {
    /// A mark not raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a document dropped with this mark was read.
    pub fn raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Marks are not part of a document's value: any two are equal.
impl PartialEq for DropMark {
    fn eq(&self, _: &DropMark) -> bool {
        true
    }
}

/// [`Document::to_json`] gave up: alias expansion would produce more than
/// the allowed number of values, or values nested deeper than
/// [`crate::MAX_DEPTH`] (aliases of aliases can stack the depth of their
/// anchors: the tree itself never nests deeper than the front's cut).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpansionLimit {
    /// The value budget that was given.
    pub limit: usize,
    /// True when the expansion was refused for its depth (a collection
    /// deeper than [`crate::MAX_DEPTH`]), false when for its size.
    pub too_deep: bool,
    /// The alias of the document's own tree (not one inside an anchor
    /// being expanded) whose expansion went over the limit: the place to
    /// point at. `None` when no alias was being expanded.
    pub alias: Option<Span>,
}

impl std::fmt::Display for ExpansionLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.too_deep {
            write!(
                f,
                "alias expansion nests deeper than {} levels",
                crate::MAX_DEPTH
            )
        } else {
            write!(f, "alias expansion exceeds {} values", self.limit)
        }
    }
}

impl std::error::Error for ExpansionLimit {}

impl Document {
    /// An empty document.
    pub fn new() -> Self {
        Self::default()
    }

    /// A document whose tree is not kept: it reads as empty, and reading it
    /// raises `mark`. Its clones share what it keeps: a run that drops
    /// many trees clones one.
    pub fn dropped(mark: DropMark) -> Self {
        Document {
            dropped: Some(Arc::new(Dropped {
                mark,
                spans: Vec::new(),
            })),
            ..Document::default()
        }
    }

    /// This document dropped ([`Document::dropped`]), keeping the answers
    /// of [`Document::pointer_span`] for `pointers`: a reader that needs
    /// only the spans of a few values reads them without the tree.
    pub fn drop_keeping<'a>(
        &self,
        mark: DropMark,
        pointers: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let spans: Vec<(String, Option<Span>)> = pointers
            .into_iter()
            .map(|p| (p.to_string(), self.pointer_span(p)))
            .collect();
        Document {
            dropped: Some(Arc::new(Dropped { mark, spans })),
            ..Document::default()
        }
    }

    /// The span of the value at JSON pointer `pointer` (RFC 6901), when
    /// the pointer names one ([`Document::pointer`] gets to its end). A
    /// dropped document answers for the pointers it kept
    /// ([`Document::drop_keeping`]); any other pointer reads the tree.
    pub fn pointer_span(&self, pointer: &str) -> Option<Span> {
        if let Some(d) = &self.dropped
            && let Some((_, span)) = d.spans.iter().find(|(p, _)| p == pointer)
        {
            return *span;
        }
        match self.pointer(pointer) {
            Some((id, true)) => Some(self.node(id).span),
            _ => None,
        }
    }

    /// Whether the tree was dropped ([`Document::dropped`]).
    pub fn is_dropped(&self) -> bool {
        self.dropped.is_some()
    }

    /// Frees the arena's unused capacity (the tree is built by pushing
    /// nodes, so up to half of it is slack once parsing ends).
    pub fn shrink_to_fit(&mut self) {
        self.nodes.shrink_to_fit();
        self.keys.shrink_to_fit();
    }

    /// Raises the drop mark of a dropped document: every read of the tree
    /// starts at one of the methods that call this.
    fn touch(&self) {
        if let Some(d) = &self.dropped {
            d.mark.raise();
        }
    }

    /// Appends a node and returns its id.
    pub fn push(&mut self, span: Span, kind: NodeKind) -> NodeId {
        self.index_keys(&kind);
        self.nodes.push(Node { span, kind });
        self.keys.resize(self.nodes.len(), None);
        NodeId(self.nodes.len() as u32 - 1)
    }

    /// Records, for each entry of a mapping, which key its value belongs to.
    fn index_keys(&mut self, kind: &NodeKind) {
        if let NodeKind::Mapping(entries) = kind {
            for e in entries {
                let i = e.value.0 as usize;
                if i >= self.keys.len() {
                    self.keys.resize(i + 1, None);
                }
                self.keys[i] = Some(e.key);
            }
        }
    }

    /// Replaces the kind of an existing node (used to fill containers after
    /// their children are built).
    pub fn set_kind(&mut self, id: NodeId, kind: NodeKind) {
        self.index_keys(&kind);
        self.nodes[id.0 as usize].kind = kind;
    }

    /// Sets the root.
    pub fn set_root(&mut self, root: Option<NodeId>) {
        self.root = root;
    }

    /// The root node, if the document holds a value.
    pub fn root(&self) -> Option<NodeId> {
        self.touch();
        self.root
    }

    /// The node with id `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    /// Number of nodes in the arena.
    pub fn len(&self) -> usize {
        self.touch();
        self.nodes.len()
    }

    /// True when the arena is empty.
    pub fn is_empty(&self) -> bool {
        self.touch();
        self.nodes.is_empty()
    }

    /// Follows aliases to the node that holds the value. Bounded: an alias
    /// can only point at an earlier node, so the chain ends.
    pub fn resolve(&self, mut id: NodeId) -> NodeId {
        while let NodeKind::Alias(target) = self.node(id).kind {
            id = target;
        }
        id
    }

    /// The kind of `id` after following aliases.
    pub fn kind(&self, id: NodeId) -> &NodeKind {
        &self.node(self.resolve(id)).kind
    }

    /// The string value of `id`, if it is a string scalar.
    pub fn as_str(&self, id: NodeId) -> Option<&str> {
        match self.kind(id) {
            NodeKind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The entries of `id`, if it is a mapping.
    pub fn entries(&self, id: NodeId) -> Option<&[Entry]> {
        match self.kind(id) {
            NodeKind::Mapping(e) => Some(e),
            _ => None,
        }
    }

    /// The items of `id`, if it is a sequence.
    pub fn items(&self, id: NodeId) -> Option<&[NodeId]> {
        match self.kind(id) {
            NodeKind::Sequence(i) => Some(i),
            _ => None,
        }
    }

    /// The text a key is looked up by: strings as they are, other scalars in
    /// their JSON spelling. `None` for collection keys.
    pub fn key_text(&self, id: NodeId) -> Option<String> {
        match self.kind(id) {
            NodeKind::String(s) => Some(s.clone()),
            NodeKind::Null => Some("null".into()),
            NodeKind::Bool(b) => Some(b.to_string()),
            NodeKind::Number(n) => Some(number_key(*n)),
            _ => None,
        }
    }

    /// The last entry of mapping `id` whose key is the string `key`.
    pub fn get_entry(&self, id: NodeId, key: &str) -> Option<Entry> {
        self.entries(id)?
            .iter()
            .rev()
            .find(|e| self.as_str(e.key) == Some(key))
            .copied()
    }

    /// The value of `key` in mapping `id` (last wins, as serde_json).
    pub fn get(&self, id: NodeId, key: &str) -> Option<NodeId> {
        self.get_entry(id, key).map(|e| e.value)
    }

    /// Resolves an RFC 6901 JSON pointer (`/stages/2/gate`) from the root.
    /// Returns the deepest node reached and whether the whole pointer resolved.
    pub fn pointer(&self, pointer: &str) -> Option<(NodeId, bool)> {
        let mut cur = self.root()?;
        if pointer.is_empty() {
            return Some((cur, true));
        }
        for raw in pointer.strip_prefix('/')?.split('/') {
            let token = raw.replace("~1", "/").replace("~0", "~");
            let next = match self.kind(cur) {
                NodeKind::Mapping(entries) => entries
                    .iter()
                    .rev()
                    .find(|e| self.key_text(e.key).as_deref() == Some(token.as_str()))
                    .map(|e| e.value),
                NodeKind::Sequence(items) => token
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.get(i).copied()),
                _ => None,
            };
            match next {
                Some(n) => cur = n,
                None => return Some((cur, false)),
            }
        }
        Some((cur, true))
    }

    /// The RFC 6901 pointer of the deepest node that holds `span`, a mapping
    /// value counting its key as its own (the reading of `pointer` in a
    /// `skein.toml` `[[ignore]]` entry, docs/configuration.md, "JSON
    /// suppressions"). `""` (the whole document) when the root does not
    /// hold it or the document is empty. The pointer resolves, through
    /// [`Document::pointer`], to the node it names: the walk stops above a
    /// key that is not a scalar or that a later duplicate shadows, and
    /// above an alias.
    pub fn pointer_to(&self, span: Span) -> String {
        let holds = |s: Span| s.start <= span.start && span.end <= s.end;
        let mut out = String::new();
        let Some(mut cur) = self.root() else {
            return out;
        };
        loop {
            let next = match self.kind(cur) {
                NodeKind::Mapping(entries) => entries.iter().find_map(|e| {
                    let (k, v) = (self.node(e.key).span, self.node(e.value).span);
                    let whole = Span::new(k.start.min(v.start) as usize, k.end.max(v.end) as usize);
                    if !holds(whole) {
                        return None;
                    }
                    let token = self.key_text(e.key)?;
                    // A pointer names the last entry of a key.
                    let last = entries
                        .iter()
                        .rev()
                        .find(|x| self.key_text(x.key).as_deref() == Some(token.as_str()));
                    (last == Some(e)).then_some((token, e.value))
                }),
                NodeKind::Sequence(items) => items
                    .iter()
                    .position(|&i| holds(self.node(i).span))
                    .map(|i| (i.to_string(), items[i])),
                _ => None,
            };
            let Some((token, node)) = next else {
                return out;
            };
            out.push('/');
            out.push_str(&token.replace('~', "~0").replace('/', "~1"));
            cur = node;
        }
    }

    /// The key node whose value is `value` (the last mapping entry that holds
    /// it), or `None` for the root, sequence items and keys. O(1): the index
    /// is kept as mappings are added. Used to point a diagnostic for a whole
    /// value (a missing property) at the key that names it.
    pub fn key_of(&self, value: NodeId) -> Option<NodeId> {
        self.keys.get(value.0 as usize).copied().flatten()
    }

    /// Converts the tree to a `serde_json::Value`, expanding aliases, for
    /// schema validation. Non-string keys are spelled as JSON (`1`, `true`,
    /// `null`); NaN and infinite floats become `null` (JSON has neither).
    ///
    /// Errors with [`ExpansionLimit`] when the expanded value would have more
    /// than `limit` nodes (an alias bomb) or a collection nested deeper than
    /// [`crate::MAX_DEPTH`] levels (aliases whose anchors hold aliases stack
    /// their depths); the cost is bounded by `limit` and the recursion by
    /// the depth limit, so the result is also safe to validate and to drop.
    pub fn to_json(&self, limit: usize) -> Result<Value, ExpansionLimit> {
        let Some(root) = self.root() else {
            return Ok(Value::Null);
        };
        let mut budget = limit;
        self.to_json_node(root, &mut budget, limit, 0)
    }

    /// [`Document::to_json_value`] of `id`; when it fails inside an alias,
    /// the error names that alias (the outermost one, as the error comes up).
    fn to_json_node(
        &self,
        id: NodeId,
        budget: &mut usize,
        limit: usize,
        depth: usize,
    ) -> Result<Value, ExpansionLimit> {
        let value = self.to_json_value(id, budget, limit, depth);
        match value {
            Err(mut e) if matches!(self.node(id).kind, NodeKind::Alias(_)) => {
                e.alias = Some(self.node(id).span);
                Err(e)
            }
            v => v,
        }
    }

    fn to_json_value(
        &self,
        id: NodeId,
        budget: &mut usize,
        limit: usize,
        depth: usize,
    ) -> Result<Value, ExpansionLimit> {
        if *budget == 0 {
            return Err(ExpansionLimit {
                limit,
                too_deep: false,
                alias: None,
            });
        }
        *budget -= 1;
        let kind = self.kind(id);
        // The fronts never build a collection deeper than MAX_DEPTH; only
        // alias expansion can, and then the recursion must stop here.
        if depth > crate::MAX_DEPTH && matches!(kind, NodeKind::Sequence(_) | NodeKind::Mapping(_))
        {
            return Err(ExpansionLimit {
                limit,
                too_deep: true,
                alias: None,
            });
        }
        Ok(match kind {
            NodeKind::Null => Value::Null,
            NodeKind::Bool(b) => Value::Bool(*b),
            NodeKind::Number(n) => match *n {
                Number::PosInt(u) => Value::Number(u.into()),
                Number::NegInt(i) => Value::Number(i.into()),
                Number::Float(f) => JsonNumber::from_f64(f)
                    .map(Value::Number)
                    .unwrap_or(Value::Null),
            },
            NodeKind::String(s) => Value::String(s.clone()),
            NodeKind::Sequence(items) => Value::Array(
                items
                    .iter()
                    .map(|&i| self.to_json_node(i, budget, limit, depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
            NodeKind::Mapping(entries) => {
                let mut map = Map::new();
                for e in entries {
                    let key = self
                        .key_text(e.key)
                        .unwrap_or_else(|| "<complex key>".to_string());
                    let value = self.to_json_node(e.value, budget, limit, depth + 1)?;
                    map.insert(key, value);
                }
                Value::Object(map)
            }
            NodeKind::Alias(_) => unreachable!("kind() resolves aliases"),
        })
    }
}

fn number_key(n: Number) -> String {
    match n {
        Number::PosInt(u) => u.to_string(),
        Number::NegInt(i) => i.to_string(),
        Number::Float(f) => f.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use crate::{DropMark, FileId, Parsers};

    #[test]
    fn a_dropped_document_answers_for_the_pointers_it_kept() {
        let text = "capabilities:\n  - kind: a2a\n    agent: b\n  - include: [x, y]\n";
        let doc = Parsers::new().parse_yaml(FileId(0), text).document;
        let span = |p: &str| {
            doc.pointer_span(p)
                .map(|s| &text[s.start as usize..s.end as usize])
        };
        assert_eq!(span("/capabilities/0/agent"), Some("b"));
        assert_eq!(span("/capabilities/1/include/1"), Some("y"));
        assert_eq!(span("/capabilities/1/agent"), None);
        let kept = ["/capabilities/0/agent", "/capabilities/1/agent"];
        let mark = DropMark::new();
        let dropped = doc.drop_keeping(mark.clone(), kept);
        assert!(dropped.is_dropped());
        assert_eq!(
            dropped.pointer_span("/capabilities/0/agent"),
            doc.pointer_span("/capabilities/0/agent")
        );
        assert_eq!(dropped.pointer_span("/capabilities/1/agent"), None);
        assert!(!mark.raised(), "kept pointers read no tree");
        // Any other pointer reads the tree, which is gone.
        assert_eq!(dropped.pointer_span("/capabilities/1/include/1"), None);
        assert!(mark.raised());
    }
}
