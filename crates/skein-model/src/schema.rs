//! Embedded JSON Schemas and the mapping of validation errors to spanned
//! diagnostics.
//!
//! Every format's schema is compiled into the binary (`include_str!` of
//! `schemas/<name>.schema.json`) and built once per process. Validation runs on
//! the `serde_json::Value` view of the spanned [`Document`]; each error's
//! instance path (a JSON pointer) is resolved back to the node it names, so the
//! diagnostic points at the offending value (DESIGN.md §2, "decode").

use crate::format::Format;
use crate::rules;
use jsonschema::Validator;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;
use skein_syntax::{Diagnostic, Document, FileId, NodeId, NodeKind, Span, quote};
use std::collections::HashMap;
use std::sync::OnceLock;

macro_rules! schemas {
    ($($name:literal),* $(,)?) => {
        /// `(name, source text)` of every embedded schema.
        pub const SCHEMAS: &[(&str, &str)] = &[
            $(($name, include_str!(concat!("../schemas/", $name, ".schema.json")))),*
        ];
    };
}

schemas!(
    "agent-plugins-mcp",
    "agent-plugins-plugin",
    "agent-skill-frontmatter",
    "bailey-assistant",
    "claude-hooks",
    "claude-marketplace",
    "claude-plugin",
    "claude-settings",
    "codex-hooks",
    "codex-config",
    "cursor-hooks",
    "copilot-hooks",
    "gemini-settings",
    "loom-agent-spec-v1",
    "loopmaster-loop",
    "mcp-config",
    "opencode-config",
    "opencode-contract",
    "skilldrop-catalogue",
    "skilldrop-loop",
    "skilldrop-pack",
    "skilldrop-terminals",
);

struct Compiled {
    schema: Value,
    validator: Validator,
}

/// Every embedded schema by name, each compiled on first use: a worker
/// that needs one schema waits for that one only, not for all of them to
/// compile (about 20 ms of one thread at the start of a run).
fn compiled() -> &'static HashMap<&'static str, (&'static str, OnceLock<Compiled>)> {
    static CELL: OnceLock<HashMap<&'static str, (&'static str, OnceLock<Compiled>)>> =
        OnceLock::new();
    CELL.get_or_init(|| {
        SCHEMAS
            .iter()
            .map(|&(name, text)| (name, (text, OnceLock::new())))
            .collect()
    })
}

/// The compiled schema `name`, compiled now if it is the first use.
fn compiled_schema(name: &str) -> Option<&'static Compiled> {
    let (name, (text, cell)) = compiled().get_key_value(name)?;
    Some(cell.get_or_init(|| {
        let schema: Value = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("embedded schema {name} is not JSON: {e}"));
        let validator = jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("embedded schema {name} does not compile: {e}"));
        Compiled { schema, validator }
    }))
}

/// The parsed JSON of an embedded schema, by name.
pub fn schema_json(name: &str) -> Option<&'static Value> {
    compiled_schema(name).map(|c| &c.schema)
}

/// Validates `instance` (the JSON view of `doc`) against `format`'s schema and
/// returns one diagnostic per error, sorted by position.
///
/// `anchor` is the span used when an error concerns the document as a whole
/// and the document has no node for it (e.g. empty frontmatter).
pub fn validate(
    format: Format,
    file: FileId,
    doc: &Document,
    instance: &Value,
    anchor: Span,
) -> Vec<Diagnostic> {
    let Some(name) = format.schema_name() else {
        return Vec::new();
    };
    let Some(c) = compiled_schema(name) else {
        return Vec::new();
    };
    // Most artifacts are valid: the yes-or-no check is cheaper than
    // collecting errors.
    if c.validator.is_valid(instance) {
        return Vec::new();
    }
    let mut out: Vec<Diagnostic> = c
        .validator
        .iter_errors(instance)
        .map(|e| to_diagnostic(format, file, doc, &c.schema, &e, anchor))
        .collect();
    out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    out.dedup_by(|a, b| a.primary.span == b.primary.span && a.message == b.message);
    out
}

/// The span where a missing property should be reported: a JSON object's
/// `{`, or the key that owns a YAML block mapping, or the mapping's first line.
fn opening(doc: &Document, id: NodeId, anchor: Span) -> Span {
    let node = doc.node(id);
    if node.span.is_empty() && node.span == Span::default() {
        return anchor;
    }
    if let Some(key) = doc.key_of(id) {
        return doc.node(key).span;
    }
    match &node.kind {
        NodeKind::Mapping(entries) if !entries.is_empty() => {
            let first = doc.node(entries[0].key).span;
            if first.start == node.span.start {
                // YAML block mapping: its first key is where it opens.
                first
            } else {
                Span::new(node.span.start as usize, node.span.start as usize + 1)
            }
        }
        _ if node.span.is_empty() => anchor,
        _ => Span::new(node.span.start as usize, node.span.start as usize + 1),
    }
}

