//! COP: GitHub Copilot's custom instructions and prompt files, from GitHub's
//! "Adding repository custom instructions for GitHub Copilot"
//! (<https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions>)
//! and VS Code's "Use custom instructions in VS Code"
//! (<https://code.visualstudio.com/docs/agent-customization/custom-instructions>)
//! and "Use prompt files in VS Code"
//! (<https://code.visualstudio.com/docs/agent-customization/prompt-files>):
//! `.github/copilot-instructions.md` (format `copilot-instructions`),
//! `.github/instructions/**/*.instructions.md` (`copilot-path-instructions`)
//! `.github/prompts/*.prompt.md` (`copilot-prompt`), and custom agents,
//! `.github/agents/*.agent.md` (`copilot-agent`; GitHub's "Custom agents
//! configuration",
//! <https://docs.github.com/en/copilot/reference/custom-agents-configuration>,
//! and VS Code's "Custom agents in VS Code",
//! <https://code.visualstudio.com/docs/agent-customization/custom-agents>). Their links are
//! REF007's and their hidden or encoded text the SEC Markdown rules'; these
//! rules read the frontmatter and what only these files have.

pub mod agent_missing_description;
pub mod agent_prompt_too_long;
pub mod deprecated_prompt_mode;
pub mod empty_instructions;
pub mod invalid_agent_target;
pub mod invalid_apply_to;
pub mod invalid_exclude_agent;
pub mod missing_apply_to;
pub mod retired_agent_infer;
pub mod unknown_custom_agent_field;
pub mod unknown_instructions_field;
pub mod unknown_prompt_field;

use crate::Context;
use crate::rules::frontmatter::Fields;
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Entry, Rule, Severity, Span, quote};

/// The frontmatter fields of a path-specific instructions file: `applyTo`
/// and `excludeAgent` (GitHub's page), `name` and `description` (VS Code's
/// "Instructions file format" table).
pub(crate) const INSTRUCTIONS_FIELDS: &[&str] = &["applyTo", "description", "excludeAgent", "name"];

/// The frontmatter fields of a prompt file (VS Code's "Prompt file format"
/// table), and `mode`, the older name of `agent` (COP006 reports it).
pub(crate) const PROMPT_FIELDS: &[&str] = &[
    "agent",
    "argument-hint",
    "description",
    "mode",
    "model",
    "name",
    "tools",
];

/// The frontmatter fields of a custom agent: GitHub's table (`name`,
/// `description`, `target`, `tools`, `model`, `disable-model-invocation`,
/// `user-invocable`, the retired `infer`, `mcp-servers`, `metadata`) and
/// VS Code's (`argument-hint`, `agents`, `handoffs`, `hooks`).
pub(crate) const AGENT_FIELDS: &[&str] = &[
    "agents",
    "argument-hint",
    "description",
    "disable-model-invocation",
    "handoffs",
    "hooks",
    "infer",
    "mcp-servers",
    "metadata",
    "model",
    "name",
    "target",
    "tools",
    "user-invocable",
];

/// One Copilot Markdown file: its frontmatter ([`Fields`], which it
/// dereferences to) and its text.
pub(crate) struct CopilotFile<'a> {
    /// The frontmatter.
    pub fm: Fields<'a>,
    /// The whole file.
    pub text: &'a str,
    /// Where the body starts.
    pub body_start: usize,
    /// The opening `---` line of the frontmatter, when there is one.
    pub open: Option<Span>,
}

/// The Copilot file of `a` when it is of `format`.
pub(crate) fn copilot_file<'a>(
    cx: &'a Context,
    a: &'a Artifact,
    format: Format,
) -> Option<CopilotFile<'a>> {
    if a.format != format {
        return None;
    }
    let text = cx.sources.get(a.file).text();
    Some(CopilotFile {
        fm: Fields::read(a),
        text,
        body_start: a
            .frontmatter
            .map_or(0, |f| f.body_start as usize)
            .min(text.len()),
        open: a.frontmatter.map(|f| f.open),
    })
}

impl<'a> std::ops::Deref for CopilotFile<'a> {
    type Target = Fields<'a>;

    fn deref(&self) -> &Fields<'a> {
        &self.fm
    }
}

