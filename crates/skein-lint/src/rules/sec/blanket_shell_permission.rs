//! SEC017 `blanket-shell-permission`.

use crate::rules::settings::{permissions, rules_of, settings_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC017",
    name: "blanket-shell-permission",
    severity: Severity::Warning,
    summary: "project settings allow every shell command, or every program of an interpreter, without asking",
    doc: include_str!("blanket_shell_permission.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// Programs that run whatever code or command they are given.
const RUNNERS: &[&str] = &[
    "python",
    "python3",
    "python2",
    "node",
    "deno",
    "bun",
    "ruby",
    "perl",
    "php",
    "bash",
    "sh",
    "zsh",
    "dash",
    "fish",
    "pwsh",
    "powershell",
    "eval",
    "exec",
    "sudo",
    "env",
    "xargs",
    "npx",
    "bunx",
    "uvx",
    "pnpx",
    "devbox run",
    "nix run",
    "uv run",
    "pnpm dlx",
    "pnpm exec",
    "npm exec",
    "yarn dlx",
    "docker run",
    "docker exec",
    "ssh",
];

/// What a `permissions.allow` rule lets run without a prompt, when it lets
/// run anything: `None` for a rule scoped to a command.
pub(crate) fn blanket(rule: &str) -> Option<String> {
    let r = rule.trim();
    let (tool, spec) = match r.split_once('(') {
        Some((t, rest)) => (t.trim(), rest.strip_suffix(')')?.trim()),
        None => (r, ""),
    };
    if !matches!(tool, "Bash" | "PowerShell") {
        return None;
    }
    let stem = spec.trim_end_matches('*').trim_end_matches(':').trim_end();
    if stem.is_empty() {
        return Some("any shell command".into());
    }
    if spec.len() == stem.len() {
        // No wildcard: one command.
        return None;
    }
    RUNNERS
        .contains(&stem)
        .then(|| format!("any code through `{stem}`"))
}

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let Some(perms) = permissions(doc, root) else {
        return Vec::new();
    };
    rules_of(doc, perms, "allow")
        .into_iter()
        .filter_map(|(node, rule)| {
            let what = blanket(rule)?;
            Some(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(node).span,
                    format!(
                        "{} in `permissions.allow` lets Claude run {what} without asking",
                        quote(rule)
                    ),
                )
                .with_label("no prompt for arbitrary code")
                .with_help("allow the commands the project needs one by one (`Bash(npm run test)`, `Bash(git status)`)"),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::blanket;

    #[test]
    fn blanket_rules() {
        for r in [
            "Bash",
            "Bash(*)",
            "Bash(:*)",
            "Bash(python*)",
            "Bash(python3:*)",
            "Bash(devbox run *)",
            "PowerShell(*)",
        ] {
            assert!(blanket(r).is_some(), "{r}");
        }
        for r in [
            "Bash(npm run test)",
            "Bash(git:*)",
            "Bash(devbox run npm test)",
            "Read(*)",
            "Bash(python scripts/check.py)",
        ] {
            assert_eq!(blanket(r), None, "{r}");
        }
    }
}
