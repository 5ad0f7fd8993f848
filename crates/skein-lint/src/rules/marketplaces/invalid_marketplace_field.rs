//! MKT005 `invalid-marketplace-field`.

use crate::rules::plugins::{is_kebab, kind_name, opening, to_kebab};
use crate::{Context, Pass};
use skein_model::graph::MarketplaceInfo;
use skein_syntax::{Diagnostic, Document, FileId, NodeId, NodeKind, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MKT005",
    name: "invalid-marketplace-field",
    severity: Severity::Error,
    summary: "a marketplace or marketplace entry missing a required field or with a mistyped one",
    doc: include_str!("invalid_marketplace_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn d(file: FileId, span: Span, msg: String, label: &str) -> Diagnostic {
    Diagnostic::new(RULE, file, span, msg).with_label(label)
}

fn first_byte(span: Span) -> Span {
    Span::new(
        span.start as usize,
        (span.start as usize + 1).min(span.end as usize),
    )
}

/// Checks a `name` member: present, a string, kebab-case. A `name` missing
/// from a `damaged` tree (repaired around a syntax error) is not reported:
/// the parser may have set it aside.
fn check_name(
    doc: &Document,
    file: FileId,
    obj: NodeId,
    what: &str,
    missing_at: Span,
    damaged: bool,
    out: &mut Vec<Diagnostic>,
) {
    let Some(v) = doc.get(obj, "name") else {
        if damaged {
            return;
        }
        out.push(
            d(
                file,
                missing_at,
                format!("{what} has no `name`"),
                "`name` is required",
            )
            .with_help("add a kebab-case `\"name\"`"),
        );
        return;
    };
    let span = doc.node(v).span;
    match doc.as_str(v) {
        Some(s) if is_kebab(s) => {}
        Some(s) => {
            let mut x = d(
                file,
                span,
                format!("{what} name {} is not kebab-case", quote(s)),
                "lowercase letters and digits joined by `-`",
            );
            let fixed = to_kebab(s);
            if !fixed.is_empty() {
                x = x.with_help(format!("use `\"name\": \"{fixed}\"`"));
            }
            out.push(x);
        }
        None => out.push(d(
            file,
            span,
            format!("{what} name is {}, not a string", kind_name(doc, v)),
            "expected a kebab-case string",
        )),
    }
}

fn check_one(cx: &Context, m: &MarketplaceInfo, out: &mut Vec<Diagnostic>) {
    let Some(a) = cx.artifact(m.file) else { return };
    let doc = &a.document;
    let Some(root) = doc
        .root()
        .filter(|&r| matches!(doc.kind(r), NodeKind::Mapping(_)))
    else {
        return;
    };
    let file = m.file;
    // What a repaired tree lacks may be what the parser set aside: only
    // values that are there are judged (ARCHITECTURE.md, damaged trees).
    let damaged = a.damaged;
    check_name(doc, file, root, "marketplace", opening(doc), damaged, out);
    if m.flavour.needs_owner() {
        match doc.get(root, "owner") {
            None if damaged => {}
            None => out.push(
                d(
                    file,
                    opening(doc),
                    "marketplace has no `owner`".into(),
                    "`owner` is required",
                )
                .with_help("add `\"owner\": {\"name\": \"...\"}`"),
            ),
            Some(o) if !matches!(doc.kind(o), NodeKind::Mapping(_)) => out.push(
                d(
                    file,
                    doc.node(o).span,
                    format!("marketplace owner is {}, not an object", kind_name(doc, o)),
                    "expected an object with a `name`",
                )
                .with_help("write `\"owner\": {\"name\": \"...\"}`"),
            ),
            Some(o) => {
                if doc
                    .get(o, "name")
                    .and_then(|n| doc.as_str(n))
                    .is_none_or(str::is_empty)
                    && !(damaged && doc.get(o, "name").is_none())
                {
                    let span = doc
                        .get(o, "name")
                        .map(|n| doc.node(n).span)
                        .unwrap_or_else(|| first_byte(doc.node(o).span));
                    out.push(d(
                        file,
                        span,
                        "marketplace owner has no `name` string".into(),
                        "the owner's `name` is required",
                    ));
                }
            }
        }
    }
    match doc.get(root, "plugins") {
        None if damaged => return,
        None => {
            out.push(
                d(
                    file,
                    opening(doc),
                    "marketplace has no `plugins`".into(),
                    "`plugins` is required",
                )
                .with_help("add `\"plugins\": []` with one entry per plugin"),
            );
            return;
        }
        Some(p) if !matches!(doc.kind(p), NodeKind::Sequence(_)) => {
            out.push(d(
                file,
                doc.node(p).span,
                format!("marketplace plugins is {}, not an array", kind_name(doc, p)),
                "expected an array of entries",
            ));
            return;
        }
        Some(_) => {}
    }
    for (i, e) in m.entries.iter().enumerate() {
        if !matches!(doc.kind(e.node), NodeKind::Mapping(_)) {
            out.push(d(
                file,
                e.span,
                format!(
                    "marketplace entry {i} is {}, not an object",
                    kind_name(doc, e.node)
                ),
                "expected an object with `name` and `source`",
            ));
            continue;
        }
        check_name(
            doc,
            file,
            e.node,
            "marketplace entry",
            first_byte(e.span),
            damaged,
            out,
        );
        match doc.get(e.node, "source") {
            None if damaged => {}
            None => out.push(
                d(
                    file,
                    first_byte(e.span),
                    match &e.name {
                        Some((n, _)) => format!("marketplace entry {} has no `source`", quote(n)),
                        None => format!("marketplace entry {i} has no `source`"),
                    },
                    "`source` is required",
                )
                .with_help("add `\"source\": \"./plugins/<name>\"` or a source object"),
            ),
            Some(s) if !matches!(doc.kind(s), NodeKind::String(_) | NodeKind::Mapping(_)) => out
                .push(d(
                    file,
                    doc.node(s).span,
                    format!("marketplace entry source is {}", kind_name(doc, s)),
                    "expected a `./` path or a source object",
                )),
            Some(_) => {}
        }
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for m in cx.graph.marketplaces() {
        check_one(cx, m, &mut out);
    }
    out
}