impl CopilotFile<'_> {
    /// The Markdown body, after the frontmatter.
    pub fn body(&self) -> &str {
        &self.text[self.body_start..]
    }
}

/// The field of `fields` that `key` was probably meant to be: the same
/// letters in another case or with `-`/`_` (`applyto`, `apply_to`,
/// `apply-to`), else one at most two edits away.
pub(crate) fn suggestion(key: &str, fields: &[&'static str]) -> Option<&'static str> {
    crate::similar::suggest(key, fields)
}

/// The findings of `rule` on the frontmatter keys of `file` that are not
/// in `fields`: a warning with a rename (an unsafe fix when the two are one
/// edit apart after folding and the rename makes no duplicate key) when
/// the key looks like a misspelt field, else a hint listing the fields.
/// `what` names the file kind ("instructions file", "prompt file").
pub(crate) fn unknown_fields(
    a: &Artifact,
    file: &CopilotFile,
    rule: Rule,
    fields: &[&'static str],
    what: &str,
) -> Vec<Diagnostic> {
    // A frontmatter repaired around a syntax error holds keys its author
    // never wrote.
    if a.damaged {
        return Vec::new();
    }
    let doc = file.doc;
    let keys: Vec<(Entry, String)> = file
        .entries()
        .iter()
        .filter_map(|e| doc.key_text(e.key).map(|k| (*e, k)))
        .collect();
    let mut out = Vec::new();
    for (e, key) in &keys {
        if fields.contains(&key.as_str()) {
            continue;
        }
        let span = doc.node(e.key).span;
        let d = match suggestion(key, fields) {
            Some(s) => {
                // A rename is safe to offer only when no other key is, or
                // would become, the same field.
                let clash = keys
                    .iter()
                    .any(|(o, k)| o.key != e.key && (k == s || suggestion(k, fields) == Some(s)));
                let fix = (!clash && crate::fix::near(key, s))
                    .then(|| crate::fix::replace_string(doc, e.key, file.text, s))
                    .flatten()
                    .map(|edit| {
                        skein_syntax::Fix::unsafe_(format!("rename to `{s}`"), vec![edit])
                    });
                Diagnostic {
                    severity: Severity::Warning,
                    ..Diagnostic::new(
                        rule,
                        a.file,
                        span,
                        format!(
                            "unknown {what} field {}; did you mean {}?",
                            quote(key),
                            quote(s)
                        ),
                    )
                }
                .with_label("Copilot does not read this field")
                .with_note(format!(
                    "Copilot reads the field only when it is spelt {} exactly",
                    quote(s)
                ))
                .with_help(format!("rename the field to {}", quote(s)))
                .with_fix_opt(fix)
            }
            None => Diagnostic::new(
                rule,
                a.file,
                span,
                format!("unknown {what} field {}", quote(key)),
            )
            .with_label("Copilot does not read this field")
            .with_help(format!(
                "the fields Copilot reads in this file are {}; remove the field, or keep metadata for another tool where that tool reads it",
                fields
                    .iter()
                    .filter(|f| **f != "mode")
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
        out.push(d);
    }
    out
}

/// The span a finding about the whole file points at: the opening `---`
/// of its frontmatter, else its first line (empty for an empty file).
pub(crate) fn head_span(file: &CopilotFile) -> Span {
    if let Some(open) = file.open {
        return open;
    }
    let end = file.text.find(['\n', '\r']).unwrap_or(file.text.len());
    Span::new(0, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let f = INSTRUCTIONS_FIELDS;
        assert_eq!(suggestion("applyto", f), Some("applyTo"));
        assert_eq!(suggestion("apply_to", f), Some("applyTo"));
        assert_eq!(suggestion("ApplyTo", f), Some("applyTo"));
        assert_eq!(suggestion("aplyTo", f), Some("applyTo"));
        assert_eq!(suggestion("exclude-agent", f), Some("excludeAgent"));
        assert_eq!(suggestion("tags", f), None);
        let p = PROMPT_FIELDS;
        assert_eq!(suggestion("argument_hint", p), Some("argument-hint"));
        assert_eq!(suggestion("argumentHint", p), Some("argument-hint"));
        assert_eq!(suggestion("tool", p), Some("tools"));
        assert_eq!(suggestion("title", p), None);
    }
}
