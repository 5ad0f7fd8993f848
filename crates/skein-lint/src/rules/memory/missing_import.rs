//! MEM001 `missing-import`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MEM001",
    name: "missing-import",
    severity: Severity::Warning,
    summary: "an `@path` import in a `CLAUDE.md` or `GEMINI.md` that names no file of the repository",
    doc: include_str!("missing_import.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeMemory, Format::GeminiMemory]),
};

/// The extensions of the files an import is taken to name: documents,
/// data and source files. `@types/node`, `@pytest.mark.parametrize` and
/// `@bob.smith` name a package, a decorator and a person.
const FILE_EXTENSIONS: &[&str] = &[
    "md", "mdx", "mdc", "markdown", "txt", "rst", "adoc", "json", "jsonc", "yaml", "yml", "toml",
    "ini", "cfg", "conf", "xml", "html", "csv", "sh", "bash", "py", "js", "mjs", "cjs", "ts",
    "tsx", "jsx", "rb", "go", "rs", "java", "kt", "swift", "c", "h", "cpp", "hpp", "cs", "php",
    "sql",
];

/// The `@path` imports of `line` (which starts at byte `at` of the file),
/// outside its code spans: an `@` at the line's start or after a space or
/// a tab, then the path up to the next space, backtick, `)`, `]` or `#`,
/// without trailing punctuation. Only a path whose file name ends in one
/// of [`FILE_EXTENSIONS`] counts: `@alice`, `@types/node` and
/// `@pytest.mark.parametrize` are a mention, a package and a decorator far
/// more often than files. Spans cover the path without the `@`.
fn imports(line: &str, at: usize) -> Vec<Span> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut in_code = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'`' => {
                in_code = !in_code;
                i += 1;
            }
            b'@' if !in_code && (i == 0 || matches!(b[i - 1], b' ' | b'\t')) => {
                let start = i + 1;
                let mut end = start;
                while end < b.len()
                    && !matches!(
                        b[end],
                        b' ' | b'\t' | b'\r' | b'\n' | b'`' | b')' | b']' | b'#'
                    )
                {
                    end += 1;
                }
                let stop = end;
                while end > start
                    && matches!(
                        b[end - 1],
                        b'.' | b',' | b';' | b':' | b'!' | b'?' | b'"' | b'\''
                    )
                {
                    end -= 1;
                }
                let path = &line[start..end];
                let name = path.rsplit('/').next().unwrap_or(path);
                let named_file = name
                    .rsplit_once('.')
                    .is_some_and(|(stem, ext)| !stem.is_empty() && FILE_EXTENSIONS.contains(&ext));
                if named_file {
                    out.push(Span::new(at + start, at + end));
                }
                i = stop.max(i + 1);
            }
            _ => i += 1,
        }
    }
    out
}

/// An import whose file `target` (written `written` at `span`) is missing.
fn missing(a: &Artifact, span: Span, written: &str, target: &str) -> Diagnostic {
    Diagnostic::new(
        RULE,
        a.file,
        span,
        format!("imported file {} does not exist", quote(written)),
    )
    .with_label(format!("no file `{target}` in the repository"))
    .with_note(if a.format == Format::GeminiMemory {
        "Gemini CLI puts an `Import failed` comment where the import was: the instructions it was meant to add are never loaded"
    } else {
        "Claude Code skips an import it cannot read without a word: the instructions it was meant to add are never loaded"
    })
    .with_help("fix the path (it is read relative to this file's folder), or remove the import")
}

/// A `GEMINI.md` import of an existing file `written` that Gemini CLI
/// reads as `token` (at `span`): the characters up to the next white
/// space are part of its path.
fn glued(a: &Artifact, span: Span, token: &str, written: &str) -> Diagnostic {
    Diagnostic::new(
        RULE,
        a.file,
        span,
        format!(
            "Gemini CLI imports {} here, not {}: it reads an import's path up to the next space",
            quote(token),
            quote(written)
        ),
    )
    .with_label("read as one path")
    .with_note("Gemini CLI puts an `Import failed` comment where the import was: the instructions it was meant to add are never loaded")
    .with_help(format!(
        "put a space or a line break right after `@{written}`, or the import on a line of its own"
    ))
}

