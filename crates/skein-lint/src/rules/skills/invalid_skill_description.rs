//! SKILL004 `invalid-skill-description`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL004",
    name: "invalid-skill-description",
    severity: Severity::Error,
    summary: "a skill description that is empty, over 1024 characters or holds XML tags",
    doc: include_str!("invalid_skill_description.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// The longest description the specification allows, in characters.
const MAX_DESCRIPTION: usize = 1024;

/// The first XML-like tag in `s` (`<example>`, `</b>`, `<br/>`), as a byte range.
pub(crate) fn xml_tag(s: &str) -> Option<std::ops::Range<usize>> {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(off) = s[i..].find('<') {
        let start = i + off;
        let mut j = start + 1;
        if b.get(j) == Some(&b'/') {
            j += 1;
        }
        if b.get(j).is_some_and(u8::is_ascii_alphabetic) {
            j += 1;
            while b.get(j).is_some_and(|c| {
                c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b':' | b'.')
            }) {
                j += 1;
            }
            // Attributes: anything but `<`, `>` and a line break, up to `>`.
            let rest = &s[j..];
            let end = rest
                .find(['>', '<', '\n'])
                .filter(|&k| rest.as_bytes()[k] == b'>');
            let ok_after_name = matches!(b.get(j), Some(b'>' | b' ' | b'/' | b'\t'));
            if let (Some(k), true) = (end, ok_after_name) {
                return Some(start..j + k + 1);
            }
        }
        i = start + 1;
    }
    None
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some(e) = skill.entry("description") else {
        return Vec::new();
    };
    let doc = skill.doc;
    let Some(text) = doc.as_str(e.value) else {
        return Vec::new();
    };
    let span = doc.node(e.value).span;
    let mut out = Vec::new();
    let len = text.chars().count();
    if text.trim().is_empty() {
        out.push(
            Diagnostic::new(RULE, a.file, span, "the skill's description is empty")
                .with_label("empty")
                .with_help("say what the skill does and when to use it: clients choose skills by their description"),
        );
    } else if len > MAX_DESCRIPTION {
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "the skill's description is {len} characters long, more than the maximum of {MAX_DESCRIPTION}"
                ),
            )
            .with_label(format!("{len} characters"))
            .with_help(format!(
                "shorten it by {} characters; move details into the body of SKILL.md",
                len - MAX_DESCRIPTION
            )),
        );
    }
    if let Some(range) = xml_tag(text) {
        let tag = &text[range.clone()];
        let src = cx.sources.get(a.file).text();
        let at = crate::rules::sec::sub_span(doc, e.value, src, range);
        let mut d = Diagnostic::new(
            RULE,
            a.file,
            at,
            format!("the skill's description contains the XML tag {}", quote(tag)),
        )
        .with_label("an XML tag")
        .with_note("the Claude API refuses to upload a skill whose description contains XML tags, because the description is placed in the system prompt")
        .with_help("describe the example in words, or move it into the body of SKILL.md");
        d.severity = Severity::Warning;
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::xml_tag;

    #[test]
    fn tags() {
        let t = |s: &str| xml_tag(s).map(|r| s[r].to_string());
        assert_eq!(t("see <example>x</example>").as_deref(), Some("<example>"));
        assert_eq!(t("a </b> c").as_deref(), Some("</b>"));
        assert_eq!(t("x <br/> y").as_deref(), Some("<br/>"));
        assert_eq!(t("<tag attr=\"1\">").as_deref(), Some("<tag attr=\"1\">"));
        assert_eq!(t("a < b and c > d"), None);
        assert_eq!(t("Vec<T> and x"), Some("<T>".into()));
        assert_eq!(t("use <file path> here"), Some("<file path>".into()));
        assert_eq!(t("1<2"), None);
        assert_eq!(t("<-- arrow -->"), None);
    }
}
