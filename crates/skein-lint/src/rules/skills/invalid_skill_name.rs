//! SKILL002 `invalid-skill-name`.

use super::Skill;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};
use std::borrow::Cow;
use unicode_normalization::UnicodeNormalization;

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL002",
    name: "invalid-skill-name",
    severity: Severity::Error,
    summary: "a skill name outside the specification's length or characters",
    doc: include_str!("invalid_skill_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// The longest name the specification allows, in characters.
pub(crate) const MAX_NAME: usize = 64;

/// Whether `c` may appear in a skill name: a hyphen, or a Unicode letter or
/// digit that lower-casing leaves unchanged.
fn allowed(c: char) -> bool {
    c == '-' || (c.is_alphanumeric() && is_lower(c))
}

fn is_lower(c: char) -> bool {
    // ASCII (every character of most names): lower-casing changes only
    // `A`-`Z`, without the case-mapping tables.
    if c.is_ascii() {
        return !c.is_ascii_uppercase();
    }
    let mut l = c.to_lowercase();
    l.next() == Some(c) && l.next().is_none()
}

/// What is wrong with `name`, in the order a reader fixes it.
pub(crate) fn problems(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let len = name.chars().count();
    if len == 0 {
        out.push("it is empty".to_string());
        return out;
    }
    if len > MAX_NAME {
        out.push(format!("it is {len} characters long, more than {MAX_NAME}"));
    }
    if name.chars().any(|c| c.is_alphanumeric() && !is_lower(c)) {
        out.push("it has upper-case letters".to_string());
    }
    let mut bad: Vec<char> = name
        .chars()
        .filter(|&c| !allowed(c) && !c.is_alphanumeric())
        .collect();
    bad.sort_unstable();
    bad.dedup();
    if !bad.is_empty() {
        let shown: Vec<String> = bad.iter().take(5).map(|c| show(*c)).collect();
        out.push(format!("it contains {}", shown.join(", ")));
    }
    if name.starts_with('-') {
        out.push("it starts with `-`".to_string());
    }
    if name.ends_with('-') && len > 1 {
        out.push("it ends with `-`".to_string());
    }
    if name.contains("--") {
        out.push("it contains `--`".to_string());
    }
    out
}

fn show(c: char) -> String {
    match c {
        ' ' => "spaces".to_string(),
        '\t' => "tabs".to_string(),
        c if c.is_control() => format!("`\\u{{{:x}}}`", c as u32),
        '`' => "backticks".to_string(),
        c => format!("`{c}`"),
    }
}

/// The valid name nearest to `name`: lower-cased, every run of other
/// characters replaced by one `-`, no `-` at either end, at most 64
/// characters. Empty when nothing of `name` is usable.
pub(crate) fn normalised(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if allowed(c) && c != '-' {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let mut out: String = out.chars().take(MAX_NAME).collect();
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// The NFKC form of `name`: `name` itself when it is ASCII (which NFKC
/// leaves unchanged), without running the normaliser over it.
fn nfkc(name: &str) -> Cow<'_, str> {
    if name.is_ascii() {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(name.nfkc().collect())
    }
}

/// Whether `name` is a valid skill name as this rule judges it (its NFKC
/// form): what a help that suggests a name must give.
pub(crate) fn is_valid(name: &str) -> bool {
    problems(&nfkc(name)).is_empty()
}

/// [`normalised`] of the NFKC form of `name`.
pub(crate) fn suggested(name: &str) -> String {
    normalised(&nfkc(name))
}

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let Some(e) = skill.entry("name") else {
        return Vec::new();
    };
    let Some(name) = skill.doc.as_str(e.value) else {
        return Vec::new();
    };
    // As the specification's reference validator does: judge the NFKC form,
    // so `e` + U+0301 is the letter `é`.
    let nfkc = nfkc(name);
    let problems = problems(&nfkc);
    if problems.is_empty() {
        return Vec::new();
    }
    let span = skill.doc.node(e.value).span;
    let mut d = Diagnostic::new(
        RULE,
        a.file,
        span,
        format!(
            "skill name {} is not a valid name: {}",
            quote(name),
            problems.join("; ")
        ),
    )
    .with_label("not a valid skill name")
    .with_note(
        "a skill name is 1-64 lower-case letters, digits and `-`, with no `-` at either end and no `--`",
    );
    let fixed = normalised(&nfkc);
    if !fixed.is_empty() && fixed != name {
        d = d.with_help(format!("use `name: {fixed}` (and the same folder name)"));
    }
    vec![d]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(problems("pdf-processing").is_empty());
        assert!(problems("a").is_empty());
        assert!(
            problems("données-2").is_empty(),
            "Unicode lower-case letters are allowed"
        );
        assert_eq!(problems("PDF-Processing"), ["it has upper-case letters"]);
        assert_eq!(problems("-pdf"), ["it starts with `-`"]);
        assert_eq!(problems("pdf--x"), ["it contains `--`"]);
        assert_eq!(problems("a_b c"), ["it contains spaces, `_`"]);
        assert_eq!(problems(""), ["it is empty"]);
        assert_eq!(problems(&"a".repeat(65)).len(), 1);
        assert!(
            problems(&"é".repeat(64)).is_empty(),
            "characters, not bytes"
        );
    }

    #[test]
    fn normalising() {
        assert_eq!(
            normalised("Capsule CRM Automation"),
            "capsule-crm-automation"
        );
        assert_eq!(normalised("-21risk-automation"), "21risk-automation");
        assert_eq!(normalised("docker_hub--x-"), "docker-hub-x");
        assert_eq!(normalised("Customer.io"), "customer-io");
        assert_eq!(normalised("!!!"), "");
    }
}
