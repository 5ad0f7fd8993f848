//! SKILL006 `unknown-skill-field`.

use super::Skill;
use crate::rules::refs::closest;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL006",
    name: "unknown-skill-field",
    severity: Severity::Warning,
    summary: "a SKILL.md frontmatter field neither the specification nor Claude Code defines",
    doc: include_str!("unknown_skill_field.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// The fields of the Agent Skills specification.
pub(crate) const SPEC_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// The fields Claude Code adds.
pub(crate) const CLAUDE_CODE_FIELDS: &[&str] = &[
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "model",
    "effort",
    "context",
    "agent",
    "background",
    "disallowed-tools",
    "hooks",
    "paths",
    "shell",
];

/// Fields the specification's own examples keep under `metadata`.
const METADATA_LIKE: &[&str] = &[
    "version",
    "author",
    "authors",
    "tags",
    "category",
    "homepage",
    "repository",
];

/// `allowedTools`, `allowed_tools` -> `allowed-tools`.
fn kebab(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_uppercase() {
            if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
            out.extend(c.to_lowercase());
        } else if c == '_' || c == ' ' {
            out.push('-');
        } else {
            out.push(c);
        }
    }
    out
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let doc = skill.doc;
    let known = || SPEC_FIELDS.iter().chain(CLAUDE_CODE_FIELDS).copied();
    let mut out = Vec::new();
    for e in skill.entries() {
        let Some(key) = doc.as_str(e.key) else {
            continue;
        };
        // `tools` has its own rule (SKILL007).
        if key == "tools" || known().any(|k| k == key) {
            continue;
        }
        let k = kebab(key);
        let suggestion = known()
            .find(|&f| f == k || f.replace('_', "-") == k)
            .or_else(|| closest(&k, known()).map(|(c, _)| c));
        let help = match suggestion {
            Some(s) => format!("did you mean `{s}`?"),
            None if METADATA_LIKE.contains(&key) => format!(
                "move it under `metadata:` (as `metadata.{key}`), where the specification keeps extra properties"
            ),
            None => "remove it, or keep client-specific data under `metadata:`".to_string(),
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(e.key).span,
                format!("unknown skill frontmatter field {}", quote(key)),
            )
            .with_label("not a field of the Agent Skills specification or Claude Code")
            .with_help(help)
            .with_fix_opt(
                suggestion
                    // Renaming onto a field the skill already has would
                    // make a duplicate key.
                    .filter(|s| skill.entry(s).is_none() && crate::fix::near(key, s))
                    .and_then(|s| {
                        crate::fix::replace_string(doc, e.key, cx.sources.get(a.file).text(), s)
                            .map(|edit| {
                                skein_syntax::Fix::unsafe_(format!("rename to `{s}`"), vec![edit])
                            })
                    }),
            ),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::kebab;

    #[test]
    fn kebab_case() {
        assert_eq!(kebab("allowedTools"), "allowed-tools");
        assert_eq!(kebab("allowed_tools"), "allowed-tools");
        assert_eq!(kebab("user-invocable"), "user-invocable");
    }
}
