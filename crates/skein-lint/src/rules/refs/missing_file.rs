//! REF006 `missing-file`.

use super::{dir_of, exists, folder_label};
use crate::{Context, Pass};
use skein_model::graph::join;
use skein_model::{Format, Model};
use skein_syntax::{Diagnostic, FileId, Rule, Severity, Span, quote};
use std::collections::HashSet;

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF006",
    name: "missing-file",
    severity: Severity::Error,
    summary: "a path in a manifest that names no file in the repository",
    doc: "## What it does\nChecks that the files and folders a manifest points at exist in the \
repository: a skilldrop loop's `entrypoint` (beside `loop.json`); a Bailey assistant's \
`instructions`, `persona`, `mcp` and `skills[].path` (beside `assistant.json`; a skill path \
already reported by `unknown-skill` is not reported again); a Codex or Cursor plugin manifest's \
(`.codex-plugin/plugin.json`, `.cursor-plugin/plugin.json`) `commands`, `agents`, `skills`, `hooks` and `mcpServers` when they \
are relative paths (from the plugin root, the folder above `.codex-plugin/` or `.cursor-plugin/`). A Claude Code \
plugin manifest's component paths are checked by `invalid-component-path` (PLUGIN004). A \
Bailey solution's `plugin.json` `extensions[\"org.sigrix\"].assistant` is checked from the plugin \
root. The message quotes the path and the folder it was resolved from.\n\n## Why is this bad?\nThe runtime reads these paths when it installs or \
starts the artifact: a missing entrypoint leaves a loop without its documentation, a missing \
persona or MCP config fails the assistant at load time, and a missing plugin component is \
silently skipped, so the plugin ships without the commands or agents it advertises.\n\n\
## Example\n```json\n// plugins/deploy/.codex-plugin/plugin.json\n{\"name\": \"deploy\", \
\"skills\": \"./skills/\"}\n```\nwith no `plugins/deploy/skills/`.\n\
Use instead: add the folder, or fix the path (paths are relative to the plugin root, not to \
`.codex-plugin/`).\n\n## Known problems\nPaths that climb out of the repository, absolute \
paths and URLs are not checked here.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

/// Plugin manifest members that hold component paths.
const PLUGIN_MEMBERS: &[&str] = &["commands", "agents", "skills", "hooks", "mcpServers"];

struct Ref<'a> {
    what: String,
    file: FileId,
    span: Span,
    path: &'a str,
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let unresolved: HashSet<(FileId, Span)> = cx
        .graph
        .unresolved()
        .iter()
        .map(|u| (u.file, u.span))
        .collect();
    let mut out = Vec::new();
    for a in cx.artifacts {
        let path = cx.path(a.file);
        let mut base = dir_of(path);
        let mut refs: Vec<Ref> = Vec::new();
        let mut bailey = false;
        let base_is;
        match (&a.model, a.format) {
            (Model::SkilldropLoop(l), _) => {
                base_is = "the folder of loop.json";
                refs.extend(l.entrypoint.iter().map(|e| Ref {
                    what: "entrypoint".into(),
                    file: a.file,
                    span: e.span,
                    path: &e.value,
                }));
            }
            (Model::BaileyAssistant(b), _) => {
                base_is = "the folder of assistant.json";
                bailey = true;
                for (what, v) in [
                    ("instructions", &b.instructions),
                    ("persona", &b.persona),
                    ("mcp", &b.mcp),
                ] {
                    refs.extend(v.iter().map(|v| Ref {
                        what: what.into(),
                        file: a.file,
                        span: v.span,
                        path: &v.value,
                    }));
                }
                for s in &b.skills {
                    refs.extend(s.path.iter().map(|v| Ref {
                        what: format!("skill {} path", quote(&s.name.value)),
                        file: a.file,
                        span: v.span,
                        path: &v.value,
                    }));
                }
            }
            (_, f)
                if f == Format::CodexPlugin
                    || (f == Format::ClaudePlugin && crate::rules::plugins::is_cursor(path)) =>
            {
                base = skein_model::graph::plugin_root(base);
                base_is = "the plugin root";
                let doc = &a.document;
                let Some(root) = doc.root() else { continue };
                for &member in PLUGIN_MEMBERS {
                    let Some(v) = doc.get(root, member) else {
                        continue;
                    };
                    let items: Vec<_> = match doc.items(v) {
                        Some(items) => items.to_vec(),
                        None => vec![v],
                    };
                    for i in items {
                        if let Some(p) = doc.as_str(i) {
                            refs.push(Ref {
                                what: format!("`{member}` path"),
                                file: a.file,
                                span: doc.node(i).span,
                                path: p,
                            });
                        }
                    }
                }
            }
            // A Bailey solution's `plugin.json` names its `assistant.json` in
            // `extensions["org.sigrix"].assistant`, relative to the plugin root.
            (Model::Plugin(_), _) => {
                let d = &a.document;
                let Some(v) = d.root().and_then(|r| {
                    d.get(d.get(d.get(r, "extensions")?, "org.sigrix")?, "assistant")
                }) else {
                    continue;
                };
                let Some(p) = d.as_str(v) else { continue };
                base = skein_model::graph::plugin_root(base);
                // With an `assistant.json` there, a member naming another
                // file is `assistant-not-named`'s one finding.
                if cx.repo_files.contains(&format!("{base}assistant.json")) {
                    continue;
                }
                base_is = "the plugin root";
                refs.push(Ref {
                    what: "assistant".into(),
                    file: a.file,
                    span: d.node(v).span,
                    path: p,
                });
            }
            _ => continue,
        }
        for r in refs {
            if unresolved.contains(&(r.file, r.span)) {
                continue; // reported by unknown-skill
            }
            // A Bailey path outside its `file_path` grammar (a `.` segment,
            // a backslash) is the schema's finding: one fault, one finding.
            // So is a skill path (`instructions`, `skills[].path`) that is
            // not `skills/<name>/SKILL.md`.
            let skill_ref = r.what == "instructions" || r.what.starts_with("skill ");
            let skill_shaped = r
                .path
                .strip_prefix("skills/")
                .and_then(|x| x.strip_suffix("/SKILL.md"))
                .is_some_and(|n| !n.is_empty() && !n.contains('/'));
            if bailey
                && (r.path.contains('\\')
                    || r.path
                        .split('/')
                        .any(|seg| seg.is_empty() || seg.starts_with('.'))
                    || (skill_ref && !skill_shaped))
            {
                continue;
            }
            let p = r
                .path
                .strip_prefix("${CLAUDE_PLUGIN_ROOT}/")
                .unwrap_or(r.path);
            if p.is_empty() || p.starts_with('/') || p.contains("://") || p.contains("${") {
                continue;
            }
            let Some(target) = join(base, p) else {
                continue; // climbs out of the repository
            };
            if exists(cx.repo_files, &target) {
                continue;
            }
            out.push(
                Diagnostic::new(
                    RULE,
                    r.file,
                    r.span,
                    format!(
                        "{} {} does not exist relative to {}",
                        r.what,
                        quote(r.path),
                        folder_label(base)
                    ),
                )
                .with_label("no such file or folder")
                .with_note(format!("resolved from {base_is} to `{target}`")),
            );
        }
    }
    out
}
