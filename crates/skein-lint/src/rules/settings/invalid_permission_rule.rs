//! SETTINGS002 `invalid-permission-rule`.

use super::{permissions, rules_of, settings_of};
use crate::claude_code::TOOLS as BUILTIN_TOOLS;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS002",
    name: "invalid-permission-rule",
    severity: Severity::Error,
    summary: "a permission rule that is not `Tool` or `Tool(specifier)`",
    doc: include_str!("invalid_permission_rule.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// What is wrong with a rule.
#[derive(Debug, PartialEq, Eq)]
enum Problem {
    Empty,
    NoTool,
    Unclosed,
    Unopened,
    AfterParen,
    Shape,
    Case { tool: &'static str, fixed: String },
}

fn problem(rule: &str) -> Option<Problem> {
    if rule.trim().is_empty() {
        return Some(Problem::Empty);
    }
    if rule.starts_with("mcp__") {
        return None;
    }
    if rule.len() > 5 && rule[..5].eq_ignore_ascii_case("mcp__") {
        return Some(Problem::Case {
            tool: "mcp__",
            fixed: format!("mcp__{}", &rule[5..]),
        });
    }
    // A tool-name glob (`*`, `Bash*`) is a tool name: valid in deny and ask,
    // skipped in allow (SETTINGS011 ineffective-permission-rule).
    let end = rule
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '*'))
        .unwrap_or(rule.len());
    let (name, rest) = rule.split_at(end);
    if name.is_empty() {
        return Some(Problem::NoTool);
    }
    if let Some(inner) = rest.strip_prefix('(') {
        let mut depth = 1usize;
        let mut close = None;
        for (i, c) in inner.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        match close {
            None => return Some(Problem::Unclosed),
            Some(i) if i + 1 < inner.len() => {
                return Some(if inner[i + 1..].contains(')') {
                    Problem::Unopened
                } else {
                    Problem::AfterParen
                });
            }
            Some(_) => {}
        }
    } else if !rest.is_empty() {
        return Some(if rest.starts_with(')') {
            Problem::Unopened
        } else {
            Problem::Shape
        });
    }
    if BUILTIN_TOOLS.contains(&name) || name.contains('*') {
        return None;
    }
    let tool = BUILTIN_TOOLS
        .iter()
        .copied()
        .find(|t| t.eq_ignore_ascii_case(name))?;
    Some(Problem::Case {
        tool,
        fixed: format!("{tool}{rest}"),
    })
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let Some(perms) = permissions(doc, root) else {
        return Vec::new();
    };
    let src = cx.sources.get(a.file);
    let mut out = Vec::new();
    for list in ["allow", "ask", "deny"] {
        for (id, rule) in rules_of(doc, perms, list) {
            let Some(p) = problem(rule) else {
                continue;
            };
            let span = doc.node(id).span;
            let written = quote(src.slice(span));
            let (why, label) = match &p {
                Problem::Empty => ("is empty".to_string(), "an empty rule"),
                Problem::NoTool => (
                    "does not start with a tool name".to_string(),
                    "no tool name",
                ),
                Problem::Unclosed => (
                    "opens a `(` it never closes".to_string(),
                    "unbalanced parentheses",
                ),
                Problem::Unopened => (
                    "closes a `)` it never opened".to_string(),
                    "unbalanced parentheses",
                ),
                Problem::AfterParen => (
                    "has text after the specifier's closing `)`".to_string(),
                    "text after `)`",
                ),
                Problem::Shape => (
                    "is neither `Tool` nor `Tool(specifier)`".to_string(),
                    "not a permission rule",
                ),
                Problem::Case { tool, .. } => (
                    format!("spells the tool {} in the wrong case", quote(tool)),
                    "tool names are case-sensitive",
                ),
            };
            let help = match &p {
                Problem::Case { fixed, .. } => format!("write {}", quote(fixed)),
                _ => "write the rule as `Tool` (e.g. `Read`), `Tool(specifier)` (e.g. `Bash(npm test)`, `Bash(git diff:*)`, `Read(./src/**)`, `WebFetch(domain:example.com)`) or `mcp__server__tool`".to_string(),
            };
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("permission rule {written} in `permissions.{list}` {why}"),
                )
                .with_label(label)
                .with_help(help),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Problem, problem};

    #[test]
    fn rules() {
        for ok in [
            "Bash",
            "Bash(npm test)",
            "Bash(npm:*)",
            "Bash(echo (a))",
            "Read(./src/**)",
            "WebFetch(domain:example.com)",
            "mcp__github__search",
            "mcp__db",
            "CustomTool(x)",
        ] {
            assert_eq!(problem(ok), None, "{ok}");
        }
        assert_eq!(problem("Bash(npm test"), Some(Problem::Unclosed));
        assert_eq!(problem("Bash(npm))"), Some(Problem::Unopened));
        assert_eq!(problem("Bash(a) b"), Some(Problem::AfterParen));
        assert_eq!(problem("Bash npm test"), Some(Problem::Shape));
        assert_eq!(problem("(npm)"), Some(Problem::NoTool));
        assert_eq!(problem(""), Some(Problem::Empty));
        assert_eq!(
            problem("bash(npm test)"),
            Some(Problem::Case {
                tool: "Bash",
                fixed: "Bash(npm test)".into()
            })
        );
    }
}
