//! SKILL025 `hardcoded-user-path`.

use super::{Skill, body};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL025",
    name: "hardcoded-user-path",
    severity: Severity::Info,
    summary: "a path into one person's home folder (`/Users/alice/…`) in a skill's body",
    doc: include_str!("hardcoded_user_path.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// Home-folder roots: macOS, Linux, Windows (either slash).
const ROOTS: &[&str] = &["/Users/", "/home/", ":\\Users\\", ":/Users/"];

/// User names that are placeholders or service accounts, not a person.
const GENERIC: &[&str] = &[
    "user",
    "username",
    "you",
    "me",
    "name",
    "example",
    "someone",
    "runner",
    "ubuntu",
    "ec2-user",
    "node",
    "vscode",
    "codespace",
    "linuxbrew",
    "coder",
    "jovyan",
    "admin",
    "root",
    "shared",
    "public",
    "default",
    "dev",
    "developer",
    "foo",
    "bar",
    "john",
    "jane",
    "joe",
    "xxx",
    "app",
];

/// Whether `name` names a person rather than standing for one.
fn personal(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.len() >= 2
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        && !name.bytes().all(|b| b == b'x' || b == b'X' || b == b'.')
        && !GENERIC.contains(&lower.as_str())
        && !lower.contains("your")
        && !lower.contains("user")
        && !lower.starts_with("my")
}

/// A path into one person's home folder in a text.
pub(crate) struct HomePath<'t> {
    /// Its bytes in the text, from the root (or the drive letter) to the
    /// separator after the user name, included.
    pub start: usize,
    /// The end (exclusive).
    pub end: usize,
    /// The user name.
    pub name: &'t str,
}

/// The paths into a person's home folder in `text`, in text order:
/// `/Users/<name>/`, `/home/<name>/`, `C:\Users\<name>\` (either slash),
/// where `<name>` is not a placeholder or a service account
/// ([`GENERIC`]).
pub(crate) fn home_paths(text: &str) -> Vec<HomePath<'_>> {
    let mut out = Vec::new();
    // Three of the roots hold `Users`: one search tells whether to look.
    let users = memchr::memmem::find(text.as_bytes(), b"Users").is_some();
    for root in ROOTS {
        if !users && root.contains("Users") {
            continue;
        }
        for i in memchr::memmem::find_iter(text.as_bytes(), root.as_bytes()) {
            let windows = root.starts_with(':');
            // `C:\Users\…`: include the drive letter.
            let start = if windows {
                match text[..i].chars().next_back() {
                    Some(c) if c.is_ascii_alphabetic() => i - 1,
                    _ => continue,
                }
            } else {
                // `/home/` inside a longer path (`/srv/home/`) is no home folder.
                if text[..i]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '.' || c == '/')
                {
                    continue;
                }
                i
            };
            let rest = &text[i + root.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            let sep = rest[end..].chars().next();
            if !personal(name) || !matches!(sep, Some('/' | '\\')) {
                continue;
            }
            out.push(HomePath {
                start,
                end: i + root.len() + end + 1,
                name,
            });
        }
    }
    out.sort_by_key(|p| p.start);
    out
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if Skill::of(a).is_none() {
        return Vec::new();
    }
    let (text, base) = body(cx, a);
    home_paths(text)
        .into_iter()
        .map(|p| {
            let shown = &text[p.start..p.end];
            Diagnostic::new(
                RULE,
                a.file,
                Span::new(base + p.start, base + p.end),
                format!("the skill names a path in the home folder of {}: {}", quote(p.name), quote(shown)),
            )
            .with_label("only exists on one machine")
            .with_note("a skill runs on other people's machines, where this folder does not exist, and it tells readers the author's user name")
            .with_help("use a path relative to the skill (`${CLAUDE_SKILL_DIR}/scripts/…`) or the project, or `~`/`$HOME`")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::personal;

    #[test]
    fn personal_names() {
        assert!(personal("alice"));
        assert!(personal("jdoe"));
        for generic in [
            "user",
            "yourname",
            "your-name",
            "runner",
            "linuxbrew",
            "USERNAME",
            "xxx",
            "myuser",
        ] {
            assert!(!personal(generic), "{generic}");
        }
    }
}