fn short_json(v: &Value) -> String {
    match v {
        Value::String(s) if s.is_empty() => "`\"\"`".into(),
        Value::String(s) => quote(s),
        Value::Object(_) => "an object".into(),
        Value::Array(_) => "an array".into(),
        other => quote(&other.to_string()),
    }
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The `properties` names of the schema object that holds the keyword at `schema_path`.
fn known_properties(schema: &Value, schema_path: &str) -> Vec<String> {
    let parent = schema_path.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
    schema
        .pointer(parent)
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

/// The members of an `anyOf` whose every branch is `{"required": [one]}`.
fn one_of_members(schema: &Value, schema_path: &str) -> Option<Vec<String>> {
    let branches = schema.pointer(schema_path)?.as_array()?;
    branches
        .iter()
        .map(|b| match b.get("required")?.as_array()?.as_slice() {
            [Value::String(m)] if b.as_object()?.len() == 1 => Some(m.clone()),
            _ => None,
        })
        .collect()
}

/// The `properties` beside a keyword at `schema_path`, as a list.
fn known_members(schema: &Value, schema_path: &str) -> Option<String> {
    let parent = schema_path.rsplit_once('/')?.0;
    let keys: Vec<String> = schema
        .pointer(parent)?
        .get("properties")?
        .as_object()?
        .keys()
        .map(|k| format!("`{k}`"))
        .collect();
    (!keys.is_empty()).then(|| keys.join(", "))
}

fn to_diagnostic(
    format: Format,
    file: FileId,
    doc: &Document,
    schema: &Value,
    e: &jsonschema::ValidationError,
    anchor: Span,
) -> Diagnostic {
    let pointer = e.instance_path().as_str().to_string();
    let (node, _) = doc.pointer(&pointer).unwrap_or((NodeId(u32::MAX), false));
    let has_node = node.0 != u32::MAX;
    let value_span = if has_node {
        let s = doc.node(node).span;
        if s == Span::default() && !doc.is_empty() {
            anchor
        } else {
            s
        }
    } else {
        anchor
    };
    let instance = e.instance();
    let at = if pointer.is_empty() {
        if format.syntax() == crate::Syntax::Markdown {
            "the frontmatter".to_string()
        } else {
            "the top level".to_string()
        }
    } else {
        format!("`{pointer}`")
    };
    let schema_path = e.schema_path().as_str().to_string();
    let (span, message, label, help): (Span, String, String, Option<String>) = match e.kind() {
        ValidationErrorKind::Required { property } => {
            let p = property.as_str().unwrap_or_default();
            let span = if has_node {
                opening(doc, node, anchor)
            } else {
                anchor
            };
            (
                span,
                format!("missing required property {} in {at}", quote(p)),
                format!("{} is required here", quote(p)),
                Some(format!("add `{p}`")),
            )
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let key = unexpected.first().cloned().unwrap_or_default();
            let key_span = if has_node {
                doc.get_entry(node, &key)
                    .map(|en| doc.node(en.key).span)
                    .unwrap_or(value_span)
            } else {
                value_span
            };
            let known = known_properties(schema, &schema_path);
            let list = if unexpected.len() > 1 {
                format!(
                    "unknown properties {}",
                    unexpected
                        .iter()
                        .map(|u| quote(u))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!("unknown property {}", quote(&key))
            };
            (
                key_span,
                format!("{list} in {at}"),
                "not allowed here".into(),
                (!known.is_empty()).then(|| format!("allowed properties: {}", known.join(", "))),
            )
        }
        ValidationErrorKind::Enum { options } => {
            let opts = options
                .as_array()
                .map(|a| a.iter().map(short_json).collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            (
                value_span,
                format!(
                    "{at} is {}, not one of the allowed values",
                    short_json(instance)
                ),
                "not an allowed value".into(),
                Some(format!("expected one of: {opts}")),
            )
        }
        ValidationErrorKind::Constant { expected_value } => {
            let expected: &Value = expected_value;
            let message = if std::mem::discriminant(&**instance) == std::mem::discriminant(expected)
            {
                format!(
                    "{at} is {}, expected {}",
                    short_json(instance),
                    short_json(expected)
                )
            } else {
                format!(
                    "{at} is {} {}, expected {} `{expected}`",
                    kind_name(instance),
                    short_json(instance),
                    kind_name(expected)
                )
            };
            (value_span, message, format!("expected `{expected}`"), None)
        }
        ValidationErrorKind::Type { .. } => {
            let expected = match schema.pointer(&schema_path) {
                Some(Value::String(t)) => t.clone(),
                Some(Value::Array(ts)) => ts
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(" or "),
                _ => "another type".into(),
            };
            let value = match &**instance {
                Value::Object(_) | Value::Array(_) | Value::Null => String::new(),
                v => format!(" {}", short_json(v)),
            };
            // No value at all (an empty file or frontmatter) reads as
            // `null` to the validator: say what the author sees.
            let message = if pointer.is_empty() && doc.root().is_none() {
                if format.syntax() == crate::Syntax::Markdown {
                    format!("the frontmatter is empty, expected {expected}")
                } else {
                    format!("the file holds no value (it is empty), expected {expected}")
                }
            } else {
                format!(
                    "{at} is {}{value}, expected {expected}",
                    kind_name(instance)
                )
            };
            (value_span, message, format!("expected {expected}"), None)
        }
        ValidationErrorKind::MaxLength { limit } => {
            let n = instance.as_str().map(|s| s.chars().count()).unwrap_or(0);
            (
                value_span,
                format!("{at} is {n} characters long, more than the maximum of {limit}"),
                format!("{n} characters"),
                None,
            )
        }
        ValidationErrorKind::MinLength { limit } => {
            let n = instance.as_str().map(|s| s.chars().count()).unwrap_or(0);
            let message = if n == 0 {
                format!(
                    "{at} is empty; expected at least {limit} character{}",
                    if *limit == 1 { "" } else { "s" }
                )
            } else {
                format!("{at} is {n} characters long, shorter than the minimum of {limit}")
            };
            (value_span, message, "too short".into(), None)
        }
        ValidationErrorKind::MinItems { limit } => {
            let n = instance.as_array().map(Vec::len).unwrap_or(0);
            (
                value_span,
                format!(
                    "{at} has {n} item{}, fewer than the minimum of {limit}",
                    if n == 1 { "" } else { "s" }
                ),
                "too few items".into(),
                None,
            )
        }
        ValidationErrorKind::UniqueItems => (
            value_span,
            format!("{at} has duplicate items"),
            "items must be unique".into(),
            None,
        ),
        ValidationErrorKind::Minimum { limit }
        | ValidationErrorKind::ExclusiveMinimum { limit } => (
            value_span,
            format!(
                "{at} is {}, below the minimum of {limit}",
                short_json(instance)
            ),
            "too small".into(),
            None,
        ),
        ValidationErrorKind::Maximum { limit }
        | ValidationErrorKind::ExclusiveMaximum { limit } => (
            value_span,
            format!(
                "{at} is {}, above the maximum of {limit}",
                short_json(instance)
            ),
            "too large".into(),
            None,
        ),
        ValidationErrorKind::Pattern { pattern } => (
            value_span,
            format!(
                "{at} is {}, which does not match the pattern `{pattern}`",
                short_json(instance)
            ),
            "does not match".into(),
            None,
        ),
        // `anyOf` of `required` branches: "at least one of these members".
        ValidationErrorKind::AnyOf { .. } if one_of_members(schema, &schema_path).is_some() => {
            let members = one_of_members(schema, &schema_path).unwrap_or_default();
            let list = members
                .iter()
                .map(|m| quote(m))
                .collect::<Vec<_>>()
                .join(", ");
            (
                value_span,
                format!("{at} has none of {list}; at least one is required"),
                "none of the members it needs".into(),
                Some(format!("add one of {list}")),
            )
        }
        ValidationErrorKind::MinProperties { limit } => (
            value_span,
            format!(
                "{at} is empty; expected at least {limit} member{}",
                if *limit == 1 { "" } else { "s" }
            ),
            "too few members".into(),
            known_members(schema, &schema_path).map(|k| format!("allowed members: {k}")),
        ),
        ValidationErrorKind::Not { schema: not } => {
            let (message, label) = match (not.get("const"), not.get("pattern")) {
                (Some(c), _) => (
                    format!("{at} is {}, a reserved value", short_json(instance)),
                    format!("{} is reserved", short_json(c)),
                ),
                (_, Some(Value::String(p))) => (
                    format!(
                        "{at} is {}, which contains a reserved word (`{p}`)",
                        short_json(instance)
                    ),
                    "reserved word".into(),
                ),
                _ => (
                    format!(
                        "{at} is {}, which is not allowed here",
                        short_json(instance)
                    ),
                    "not allowed".into(),
                ),
            };
            (value_span, message, label, None)
        }
        _ => {
            let mut msg = e.to_string();
            if msg.len() > 200 {
                let mut cut = 200;
                while !msg.is_char_boundary(cut) {
                    cut -= 1;
                }
                msg.truncate(cut);
                msg.push('…');
            }
            (value_span, format!("{msg} at {at}"), String::new(), None)
        }
    };
    let mut d = Diagnostic::new(rules::SCHEMA_VIOLATION, file, span, message)
        .with_label(label)
        .with_note(format!("{} schema: {}", format.id(), schema_path));
    if let Some(h) = help {
        d = d.with_help(h);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_schema_compiles() {
        assert_eq!(compiled().len(), SCHEMAS.len());
        for (name, _) in SCHEMAS {
            assert!(compiled_schema(name).is_some(), "{name}");
        }
        for f in Format::ALL {
            if let Some(name) = f.schema_name() {
                assert!(
                    schema_json(name).is_some(),
                    "format {} names missing schema {name}",
                    f.id()
                );
            }
        }
    }
}
