//! COP001 `missing-apply-to`.

use super::{INSTRUCTIONS_FIELDS, copilot_file, head_span, suggestion};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "COP001",
    name: "missing-apply-to",
    severity: Severity::Warning,
    summary: "a path-specific Copilot instructions file without `applyTo`, the globs that make Copilot apply it",
    doc: include_str!("missing_apply_to.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CopilotPathInstructions]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(file) = copilot_file(cx, a, Format::CopilotPathInstructions) else {
        return Vec::new();
    };
    // A frontmatter that does not parse is SYN's; its keys are unknown.
    if a.damaged || file.field("applyTo").is_some() {
        return Vec::new();
    }
    let doc = file.doc;
    // A key meant as `applyTo` (`applyto`, `apply_to`): COP003 offers the
    // rename; this finding says what the slip costs.
    let misspelt = file.entries().iter().find_map(|e| {
        let key = doc.key_text(e.key)?;
        (suggestion(&key, INSTRUCTIONS_FIELDS) == Some("applyTo")).then_some(key)
    });
    let (message, help) = match (&misspelt, file.mapping) {
        (Some(k), _) => (
            format!(
                "instructions file has no `applyTo` (the key is written {})",
                quote(k)
            ),
            format!("rename {} to `applyTo`", quote(k)),
        ),
        (None, Some(_)) => (
            "instructions file has no `applyTo`".to_string(),
            "add `applyTo` with the glob of the files the instructions are for (`applyTo: \"**\"` for every file)".to_string(),
        ),
        (None, None) => (
            "instructions file has no frontmatter with `applyTo`".to_string(),
            "start the file with a frontmatter block naming the files the instructions are for: `---`, `applyTo: \"**/*.ts\"`, `---` (`\"**\"` for every file)".to_string(),
        ),
    };
    // VS Code's page also says an instructions file can be picked when
    // its `description` matches the task: with one, say only what every
    // page agrees on.
    let note = if file.field("description").is_some() {
        "Copilot CLI includes path-specific instructions only when their `applyTo` matches a file it works on, and VS Code says a file without `applyTo` is not applied automatically (though it may also match a file by its `description`)"
    } else {
        "Copilot applies path-specific instructions to the files their `applyTo` matches: without it, VS Code does not add them to a request by itself (they can only be attached by hand), and Copilot CLI never includes them"
    };
    vec![
        Diagnostic::new(RULE, a.file, head_span(&file), message)
            .with_label("no `applyTo` in this file")
            .with_note(note)
            .with_help(help),
    ]
}
