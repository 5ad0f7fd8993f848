//! PLUGIN004 `invalid-component-path`.

use super::{kind_name, manifests, root_mapping};
use crate::RepoFiles;
use crate::rules::refs::folder_label;
use crate::{Context, Pass};
use skein_model::graph::{join, plugin_root};
use skein_syntax::{Diagnostic, FileId, NodeId, NodeKind, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "PLUGIN004",
    name: "invalid-component-path",
    severity: Severity::Error,
    summary: "a plugin component path that is not `./`-relative, escapes the plugin or names nothing",
    doc: include_str!("invalid_component_path.md"),
    fix: Some(skein_syntax::Applicability::Safe),
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

/// What a component path must name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    /// A file or a folder (commands, agents, output styles).
    Either,
    /// A folder (skills: a skill folder or a folder of skills).
    Folder,
    /// A file (hooks, MCP and LSP configs); an inline object is allowed too.
    File,
}

/// Component members, what each names, and whether an inline object is allowed.
const MEMBERS: &[(&str, Want, bool)] = &[
    ("commands", Want::Either, false),
    ("agents", Want::Either, false),
    ("skills", Want::Folder, false),
    ("workflows", Want::Either, false),
    ("outputStyles", Want::Either, false),
    ("hooks", Want::File, true),
    ("mcpServers", Want::File, true),
    ("lspServers", Want::File, true),
];

/// Members whose files are Markdown (`commands/*.md`, `agents/*.md`,
/// `output-styles/*.md` in the plugins reference's layout).
const MARKDOWN_MEMBERS: &[&str] = &["commands", "agents", "outputStyles"];

/// Whether `path` ends in `ext` (`.md`), in any case.
fn has_extension(path: &str, ext: &str) -> bool {
    path.len() >= ext.len()
        && path.is_char_boundary(path.len() - ext.len())
        && path[path.len() - ext.len()..].eq_ignore_ascii_case(ext)
}

fn is_file(files: &RepoFiles, p: &str) -> bool {
    files.contains(p)
}

fn is_folder(files: &RepoFiles, p: &str) -> bool {
    let dir = if p.is_empty() {
        String::new()
    } else {
        format!("{p}/")
    };
    files.starting_with(&dir).next().is_some()
}

fn diag(file: FileId, span: Span, msg: String, label: &str) -> Diagnostic {
    Diagnostic::new(RULE, file, span, msg).with_label(label)
}

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
        let base_dir = base.trim_end_matches('/');
        for &(member, want, inline) in MEMBERS {
            let Some(v) = doc.get(root, member) else {
                continue;
            };
            let items: Vec<NodeId> = match doc.kind(v) {
                NodeKind::Sequence(_) => doc.items(v).unwrap_or(&[]).to_vec(),
                _ => vec![v],
            };
            for i in items {
                let span = doc.node(i).span;
                let Some(p) = doc.as_str(i) else {
                    if inline && matches!(doc.kind(i), NodeKind::Mapping(_)) {
                        continue;
                    }
                    out.push(diag(
                        a.file,
                        span,
                        format!("`{member}` holds {}, not a path", kind_name(doc, i)),
                        if inline {
                            "expected a `./` path, a list of them, or an inline object"
                        } else {
                            "expected a `./` path or a list of them"
                        },
                    ));
                    continue;
                };
                // `skills` also takes `"."` for the plugin root (Claude Code
                // v2.1.221 and later; earlier versions need `"./"`).
                let p = if member == "skills" && p == "." {
                    "./"
                } else {
                    p
                };
                if !p.starts_with("./") {
                    let mut d = diag(
                        a.file,
                        span,
                        format!("`{member}` path {} does not start with `./`", quote(p)),
                        "component paths are relative to the plugin root and start with `./`",
                    );
                    let rest = p
                        .strip_prefix("${CLAUDE_PLUGIN_ROOT}/")
                        .unwrap_or(p)
                        .trim_start_matches('/');
                    if let Some(inner) = rest.strip_prefix(".claude-plugin/") {
                        // A component inside `.claude-plugin/` is never loaded.
                        d = d
                            .with_note("component folders sit at the plugin root, beside `.claude-plugin/`, never inside it")
                            .with_help(format!("move it to the plugin root and write `./{inner}`"));
                    } else if !p.contains("://") && !rest.is_empty() && !rest.starts_with("..") {
                        d = d.with_help(format!("write `./{rest}`"));
                        // The same place, spelled `./`: not from an
                        // absolute path, which names another one.
                        if !p.starts_with('/') {
                            let text = cx.sources.get(a.file).text();
                            d = d.with_fix_opt(
                                crate::fix::replace_string(doc, i, text, &format!("./{rest}")).map(
                                    |e| {
                                        skein_syntax::Fix::safe(
                                            format!("write `./{rest}`"),
                                            vec![e],
                                        )
                                    },
                                ),
                            );
                        }
                    }
                    out.push(d);
                    continue;
                }
                let target = join(base, p).filter(|t| {
                    base_dir.is_empty() || t == base_dir || t.starts_with(&format!("{base_dir}/"))
                });
                let Some(target) = target else {
                    out.push(
                        diag(
                            a.file,
                            span,
                            format!("`{member}` path {} leaves the plugin folder", quote(p)),
                            "climbs above the plugin root",
                        )
                        .with_note(
                            "installed plugins are copied to a cache: files outside the plugin root are not there",
                        ),
                    );
                    continue;
                };
                let (file, folder) = (
                    is_file(cx.repo_files, &target),
                    is_folder(cx.repo_files, &target),
                );
                let problem = match (file, folder, want) {
                    (false, false, _) => Some((
                        format!(
                            "`{member}` path {} does not exist relative to {}",
                            quote(p),
                            folder_label(base)
                        ),
                        "no such file or folder (an empty folder counts as none: git does not keep it, so no clone has it)",
                    )),
                    (true, _, Want::Folder) => Some((
                        format!("`{member}` path {} is a file, not a folder", quote(p)),
                        "skills are folders (a skill with its SKILL.md, or a folder of skills)",
                    )),
                    (false, true, Want::File) => Some((
                        format!("`{member}` path {} is a folder, not a file", quote(p)),
                        "expected a JSON configuration file",
                    )),
                    // A file of the wrong kind: Claude Code reads commands,
                    // agents and output styles as Markdown, configurations
                    // as JSON.
                    (true, false, Want::File) if !has_extension(&target, ".json") => Some((
                        format!("`{member}` path {} is not a JSON file", quote(p)),
                        "hooks, MCP and LSP configurations are JSON (`.json`) files",
                    )),
                    (true, false, Want::Either)
                        if MARKDOWN_MEMBERS.contains(&member) && !has_extension(&target, ".md") =>
                    {
                        Some((
                            format!("`{member}` path {} is not a Markdown file", quote(p)),
                            "commands, agents and output styles are Markdown (`.md`) files",
                        ))
                    }
                    _ => None,
                };
                if let Some((msg, label)) = problem {
                    out.push(
                        diag(a.file, span, msg, label)
                            .with_note(format!("resolved from the plugin root to `{target}`")),
                    );
                }
            }
        }
    }
    out
}
