//! SKILL008 `unknown-allowed-tool`.

use super::{Skill, tool_pieces};
use crate::claude_code::TOOLS;
use crate::rules::refs::closest;
use crate::rules::sec::sub_span;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Applicability, Diagnostic, Document, Entry, Fix, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL008",
    name: "unknown-allowed-tool",
    severity: Severity::Warning,
    summary: "an `allowed-tools` or `disallowed-tools` entry that names no Claude Code tool",
    doc: include_str!("unknown_allowed_tool.md"),
    fix: Some(Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// Why `entry` is not a tool, or `None` when it is one: `Name`,
/// `Name(specifier)` or `mcp__server[__tool]`.
fn fault(entry: &str) -> Option<(String, Option<String>)> {
    if let Some(rest) = entry.strip_prefix("mcp__") {
        return (rest.is_empty() || rest.starts_with('_')).then(|| {
            (
                "an MCP tool needs a server name: `mcp__<server>__<tool>`".to_string(),
                None,
            )
        });
    }
    let (base, args) = match entry.find('(') {
        Some(i) => (&entry[..i], Some(&entry[i..])),
        None => (entry, None),
    };
    if let Some(args) = args
        && !args.ends_with(')')
    {
        return Some((format!("{} has an unclosed `(`", quote(entry)), None));
    }
    if TOOLS.contains(&base) {
        return None;
    }
    let suggestion = TOOLS
        .iter()
        .find(|t| t.eq_ignore_ascii_case(base))
        .copied()
        .or_else(|| closest(base, TOOLS.iter().copied()).map(|(c, _)| c))
        .map(|s| format!("{s}{}", args.unwrap_or("")));
    Some((
        format!("{} is not a Claude Code tool", quote(base)),
        suggestion,
    ))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    ["allowed-tools", "disallowed-tools"]
        .into_iter()
        .filter_map(|f| skill.entry(f))
        .flat_map(|e| allowed_tool_findings(RULE, cx, a, skill.doc, e))
        .collect()
}

/// The findings of `rule` on the `allowed-tools` entry `e` of a frontmatter
/// (a skill's, or a slash command's for CMD006): each entry that names no
/// Claude Code tool, at its own span (a list item, or the piece of a comma-
/// or space-separated string).
pub(crate) fn allowed_tool_findings(
    rule: Rule,
    cx: &Context,
    a: &Artifact,
    doc: &Document,
    e: Entry,
) -> Vec<Diagnostic> {
    let text = cx.sources.get(a.file).text();
    let field = doc.as_str(e.key).unwrap_or("allowed-tools");
    // (entry, its span, the node that holds it)
    let mut entries: Vec<(&str, Span, skein_syntax::NodeId)> = Vec::new();
    if let Some(s) = doc.as_str(e.value) {
        for r in tool_pieces(s) {
            entries.push((&s[r.clone()], sub_span(doc, e.value, text, r), e.value));
        }
    } else if let Some(items) = doc.items(e.value) {
        for &item in items {
            if let Some(s) = doc.as_str(item) {
                let t = s.trim();
                if t.is_empty() {
                    continue;
                }
                let start = s.len() - s.trim_start().len();
                entries.push((t, sub_span(doc, item, text, start..start + t.len()), item));
            }
        }
    }
    let mut out = Vec::new();
    for (entry, span, node) in entries {
        let Some((why, suggestion)) = fault(entry) else {
            continue;
        };
        let mut d = Diagnostic::new(
            rule,
            a.file,
            span,
            format!("unknown tool {} in `{field}`: {why}", quote(entry)),
        )
        .with_label("not a tool name");
        d = match suggestion {
            Some(s) => {
                let fix = crate::fix::near(entry, &s)
                    .then(|| crate::fix::replace_verbatim(doc, node, text, span, &s))
                    .flatten()
                    .map(|edit| Fix::unsafe_(format!("replace with `{s}`"), vec![edit]));
                let d = d.with_help(format!("did you mean `{s}`? tool names are case-sensitive"));
                match fix {
                    Some(f) => d.with_fix(f),
                    None => d,
                }
            }
            None => d.with_note(
                "tools are Claude Code's built-in names (`Read`, `Bash(git *)`) or MCP tools (`mcp__server__tool`)",
            ),
        };
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fault;

    #[test]
    fn tools() {
        for ok in [
            "Read",
            "Bash(git add:*)",
            "mcp__github__create_issue",
            "mcp__db",
            "WebFetch(domain:x.com)",
        ] {
            assert!(fault(ok).is_none(), "{ok}");
        }
        assert_eq!(fault("read").unwrap().1.as_deref(), Some("Read"));
        assert_eq!(
            fault("bash(ls *)").unwrap().1.as_deref(),
            Some("Bash(ls *)")
        );
        assert_eq!(fault("WebSearh").unwrap().1.as_deref(), Some("WebSearch"));
        assert_eq!(fault("Frobnicate").unwrap().1, None);
        assert!(fault("Bash(git").is_some());
        assert!(fault("mcp__").is_some());
    }
}
