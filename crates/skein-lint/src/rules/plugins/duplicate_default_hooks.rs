//! PLUGIN017 `duplicate-default-hooks`.

use super::{manifests, root_mapping};
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN017",
    name: "duplicate-default-hooks",
    severity: Severity::Error,
    summary: "a plugin manifest `hooks` path naming `hooks/hooks.json`, which Claude Code already loads by itself",
    doc: include_str!("duplicate_default_hooks.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// `path` with `./` and `.` segments and doubled slashes dropped and `..`
/// applied (`None` when it climbs out of the plugin).
fn normalise(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        // Only `.claude-plugin/plugin.json` has a default hooks file beside
        // its plugin root.
        if !cx.path(a.file).ends_with(".claude-plugin/plugin.json") {
            continue;
        }
        let Some(hooks) = root_mapping(doc).and_then(|r| doc.get(r, "hooks")) else {
            continue;
        };
        let values = match doc.kind(hooks) {
            NodeKind::String(_) => vec![hooks],
            NodeKind::Sequence(_) => doc.items(hooks).unwrap_or_default().to_vec(),
            _ => continue,
        };
        for v in values {
            let Some(p) = doc.as_str(v) else {
                continue;
            };
            if normalise(p).as_deref() != Some("hooks/hooks.json") {
                continue;
            }
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(v).span,
                    format!(
                        "`hooks` names {}, the plugin's default hooks file, which Claude Code loads without being told",
                        quote(p)
                    ),
                )
                .with_label("loaded a second time")
                .with_note("Claude Code stops with \"Duplicate hooks file detected\" and marks the plugin `hook-load-failed`")
                .with_help("remove this path; list only additional hooks files in `hooks`"),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalise;

    #[test]
    fn paths() {
        assert_eq!(
            normalise("./hooks/hooks.json").as_deref(),
            Some("hooks/hooks.json")
        );
        assert_eq!(
            normalise("hooks//hooks.json").as_deref(),
            Some("hooks/hooks.json")
        );
        assert_eq!(
            normalise("./x/../hooks/hooks.json").as_deref(),
            Some("hooks/hooks.json")
        );
        assert_eq!(normalise("../hooks/hooks.json"), None);
        assert_eq!(
            normalise("./hooks/extra.json").as_deref(),
            Some("hooks/extra.json")
        );
    }
}
