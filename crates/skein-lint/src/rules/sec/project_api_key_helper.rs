//! SEC015 `project-api-key-helper`.

use crate::rules::settings::settings_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC015",
    name: "project-api-key-helper",
    severity: Severity::Warning,
    summary: "project settings set `apiKeyHelper`: a command of the repository supplies the credentials",
    doc: include_str!("project_api_key_helper.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let Some(h) = doc.get(root, "apiKeyHelper") else {
        return Vec::new();
    };
    let Some(cmd) = doc.as_str(h).filter(|c| !c.trim().is_empty()) else {
        return Vec::new();
    };
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(h).span,
            format!(
                "`apiKeyHelper` in project settings runs {} in a shell and sends what it prints as the API credential",
                quote(cmd)
            ),
        )
        .with_label("runs at startup and every few minutes")
        .with_note("whoever can change this file chooses the command, and which account the session bills and reports to")
        .with_help("set `apiKeyHelper` in your user settings (`~/.claude/settings.json`) or managed settings instead"),
    ]
}
