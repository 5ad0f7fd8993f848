//! SEC008 `library-injection-env`.

use super::{servers, shell, shell_sites, site_span};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, NodeId, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC008",
    name: "library-injection-env",
    severity: Severity::Warning,
    summary: "an environment variable that loads code into every process (`LD_PRELOAD`, `DYLD_*`, `NODE_OPTIONS=--require`)",
    doc: include_str!("library_injection_env.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Any,
};

/// What setting `name` to `value` injects, if it injects code.
pub(crate) fn injects(name: &str, value: &str) -> Option<&'static str> {
    if value.trim().is_empty() {
        return None;
    }
    match name {
        "LD_PRELOAD" | "LD_AUDIT" => Some("a shared library into every program it starts"),
        "BASH_ENV" => Some("a script into every non-interactive bash"),
        n if n.starts_with("DYLD_") => Some("libraries into every program it starts (macOS)"),
        "NODE_OPTIONS" => value
            .split_whitespace()
            .any(|w| {
                matches!(
                    w.split('=').next().unwrap_or(w),
                    "--require" | "-r" | "--import" | "--loader" | "--experimental-loader"
                )
            })
            .then_some("a module into every Node.js process"),
        _ => None,
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let doc = &a.document;
    let mut out = Vec::new();
    let mut maps: Vec<(NodeId, String)> = Vec::new();
    for s in servers(a) {
        for key in ["env", "environment"] {
            if let Some(m) = doc.get(s.node, key) {
                maps.push((m, format!("the `{key}` of MCP server {}", quote(&s.name))));
            }
        }
    }
    if a.format == Format::ClaudeSettings
        && let Some(m) = doc.root().and_then(|r| doc.get(r, "env"))
    {
        maps.push((m, "the settings `env`".into()));
    }
    for (m, whose) in maps {
        for e in doc.entries(m).unwrap_or_default() {
            let (Some(name), Some(value)) = (doc.as_str(e.key), doc.as_str(e.value)) else {
                continue;
            };
            if let Some(what) = injects(name, value) {
                out.push(diagnostic(
                    a,
                    Span::new(
                        doc.node(e.key).span.start as usize,
                        doc.node(e.value).span.end as usize,
                    ),
                    name,
                    value,
                    what,
                    &whose,
                ));
            }
        }
    }
    for site in shell_sites(cx, a).iter() {
        let cs: Vec<char> = site.chars.iter().map(|c| c.0).collect();
        for p in shell::parse(&cs) {
            for st in &p {
                for w in &st.words {
                    let Some((name, value)) = w.text.split_once('=') else {
                        continue;
                    };
                    if !shell::is_assignment(&w.text) {
                        continue;
                    }
                    if let Some(what) = injects(name, value)
                        && let Some(span) = site_span(site, &w.chars)
                        && !out.iter().any(|d: &Diagnostic| d.primary.span == span)
                    {
                        out.push(diagnostic(a, span, name, value, what, &site.whose));
                    }
                }
            }
        }
    }
    out
}

fn diagnostic(
    a: &Artifact,
    span: Span,
    name: &str,
    value: &str,
    what: &str,
    whose: &str,
) -> Diagnostic {
    Diagnostic::new(
        RULE,
        a.file,
        span,
        format!("{whose} sets `{name}` to {}: it loads {what}", quote(value)),
    )
    .with_label("code injected into other processes")
    .with_help("remove the variable; load what the tool needs through its own configuration")
}
