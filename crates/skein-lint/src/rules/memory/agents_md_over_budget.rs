//! MEM002 `agents-md-over-budget`.

use crate::{Context, Pass};
use skein_model::Format;
use skein_syntax::{Diagnostic, FileId, NodeKind, Rule, Severity, Span, quote};
use std::collections::BTreeMap;

/// The rule.
pub const RULE: Rule = Rule {
    code: "MEM002",
    name: "agents-md-over-budget",
    severity: Severity::Warning,
    summary: "an `AGENTS.md` that Codex cuts short or never reads: the chain of `AGENTS.md` files from the repository root down to it passes Codex's `project_doc_max_bytes` (32 KiB)",
    doc: include_str!("agents_md_over_budget.md"),
    fix: None,
};

/// The pass: it reads the sizes of the repository's `AGENTS.md` files, not
/// the graph.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

/// Codex's default `project_doc_max_bytes`, in bytes
/// (`DEFAULT_PROJECT_DOC_MAX_BYTES` in openai/codex, 32 KiB).
pub const DEFAULT_BUDGET: usize = 32 * 1024;

/// The file Codex reads in one folder: `AGENTS.override.md` before
/// `AGENTS.md`, an empty file skipped.
#[derive(Clone, Copy)]
struct Level {
    file: FileId,
    len: usize,
}

/// The budget the repository sets in its root `.codex/config.toml`, if it
/// sets one (a user's own `~/.codex/config.toml` is out of sight).
fn budget(cx: &Context) -> usize {
    let configured = cx.artifacts.iter().find_map(|a| {
        if a.format != Format::CodexConfig || cx.path(a.file) != ".codex/config.toml" {
            return None;
        }
        let doc = &a.document;
        let value = doc.get(doc.root()?, "project_doc_max_bytes")?;
        match doc.kind(value) {
            NodeKind::Number(n) => n.as_u64().and_then(|n| usize::try_from(n).ok()),
            _ => None,
        }
    });
    configured.unwrap_or(DEFAULT_BUDGET)
}

/// The folder of `path` (`""` at the root, else ending in `/`).
fn folder(path: &str) -> &str {
    &path[..path.rfind('/').map_or(0, |i| i + 1)]
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let budget = budget(cx);
    // The one file Codex reads per folder.
    let mut levels: BTreeMap<&str, Level> = BTreeMap::new();
    for a in cx.artifacts.iter().filter(|a| a.format == Format::AgentsMd) {
        let path = cx.path(a.file);
        let len = cx.sources.get(a.file).len();
        if len == 0 {
            continue;
        }
        let level = Level { file: a.file, len };
        let overrides = path.ends_with("AGENTS.override.md");
        levels
            .entry(folder(path))
            .and_modify(|l| {
                if overrides {
                    *l = level;
                }
            })
            .or_insert(level);
    }
    let mut out = Vec::new();
    for (&dir, level) in &levels {
        // The chain Codex reads when started in `dir`: the files of the
        // folders above it, the root's first, then its own.
        let mut above: Vec<Level> = Vec::new();
        let mut at = dir;
        while !at.is_empty() {
            at = folder(&at[..at.len() - 1]);
            if let Some(l) = levels.get(at) {
                above.push(*l);
            }
        }
        above.reverse();
        let spent: usize = above.iter().map(|l| l.len).sum();
        if spent + level.len <= budget {
            continue;
        }
        out.push(if spent >= budget {
            unread(cx, level, &above, spent, budget)
        } else {
            cut(cx, level, &above, spent, budget)
        });
    }
    out
}

/// `level`'s file, of which Codex reads the first `budget - spent` bytes.
fn cut(cx: &Context, level: &Level, above: &[Level], spent: usize, budget: usize) -> Diagnostic {
    let text = cx.sources.get(level.file).text();
    let mut at = budget - spent;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    // The rest of the line Codex stops in: the dropped text runs on to
    // the end of the file, too long to show.
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let span = Span::new(at, line_end);
    let message = if above.is_empty() {
        format!(
            "this file is {} bytes: Codex reads its first {} bytes and drops the rest",
            level.len, budget
        )
    } else {
        format!(
            "Codex reads {} bytes of instructions from the `AGENTS.md` files above this one, so it reads only the first {} of this file's {} bytes",
            spent,
            budget - spent,
            level.len
        )
    };
    let mut d = Diagnostic::new(RULE, level.file, span, message).with_label(format!(
        "Codex stops reading here, at byte {at}; the {} bytes from here on are dropped",
        text.len() - at
    ));
    for l in above {
        d = d.with_secondary(
            l.file,
            Span::empty(0),
            format!("{} bytes read first", l.len),
        );
    }
    with_advice(d, budget)
}

/// `level`'s file, which Codex never reads: the files above spend the
/// budget (`spent` bytes).
fn unread(cx: &Context, level: &Level, above: &[Level], spent: usize, budget: usize) -> Diagnostic {
    let path = cx.path(level.file);
    let mut d = Diagnostic::new(
        RULE,
        level.file,
        Span::empty(0),
        format!(
            "Codex never reads {} when started in its folder: the {} bytes of the `AGENTS.md` files above it use up the {} byte budget",
            quote(path),
            spent,
            budget
        ),
    )
    .with_label("not read");
    for l in above {
        d = d.with_secondary(
            l.file,
            Span::empty(0),
            format!("{} bytes read first", l.len),
        );
    }
    with_advice(d, budget)
}

fn with_advice(d: Diagnostic, budget: usize) -> Diagnostic {
    d.with_note(format!(
        "Codex joins the `AGENTS.md` of every folder from the project root down to where it starts, and stops at `project_doc_max_bytes` ({budget} bytes) without a word"
    ))
    .with_help("move detail into files the instructions link to, shorten the files above, or raise `project_doc_max_bytes` in `.codex/config.toml`")
}
