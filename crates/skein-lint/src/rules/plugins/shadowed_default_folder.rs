//! PLUGIN008 `shadowed-default-folder`.

use super::{manifests, root_mapping};
use crate::{Context, Pass};
use skein_model::graph::{join, plugin_root};
use skein_syntax::{Diagnostic, NodeId, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN008",
    name: "shadowed-default-folder",
    severity: Severity::Warning,
    summary: "a plugin manifest path that replaces a default component folder which still holds files",
    doc: include_str!("shadowed_default_folder.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

/// The manifest keys whose paths replace a default folder, and that folder.
const REPLACING: &[(&str, &str)] = &[
    ("commands", "commands"),
    ("agents", "agents"),
    ("workflows", "workflows"),
    ("outputStyles", "output-styles"),
    ("experimental.themes", "themes"),
    ("experimental.monitors", "monitors"),
];

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in manifests(cx) {
        let doc = &a.document;
        let Some(root) = root_mapping(doc) else {
            continue;
        };
        let path = cx.path(a.file);
        let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        let base = plugin_root(dir);
        for &(key, folder) in REPLACING {
            let v = key.split('.').try_fold(root, |n, k| doc.get(n, k));
            let Some(v) = v else { continue };
            let items: Vec<NodeId> = match doc.kind(v) {
                NodeKind::Sequence(_) => doc.items(v).unwrap_or(&[]).to_vec(),
                NodeKind::String(_) => vec![v],
                _ => continue,
            };
            let Some(default) = join(base, folder) else {
                continue;
            };
            let prefix = format!("{default}/");
            let held = cx.repo_files.starting_with(&prefix).count();
            if held == 0 {
                continue;
            }
            // A listed path into the default folder keeps (part of) it.
            let names_default = items.iter().any(|&i| {
                doc.as_str(i)
                    .and_then(|p| join(base, p))
                    .is_some_and(|t| t == default || t.starts_with(&prefix))
            });
            if names_default {
                continue;
            }
            let files = if held == 1 { "file" } else { "files" };
            out.push(
                Diagnostic::new(
                    RULE,
                    a.file,
                    doc.node(v).span,
                    format!(
                        "{} replaces the default `{folder}/` folder, whose {held} {files} Claude Code no longer loads",
                        quote(key)
                    ),
                )
                .with_label(format!("set here, so `{folder}/` is not scanned"))
                .with_help(format!(
                    "list the default folder too (`[\"./{folder}/\", ...]`) or move its files to the listed paths"
                )),
            );
        }
    }
    out
}
