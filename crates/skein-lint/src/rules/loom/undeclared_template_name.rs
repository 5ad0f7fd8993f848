//! LOOM003 `undeclared-template-name`.

use super::{blocks, spec};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOM003",
    name: "undeclared-template-name",
    severity: Severity::Error,
    summary: "a templated instruction block that names state the spec does not declare",
    doc: include_str!("undeclared_template_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::LoomAgentSpec]),
};

/// The top-level names a Handlebars text reads from its context, with
/// their byte offsets in the text: `{{name}}`, `{{name.sub}}`, `{{{name}}}`
/// and the first argument of `#if`, `#unless`, `#each`, `#with`. Names
/// inside an `#each` or `#with` block are relative to its item and are
/// skipped, as are `this`, `@data`, `../` paths, literals, comments,
/// partials and `else`.
pub(crate) fn template_names(text: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize; // nesting of context-changing blocks
    let mut rest = 0;
    while let Some(open) = text[rest..].find("{{").map(|i| i + rest) {
        let Some(close) = text[open..].find("}}").map(|i| i + open) else {
            break;
        };
        rest = close + 2;
        let inner_start = open + 2 + usize::from(text[open + 2..].starts_with('{'));
        let inner = text[inner_start..close].trim_start_matches('~');
        let lead = inner_start + (text[inner_start..close].len() - inner.len());
        let trimmed = inner.trim_start();
        let lead = lead + (inner.len() - trimmed.len());
        let inner = trimmed
            .trim_end_matches('~')
            .trim_end()
            .trim_end_matches('}');
        if inner.starts_with('!') || inner.starts_with('>') || inner.starts_with("else") {
            continue;
        }
        if let Some(close_tag) = inner.strip_prefix('/') {
            if matches!(close_tag.trim(), "each" | "with") {
                depth = depth.saturating_sub(1);
            }
            continue;
        }
        let (expr, at) = if let Some(block) = inner.strip_prefix('#') {
            let mut words = block.split_whitespace();
            let helper = words.next().unwrap_or("");
            let arg = words.next().unwrap_or("");
            let off = block.find(arg).map_or(0, |i| i + 1);
            let reads = depth == 0;
            if matches!(helper, "each" | "with") {
                depth += 1;
            }
            if !matches!(helper, "if" | "unless" | "each" | "with") || !reads {
                continue;
            }
            (arg, lead + off)
        } else {
            if depth > 0 || inner.contains(char::is_whitespace) {
                continue; // inside a block, or a helper call
            }
            (inner, lead)
        };
        let first = expr.split(['.', '/', '[']).next().unwrap_or("");
        if first.is_empty()
            || first == "this"
            || first.starts_with('@')
            || first.starts_with("..")
            || first.starts_with(['"', '\''])
            || first.starts_with(|c: char| c.is_ascii_digit())
            || matches!(first, "true" | "false" | "null" | "undefined")
        {
            continue;
        }
        out.push((first, at));
    }
    out
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = spec(a) else {
        return Vec::new();
    };
    let deps_type = doc.get(root, "deps_type").and_then(|v| doc.as_str(v));
    if deps_type.is_some() {
        // `dict` waives the check; a module:Symbol is resolved in Python.
        return Vec::new();
    }
    let schema = doc.get(root, "deps_schema");
    let declared: Option<Vec<String>> = match schema {
        None => Some(Vec::new()),
        Some(s) => doc
            .get(s, "properties")
            .and_then(|p| doc.entries(p))
            .map(|e| e.iter().filter_map(|e| doc.key_text(e.key)).collect()),
    };
    // A schema without `properties` declares names skein cannot list.
    let Some(declared) = declared else {
        return Vec::new();
    };
    let src = cx.sources.get(a.file);
    let mut out = Vec::new();
    for (text, templated) in blocks(doc, root) {
        if !templated {
            continue;
        }
        let Some(value) = doc.as_str(text) else {
            continue;
        };
        let span = doc.node(text).span;
        // Exact spans when the scalar is the text as written (plain or a
        // simple quoted string); the whole text otherwise.
        let raw = src.slice(span);
        let offset = if raw == value {
            Some(0)
        } else if raw.len() >= 2 && &raw[1..raw.len() - 1] == value {
            Some(1)
        } else {
            None
        };
        for (name, at) in template_names(value) {
            if declared.iter().any(|d| d == name) {
                continue;
            }
            let at_span = match offset {
                Some(o) => {
                    let s = span.start as usize + o + at;
                    Span::new(s, s + name.len())
                }
                None => span,
            };
            let (message, help) = if schema.is_none() {
                (
                    format!(
                        "template names {}, but the spec declares no state",
                        quote(name)
                    ),
                    format!(
                        "declare it: `deps_schema: {{type: object, properties: {{{name}: {{type: string}}}}}}`"
                    ),
                )
            } else {
                let mut help = format!("add {} to `deps_schema.properties`", quote(name));
                if let Some((near, _)) =
                    crate::rules::refs::closest(name, declared.iter().map(String::as_str))
                {
                    help = format!("did you mean {}? or {help}", quote(near));
                }
                (
                    format!(
                        "template names {}, which `deps_schema` does not declare",
                        quote(name)
                    ),
                    help,
                )
            };
            out.push(
                Diagnostic::new(RULE, a.file, at_span, message)
                    .with_label("not in the declared state")
                    .with_help(help),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::template_names;

    #[test]
    fn names_read_from_the_context() {
        let names = |t| {
            template_names(t)
                .into_iter()
                .map(|(n, _)| n)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names("Hi {{ customer.name }} {{{raw}}}"),
            ["customer", "raw"]
        );
        assert_eq!(
            names("{{#if vip}}x{{else}}y{{/if}}{{#each items}}{{title}}{{this}}{{/each}}{{after}}"),
            ["vip", "items", "after"]
        );
        assert_eq!(
            names("{{! note}}{{> part}}{{@root.x}}{{lookup a b}}"),
            Vec::<&str>::new()
        );
        assert_eq!(template_names("ab {{x}}"), [("x", 5)]);
    }
}
