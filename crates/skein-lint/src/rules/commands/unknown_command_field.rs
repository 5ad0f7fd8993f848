//! CMD001 `unknown-command-field`.

use super::{COMMAND_FIELDS, command_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CMD001",
    name: "unknown-command-field",
    severity: Severity::Info,
    summary: "a slash-command frontmatter field that Claude Code does not read",
    doc: include_str!("unknown_command_field.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::PluginCommand]),
};

/// The field `key` was probably meant to be.
pub(crate) fn suggestion(key: &str) -> Option<&'static str> {
    if matches!(key, "tools" | "tool" | "allowed-tool" | "allowedTool") {
        return Some("allowed-tools");
    }
    crate::similar::suggest(key, COMMAND_FIELDS)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    // A frontmatter repaired around a syntax error holds keys its author
    // never wrote (`argument-hint: {n} {style}` gives a field `style`).
    if a.damaged {
        return Vec::new();
    }
    let Some(cmd) = command_of(cx, a) else {
        return Vec::new();
    };
    let doc = cmd.doc;
    let mut out = Vec::new();
    for e in cmd.entries() {
        let Some(key) = doc.key_text(e.key) else {
            continue;
        };
        if COMMAND_FIELDS.contains(&key.as_str()) {
            continue;
        }
        let span = doc.node(e.key).span;
        let d = match suggestion(&key) {
            // Likely a misspelt field whose setting is lost: a warning.
            Some(s) => Diagnostic {
                severity: Severity::Warning,
                ..Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "unknown command field {}; did you mean {}?",
                    quote(&key),
                    quote(s)
                ),
            )
            .with_label("Claude Code does not read this field")
            .with_help(format!("rename the field to {}", quote(s)))
            },
            None => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("unknown command field {}", quote(&key)),
            )
            .with_label("Claude Code does not read this field")
            .with_help(format!(
                "the fields of a command are {}; remove the field, or keep metadata for another tool where that tool reads it",
                COMMAND_FIELDS.join(", ")
            )),
        };
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::suggestion;

    #[test]
    fn suggestions() {
        assert_eq!(suggestion("allowed_tools"), Some("allowed-tools"));
        assert_eq!(suggestion("allowedTools"), Some("allowed-tools"));
        assert_eq!(suggestion("tools"), Some("allowed-tools"));
        assert_eq!(suggestion("argument_hint"), Some("argument-hint"));
        assert_eq!(suggestion("whenToUse"), Some("when_to_use"));
        assert_eq!(suggestion("descripton"), Some("description"));
        assert_eq!(suggestion("shortcut"), None);
    }
}
