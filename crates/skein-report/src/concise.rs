//! Concise output: one line per diagnostic,
//! `path:line:col: severity[CODE] message [name]`, for editors, `grep` and
//! logs. Lines and columns are 1-based, columns in characters (as in the human
//! output). A path holding a control character is quoted as git quotes it
//! (`"a\nb/SKILL.md"`), so every finding stays one line and no two paths
//! read alike. The caller appends [`crate::Summary::line`].

use crate::{quote_path, sanitize};
use skein_syntax::{Diagnostic, SourceMap};

/// Renders diagnostics one per line, each ending in a newline; a finding
/// with a safe fix is marked `[*]` before its message.
pub fn render_concise(diagnostics: &[Diagnostic], sources: &SourceMap) -> String {
    render_concise_with(diagnostics, sources, false)
}

/// [`render_concise`], marking findings with an unsafe fix too when
/// `unsafe_fixes` (`--unsafe-fixes`).
pub fn render_concise_with(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    unsafe_fixes: bool,
) -> String {
    let secrets = crate::Secrets::new(diagnostics, sources);
    let diagnostics = &*secrets.diagnostics(diagnostics);
    let mut out = String::new();
    for d in diagnostics {
        let file = sources.get(d.primary.file);
        let lc = file.line_col(d.primary.span.start as usize);
        let line = format!(
            "{}:{}:{}: {}[{}] {}{} [{}]",
            quote_path(file.path()),
            lc.line,
            lc.column,
            d.severity.as_str(),
            d.rule.code,
            if crate::human::fixable(d, unsafe_fixes) {
                "[*] "
            } else {
                ""
            },
            d.message,
            d.rule.name
        );
        // One line per finding, and no terminal controls from the repository.
        out.push_str(&sanitize(&line).replace(['\n', '\r'], " "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use skein_syntax::{Rule, Severity, SourceFile, Span};

    const RULE: Rule = Rule {
        code: "REF004",
        name: "orphan-skill",
        severity: Severity::Warning,
        summary: "s",
        doc: "",
        fix: None,
    };

    #[test]
    fn one_line_each() {
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new("s/SKILL.md", "---\nname: é x\n---\n"));
        let d = Diagnostic::new(RULE, id, Span::new(13, 14), "no loop references\nskill `x`");
        assert_eq!(
            render_concise(&[d], &sources),
            "s/SKILL.md:2:9: warning[REF004] no loop references skill `x` [orphan-skill]\n"
        );
    }

    #[test]
    fn a_path_with_control_characters_is_quoted() {
        assert_eq!(quote_path("a b/SKILL.md"), "a b/SKILL.md");
        assert_eq!(quote_path("a\nb/SKILL.md"), "\"a\\nb/SKILL.md\"");
        assert_eq!(
            quote_path("x\t\"q\"\\\u{1b}[2J.md"),
            "\"x\\t\\\"q\\\"\\\\\\033[2J.md\""
        );
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new("s\nx/SKILL.md", "---\n---\n"));
        let d = Diagnostic::new(RULE, id, Span::new(0, 3), "no loop references skill `x`");
        assert_eq!(
            render_concise(&[d], &sources),
            "\"s\\nx/SKILL.md\":1:1: warning[REF004] no loop references skill `x` [orphan-skill]\n"
        );
    }
}
