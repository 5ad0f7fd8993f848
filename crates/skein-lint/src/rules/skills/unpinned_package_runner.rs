//! SKILL033 `unpinned-package-runner`.

use super::{Skill, body};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL033",
    name: "unpinned-package-runner",
    severity: Severity::Info,
    summary: "a skill's command runs a package with `npx`, `bunx`, `uvx` or `pipx run` without a version",
    doc: include_str!("unpinned_package_runner.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// The runners, as written before the package.
const RUNNERS: &[&str] = &["npx", "bunx", "uvx", "pipx run"];

/// The code of a body: fenced lines whole, and the inline code spans of
/// the other lines, as (offset in the body, text).
fn code_segments(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut fence: Option<&str> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| t.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(f), Some(m)) if f == m => fence = None,
            (Some(_), _) => out.push((at, line)),
            (None, None) => {
                let mut rest = line;
                let mut base = at;
                while let Some(open) = rest.find('`') {
                    let Some(len) = rest[open + 1..].find('`') else {
                        break;
                    };
                    out.push((base + open + 1, &rest[open + 1..open + 1 + len]));
                    base += open + len + 2;
                    rest = &rest[open + len + 2..];
                }
            }
        }
        at += line.len();
    }
    out
}

/// Whether a package as written names a version (`eslint@9.0.0`,
/// `@scope/pkg@1`, `ruff==0.8.0`); `@latest` and `@next` do not.
fn pinned(package: &str) -> bool {
    if package.contains("==") {
        return true;
    }
    let tail = package.strip_prefix('@').unwrap_or(package);
    match tail.rsplit_once('@') {
        Some((_, v)) => !v.is_empty() && !matches!(v, "latest" | "next"),
        None => false,
    }
}

/// Whether a word is a package name (not a placeholder, a path or a flag value).
fn package_like(word: &str) -> bool {
    !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"@/._-=".contains(&b))
        && word
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'@')
        && !word.starts_with("./")
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if Skill::of(a).is_none() {
        return Vec::new();
    }
    let (text, base) = body(cx, a);
    // Cheap first: every runner's name holds an `x` after `p`, `n` or `v`.
    let bytes = text.as_bytes();
    if !memchr::memchr_iter(b'x', bytes)
        .any(|i| i > 0 && matches!(bytes[i - 1], b'p' | b'n' | b'v'))
    {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (off, seg) in code_segments(text) {
        for runner in RUNNERS {
            for (i, _) in seg.match_indices(runner) {
                let before = seg[..i].chars().next_back();
                let after = seg[i + runner.len()..].chars().next();
                if before.is_some_and(|c| !(c.is_whitespace() || "(;&|$`".contains(c)))
                    || after != Some(' ')
                {
                    continue;
                }
                // The package: the first word that is not an option, or the
                // value of `-p`/`--package`/`--from`.
                let rest = &seg[i + runner.len()..];
                let mut words = rest.split_whitespace();
                let mut package = None;
                while let Some(w) = words.next() {
                    if matches!(w, "-p" | "--package" | "--from") {
                        package = words.next();
                        break;
                    }
                    if let Some(v) = w
                        .strip_prefix("--package=")
                        .or_else(|| w.strip_prefix("--from="))
                    {
                        package = Some(v);
                        break;
                    }
                    if !w.starts_with('-') {
                        package = Some(w);
                        break;
                    }
                }
                let Some(p) = package.map(|p| p.trim_matches(['\'', '"'])) else {
                    continue;
                };
                if !package_like(p) || pinned(p) {
                    continue;
                }
                let start = base + off + i + runner.len() + rest.find(p).unwrap_or(0);
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        Span::new(start, start + p.len()),
                        format!("`{runner} {p}` runs the newest {} published when the skill runs", quote(p)),
                    )
                    .with_label("no version")
                    .with_note("the skill's command then changes behaviour with each release of the package")
                    .with_help(format!("pin a version: `{runner} {}`", example(runner, p))),
                );
            }
        }
    }
    out
}

/// The pinned spelling of `package` for `runner`, with a placeholder version.
fn example(runner: &str, package: &str) -> String {
    let bare = match package.strip_prefix('@') {
        Some(t) => format!("@{}", t.split('@').next().unwrap_or(t)),
        None => package.split('@').next().unwrap_or(package).to_string(),
    };
    if runner == "pipx run" {
        format!("{bare}==X.Y.Z")
    } else {
        format!("{bare}@X.Y.Z")
    }
}
