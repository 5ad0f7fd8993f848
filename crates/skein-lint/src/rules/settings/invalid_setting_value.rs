//! SETTINGS007 `invalid-setting-value`.

use super::settings_of;
use super::shapes::{SHAPES, Shape, at, is_absolute};
use crate::rules::refs::closest;
use crate::similar::fold;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Document, NodeId, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS007",
    name: "invalid-setting-value",
    severity: Severity::Error,
    summary: "a Claude Code setting whose value is not of the type or one of the values the settings reference documents",
    doc: include_str!("invalid_setting_value.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// What the value at `node` is, in words.
fn what(doc: &Document, node: NodeId) -> &'static str {
    match doc.kind(node) {
        NodeKind::Null => "null",
        NodeKind::Bool(_) => "a Boolean",
        NodeKind::Number(_) => "a number",
        NodeKind::String(_) => "a string",
        NodeKind::Sequence(_) => "an array",
        NodeKind::Mapping(_) => "an object",
        NodeKind::Alias(_) => "an alias",
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let src = cx.sources.get(a.file);
    let mut out = Vec::new();
    for &(path, shape) in SHAPES {
        for (key, node) in at(doc, root, path) {
            let span = doc.node(node).span;
            let written = quote(src.slice(span));
            let key = quote(&key);
            let d = match (shape, doc.kind(node)) {
                (Shape::Bool, NodeKind::Bool(_)) => continue,
                (Shape::Bool, NodeKind::String(s)) if matches!(s.as_str(), "true" | "false") => {
                    Diagnostic::new(
                        RULE,
                        a.file,
                        span,
                        format!("{key} is the string {written}, not a Boolean"),
                    )
                    .with_label("a quoted Boolean is a string")
                    .with_help(format!("write `{s}` without quotes"))
                }
                (Shape::Bool, _) => Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("{key} is {} ({written}), not a Boolean", what(doc, node)),
                )
                .with_label("not `true` or `false`")
                .with_help("write `true` or `false`"),
                (Shape::Str, NodeKind::String(_)) => continue,
                (Shape::Str, _) => Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("{key} is {} ({written}), not a string", what(doc, node)),
                )
                .with_label("not a string"),
                (Shape::OneOf(values), NodeKind::String(s)) if values.contains(&s.as_str()) => {
                    continue;
                }
                (Shape::OneOf(values), kind) => {
                    let list = values
                        .iter()
                        .map(|v| quote(v))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let guess = match kind {
                        NodeKind::String(s) => {
                            let f = fold(s);
                            values
                                .iter()
                                .copied()
                                .find(|v| fold(v) == f)
                                .or_else(|| closest(s, values.iter().copied()).map(|(c, _)| c))
                        }
                        _ => None,
                    };
                    let head = match kind {
                        NodeKind::String(_) => format!("{key} is {written}, not one of its values"),
                        _ => format!("{key} is {} ({written}), not a string", what(doc, node)),
                    };
                    match guess {
                        Some(g) => Diagnostic::new(
                            RULE,
                            a.file,
                            span,
                            format!("{head}; did you mean {}?", quote(g)),
                        )
                        .with_label("not a documented value (values are case-sensitive)")
                        .with_help(format!("the values are {list}")),
                        None => Diagnostic::new(
                            RULE,
                            a.file,
                            span,
                            format!("{head}; the values are {list}"),
                        )
                        .with_label("not a documented value"),
                    }
                }
                (Shape::AbsPath, NodeKind::String(s)) if is_absolute(s) => continue,
                (Shape::AbsPath, NodeKind::String(_)) => Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("{key} is {written}, not an absolute path"),
                )
                .with_label("Claude Code ignores a path that is not absolute")
                .with_help("write an absolute path (`/...`) or a home-relative one (`~/...`)"),
                (Shape::AbsPath, _) => Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "{key} is {} ({written}), not a path string",
                        what(doc, node)
                    ),
                )
                .with_label("not a string")
                .with_help("write an absolute path (`/...`) or a home-relative one (`~/...`)"),
                (Shape::Int { min }, NodeKind::Number(n))
                    if n.as_i64().is_some_and(|i| i >= min) =>
                {
                    continue;
                }
                (Shape::Int { min }, _) => Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("{key} is {written}, not a whole number of at least {min}"),
                )
                .with_label("out of the documented range"),
                (Shape::StrList, NodeKind::Sequence(items)) => {
                    for &i in items {
                        if matches!(doc.kind(i), NodeKind::String(_) | NodeKind::Alias(_)) {
                            continue;
                        }
                        let ispan = doc.node(i).span;
                        out.push(
                            Diagnostic::new(
                                RULE,
                                a.file,
                                ispan,
                                format!(
                                    "an item of {key} is {} ({}), not a string",
                                    what(doc, i),
                                    quote(src.slice(ispan))
                                ),
                            )
                            .with_label("not a string"),
                        );
                    }
                    continue;
                }
                (Shape::StrList, NodeKind::String(_)) => Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("{key} is the string {written}, not an array of strings"),
                )
                .with_label("a single string, not an array")
                .with_help(format!("write `[{}]`", src.slice(span))),
                (Shape::StrList, _) => Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "{key} is {} ({written}), not an array of strings",
                        what(doc, node)
                    ),
                )
                .with_label("not an array of strings"),
            };
            out.push(d);
        }
    }
    out
}
