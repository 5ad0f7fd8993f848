//! HOOK009 `once-outside-frontmatter`.

use super::{Home, hooks_of};
use crate::{Context, FilePass, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK009",
    name: "once-outside-frontmatter",
    severity: Severity::Warning,
    summary: "a hook handler's `once` in a settings or plugin hooks file, where it is ignored",
    doc: include_str!("once_outside_frontmatter.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let place = match h.home {
        Home::Plugin(_) if a.format == Format::ClaudePlugin => "a plugin manifest",
        Home::Plugin(_) => "a plugin's hooks file",
        Home::Project(_) => "a settings file",
        Home::Component { .. } => return Vec::new(),
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let Some(e) = doc.get_entry(handler, "once") else {
            continue;
        };
        // `once: false` is the default: nothing is lost by ignoring it.
        if cx.sources.get(a.file).slice(doc.node(e.value).span) == "false" {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(e.key).span,
                format!("`once` has no effect in {place}; Claude Code honors it only in skill frontmatter hooks"),
            )
            .with_label("ignored here: the hook runs every time")
            .with_help("remove `once`, or move the hook into the frontmatter of the skill that needs it"),
        );
    }
    out
}
