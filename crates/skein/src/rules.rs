//! The table of every rule skein has, sorted by code (DESIGN.md §6).
//!
//! Codes are assigned here and nowhere else; a code is never reused.

use skein_syntax::Rule;
use std::sync::LazyLock;

/// Every rule, sorted by code; built once.
static ALL: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let mut v: Vec<Rule> = skein_syntax::rules::ALL
        .iter()
        .chain(skein_model::rules::ALL)
        .chain(crate::suppress::ALL)
        .chain([crate::config::INVALID_CONFIG].iter())
        .copied()
        .chain(skein_lint::rules())
        .collect();
    v.sort_by_key(|r| r.code);
    v
});

/// Every rule, sorted by code.
pub fn all() -> Vec<Rule> {
    ALL.clone()
}

/// The rule with this code or kebab name (case-insensitive code).
pub fn find(code_or_name: &str) -> Option<Rule> {
    ALL.iter()
        .find(|r| r.code.eq_ignore_ascii_case(code_or_name) || r.name == code_or_name)
        .copied()
}

/// How `skein rule` and docs/rules.md say whether a rule fixes what it
/// finds: `safe (applied by --fix)`, `unsafe (applied with --unsafe-fixes)`
/// or `none`.
pub fn fix_kind(rule: &Rule) -> &'static str {
    match rule.fix {
        Some(skein_syntax::Applicability::Safe) => "safe (applied by `--fix`)",
        Some(skein_syntax::Applicability::Unsafe) => "unsafe (applied with `--fix --unsafe-fixes`)",
        None => "none",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_and_names_are_unique_and_documented() {
        let rules = all();
        let codes: HashSet<_> = rules.iter().map(|r| r.code).collect();
        let names: HashSet<_> = rules.iter().map(|r| r.name).collect();
        assert_eq!(codes.len(), rules.len());
        assert_eq!(names.len(), rules.len());
        for r in &rules {
            let (cat, num) = r.code.split_at(r.code.len() - 3);
            assert!(
                [
                    "SYN",
                    "SCH",
                    "AGENT",
                    "FLOW",
                    "REF",
                    "PERM",
                    "PLUGIN",
                    "MKT",
                    "SEC",
                    "HOOK",
                    "SKILL",
                    "CMD",
                    "SETTINGS",
                    "MCP",
                    "SKEIN",
                    "LOOM",
                    "LOOPMASTER",
                    "OPENCODE",
                    "BAILEY",
                    "MEM",
                    "WIND",
                    "KIRO",
                    "CUR",
                    "COP"
                ]
                .contains(&cat),
                "{}",
                r.code
            );
            assert!(
                num.len() == 3 && num.bytes().all(|b| b.is_ascii_digit()),
                "{}",
                r.code
            );
            assert!(
                r.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                r.name
            );
            assert!(r.doc.contains("## What it does"), "{} has no doc", r.code);
            assert!(!r.summary.ends_with('.'), "{}", r.code);
        }
    }
}
