//! SYN016 `comment-cuts-value`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Syntax};
use skein_syntax::{Diagnostic, Document, NodeId, NodeKind, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SYN016",
    name: "comment-cuts-value",
    severity: Severity::Warning,
    summary: "a ` #` inside an unquoted YAML value starts a comment and cuts the value short",
    doc: include_str!("comment_cuts_value.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Any,
};

/// The comment that starts right after the plain scalar ending at `end`:
/// blanks, then `#` directly followed by a character that is neither blank
/// nor `#` (`#42`, not `# note`), on the same line. Returns the comment's
/// span (from `#` to the end of the line, line break excluded).
fn cutting_comment(text: &str, end: usize) -> Option<Span> {
    let rest = text.get(end..)?;
    let blanks = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    if blanks == 0 {
        return None;
    }
    let after = &rest[blanks..];
    let mut chars = after.chars();
    if chars.next() != Some('#') {
        return None;
    }
    match chars.next() {
        Some(c) if !c.is_whitespace() && c != '#' => {}
        _ => return None,
    }
    let line = after.find(['\n', '\r']).unwrap_or(after.len());
    let start = end + blanks;
    Some(Span::new(start, start + line))
}

/// Plain string scalars of the tree: the values and items a ` #` can cut
/// (keys are left alone; a comment after a key has no value to cut). Each
/// node is visited once: aliases are not followed.
fn plain_strings(doc: &Document, text: &str) -> Vec<(NodeId, Option<NodeId>)> {
    let mut out = Vec::new();
    let Some(root) = doc.root() else {
        return out;
    };
    let mut stack = vec![(root, None)];
    while let Some((id, key)) = stack.pop() {
        // The node itself, not what an alias points at: a value is cut where
        // it is written, and following aliases would expand them (a YAML
        // alias bomb grows to billions of nodes).
        match &doc.node(id).kind {
            NodeKind::Mapping(entries) => {
                stack.extend(entries.iter().rev().map(|e| (e.value, Some(e.key))));
            }
            NodeKind::Sequence(items) => stack.extend(items.iter().rev().map(|&i| (i, None))),
            NodeKind::String(_) => {
                let span = doc.node(id).span;
                let first = text.as_bytes().get(span.start as usize).copied();
                if !span.is_empty() && !matches!(first, Some(b'"' | b'\'' | b'|' | b'>')) {
                    out.push((id, key));
                }
            }
            _ => {}
        }
    }
    out
}

/// The value from `start` to the end of the comment `end`, as it is
/// written, double-quoted (a JSON string literal is a YAML double-quoted
/// scalar): one line only.
fn quote_whole(text: &str, start: usize, end: usize) -> Option<skein_syntax::Fix> {
    let whole = text.get(start..end)?;
    if whole.contains(['\n', '\r']) {
        return None;
    }
    let literal = serde_json::to_string(whole).ok()?;
    Some(skein_syntax::Fix::unsafe_(
        "quote the whole value",
        vec![skein_syntax::Edit::replace(
            skein_syntax::Span::new(start, end),
            literal,
        )],
    ))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format.syntax() != Syntax::Yaml && a.format.syntax() != Syntax::Markdown || a.damaged {
        return Vec::new();
    }
    let text = cx.sources.get(a.file).text();
    let doc = &a.document;
    let mut out = Vec::new();
    for (id, key) in plain_strings(doc, text) {
        let span = doc.node(id).span;
        let Some(comment) = cutting_comment(text, span.end as usize) else {
            continue;
        };
        let value = &text[span.range()];
        let cut = &text[comment.range()];
        let name = key
            .and_then(|k| doc.as_str(k))
            .map(|k| format!("`{k}`"))
            .unwrap_or_else(|| "the value".into());
        let whole = format!("{value} {cut}").replace('"', "\\\"");
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                comment,
                format!(
                    "{} starts a YAML comment, so {name} is only {}",
                    quote(cut),
                    quote(value)
                ),
            )
            .with_label("this is a comment, not part of the value")
            .with_secondary(a.file, span, "the value YAML reads")
            .with_help(format!("quote the whole value: \"{whole}\""))
            .with_fix_opt(quote_whole(text, span.start as usize, comment.end as usize)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::cutting_comment;

    #[test]
    fn only_a_hash_glued_to_a_word_cuts() {
        let t = "a: Fix issue #42 now\nb: sonnet # fast\nc: x ## y\nd: x#y\n";
        let at = |s: &str| t.find(s).unwrap() + s.len();
        let c = cutting_comment(t, at("Fix issue")).expect("cut");
        assert_eq!(&t[c.range()], "#42 now");
        assert_eq!(cutting_comment(t, at("sonnet")), None);
        assert_eq!(cutting_comment(t, at("c: x")), None);
        assert_eq!(cutting_comment(t, at("d: x")), None);
    }
}
