//! CUR001 `unknown-rule-field`.

use super::{RULE_FIELDS, rule_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "CUR001",
    name: "unknown-rule-field",
    severity: Severity::Warning,
    summary: "a Cursor rule frontmatter field that is not `description`, `globs` or `alwaysApply`",
    doc: include_str!("unknown_rule_field.md"),
    fix: Some(skein_syntax::Applicability::Unsafe),
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::CursorRule]),
};

/// The field `key` was probably meant to be: the same after folding case,
/// `-` and `_` (`alwaysapply`, `always_apply`), a letter or two off
/// (`descripton`), or the singular `glob`.
pub(crate) fn suggestion(key: &str) -> Option<&'static str> {
    if matches!(key, "glob" | "Glob" | "GLOB") {
        return Some("globs");
    }
    crate::similar::suggest(key, RULE_FIELDS)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    // A frontmatter repaired around a syntax error holds keys its author
    // never wrote.
    if a.damaged {
        return Vec::new();
    }
    let Some(rule) = rule_of(cx, a) else {
        return Vec::new();
    };
    let doc = rule.doc;
    let keys: Vec<Option<String>> = rule.entries().iter().map(|e| doc.key_text(e.key)).collect();
    let mut out = Vec::new();
    for (e, key) in rule.entries().iter().zip(&keys) {
        let Some(key) = key else {
            continue;
        };
        if RULE_FIELDS.contains(&key.as_str()) {
            continue;
        }
        let span = doc.node(e.key).span;
        let fields = RULE_FIELDS
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let d = match suggestion(key) {
            Some(s) => {
                // A rename is offered only when it makes no duplicate key
                // and the two spellings are near.
                let clash = keys.iter().flatten().any(|k| {
                    k == s
                        || (k != key
                            && !RULE_FIELDS.contains(&k.as_str())
                            && suggestion(k) == Some(s))
                });
                let fix = (!clash && crate::fix::near(key, s))
                    .then(|| crate::fix::replace_string(doc, e.key, rule.text, s))
                    .flatten()
                    .map(|edit| skein_syntax::Fix::unsafe_(format!("rename to `{s}`"), vec![edit]));
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "unknown Cursor rule field {}; did you mean {}?",
                        quote(key),
                        quote(s)
                    ),
                )
                .with_label("Cursor does not read this field")
                .with_note(format!("a rule's frontmatter fields are {fields}"))
                .with_help(format!("rename the field to {}", quote(s)))
                .with_fix_opt(fix)
            }
            None => Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("unknown Cursor rule field {}", quote(key)),
            )
            .with_label("Cursor does not read this field")
            .with_help(format!(
                "a rule's frontmatter fields are {fields}; remove this one"
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
        assert_eq!(suggestion("alwaysapply"), Some("alwaysApply"));
        assert_eq!(suggestion("always_apply"), Some("alwaysApply"));
        assert_eq!(suggestion("AlwaysApply"), Some("alwaysApply"));
        assert_eq!(suggestion("glob"), Some("globs"));
        assert_eq!(suggestion("descripton"), Some("description"));
        assert_eq!(suggestion("priority"), None);
    }
}
