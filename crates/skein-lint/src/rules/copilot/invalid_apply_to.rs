//! COP002 `invalid-apply-to`.

use super::copilot_file;
use crate::{Context, FilePass, On, Reads};
use globset::{ErrorKind, GlobBuilder};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP002",
    name: "invalid-apply-to",
    severity: Severity::Warning,
    summary: "an `applyTo` that is not a string of globs, is empty, or holds a glob that does not parse",
    doc: include_str!("invalid_apply_to.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CopilotPathInstructions]),
};

/// The comma-separated patterns of an `applyTo` value, with their byte
/// ranges in it: commas inside `{...}` or `[...]` do not separate
/// (`**/*.{ts,tsx}` is one pattern). Each piece is trimmed of spaces.
pub(crate) fn patterns(value: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let (mut braces, mut class) = (0usize, false);
    let mut start = 0;
    fn push<'v>(value: &'v str, from: usize, to: usize, out: &mut Vec<(usize, &'v str)>) {
        let piece = &value[from..to];
        let lead = piece.len() - piece.trim_start().len();
        out.push((from + lead, piece.trim()));
    }
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'[' if !class => class = true,
            b']' if class => class = false,
            b'{' if !class => braces += 1,
            b'}' if !class => braces = braces.saturating_sub(1),
            b',' if !class && braces == 0 => {
                push(value, start, i, &mut out);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    push(value, start, value.len(), &mut out);
    out
}

/// What is wrong with glob `p`, when it does not parse: an unclosed `[` or
/// `{`, a `}` with no `{`, a reversed range. Other errors of the glob
/// library are about its own dialect, not Copilot's, and are not reported.
pub(crate) fn glob_error(p: &str) -> Option<String> {
    let e = GlobBuilder::new(p).build().err()?;
    Some(match e.kind() {
        ErrorKind::UnclosedClass => "a `[` character class is never closed with `]`".into(),
        ErrorKind::UnclosedAlternates => "a `{` group is never closed with `}`".into(),
        ErrorKind::UnopenedAlternates => "a `}` closes a group that was never opened".into(),
        ErrorKind::InvalidRange(a, b) => format!("the range `{a}-{b}` is reversed"),
        _ => return None,
    })
}

/// A short name for the YAML kind of a value.
fn kind_name(kind: &NodeKind) -> &'static str {
    match kind {
        NodeKind::Null => "empty",
        NodeKind::Bool(_) => "a boolean",
        NodeKind::Number(_) => "a number",
        NodeKind::String(_) => "a string",
        NodeKind::Sequence(_) => "a list",
        NodeKind::Mapping(_) => "a mapping",
        NodeKind::Alias(_) => "an alias",
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(file) = copilot_file(cx, a, Format::CopilotPathInstructions) else {
        return Vec::new();
    };
    if a.damaged {
        return Vec::new();
    }
    let Some(e) = file.field("applyTo") else {
        return Vec::new();
    };
    let doc = file.doc;
    let value = doc.resolve(e.value);
    let node = doc.node(e.value);
    let written = file.text.get(node.span.range()).unwrap_or("");
    let note = "Copilot applies the file to the files its `applyTo` globs match; a value it cannot read as globs matches no file, so the instructions are never applied";
    let NodeKind::String(s) = doc.kind(value) else {
        let kind = doc.kind(value);
        let strings: Option<Vec<&str>> = doc.items(value).map(|items| {
            items
                .iter()
                .filter_map(|&i| match doc.kind(doc.resolve(i)) {
                    NodeKind::String(s) => Some(s.as_str()),
                    _ => None,
                })
                .collect()
        });
        let help = match strings {
            Some(list) if !list.is_empty() => format!(
                "write the globs as one string, separated by commas: `applyTo: {}`",
                serde_json::to_string(&list.join(",")).unwrap_or_default()
            ),
            _ => "write one string of comma-separated globs, such as `applyTo: \"**/*.ts,**/*.tsx\"` (`\"**\"` for every file)".into(),
        };
        let (span, message) = if matches!(kind, NodeKind::Null) {
            (doc.node(e.key).span, "`applyTo` has no value".to_string())
        } else if matches!(kind, NodeKind::Sequence(_) | NodeKind::Mapping(_)) {
            (
                node.span,
                format!("`applyTo` is {}, not a string of globs", kind_name(kind)),
            )
        } else {
            (
                node.span,
                format!(
                    "`applyTo` is {}, not a string of globs: {}",
                    kind_name(kind),
                    quote(written)
                ),
            )
        };
        return vec![
            Diagnostic::new(RULE, a.file, span, message)
                .with_label("not a string")
                .with_note(note)
                .with_help(help),
        ];
    };
    let pieces = patterns(s);
    if pieces.iter().all(|(_, p)| p.is_empty()) {
        return vec![
            Diagnostic::new(
                RULE,
                a.file,
                node.span,
                format!("`applyTo` is empty: {}", quote(written)),
            )
            .with_label("no glob")
            .with_note(note)
            .with_help("name the files the instructions are for, such as `applyTo: \"**/*.ts\"` (`\"**\"` for every file)"),
        ];
    }
    // Where the value's characters start in the file, when the scalar is
    // written without escapes (plain, or quoted with nothing to unescape):
    // a glob's own span then points at it.
    let offset = if written == s {
        Some(node.span.start as usize)
    } else if written.len() == s.len() + 2 && &written[1..written.len() - 1] == s {
        Some(node.span.start as usize + 1)
    } else {
        None
    };
    let mut out = Vec::new();
    for (at, p) in pieces {
        if p.is_empty() {
            continue;
        }
        let Some(why) = glob_error(p) else {
            continue;
        };
        let span = offset.map_or(node.span, |o| Span::new(o + at, o + at + p.len()));
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("`applyTo` glob {} does not parse: {why}", quote(p)),
            )
            .with_label("malformed glob")
            .with_note(note)
            .with_help("close the bracket or brace, or escape it with `\\` to match it literally"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{glob_error, patterns};

    #[test]
    fn splits_outside_groups() {
        let got: Vec<_> = patterns("**/*.ts, **/*.{ts,tsx},src/[a,b].rs")
            .into_iter()
            .map(|(_, p)| p)
            .collect();
        assert_eq!(got, ["**/*.ts", "**/*.{ts,tsx}", "src/[a,b].rs"]);
        assert_eq!(patterns("a, b")[1], (3, "b"));
    }

    #[test]
    fn malformed_globs() {
        assert!(glob_error("**/*.{ts,tsx").is_some());
        assert!(glob_error("src/[abc.rs").is_some());
        assert!(glob_error("src/*.ts}").is_some());
        assert!(glob_error("[z-a]").is_some());
        for ok in [
            "**",
            "*",
            "**/*.py",
            "src/**/*.{ts,tsx}",
            "a**b",
            "docs/[abc].md",
        ] {
            assert_eq!(glob_error(ok), None, "{ok}");
        }
    }
}
