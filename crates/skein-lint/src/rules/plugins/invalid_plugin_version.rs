//! PLUGIN002 `invalid-plugin-version`.

use super::{kind_name, manifests, root_mapping, written};
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN002",
    name: "invalid-plugin-version",
    severity: Severity::Error,
    summary: "a plugin manifest `version` that is not a semantic version string",
    doc: include_str!("invalid_plugin_version.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

fn numeric(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
}

fn idents(s: &str) -> bool {
    s.split('.')
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

/// `MAJOR.MINOR.PATCH`, with an optional `-pre.release` and `+build`.
pub(crate) fn is_semver(s: &str) -> bool {
    let (rest, build) = match s.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (s, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (rest, None),
    };
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| numeric(p))
        && pre.is_none_or(idents)
        && build.is_none_or(idents)
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(v) = root_mapping(doc).and_then(|r| doc.get(r, "version")) else {
            continue;
        };
        let span = doc.node(v).span;
        let as_written = written(cx, a.file, span);
        match doc.as_str(v) {
            Some(s) if is_semver(s) => {}
            Some(s) => {
                let mut d = Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!("plugin version {} is not a semantic version", quote(s)),
                )
                .with_label("expected `MAJOR.MINOR.PATCH`, e.g. `1.2.0`");
                d.severity = Severity::Warning;
                out.push(d);
            }
            None => {
                let help = if matches!(doc.kind(v), skein_syntax::NodeKind::Number(_)) {
                    let mut parts: Vec<&str> = as_written.split('.').collect();
                    while parts.len() < 3 {
                        parts.push("0");
                    }
                    let fixed = parts.join(".");
                    if is_semver(&fixed) {
                        format!("write it as a string: `\"version\": \"{fixed}\"`")
                    } else {
                        "write it as a string such as `\"1.0.0\"`".to_string()
                    }
                } else {
                    "use a string such as `\"1.0.0\"`".to_string()
                };
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        span,
                        format!(
                            "plugin version `{as_written}` is {}, not a string",
                            kind_name(doc, v)
                        ),
                    )
                    .with_label("expected a semantic version string")
                    .with_help(help),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::is_semver;

    #[test]
    fn semver() {
        for ok in [
            "1.0.0",
            "0.1.6",
            "2.0.0-beta.1",
            "1.2.3+build.5",
            "1.0.0-rc-1",
        ] {
            assert!(is_semver(ok), "{ok}");
        }
        for bad in ["1.10", "v1.0.0", "1.0", "01.0.0", "1.0.0-", "1.0.0.0", ""] {
            assert!(!is_semver(bad), "{bad}");
        }
    }
}
