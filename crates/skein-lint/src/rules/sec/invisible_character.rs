//! SEC010 `invisible-character`.

use super::bidi_control_character::{Hidden, excerpt, runs_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC010",
    name: "invisible-character",
    severity: Severity::Warning,
    summary: "a zero-width or tag character hides text from a reviewer",
    doc: include_str!("invisible_character.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Any,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let text = cx.sources.get(a.file).text();
    let runs = runs_of(cx, a);
    runs.iter()
        .filter_map(|r| match r.class {
            Hidden::Invisible(name) => Some((r, name)),
            Hidden::Bidi(_) => None,
        })
        .take(50)
        .map(|(r, name)| {
            let more = if r.count > 1 {
                format!(" (and {} more)", r.count - 1)
            } else {
                String::new()
            };
            let tags: String = text[r.span.range()]
                .chars()
                .filter_map(|c| {
                    let u = c as u32;
                    (0xe0020..0xe007f).contains(&u).then(|| char::from_u32(u - 0xe0000)).flatten()
                })
                .collect();
            let mut d = Diagnostic::new(
                RULE,
                a.file,
                r.span,
                format!(
                    "invisible U+{:04X} {name}{more} in the text: `{}`",
                    r.first as u32,
                    excerpt(text, r.span)
                ),
            )
            .with_label("invisible character");
            if tags.chars().count() >= 3 {
                d = d.with_note(format!(
                    "the tag characters spell ASCII text the agent can read and a reviewer cannot: {}",
                    skein_syntax::quote(&tags)
                ));
            } else {
                d = d.with_note("a reviewer does not see it; the agent reads it, and a word split by it no longer matches a search or a deny rule");
            }
            d.with_help("remove the character")
                .with_fix(skein_syntax::Fix::unsafe_(
                    if r.count > 1 {
                        "remove the characters"
                    } else {
                        "remove the character"
                    },
                    vec![skein_syntax::Edit::delete(r.span)],
                ))
        })
        .collect()
}
