//! PLUGIN006 `misplaced-plugin-manifest`.

use super::{manifests, opening};
use crate::RepoFiles;
use crate::{Context, Pass};
use skein_model::graph::{EntrySource, MarketFlavour};
use skein_syntax::{Diagnostic, Rule, Severity};
use std::collections::HashSet;

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN006",
    name: "misplaced-plugin-manifest",
    severity: Severity::Error,
    summary: "a plugin manifest outside `.claude-plugin/`, or components inside it",
    doc: include_str!("misplaced_plugin_manifest.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

/// Component folders Claude Code looks for at the plugin root.
const COMPONENT_DIRS: &[&str] = &["commands", "agents", "skills", "hooks", "output-styles"];

fn has_under(files: &RepoFiles, dir: &str) -> bool {
    files.starting_with(dir).next().is_some()
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    // Folders a Claude Code marketplace registers as plugins (with `/`).
    let listed: HashSet<String> = cx
        .graph
        .marketplaces()
        .iter()
        .filter(|m| matches!(m.flavour, MarketFlavour::Claude | MarketFlavour::Cursor))
        .flat_map(|m| &m.entries)
        .filter_map(|e| match &e.source {
            EntrySource::Local {
                target: Some(t), ..
            } if !t.is_empty() => Some(format!("{t}/")),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for a in manifests(cx) {
        let path = cx.path(a.file);
        let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        let last = dir.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        let doc = &a.document;
        if last == ".claude-plugin" {
            for c in COMPONENT_DIRS {
                let inner = format!("{dir}{c}/");
                if has_under(cx.repo_files, &inner) {
                    out.push(
                        Diagnostic::new(
                            RULE,
                            a.file,
                            opening(doc),
                            format!("component folder `{c}/` is inside `.claude-plugin/`"),
                        )
                        .with_label("this manifest's plugin root is the folder above")
                        .with_note(format!("Claude Code does not look in `{inner}`"))
                        .with_help(format!(
                            "move `{c}/` up to the plugin root, beside `.claude-plugin/`"
                        )),
                    );
                }
            }
            continue;
        }
        if last.starts_with('.') && last.ends_with("-plugin") {
            continue; // another tool's manifest folder (`.cursor-plugin/`)
        }
        // A `plugin.json` in the plugin folder itself: Claude Code's only if
        // the folder is a Claude plugin (it has `.claude-plugin/` or a Claude
        // marketplace lists it); other tools keep their manifest there.
        let claude_dir = format!("{dir}.claude-plugin/");
        let has_claude_dir = has_under(cx.repo_files, &claude_dir);
        if !(has_claude_dir || listed.contains(dir)) {
            continue;
        }
        let why = if has_claude_dir {
            "the folder also has `.claude-plugin/`, where Claude Code reads the manifest"
        } else {
            "a Claude Code marketplace lists this folder as a plugin"
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                opening(doc),
                "plugin manifest is at the plugin root, not in `.claude-plugin/`",
            )
            .with_label("Claude Code does not read this file")
            .with_note(why)
            .with_help(format!("move it to `{claude_dir}plugin.json`")),
        );
    }
    out
}
