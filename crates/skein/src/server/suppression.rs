//! The "suppress with a reason" code actions: the suppression form skein
//! reads for the finding's place (docs/configuration.md, "Suppressions"
//! and "JSON suppressions"; `crate::suppress` reads them).
//!
//! - YAML files and Markdown frontmatter: a `# skein: ignore[CODE] reason`
//!   line above the finding ([`comment`]).
//! - A Markdown body: `<!-- skein: ignore[CODE] reason -->` above it.
//! - Files that hold no comment skein reads (JSON, TOML): an entry of
//!   `skein.toml`'s `ignore` list naming the file, the node that holds the
//!   finding (a JSON pointer) and the rule ([`config_entry`]).
//!
//! The reason is a placeholder for the author to replace. `SCH005
//! invalid-config` cannot be suppressed and gets no action.

use super::convert::{Encoding, path_to_uri, position};
use crate::Report;
use crate::config::{CONFIG_FILE_NAME, Config};
use lsp_types as lsp;
use skein_syntax::{Diagnostic, SourceFile};
use std::collections::HashMap;
use std::path::Path;

/// The placeholder reason an inserted suppression carries.
pub const REASON: &str = "reason: why this finding is accepted";

/// Whether a finding of `d`'s rule may be suppressed at all (`SCH005`
/// may not: a broken configuration applies none of itself).
fn suppressible(d: &Diagnostic) -> bool {
    d.rule.code != crate::config::INVALID_CONFIG.code
}

/// The comment that suppresses `d` in `source`, as an insertion: the byte
/// offset of the start of the finding's line and the comment line, with
/// that line's indentation. `None` where skein reads no comment (JSON,
/// TOML), above a frontmatter's opening `---`, and for `SCH005`.
pub fn comment(report: &Report, d: &Diagnostic, source: &SourceFile) -> Option<(usize, String)> {
    if !suppressible(d) {
        return None;
    }
    let path = source.path();
    let offset = d.primary.span.start as usize;
    let markdown = path.ends_with(".md");
    let yaml = path.ends_with(".yaml") || path.ends_with(".yml");
    let in_frontmatter = report
        .artifacts()
        .iter()
        .find(|a| a.file == d.primary.file)
        .and_then(|a| a.frontmatter.as_ref())
        .is_some_and(|f| offset < f.body_start as usize);
    let lines = source.lines();
    let line = lines.line_of(offset);
    let start = lines.line_starts()[line] as usize;
    let text = source.text();
    let indent: String = text[start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let code = d.rule.code;
    let comment = if yaml || (markdown && in_frontmatter) {
        // The frontmatter's opening `---` line takes no comment above it.
        if markdown && text[..start].trim().is_empty() {
            return None;
        }
        format!("{indent}# skein: ignore[{code}] {REASON}\n")
    } else if markdown {
        format!("{indent}<!-- skein: ignore[{code}] {REASON} -->\n")
    } else {
        return None;
    };
    Some((start, comment))
}

/// The `skein.toml` entry that suppresses `d`, for a file where skein reads
/// no comment, as an edit of the configuration in force (`config`, found
/// from `root` as the CLI finds it) or, without one, the creation of
/// `root/skein.toml`.
///
/// The entry is `{ path, pointer, rule, reason }`: `path` the file's path
/// relative to the configuration's folder, glob characters escaped;
/// `pointer` the deepest node of the file's document that holds the
/// finding's primary span (left out when that is the whole file). It goes
/// first into an `ignore = [...]` array written before the file's first
/// table (TOML allows one spelling of a key per file), otherwise at the end
/// as an `[[ignore]]` table. `None` for findings in the configuration
/// itself, in files that take a comment, for `SCH005`, and where there is
/// no configuration to edit and the client applies no `create` resource
/// operation (`create_files` false: it declared no
/// `workspace.workspaceEdit.resourceOperations` with `create`).
pub fn config_entry(
    report: &Report,
    d: &Diagnostic,
    source: &SourceFile,
    config: &Config,
    root: &Path,
    enc: Encoding,
    create_files: bool,
) -> Option<lsp::WorkspaceEdit> {
    let path = source.path();
    if !suppressible(d) || path.rsplit('/').next() == Some(CONFIG_FILE_NAME) || comment_form(path) {
        return None;
    }
    let pointer = report
        .artifacts()
        .iter()
        .find(|a| a.file == d.primary.file)
        .map(|a| a.document.pointer_to(d.primary.span))
        .unwrap_or_default();
    let fields = |sep: &str| {
        let mut f = vec![format!(
            "path = {}",
            toml_string(&glob_escape(&config.glob_path(path)))
        )];
        if !pointer.is_empty() {
            f.push(format!("pointer = {}", toml_string(&pointer)));
        }
        f.push(format!("rule = {}", toml_string(d.rule.code)));
        f.push(format!("reason = {}", toml_string(REASON)));
        f.join(sep)
    };
    let Some((display, text)) = &config.source else {
        if !create_files {
            return None;
        }
        let uri = path_to_uri(&root.join(CONFIG_FILE_NAME));
        let start = lsp::Position::new(0, 0);
        return Some(lsp::WorkspaceEdit {
            changes: None,
            document_changes: Some(lsp::DocumentChanges::Operations(vec![
                lsp::DocumentChangeOperation::Op(lsp::ResourceOp::Create(lsp::CreateFile {
                    uri: uri.clone(),
                    options: Some(lsp::CreateFileOptions {
                        overwrite: Some(false),
                        ignore_if_exists: Some(true),
                    }),
                    annotation_id: None,
                })),
                lsp::DocumentChangeOperation::Edit(lsp::TextDocumentEdit {
                    text_document: lsp::OptionalVersionedTextDocumentIdentifier {
                        uri,
                        version: None,
                    },
                    edits: vec![lsp::OneOf::Left(lsp::TextEdit {
                        range: lsp::Range::new(start, start),
                        new_text: format!("[[ignore]]\n{}\n", fields("\n")),
                    })],
                }),
            ])),
            change_annotations: None,
        });
    };
    let file = SourceFile::new(display.clone(), text.clone());
    let (at, new_text) = match inline_ignore_array(text) {
        Some(open) => (open, format!("{{ {} }}, ", fields(", "))),
        None => {
            let sep = if text.is_empty() || text.ends_with("\n\n") {
                ""
            } else if text.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            };
            (text.len(), format!("{sep}[[ignore]]\n{}\n", fields("\n")))
        }
    };
    let p = position(&file, at, enc);
    Some(lsp::WorkspaceEdit {
        changes: Some(HashMap::from([(
            path_to_uri(&lexical(&root.join(display))),
            vec![lsp::TextEdit {
                range: lsp::Range::new(p, p),
                new_text,
            }],
        )])),
        document_changes: None,
        change_annotations: None,
    })
}

