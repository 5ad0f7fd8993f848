//! MEM003 `long-memory-file`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MEM003",
    name: "long-memory-file",
    severity: Severity::Info,
    summary: "a `CLAUDE.md` over the 200 lines Claude Code's documentation sets as the target",
    doc: include_str!("long_memory_file.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeMemory]),
};

/// The documented target, in lines.
pub const MAX_LINES: usize = 200;

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    // The documented target is for `CLAUDE.md` files, not `.claude/rules/`.
    if a.format != Format::ClaudeMemory || !super::is_claude_md(cx.path(a.file)) {
        return Vec::new();
    }
    let text = cx.sources.get(a.file).text();
    let Some((lines, span)) = crate::rules::lines_over(text, MAX_LINES) else {
        return Vec::new();
    };
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!("this memory file has {lines} lines; Claude Code's documentation targets under {MAX_LINES}"),
        )
        .with_label(format!("line {} of the file", MAX_LINES + 1))
        .with_note("Claude Code loads the whole file into every session: a longer file takes more of the context and its instructions are followed less reliably")
        .with_help("keep the facts every session needs here; move procedures into skills, path-specific rules into `.claude/rules/`, and detail into files it links or imports"),
    ]
}
