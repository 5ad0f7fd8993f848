//! SETTINGS013 `claudeignore-has-no-effect`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SETTINGS013",
    name: "claudeignore-has-no-effect",
    severity: Severity::Warning,
    summary: "a `.claudeignore` file, which Claude Code does not read: its patterns keep nothing from Claude",
    doc: include_str!("claudeignore_has_no_effect.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeIgnore]),
};

/// How many `Read` deny rules the help spells out.
const SHOWN: usize = 3;

/// The `Read` deny rule that keeps what a gitignore-style `pattern` names
/// from Claude: a pattern with no inner `/` matches at any depth
/// (`**/`), one with a `/` from the project root (`./`); a trailing `/`
/// names a folder's contents (`/**`). `None` for a negation (`!x`), which
/// has no deny form.
fn read_rule(pattern: &str) -> Option<String> {
    if pattern.starts_with('!') {
        return None;
    }
    let folder = pattern.ends_with('/');
    let p = pattern.trim_end_matches('/');
    let anchored = p.starts_with('/') || p.contains('/');
    let p = p.trim_start_matches('/');
    if p.is_empty() {
        return None;
    }
    let mut rule = if anchored {
        format!("./{p}")
    } else {
        format!("**/{p}")
    };
    if folder {
        rule.push_str("/**");
    }
    Some(format!("Read({rule})"))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::ClaudeIgnore {
        return Vec::new();
    }
    let text = cx.sources.get(a.file).text();
    let mut patterns: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let t = content.trim();
        if !t.is_empty() && !t.starts_with('#') {
            patterns.push((at + (content.len() - content.trim_start().len()), t));
        }
        at += line.len();
    }
    // The first pattern, or the file's first byte when it holds none.
    let span = patterns
        .first()
        .map_or(Span::new(0, text.len().min(1)), |&(i, p)| {
            Span::new(i, i + p.len())
        });
    let message = match patterns.len() {
        0 => "Claude Code does not read `.claudeignore`".to_string(),
        1 => format!(
            "Claude Code does not read `.claudeignore`: {} is not kept from Claude",
            quote(patterns[0].1)
        ),
        n => format!(
            "Claude Code does not read `.claudeignore`: its {n} patterns, from {}, keep nothing from Claude",
            quote(patterns[0].1)
        ),
    };
    let rules: Vec<String> = patterns
        .iter()
        .filter_map(|&(_, p)| read_rule(p))
        .take(SHOWN)
        .map(|r| format!("\"{r}\""))
        .collect();
    let mut d = Diagnostic::new(RULE, a.file, span, message)
        .with_label("no Claude Code tool consults this file")
        .with_note(
            "Read, Grep, Glob and shell commands open the files it lists as they open any other",
        );
    d = if rules.is_empty() {
        d.with_help("deny reads in `.claude/settings.json`: `\"permissions\": {\"deny\": [\"Read(./.env)\"]}`")
    } else {
        d.with_help(format!(
            "deny reads in `.claude/settings.json`: `\"permissions\": {{\"deny\": [{}{}]}}`",
            rules.join(", "),
            if patterns.len() > SHOWN { ", ..." } else { "" }
        ))
    };
    vec![d]
}

#[cfg(test)]
mod tests {
    use super::read_rule;

    #[test]
    fn deny_rules() {
        assert_eq!(read_rule(".env").as_deref(), Some("Read(**/.env)"));
        assert_eq!(
            read_rule("secrets/").as_deref(),
            Some("Read(**/secrets/**)")
        );
        assert_eq!(
            read_rule("/config/prod.json").as_deref(),
            Some("Read(./config/prod.json)")
        );
        assert_eq!(
            read_rule("certs/*.pem").as_deref(),
            Some("Read(./certs/*.pem)")
        );
        assert_eq!(read_rule("!keep.txt"), None);
    }
}
