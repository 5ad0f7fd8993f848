//! PLUGIN012 `invalid-dependency-version`.

use super::{manifests, root_mapping, written};
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN012",
    name: "invalid-dependency-version",
    severity: Severity::Error,
    summary: "a plugin dependency `version` that is not a semver range",
    doc: include_str!("invalid_dependency_version.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// A version with `x`/`*` wildcards allowed in place of parts:
/// `1`, `1.2`, `1.2.3`, `1.x`, `2.0.0-beta.1`, `v1.2.3`.
fn partial(v: &str) -> bool {
    let v = v.strip_prefix(['v', '=']).unwrap_or(v);
    let (core, extra) = match v.find(['-', '+']) {
        Some(i) => (&v[..i], &v[i + 1..]),
        None => (v, ""),
    };
    let parts: Vec<&str> = core.split('.').collect();
    (1..=3).contains(&parts.len())
        && parts.iter().all(|p| {
            matches!(*p, "x" | "X" | "*")
                || (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        })
        && extra.split(['.', '+']).all(|e| {
            extra.is_empty()
                || (!e.is_empty() && e.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        })
}

/// Whether `r` is a node-semver range: `||`-separated sets of comparators
/// (`^1.2`, `~2.1.0`, `>=1.4 <2`, `=2.1.0`, `1.x`, `*`) or hyphen ranges.
pub(crate) fn is_range(r: &str) -> bool {
    let r = r.trim();
    if r.is_empty() {
        return false;
    }
    r.split("||").all(|set| {
        let set = set.trim();
        if set.is_empty() {
            return true;
        }
        if let Some((a, b)) = set.split_once(" - ") {
            return partial(a.trim()) && partial(b.trim());
        }
        let mut words = Vec::new();
        let mut pending = String::new();
        for w in set.split_whitespace() {
            // `>= 1.2` written with a space.
            if matches!(w, ">" | ">=" | "<" | "<=" | "=" | "^" | "~" | "~>") {
                pending = w.to_string();
                continue;
            }
            words.push(format!("{pending}{w}"));
            pending.clear();
        }
        pending.is_empty()
            && words.iter().all(|w| {
                let v = w
                    .strip_prefix(">=")
                    .or_else(|| w.strip_prefix("<="))
                    .or_else(|| w.strip_prefix("~>"))
                    .or_else(|| w.strip_prefix(['>', '<', '=', '^', '~']))
                    .unwrap_or(w);
                partial(v)
            })
    })
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(root) = root_mapping(doc) else {
            continue;
        };
        for &dep in doc
            .get(root, "dependencies")
            .and_then(|d| doc.items(d))
            .unwrap_or_default()
        {
            let Some(v) = doc.get(dep, "version") else {
                continue;
            };
            if doc.as_str(v).is_some_and(is_range) {
                continue;
            }
            let span = doc.node(v).span;
            let name = doc
                .get(dep, "name")
                .and_then(|n| doc.as_str(n))
                .unwrap_or("?");
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    span,
                    format!(
                        "dependency {} has version {}, not a semver range",
                        quote(name),
                        quote(written(cx, a.file, span))
                    ),
                )
                .with_label("not a semver range")
                .with_help("write a range such as `~2.1.0`, `^2.0`, `>=1.4` or `=2.1.0`, or drop `version` to track the latest release"),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::is_range;

    #[test]
    fn ranges() {
        for ok in [
            "~2.1.0",
            "^2.0",
            ">=1.4",
            "=2.1.0",
            "1.x",
            "*",
            ">=1.2 <2",
            "1.2 - 1.4",
            "^1 || ^2",
            "^2.0.0-0",
            ">= 1.2",
        ] {
            assert!(is_range(ok), "{ok}");
        }
        for bad in ["latest", "", "v", "~", "1.2.3.4", "next", "^a.b"] {
            assert!(!is_range(bad), "{bad}");
        }
    }
}