/// `path` with its `..` and `.` components folded away (the configuration
/// is named relative to the project root, `../../skein.toml`; a client
/// wants the file's own path).
fn lexical(path: &Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Whether skein reads suppression comments in the file at `path`.
fn comment_form(path: &str) -> bool {
    [".md", ".yaml", ".yml"].iter().any(|e| path.ends_with(e))
}

/// The byte offset just after the `[` of a top-level `ignore = [` line
/// written before the first table header of `text`.
fn inline_ignore_array(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with('[') {
            return None;
        }
        let key = t.strip_prefix("ignore").map(str::trim_start);
        if let Some(rest) = key.and_then(|r| r.strip_prefix('=')) {
            let rest = rest.trim_start();
            if rest.starts_with('[') {
                return Some(offset + line.len() - rest.len() + 1);
            }
            return None;
        }
        offset += line.len();
    }
    None
}

/// `s` as a TOML basic string (`"..."`): `"`, `\\` and control
/// characters escaped. (The `toml` crate's own rendering picks a literal
/// string, `'a"b'`, for a value that holds a `"`.)
fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `path` as a glob that matches only itself: each glob character in a
/// class of its own.
fn glob_escape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}') {
            out.push('[');
            out.push(c);
            out.push(']');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inline_array_is_found_before_the_first_table_only() {
        let t = "select = [\"FLOW\"]\nignore = [\"REF004\"]\n";
        assert_eq!(
            &t[..inline_ignore_array(t).unwrap()],
            "select = [\"FLOW\"]\nignore = ["
        );
        assert_eq!(inline_ignore_array("ignore=[]\n"), Some(8));
        assert_eq!(inline_ignore_array("[severity]\nignore = [\"X\"]\n"), None);
        assert_eq!(inline_ignore_array("ignored = [\"X\"]\n"), None);
        assert_eq!(inline_ignore_array("[[ignore]]\npath = \"a\"\n"), None);
    }

    #[test]
    fn glob_characters_are_escaped() {
        assert_eq!(glob_escape("a/[id]/x*.json"), "a/[[]id[]]/x[*].json");
        assert_eq!(toml_string("a\"b"), "\"a\\\"b\"");
    }

    #[test]
    fn toml_strings_are_basic_strings_that_read_back_as_written() {
        for s in [
            "a\"b",
            "C:\\x\\y.json",
            "it's",
            "tab\there",
            "nl\n\u{7f}",
            "é/[x]",
        ] {
            let t = toml_string(s);
            assert!(t.starts_with('"') && t.ends_with('"'), "{t}");
            let v: toml::Table = toml::from_str(&format!("k = {t}")).unwrap();
            assert_eq!(v["k"].as_str(), Some(s), "{t}");
        }
        assert_eq!(toml_string("C:\\a\u{1}"), "\"C:\\\\a\\u0001\"");
    }
}
