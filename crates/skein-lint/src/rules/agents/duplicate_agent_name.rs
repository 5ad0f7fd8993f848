//! AGENT009 `duplicate-agent-name`.

use super::{inner_span, subagent};
use crate::{Context, Pass};
use skein_syntax::{Diagnostic, FileId, Rule, Severity, SourceFile, Span, quote};
use std::collections::HashMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "AGENT009",
    name: "duplicate-agent-name",
    severity: Severity::Error,
    summary: "two subagents with one `name` in one folder (error), or a project subagent shadowing another (warning)",
    doc: include_str!("duplicate_agent_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// One subagent's name.
struct Named<'a> {
    file: FileId,
    path: &'a str,
    /// The folder holding `agents/` (`plugins/p/`, `.claude/`, `` for a root `agents/`).
    home: &'a str,
    name: &'a str,
    /// The `name` value as written, where it is, and the file: its span is
    /// read from the text only for a finding.
    value: (&'a str, Span, &'a SourceFile),
}

impl Named<'_> {
    /// The span of the name's text (inside the quotes of a quoted scalar).
    fn span(&self) -> Span {
        let (value, at, source) = self.value;
        inner_span(source.text(), at, value)
    }

    /// For a `.claude/agents/` scope, the project folder it belongs to.
    fn project(&self) -> Option<&str> {
        let h = self.home.strip_suffix(".claude/")?;
        (h.is_empty() || h.ends_with('/')).then_some(h)
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut all: Vec<Named> = Vec::new();
    for a in cx.artifacts {
        let Some(agent) = subagent(cx, a) else {
            continue;
        };
        let Some(node) = agent.field("name") else {
            continue;
        };
        let Some(value) = agent.doc.as_str(node) else {
            continue;
        };
        let name = value.trim();
        if name.is_empty() {
            continue;
        }
        let path = cx.path(a.file);
        // A `.claude/agents/` with subfolders is one scope.
        let claude = path
            .find(".claude/agents/")
            .filter(|&i| i == 0 || path[..i].ends_with('/'))
            .map(|i| &path[..i + ".claude/".len()]);
        let Some(home) = claude.or_else(|| {
            path.rfind('/')
                .and_then(|i| path[..i].strip_suffix("agents"))
        }) else {
            continue;
        };
        all.push(Named {
            file: a.file,
            path,
            home,
            name,
            value: (value, agent.doc.node(node).span, agent.source),
        });
    }
    // The definitions of each name, in the order of `all`: a name's
    // definitions are compared with each other only.
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, n) in all.iter().enumerate() {
        by_name.entry(n.name).or_default().push(i);
    }
    let mut out = Vec::new();
    for (i, b) in all.iter().enumerate() {
        let same_name = &by_name[b.name];
        // One folder: the first earlier file of the same name.
        if let Some(first) = same_name
            .iter()
            .take_while(|&&j| j < i)
            .map(|&j| &all[j])
            .find(|a| a.home == b.home)
        {
            out.push(
                Diagnostic::new(
                    RULE,
                    b.file,
                    b.span(),
                    {
                        let dir = |p: &str| p.rfind('/').map_or("", |i| &p[..i]).to_string();
                        let place = if dir(first.path) == dir(b.path) {
                            "this folder".to_string()
                        } else {
                            format!("`{}agents/`", b.home)
                        };
                        format!("subagent name {} is already defined in {place}", quote(b.name))
                    },
                )
                .with_label("second definition")
                .with_secondary(first.file, first.span(), "first defined here")
                .with_note("subagents are told apart by `name`, not by file: only one of the two is loaded")
                .with_help("rename one of them, or delete the copy"),
            );
            continue;
        }
        // A project subagent in an enclosing project shadowing this one, or
        // shadowed by it: reported once, at the inner (shadowed) definition.
        let Some(outer) = same_name
            .iter()
            .map(|&j| &all[j])
            .find(|a| a.home != b.home && a.project().is_some_and(|p| b.home.starts_with(p)))
        else {
            continue;
        };
        let mut d = Diagnostic::new(
            RULE,
            b.file,
            b.span(),
            format!(
                "subagent name {} is also defined by the project's `{}`",
                quote(b.name),
                outer.path
            ),
        )
        .with_label("shadowed definition")
        .with_secondary(outer.file, outer.span(), "this one takes precedence")
        .with_note("when two scopes define one name, Claude Code loads the higher-priority one (a project's `.claude/agents/` over a plugin's `agents/`)")
        .with_help("rename one of them if both are meant to be used");
        d.severity = Severity::Warning;
        out.push(d);
    }
    out
}
