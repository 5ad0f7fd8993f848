//! PLUGIN009 `invalid-user-config`.

use super::{kind_name, manifests, root_mapping, written};
use crate::rules::refs::closest;
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Document, FileId, NodeId, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN009",
    name: "invalid-user-config",
    severity: Severity::Error,
    summary: "a plugin `userConfig` option with a key that is not an identifier, an unknown `type`, or no `type`, `title` or `description`",
    doc: include_str!("invalid_user_config.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// The option types the reference lists.
pub(crate) const TYPES: &[&str] = &["string", "number", "boolean", "directory", "file"];

/// The fields an option must have.
const REQUIRED: &[&str] = &["type", "title", "description"];

/// Whether `k` is an identifier: a letter or `_`, then letters, digits, `_`.
fn is_identifier(k: &str) -> bool {
    let mut c = k.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// Every `userConfig` object of a manifest: the top-level one and each
/// channel's.
pub(crate) fn user_configs(doc: &Document, root: NodeId) -> Vec<(String, NodeId)> {
    let mut out = Vec::new();
    if let Some(u) = doc.get(root, "userConfig") {
        out.push(("userConfig".to_string(), u));
    }
    for (i, &c) in doc
        .get(root, "channels")
        .and_then(|c| doc.items(c))
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        if let Some(u) = doc.get(c, "userConfig") {
            out.push((format!("channels[{i}].userConfig"), u));
        }
    }
    out
}

fn check_option(
    doc: &Document,
    cx: &Context,
    file: FileId,
    at: &str,
    key: NodeId,
    opt: NodeId,
    out: &mut Vec<Diagnostic>,
) {
    let name = doc.key_text(key).unwrap_or_default();
    let kspan = doc.node(key).span;
    if !is_identifier(&name) {
        let fixed: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let fixed = fixed.trim_matches('_').to_string();
        let mut d = Diagnostic::new(
            RULE,
            file,
            kspan,
            format!("`{at}` key {} is not an identifier", quote(&name)),
        )
        .with_label("keys are letters, digits and `_`, not starting with a digit")
        .with_note("the key is substituted as `${user_config.KEY}` and exported as `CLAUDE_PLUGIN_OPTION_<KEY>`");
        if is_identifier(&fixed) {
            d = d.with_help(format!("rename it, e.g. {}", quote(&fixed)));
        }
        out.push(d);
    }
    if !matches!(doc.kind(opt), NodeKind::Mapping(_)) {
        out.push(
            Diagnostic::new(
                RULE,
                file,
                doc.node(opt).span,
                format!("`{at}.{name}` is {}, not an object", kind_name(doc, opt)),
            )
            .with_label("expected an object with `type`, `title` and `description`"),
        );
        return;
    }
    let missing: Vec<&str> = REQUIRED
        .iter()
        .copied()
        .filter(|f| doc.get(opt, f).is_none())
        .collect();
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
        let list = match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        out.push(
            Diagnostic::new(
                RULE,
                file,
                kspan,
                format!("`{at}.{name}` has no {list}"),
            )
            .with_label("`type`, `title` and `description` are required")
            .with_help("`title` labels the field in the configuration dialog, `description` is the help text beneath it"),
        );
    }
    if let Some(t) = doc.get(opt, "type") {
        let ok = doc.as_str(t).is_some_and(|s| TYPES.contains(&s));
        if !ok {
            let span = doc.node(t).span;
            let list = TYPES
                .iter()
                .map(|t| quote(t))
                .collect::<Vec<_>>()
                .join(", ");
            let mut d = Diagnostic::new(
                RULE,
                file,
                span,
                format!(
                    "`{at}.{name}.type` is {}, not one of {list}",
                    quote(written(cx, file, span))
                ),
            )
            .with_label("not an option type");
            if let Some((near, _)) = doc
                .as_str(t)
                .and_then(|s| closest(&s.to_ascii_lowercase(), TYPES.iter().copied()))
            {
                d = d.with_help(format!("did you mean {}?", quote(near)));
            }
            out.push(d);
        }
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(root) = root_mapping(doc) else {
            continue;
        };
        for (at, u) in user_configs(doc, root) {
            let Some(entries) = doc.entries(u) else {
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        doc.node(u).span,
                        format!("`{at}` is {}, not an object", kind_name(doc, u)),
                    )
                    .with_label("expected an object of option names to option definitions"),
                );
                continue;
            };
            for e in entries {
                check_option(doc, cx, a.file, &at, e.key, e.value, &mut out);
            }
        }
    }
    out
}
