//! serde deserialization straight from a [`Document`], keeping spans.
//!
//! Typed artifact models are read from the same spanned tree the schema is
//! validated against (DESIGN.md §2, "decode"). A field of type
//! [`Spanned<T>`] receives the byte span of its value, so rules can point at
//! it. The mechanism follows the one `toml`'s `Spanned` uses: a struct with a
//! reserved name that this deserializer recognises.

use crate::document::{Document, NodeId, NodeKind, Number};
use crate::span::Span;
use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use std::fmt;

const SPANNED: &str = "$__skein_spanned";
const START: &str = "$__skein_start";
const END: &str = "$__skein_end";
const VALUE: &str = "$__skein_value";

/// A value and the byte span of the node it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    /// Byte range of the value in its file.
    pub span: Span,
    /// The value.
    pub value: T,
}

impl<T> std::ops::Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<'de, T: de::Deserialize<'de>> de::Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: de::Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Spanned<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a spanned value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Spanned<T>, A::Error> {
                let mut start: Option<u32> = None;
                let mut end: Option<u32> = None;
                let mut value: Option<T> = None;
                while let Some(k) = map.next_key::<&str>()? {
                    match k {
                        START => start = Some(map.next_value()?),
                        END => end = Some(map.next_value()?),
                        VALUE => value = Some(map.next_value()?),
                        _ => {
                            return Err(de::Error::custom(
                                "Spanned is only supported by skein's Document deserializer",
                            ));
                        }
                    }
                }
                match (start, end, value) {
                    (Some(s), Some(e), Some(value)) => Ok(Spanned {
                        span: Span { start: s, end: e },
                        value,
                    }),
                    _ => Err(de::Error::custom("incomplete spanned value")),
                }
            }
        }
        d.deserialize_struct(SPANNED, &[START, END, VALUE], V(std::marker::PhantomData))
    }
}

/// A decoding error: the message and the span of the node it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeError {
    /// What went wrong, as serde phrases it (`invalid type: ..., expected ...`).
    pub message: String,
    /// The node the error is about (the innermost one serde was reading).
    pub span: Span,
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError {
            message: msg.to_string(),
            span: Span::default(),
        }
    }
}

/// Deserializes `T` from the node `id` of `doc`.
///
/// Errors carry the span of the innermost node being read.
///
/// Recursion is bounded: a collection nested deeper than
/// [`crate::MAX_DEPTH`] levels below `id` (possible only through aliases
/// whose anchors hold aliases) is an error, not a stack overflow. The work
/// is not bounded: aliases are followed, so call it on an alias bomb only
/// after [`Document::to_json`] accepted the document under a budget.
pub fn from_node<'de, T: de::Deserialize<'de>>(
    doc: &'de Document,
    id: NodeId,
) -> Result<T, DeError> {
    T::deserialize(NodeDe { doc, id, depth: 0 })
}

#[derive(Clone, Copy)]
struct NodeDe<'a> {
    doc: &'a Document,
    id: NodeId,
    /// Collections above this node.
    depth: usize,
}

impl NodeDe<'_> {
    fn span(&self) -> Span {
        self.doc.node(self.id).span
    }
    fn locate(&self, mut e: DeError) -> DeError {
        if e.span == Span::default() {
            e.span = self.span();
        }
        e
    }
}