/// At most this many findings per file, then one that says how many more.
const MAX_PER_FILE: usize = 50;

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    // Imports are documented for `CLAUDE.md` files, not `.claude/rules/`.
    let imports_read = match a.format {
        Format::ClaudeMemory => super::is_claude_md(cx.path(a.file)),
        Format::GeminiMemory => true,
        _ => false,
    };
    if !imports_read {
        return Vec::new();
    }
    let text = cx.sources.get(a.file).text();
    if !text.contains('@') {
        return Vec::new();
    }
    let path = cx.path(a.file);
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let (start, _) = crate::rules::sec::body_range(a, text);
    let mut out = Vec::new();
    // Findings past `MAX_PER_FILE`, counted, not built.
    let mut more = 0usize;
    for (line_at, line) in crate::rules::unfenced_lines(text, start) {
        if !line.contains('@') {
            continue;
        }
        for span in imports(line, line_at) {
            let written = &text[span.start as usize..span.end as usize];
            // A home (`~/…`) or absolute path is outside the repository.
            if written.starts_with('~') || written.starts_with('/') {
                continue;
            }
            let Some(target) = skein_model::graph::join(dir, written) else {
                continue;
            };
            let target = target.trim_end_matches('/');
            let exists = cx.repo_files.contains(target)
                || cx
                    .repo_files
                    .starting_with(&format!("{target}/"))
                    .next()
                    .is_some();
            if !exists {
                // Past the limit only the count grows: a generated file's
                // million imports build no million findings.
                if out.len() < MAX_PER_FILE {
                    out.push(missing(a, span, written, target));
                } else {
                    more += 1;
                }
                continue;
            }
            // Gemini CLI reads an import's path up to the next white space:
            // `@./style.md.` and `(@./style.md)` name no file for it.
            if a.format == Format::GeminiMemory {
                let from = span.end as usize;
                let to = text[from..]
                    .find([' ', '\t', '\r', '\n'])
                    .map_or(text.len(), |i| from + i);
                if to > from && out.len() >= MAX_PER_FILE {
                    more += 1;
                } else if to > from {
                    out.push(glued(
                        a,
                        Span::new(span.start as usize, to),
                        &text[span.start as usize..to],
                        written,
                    ));
                }
            }
        }
    }
    if more > 0 {
        let last = out[MAX_PER_FILE - 1].primary.span;
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                Span::empty(last.end as usize),
                format!("{more} more missing imports in this file are not shown"),
            )
            .with_label(format!("the first {MAX_PER_FILE} are reported")),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::imports;

    fn found(line: &str) -> Vec<&str> {
        imports(line, 0)
            .into_iter()
            .map(|s| &line[s.start as usize..s.end as usize])
            .collect()
    }

    #[test]
    fn imports_mentions_and_code() {
        assert_eq!(found("See @docs/guide.md."), ["docs/guide.md"]);
        assert_eq!(
            found("@README.md and @AGENTS.md"),
            ["README.md", "AGENTS.md"]
        );
        assert_eq!(found("ask @alice, mail me@example.com"), Vec::<&str>::new());
        assert_eq!(found("not `@docs/x.md` here"), Vec::<&str>::new());
        assert_eq!(found("@~/.claude/my.md"), ["~/.claude/my.md"]);
        assert_eq!(found("[see @docs/x.md](docs/g.md)"), ["docs/x.md"]);
        assert_eq!(found("@docs/guide.md#setup"), ["docs/guide.md"]);
        assert_eq!(
            found("@types/node @angular/core @pytest.mark.parametrize @bob.smith @scope/pkg@2.0"),
            Vec::<&str>::new()
        );
    }
}
