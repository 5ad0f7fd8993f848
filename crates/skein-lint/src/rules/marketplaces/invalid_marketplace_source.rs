//! MKT001 `invalid-marketplace-source`.

use super::{as_dir, is_folder};
use crate::rules::refs::folder_label;
use crate::{Context, Pass};
use skein_model::graph::{EntrySource, MarketFlavour};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MKT001",
    name: "invalid-marketplace-source",
    severity: Severity::Error,
    summary: "a local marketplace source that is not `./`-relative or names no plugin folder",
    doc: include_str!("invalid_marketplace_source.md"),
    fix: Some(skein_syntax::Applicability::Safe),
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for m in cx.graph.marketplaces() {
        let root_dir = m.root.trim_end_matches('/');
        for e in &m.entries {
            let EntrySource::Local {
                written,
                span,
                target,
                via_plugin_root,
            } = &e.source
            else {
                continue;
            };
            let (span, w) = (*span, written.as_str());
            let err = |msg: String, label: &str| {
                Diagnostic::new(RULE, m.file, span, msg).with_label(label)
            };
            if w.is_empty() {
                out.push(err(
                    "marketplace source is empty".into(),
                    "expected `./<plugin folder>`",
                ));
                continue;
            }
            // With a `metadata.pluginRoot`, bare folder names are the
            // documented form (`"source": "formatter"`).
            if m.flavour.dot_slash()
                && (m.plugin_root.is_none() || w == ".")
                && !w.starts_with("./")
            {
                let mut d = err(
                    format!("marketplace source {} does not start with `./`", quote(w)),
                    "local sources are written `./<path>` from the marketplace root",
                );
                let rest = w.trim_start_matches('.').trim_start_matches('/');
                if !w.contains("://") && !w.starts_with("..") {
                    d = d.with_help(format!("write `./{rest}`"));
                }
                // `.` is the marketplace root, `./` its spelling.
                let fixed = if w == "." {
                    Some("./".to_string())
                } else {
                    (!w.contains("://") && !w.starts_with(['.', '/'])).then(|| format!("./{w}"))
                };
                if let Some(f) = fixed {
                    let text = cx.sources.get(m.file).text();
                    d = d.with_fix_opt(
                        crate::fix::replace_literal_at(text, span, w, &f)
                            .map(|e| skein_syntax::Fix::safe(format!("write `{f}`"), vec![e])),
                    );
                }
                out.push(d);
                continue;
            }
            let Some(t) = target.as_deref().filter(|t| {
                root_dir.is_empty() || *t == root_dir || t.starts_with(&format!("{root_dir}/"))
            }) else {
                out.push(err(
                    format!(
                        "marketplace source {} leaves the marketplace root",
                        quote(w)
                    ),
                    "climbs above the folder that holds the marketplace",
                ));
                continue;
            };
            let from = if *via_plugin_root {
                "the marketplace's `metadata.pluginRoot`"
            } else {
                "the marketplace root"
            };
            if cx.repo_files.contains(t) {
                out.push(
                    err(
                        format!(
                            "marketplace source {} is a file, not a plugin folder",
                            quote(w)
                        ),
                        "a plugin source names the plugin's folder",
                    )
                    .with_note(format!("resolved from {from} to `{t}`")),
                );
                continue;
            }
            if !is_folder(cx.repo_files, t) {
                out.push(
                    err(
                        format!(
                            "marketplace source {} does not exist relative to {}",
                            quote(w),
                            folder_label(&m.root)
                        ),
                        "no such folder",
                    )
                    .with_note(format!("resolved from {from} to `{t}`")),
                );
                continue;
            }
            if e.plugin.is_some() || e.strict == Some(false) {
                continue;
            }
            let dir = as_dir(t);
            // A manifest beside the components is misplaced-plugin-manifest's.
            if m.flavour != MarketFlavour::Codex
                && cx.repo_files.contains(&format!("{dir}plugin.json"))
            {
                continue;
            }
            let want = m.flavour.manifests()[0];
            let mut d = err(
                format!("marketplace source {} holds no `{want}`", quote(w)),
                "no plugin manifest in this folder",
            )
            .with_note("Claude Code then loads the default layout, with this entry as the plugin's only metadata")
            .with_note(format!("resolved from {from} to `{t}`"))
            .with_help(format!(
                "add `{dir}{want}`, or set `\"strict\": false` if this entry is the plugin's whole definition"
            ));
            d.severity = Severity::Info;
            out.push(d);
        }
    }
    out
}
