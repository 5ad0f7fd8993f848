//! HOOK022 `invalid-matcher-regex`.

use super::hooks_of;
use crate::{Context, FilePass, Reads};
use regex_syntax::ast::{ErrorKind, parse::Parser};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK022",
    name: "invalid-matcher-regex",
    severity: Severity::Warning,
    summary: "a hook `matcher` that is no regular expression (`Bash(`, `[`, `*Edit`): it matches nothing",
    doc: include_str!("invalid_matcher_regex.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// Why `m` cannot be compiled as a regular expression, and the byte range
/// of the fault in `m`; `None` when it compiles, or when only a feature
/// Rust's parser lacks and JavaScript's has is in the way (look-around,
/// back-references: Claude Code compiles matchers with JavaScript's
/// `RegExp`), or when `m` is the match-all `*` or empty.
///
/// Only faults that JavaScript's `RegExp` rejects as well are reported: an
/// unclosed or unopened group, an unclosed class, a reversed class range, a
/// repetition with nothing to repeat.
pub(crate) fn regex_fault(m: &str) -> Option<(&'static str, std::ops::Range<usize>)> {
    if m.trim().is_empty() || m == "*" {
        return None;
    }
    let e = Parser::new().parse(m).err()?;
    let why = match e.kind() {
        ErrorKind::GroupUnclosed => "a group `(` is never closed",
        ErrorKind::GroupUnopened => "a `)` closes no group",
        ErrorKind::ClassUnclosed => "a class `[` is never closed",
        ErrorKind::ClassRangeInvalid => "a class range runs backwards",
        ErrorKind::RepetitionMissing => "a repetition (`*`, `+`, `?`) has nothing to repeat",
        _ => return None,
    };
    let s = e.span();
    Some((why, s.start.offset..s.end.offset.max(s.start.offset)))
}

/// The bytes of `fault` (a range of `value`) in the file, when the value is
/// written as it reads (plain, or quoted without escapes: `written` is the
/// node's text at `span`); else the whole value's `span`.
fn fault_span(written: &str, span: Span, value: &str, fault: std::ops::Range<usize>) -> Span {
    let inner = if written == value {
        Some(0)
    } else if written.len() == value.len() + 2 && written.get(1..written.len() - 1) == Some(value) {
        Some(1)
    } else {
        None
    };
    match inner {
        Some(skip) if !value.is_empty() => {
            let start = fault.start.min(value.len() - 1);
            let end = fault.end.clamp(start + 1, value.len());
            let base = span.start as usize + skip;
            Span::new(base + start, base + end)
        }
        _ => span,
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for m in h.matchers() {
        let Some((why, fault)) = regex_fault(m.value) else {
            continue;
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                fault_span(cx.sources.get(a.file).slice(doc.node(m.node).span), doc.node(m.node).span, m.value, fault),
                format!(
                    "`matcher` {} is not a regular expression: {why}",
                    quote(m.value)
                ),
            )
            .with_label("Claude Code cannot compile it, so these hooks never run")
            .with_secondary(a.file, doc.node(m.event_key).span, "the event")
            .with_help(
                "escape the character to match it literally (`\\(`), or name the tools with `|` (`Edit|Write`)",
            ),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::regex_fault;

    #[test]
    fn faults() {
        assert_eq!(
            regex_fault("Bash(").map(|f| f.0),
            Some("a group `(` is never closed")
        );
        assert_eq!(
            regex_fault("[").map(|f| f.0),
            Some("a class `[` is never closed")
        );
        assert_eq!(
            regex_fault("Edit)").map(|f| f.0),
            Some("a `)` closes no group")
        );
        assert_eq!(
            regex_fault("*Edit").map(|f| f.0),
            Some("a repetition (`*`, `+`, `?`) has nothing to repeat")
        );
        assert_eq!(
            regex_fault("[z-a]").map(|f| f.0),
            Some("a class range runs backwards")
        );
        for fine in [
            "*",
            "",
            "Edit|Write",
            "mcp__memory__.*",
            "Notebook.*",
            "(?!Bash).*",
            "startup|resume",
            "Bash(git push *)",
        ] {
            assert_eq!(regex_fault(fine), None, "{fine}");
        }
    }
}
