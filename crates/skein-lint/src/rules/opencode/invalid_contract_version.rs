//! OPENCODE006 `invalid-contract-version`.

use super::contract;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "OPENCODE006",
    name: "invalid-contract-version",
    severity: Severity::Error,
    summary: "an OpenCode `contract_version` that is not a semantic version",
    doc: include_str!("invalid_contract_version.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::OpenCodeContract]),
};

/// Semantic Versioning 2.0.0: `MAJOR.MINOR.PATCH`, numbers without leading
/// zeros, optional `-pre.release` and `+build` identifiers.
pub(crate) fn is_semver(s: &str) -> bool {
    let (rest, build) = match s.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (s, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (rest, None),
    };
    let ident =
        |x: &str| !x.is_empty() && x.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-');
    let number = |x: &str| {
        !x.is_empty() && x.bytes().all(|c| c.is_ascii_digit()) && (x == "0" || !x.starts_with('0'))
    };
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| number(p))
        && pre.is_none_or(|p| {
            p.split('.')
                .all(|x| ident(x) && (!x.bytes().all(|c| c.is_ascii_digit()) || number(x)))
        })
        && build.is_none_or(|b| b.split('.').all(ident))
}

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = contract(a) else {
        return Vec::new();
    };
    let Some(v) = doc.get(root, "contract_version") else {
        return Vec::new();
    };
    let Some(s) = doc.as_str(v) else {
        return Vec::new();
    };
    if is_semver(s) {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(v).span,
            format!("contract version {} is not a semantic version", quote(s)),
        )
        .with_label("expected MAJOR.MINOR.PATCH, e.g. `0.6.22`")
        .with_help(
            "write three numbers separated by dots, optionally with `-prerelease` or `+build`",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::is_semver;

    #[test]
    fn semver() {
        for ok in ["0.6.22", "1.0.0-rc.1", "1.2.3+build.5", "10.0.0-alpha-1"] {
            assert!(is_semver(ok), "{ok}");
        }
        for bad in [
            "", "1", "1.2", "v1.2.3", "01.2.3", "1.2.3-", "1.2.3-01", "1.2.x",
        ] {
            assert!(!is_semver(bad), "{bad}");
        }
    }
}