impl<'de> Deserializer<'de> for NodeDe<'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        let kind = self.doc.kind(self.id);
        if self.depth > crate::MAX_DEPTH
            && matches!(kind, NodeKind::Sequence(_) | NodeKind::Mapping(_))
        {
            return Err(self.locate(de::Error::custom(format!(
                "values nest deeper than {} levels",
                crate::MAX_DEPTH
            ))));
        }
        let depth = self.depth + 1;
        let r = match kind {
            NodeKind::Null => v.visit_unit(),
            NodeKind::Bool(b) => v.visit_bool(*b),
            NodeKind::Number(Number::PosInt(u)) => v.visit_u64(*u),
            NodeKind::Number(Number::NegInt(i)) => v.visit_i64(*i),
            NodeKind::Number(Number::Float(f)) => v.visit_f64(*f),
            NodeKind::String(s) => v.visit_borrowed_str(s),
            NodeKind::Sequence(items) => v.visit_seq(Seq {
                doc: self.doc,
                items: items.iter(),
                depth,
            }),
            NodeKind::Mapping(entries) => v.visit_map(Map {
                doc: self.doc,
                entries: last_wins(self.doc, entries).into_iter(),
                value: None,
                depth,
            }),
            NodeKind::Alias(_) => unreachable!("kind() resolves aliases"),
        };
        r.map_err(|e| self.locate(e))
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match self.doc.kind(self.id) {
            NodeKind::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DeError> {
        if name == SPANNED {
            let span = self.span();
            return v.visit_map(SpannedAccess {
                de: self,
                start: Some(span.start),
                end: Some(span.end),
                value: true,
            });
        }
        // Other structs read their fields from the mapping as serde asks.
        self.deserialize_any(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DeError> {
        match self.doc.kind(self.id) {
            NodeKind::String(s) => v
                .visit_enum(s.as_str().into_deserializer())
                .map_err(|e: DeError| self.locate(e)),
            NodeKind::Mapping(entries) if entries.len() == 1 => {
                let e = entries[0];
                let variant = self.doc.as_str(e.key).ok_or_else(|| {
                    self.locate(de::Error::custom("expected a string variant name"))
                })?;
                v.visit_enum(EnumAccess {
                    doc: self.doc,
                    variant,
                    value: e.value,
                    depth: self.depth + 1,
                })
            }
            _ => Err(self.locate(de::Error::custom("expected an enum variant"))),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, DeError> {
        v.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map identifier ignored_any
    }
}

struct Seq<'a> {
    doc: &'a Document,
    items: std::slice::Iter<'a, NodeId>,
    depth: usize,
}

impl<'de> SeqAccess<'de> for Seq<'de> {
    type Error = DeError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        match self.items.next() {
            Some(&id) => seed
                .deserialize(NodeDe {
                    doc: self.doc,
                    id,
                    depth: self.depth,
                })
                .map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// The entries of a mapping with duplicate keys removed, keeping the last
/// occurrence (serde_json's rule; the syntax layer reports the duplicate).
fn last_wins(doc: &Document, entries: &[crate::document::Entry]) -> Vec<crate::document::Entry> {
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<_> = entries
        .iter()
        .rev()
        .filter(|e| seen.insert(doc.key_text(e.key)))
        .copied()
        .collect();
    out.reverse();
    out
}

struct Map<'a> {
    doc: &'a Document,
    entries: std::vec::IntoIter<crate::document::Entry>,
    value: Option<NodeId>,
    depth: usize,
}

impl<'de> MapAccess<'de> for Map<'de> {
    type Error = DeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        match self.entries.next() {
            Some(e) => {
                self.value = Some(e.value);
                seed.deserialize(NodeDe {
                    doc: self.doc,
                    id: e.key,
                    depth: self.depth,
                })
                .map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let id = self.value.take().expect("next_value after next_key");
        seed.deserialize(NodeDe {
            doc: self.doc,
            id,
            depth: self.depth,
        })
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct SpannedAccess<'a> {
    de: NodeDe<'a>,
    start: Option<u32>,
    end: Option<u32>,
    value: bool,
}

impl<'de> MapAccess<'de> for SpannedAccess<'de> {
    type Error = DeError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        let key = if self.start.is_some() {
            START
        } else if self.end.is_some() {
            END
        } else if self.value {
            VALUE
        } else {
            return Ok(None);
        };
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
            .map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        if let Some(s) = self.start.take() {
            seed.deserialize(s.into_deserializer())
        } else if let Some(e) = self.end.take() {
            seed.deserialize(e.into_deserializer())
        } else {
            self.value = false;
            seed.deserialize(self.de)
        }
    }
}

struct EnumAccess<'a> {
    doc: &'a Document,
    variant: &'a str,
    value: NodeId,
    depth: usize,
}

impl<'de> de::EnumAccess<'de> for EnumAccess<'de> {
    type Error = DeError;
    type Variant = NodeDe<'de>;
    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, NodeDe<'de>), DeError> {
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<DeError>::new(
            self.variant,
        ))?;
        Ok((
            v,
            NodeDe {
                doc: self.doc,
                id: self.value,
                depth: self.depth,
            },
        ))
    }
}

impl<'de> de::VariantAccess<'de> for NodeDe<'de> {
    type Error = DeError;
    fn unit_variant(self) -> Result<(), DeError> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, DeError> {
        self.deserialize_any(v)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_any(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FileId, Parsers};
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    struct Gate {
        id: Spanned<String>,
        cap: Option<u32>,
        verdicts: Vec<String>,
    }

    #[test]
    fn spans_survive_deserialization() {
        let text = "id: G1\ncap: 3\nverdicts: [PASS, REVISE]\n";
        let parsed = Parsers::new().parse_yaml(FileId(0), text);
        let doc = &parsed.document;
        let g: Gate = from_node(doc, doc.root().unwrap()).unwrap();
        assert_eq!(g.id.value, "G1");
        assert_eq!(g.id.span, Span::new(4, 6));
        assert_eq!(g.cap, Some(3));
        assert_eq!(g.verdicts, ["PASS", "REVISE"]);
    }

    #[test]
    fn type_errors_point_at_the_value() {
        let text = "id: G1\ncap: lots\nverdicts: []\n";
        let parsed = Parsers::new().parse_yaml(FileId(0), text);
        let doc = &parsed.document;
        let err = from_node::<Gate>(doc, doc.root().unwrap()).unwrap_err();
        assert_eq!(&text[err.span.range()], "lots");
        assert!(
            err.message.contains("invalid type: string \"lots\""),
            "{}",
            err.message
        );
    }
}
