//! SKILL011 `duplicate-skill-name`.

use crate::rules::refs::{dir_of, folder_label};
use crate::{Context, Pass};
use skein_model::{Format, Model};
use skein_syntax::{Diagnostic, FileId, Rule, Severity, Span, quote};
use std::collections::{BTreeMap, HashMap};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL011",
    name: "duplicate-skill-name",
    severity: Severity::Error,
    summary: "two skills with one name in one skills folder, or one shadowing another",
    doc: include_str!("duplicate_skill_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// Whether `scope` is the skills folder of a plugin (Claude Code or Agent
/// Plugins), whose skills are namespaced by the plugin's name and so shadow
/// nothing.
fn is_plugin_scope(cx: &Context, scope: &str) -> bool {
    let parent = dir_of(scope.trim_end_matches('/'));
    cx.repo_files
        .contains(&format!("{parent}.claude-plugin/plugin.json"))
        || cx.repo_files.contains(&format!("{parent}plugin.json"))
}

struct Def<'a> {
    file: FileId,
    span: Span,
    scope: &'a str,
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    // name -> definitions in path order.
    let mut by_name: BTreeMap<&str, Vec<Def>> = BTreeMap::new();
    for a in cx
        .artifacts
        .iter()
        .filter(|a| a.format == Format::AgentSkill)
    {
        let Model::Frontmatter(fm) = &a.model else {
            continue;
        };
        let Some(name) = &fm.name else { continue };
        if name.value.is_empty() {
            continue;
        }
        by_name.entry(name.value.as_str()).or_default().push(Def {
            file: a.file,
            span: name.span,
            scope: super::scope_of(cx.path(a.file)),
        });
    }
    let mut out = Vec::new();
    for (name, defs) in by_name.iter().filter(|(_, d)| d.len() > 1) {
        // One walk per name, in path order (linear in the definitions: a
        // generated monorepo repeats a name thousands of times). The first
        // definition of each scope, and the first outside plugin scopes in
        // any scope and in a client scope, are what a later one is compared
        // with; a later copy in the same scope never comes first.
        let mut first_in_scope: HashMap<&str, &Def> = HashMap::with_capacity(defs.len());
        let mut first_free: Option<&Def> = None;
        let mut first_free_client: Option<&Def> = None;
        for d in defs {
            if let Some(first) = first_in_scope.get(d.scope) {
                out.push(
                    Diagnostic::new(
                        RULE,
                        d.file,
                        d.span,
                        format!(
                            "skill name {} is already defined in {}",
                            quote(name),
                            folder_label(d.scope)
                        ),
                    )
                    .with_label("defined again here")
                    .with_secondary(first.file, first.span, "first defined here")
                    .with_help(
                        "give each skill of a folder its own name (equal to its folder name)",
                    ),
                );
                continue;
            }
            first_in_scope.insert(d.scope, d);
            if is_plugin_scope(cx, d.scope) {
                continue;
            }
            let client = super::is_client_scope(d.scope);
            // Two folders shadow each other only when a client loads at
            // least one of them by itself; two distribution folders
            // (`skills/` of two repositories) are never loaded together.
            let shadowed = if client {
                first_free
            } else {
                first_free_client
            };
            if let Some(first) = shadowed {
                let mut w = Diagnostic::new(
                    RULE,
                    d.file,
                    d.span,
                    format!(
                        "skill name {} is also defined in {}",
                        quote(name),
                        folder_label(first.scope)
                    ),
                )
                .with_label("shadows or is shadowed by the other skill")
                .with_secondary(first.file, first.span, "first defined here")
                .with_note("a client that loads both folders keeps only one skill of a name")
                .with_help(
                    "rename one of the skills if they differ; remove the copy if they are the same",
                );
                w.severity = Severity::Warning;
                out.push(w);
            }
            first_free.get_or_insert(d);
            if client {
                first_free_client.get_or_insert(d);
            }
        }
    }
    out
}
