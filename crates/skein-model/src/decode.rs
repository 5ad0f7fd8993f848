//! One file from bytes to a validated, typed artifact (DESIGN.md §2:
//! parse -> Document -> decode + schema validation).

use crate::classify::{Candidate, Refined, refine};
use crate::format::{Format, Syntax};
use crate::models::*;
use crate::rules;
use crate::schema;
use serde::de::DeserializeOwned;
use skein_syntax::{
    Diagnostic, Document, FileId, Frontmatter, MarkdownBody, Parsers, Span, from_node, rules as syn,
};

/// Values alias expansion may add to a document (beyond the values the
/// document itself holds) before [`decode`] gives up on schema validation and
/// on the typed model: an alias bomb costs at most this much work. The
/// spanned tree itself never expands aliases.
pub const EXPANSION_LIMIT: usize = 100_000;

/// Schema violations reported per file; the rest are counted in one more
/// diagnostic, so a generated file cannot flood the output.
pub const MAX_SCHEMA_DIAGNOSTICS: usize = 50;

/// Syntax diagnostics reported per file (every code of the syntax layer
/// counted together); the rest are counted in one more diagnostic, so a
/// generated or hostile file (a 10 MB line of bad numbers) cannot flood the
/// output or make rendering quadratic.
pub const MAX_SYNTAX_DIAGNOSTICS: usize = 50;

/// A recognised, decoded artifact.
#[derive(Debug, Clone)]
pub struct Artifact {
    /// The file.
    pub file: FileId,
    /// Its format, after content refinement.
    pub format: Format,
    /// The spanned value tree (for Markdown: of the frontmatter).
    pub document: Document,
    /// For Markdown artifacts: where the frontmatter is.
    pub frontmatter: Option<Frontmatter>,
    /// For Markdown artifacts: the body's links, code spans, strong emphasis,
    /// headings and table cells (agentmd grammar, `references.scm`); `None`
    /// when the body holds no link or comment and the format reads nothing
    /// else of it (`Parsers::parse_markdown_links`). Boxed: most artifacts
    /// have none, and a run holds an artifact per file (issue #17).
    pub body: Option<Box<MarkdownBody>>,
    /// The typed model; [`Model::None`] when it could not be read.
    pub model: Model,
    /// Whether the tree was repaired around a syntax error, an undefined
    /// alias or a depth cut (or could not be built), or the frontmatter is
    /// unterminated: it is not what the author wrote, so rules that judge
    /// the values as written skip it.
    pub damaged: bool,
}

/// The result of [`decode`].
#[derive(Debug, Clone, Default)]
pub struct Decoded {
    /// The artifact, or `None` when the file turned out not to be one (an
    /// uncertain candidate), is of an unrecognised shape, or is not UTF-8.
    pub artifact: Option<Artifact>,
    /// Syntax, schema and decode diagnostics of the file.
    pub diagnostics: Vec<Diagnostic>,
    /// The file's comments (YAML, JSONC, Markdown frontmatter and body HTML
    /// comments), for inline suppressions; see `skein_syntax::Parsed::comments`.
    pub comments: Vec<Span>,
}

/// Whether `bytes` look like binary data rather than text in another
/// encoding: a NUL byte in the first 8,000 bytes, git's rule.
fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8000)].contains(&0)
}

/// Parses, classifies, validates and decodes one file.
///
/// `bytes` are the file's contents; `candidate` comes from
/// [`crate::classify_path`]. Never fails: problems are diagnostics.
pub fn decode(parsers: &mut Parsers, file: FileId, candidate: Candidate, bytes: &[u8]) -> Decoded {
    if matches!(
        candidate.format,
        Format::SkillReference | Format::SkillScript
    ) {
        return decode_skill_file(parsers, file, candidate, bytes);
    }
    let mut out = Decoded::default();
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.valid_up_to();
            let utf16 = bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]);
            let d = if utf16 {
                Diagnostic::new(
                    syn::NOT_UTF8,
                    file,
                    Span::new(0, 0),
                    "UTF-16 is not supported: the file starts with a UTF-16 byte-order mark",
                )
                .with_label("UTF-16 byte-order mark")
                .with_help("convert the file to UTF-8 (for example `iconv -f UTF-16 -t UTF-8`)")
            } else if looks_binary(bytes) {
                Diagnostic::new(
                    syn::NOT_UTF8,
                    file,
                    Span::new(at, at),
                    format!(
                        "binary file, not UTF-8 text (invalid at byte {at}, with NUL bytes): not analyzed as {}",
                        candidate.format.id()
                    ),
                )
                .with_label("not UTF-8 from here")
                .with_help(
                    "this path names a text artifact: was a binary file (an image, an archive, a build output) saved under its name?",
                )
            } else {
                Diagnostic::new(
                    syn::NOT_UTF8,
                    file,
                    Span::new(at, at),
                    format!("invalid UTF-8 at byte {at}"),
                )
                .with_label("the text before this is valid UTF-8")
                .with_help("save the file as UTF-8")
            };
            out.diagnostics.push(d);
            return out;
        }
    };
    let mut body = None;
    let (document, frontmatter, syntax_diags) = match candidate.syntax {
        Syntax::Json => {
            // OpenCode configs and VS Code's mcp.json are read as JSONC.
            let p = parsers.parse_json_with(file, text, candidate.jsonc);
            out.comments = p.comments;
            (p.document, None, p.diagnostics)
        }
        Syntax::Toml => {
            let p = skein_syntax::toml_front::parse_toml(file, text);
            out.comments = p.comments;
            (p.document, None, p.diagnostics)
        }
        Syntax::Yaml => {
            let p = parsers.parse_yaml(file, text);
            out.comments = p.comments;
            (p.document, None, p.diagnostics)
        }
        // Plain text: nothing to parse (rules read the source's lines; a
        // skill's scripts are read in `decode_skill_file`).
        Syntax::Text => (Document::default(), None, Vec::new()),
        Syntax::Markdown => {
            // Only a skilldrop LOOP.md is read for more than links (REF008, REF009).
            let p = if candidate.format == Format::SkilldropLoopDoc {
                parsers.parse_markdown(file, text)
            } else if candidate.format == Format::CursorRule
                && let Some(read) = cursor_globs_as_written(text)
            {
                parsers.parse_markdown_links(file, &read)
            } else {
                parsers.parse_markdown_links(file, text)
            };
            out.comments = p.comments;
            body = p.body.map(Box::new);
            (p.document, p.frontmatter, p.diagnostics)
        }
    };
    let syntax_failed = !syntax_diags.is_empty() && document.root().is_none();
    // A tree repaired around a syntax error, an undefined alias or a depth cut
    // is not what the author wrote: validating it would report the repair.
    let tree_damaged = syntax_diags.iter().any(|d| {
        [
            syn::SYNTAX_ERROR,
            syn::UNDEFINED_ALIAS,
            syn::NESTING_TOO_DEEP,
            syn::YAML_TOO_LONG,
            // Made by the syntax front only for a recursive alias, cut to
            // null in the tree.
            syn::ALIAS_EXPANSION,
        ]
        .contains(&d.rule)
    });
    let unterminated = syntax_diags
        .iter()
        .any(|d| d.rule == syn::UNTERMINATED_FRONTMATTER);
    let mut syntax_diags = syntax_diags;
    if syntax_diags.len() > MAX_SYNTAX_DIAGNOSTICS {
        // Keep the first ones in file order (the order is the fronts' own otherwise).
        syntax_diags.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let more = syntax_diags.len() - MAX_SYNTAX_DIAGNOSTICS;
        syntax_diags.truncate(MAX_SYNTAX_DIAGNOSTICS);
        let last = syntax_diags
            .last()
            .map_or(Span::empty(0), |d| d.primary.span);
        syntax_diags.push(
            Diagnostic::new(
                syn::SYNTAX_ERROR,
                file,
                Span::empty(last.end as usize),
                format!("{more} more syntax diagnostics in this file are not shown"),
            )
            .with_label(format!("the first {MAX_SYNTAX_DIAGNOSTICS} are reported")),
        );
    }
    out.diagnostics.extend(syntax_diags);
    let format = match refine(candidate, &document) {
        Refined::Format(f) => f,
        Refined::NotAnArtifact => return out,
        Refined::Unrecognised { what, why } => {
            let first_line = text.find('\n').unwrap_or(text.len()).min(200);
            let mut end = first_line;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            out.diagnostics.push(
                Diagnostic::new(rules::UNRECOGNISED_FORMAT, file, Span::new(0, end), format!("unrecognised {what}: {why}"))
                    .with_note("skein does not validate this file; map it to a format in configuration if it is one"),
            );
            return out;
        }
    };
    if syntax_failed || unterminated {
        // Nothing to validate: the syntax diagnostics say why.
        out.artifact = Some(Artifact {
            file,
            format,
            document,
            frontmatter,
            body,
            model: Model::None,
            damaged: true,
        });
        return out;
    }
    if format.syntax() == Syntax::Markdown && frontmatter.is_none() {
        if format == Format::AgentSkill {
            let end = text.find('\n').unwrap_or(text.len());
            let end = if end > 0 && text.as_bytes()[end - 1] == b'\r' {
                end - 1
            } else {
                end
            };
            out.diagnostics.push(
                Diagnostic::new(
                    rules::MISSING_FRONTMATTER,
                    file,
                    Span::new(0, end),
                    "SKILL.md has no YAML frontmatter",
                )
                .with_label("expected `---` on the first line")
                .with_notes(skein_syntax::lone_cr_note(text))
                .with_help(
                    "start the file with `---`, then `name:` and `description:`, then `---`",
                ),
            );
        }
        out.artifact = Some(Artifact {
            file,
            format,
            document,
            frontmatter,
            body,
            model: Model::None,
            damaged: tree_damaged,
        });
        return out;
    }
    let anchor = frontmatter
        .map(|f| f.open)
        .unwrap_or_else(|| Span::new(0, text.find('\n').unwrap_or(text.len())));
    let mut schema_ok = !tree_damaged;
    let mut expanded = true;
    match document.to_json(document.len() + EXPANSION_LIMIT) {
        Ok(_) if tree_damaged => {}
        Ok(instance) => {
            let mut errs = schema::validate(format, file, &document, &instance, anchor);
            schema_ok = errs.is_empty();
            if errs.len() > MAX_SCHEMA_DIAGNOSTICS {
                let more = errs.len() - MAX_SCHEMA_DIAGNOSTICS;
                errs.truncate(MAX_SCHEMA_DIAGNOSTICS);
                errs.push(
                    Diagnostic::new(
                        rules::SCHEMA_VIOLATION,
                        file,
                        anchor,
                        if more == 1 {
                            "1 more schema violation in this file is not shown".to_string()
                        } else {
                            format!("{more} more schema violations in this file are not shown")
                        },
                    )
                    .with_label(format!("the first {MAX_SCHEMA_DIAGNOSTICS} are reported")),
                );
            }
            out.diagnostics.extend(errs);
        }
        Err(limit) => {
            // At the alias whose expansion went over, else where the
            // document starts.
            let at = limit.alias.unwrap_or_else(|| {
                let span = document
                    .root()
                    .map(|r| document.node(r).span)
                    .unwrap_or(anchor);
                Span::new(span.start as usize, span.start as usize)
            });
            let label = |whole: &'static str| {
                if limit.alias.is_some() {
                    "expanding this alias goes over the limit"
                } else {
                    whole
                }
            };
            out.diagnostics.push(if limit.too_deep {
                Diagnostic::new(
                    syn::NESTING_TOO_DEEP,
                    file,
                    at,
                    format!(
                        "expanding aliases would nest values deeper than {} levels",
                        skein_syntax::MAX_DEPTH
                    ),
                )
                .with_label(label(
                    "aliases in this document stack their anchors' depths",
                ))
                .with_note("schema validation and decoding of this file are skipped")
            } else {
                Diagnostic::new(
                    syn::ALIAS_EXPANSION,
                    file,
                    at,
                    format!(
                        "expanding aliases would produce more than {} values",
                        limit.limit - document.len()
                    ),
                )
                .with_label(label("aliases in this document expand without bound"))
                .with_note("schema validation and decoding of this file are skipped")
            });
            schema_ok = false;
            expanded = false;
        }
    }
    // Decoding follows aliases too: after a failed expansion it would do the
    // unbounded work the budget just refused.
    let decoded = if expanded {
        read_model(format, &document)
    } else {
        Ok(Model::None)
    };
    let model = match decoded {
        // A loop that fails its schema is partial, whether or not it decodes.
        Ok(Model::SkilldropLoop(mut l)) if !schema_ok => {
            l.partial = true;
            Model::SkilldropLoop(l)
        }
        Ok(m) => m,
        Err(e) => {
            if schema_ok {
                out.diagnostics.push(
                    Diagnostic::new(
                        rules::DECODE_ERROR,
                        file,
                        if e.span.is_empty() && e.span.start == 0 {
                            anchor
                        } else {
                            e.span
                        },
                        format!("cannot read {} artifact: {}", format.id(), e.message),
                    )
                    .with_label("here"),
                );
            }
            Model::None
        }
    };
    out.artifact = Some(Artifact {
        file,
        format,
        document,
        frontmatter,
        body,
        model,
        damaged: tree_damaged,
    });
    out
}

/// A file bundled in a skill's folder ([`crate::skill_file`]): not UTF-8,
/// or a script whose path is not conclusive (no script extension) and
/// whose first line is not `#!`, is silently not an artifact (a data file, an image). A reference's body is parsed for
/// its links when it may link a file ([`relative_link_hint`]);
/// its frontmatter, which no client reads, is neither parsed nor checked.
/// A script is text only.
fn decode_skill_file(
    parsers: &mut Parsers,
    file: FileId,
    candidate: Candidate,
    bytes: &[u8],
) -> Decoded {
    let mut out = Decoded::default();
    let format = candidate.format;
    let Ok(text) = std::str::from_utf8(bytes) else {
        return out;
    };
    let mut body = None;
    if format == Format::SkillScript {
        if !candidate.certain && !text.starts_with("#!") {
            return out;
        }
    } else if relative_link_hint(text) {
        let p = parsers.parse_markdown(file, text);
        out.comments = p.comments;
        body = p.body.map(Box::new);
    }
    out.artifact = Some(Artifact {
        file,
        format,
        document: Document::default(),
        frontmatter: None,
        body,
        model: Model::None,
        damaged: false,
    });
    out
}

/// Whether a reference's body is parsed: when it may link another file by
/// a relative path, since the links of a reference are read only for the
/// files of its skill, and a body without such a link is not parsed (most
/// references link only the web, or nothing).
///
/// It may when some `](` or `]:` is followed by a target that is not a URL
/// (`http:`, `https:`, `mailto:`) or an in-page anchor (`#`); a `]:` counts
/// only on a line that may open a link reference definition
/// ([`skein_syntax::markdown::may_open_definition`]), which rules out the
/// `-> List[str]:` and `{d["k"]: v}` of code examples. A body that holds
/// such a `]:` but no other hint and no HTML comment is not parsed either;
/// one with a comment still is, so its comments are read as before.
///
/// Public for the benches' read+parse floor, which parses what
/// [`decode`] parses.
pub fn relative_link_hint(text: &str) -> bool {
    let local = |rest: &str| {
        let t = rest.trim_start_matches([' ', '<']);
        !(t.is_empty()
            || t.starts_with('#')
            || t.starts_with("http:")
            || t.starts_with("https:")
            || t.starts_with("mailto:")
            || t.starts_with(')'))
    };
    if text.match_indices("](").any(|(i, _)| local(&text[i + 2..])) {
        return true;
    }
    let mut colon = text
        .match_indices("]:")
        .filter(|&(i, _)| local(&text[i + 2..]))
        .peekable();
    colon.peek().is_some()
        && (memchr::memmem::find(text.as_bytes(), b"<!--").is_some()
            || colon.any(|(i, _)| skein_syntax::markdown::may_open_definition(text.as_bytes(), i)))
}

/// The typed model of an artifact, read again from its document: what
/// [`decode`] gave when its model was not [`Model::None`], for a decoded
/// state kept without its model (skein's persistent cache stores the
/// `Document`, not the model, and derives the model again on load).
/// `partial_loop` is the [`SkilldropLoop::partial`] flag decoding set (a
/// loop that failed its schema); other formats ignore it. [`Model::None`]
/// when the document does not read (never for a document [`decode`] read).
pub fn model_of(format: Format, document: &Document, partial_loop: bool) -> Model {
    match read_model(format, document) {
        Ok(Model::SkilldropLoop(mut l)) => {
            l.partial = partial_loop;
            Model::SkilldropLoop(l)
        }
        Ok(m) => m,
        Err(_) => Model::None,
    }
}

fn read<T: DeserializeOwned>(doc: &Document) -> Result<T, skein_syntax::de::DeError> {
    match doc.root() {
        Some(r) => from_node(doc, r),
        None => Err(serde::de::Error::custom("the document is empty")),
    }
}

/// A Cursor rule's text as its frontmatter is read, when it differs from
/// `text`: a top-level `globs:` whose plain value starts with `*` or `{`
/// (`globs: **/*.ts`, `globs: {src,lib}/**`) holds the patterns as
/// written, comma-separated (Cursor rules documentation, "Glob pattern
/// examples", <https://cursor.com/docs/context/rules>), not a YAML alias or
/// flow mapping. That first character is replaced by a letter of the same
/// length, so the value parses as the plain string it is and every span
/// stays the file's; the rules read the value from the source.
fn cursor_globs_as_written(text: &str) -> Option<String> {
    let fm = skein_syntax::locate_frontmatter(text).ok()??;
    let content = &text[fm.content.range()];
    let mut at = fm.content.start as usize;
    let mut out: Option<String> = None;
    for line in content.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("globs:") {
            let value = rest.trim_start_matches([' ', '\t']);
            if value.starts_with(['*', '{']) {
                let i = at + line.len() - rest.len() + (rest.len() - value.len());
                out.get_or_insert_with(|| text.to_string())
                    .replace_range(i..i + 1, "g");
            }
        }
        at += line.len();
    }
    out
}

fn read_model(format: Format, doc: &Document) -> Result<Model, skein_syntax::de::DeError> {
    Ok(match format {
        // A loop that does not decode whole still enters the model as far as
        // it can (its skills are still run, its gates still exist).
        Format::SkilldropLoop => match read(doc) {
            Ok(l) => Model::SkilldropLoop(l),
            Err(e) => Model::SkilldropLoop(Box::new(SkilldropLoop::lenient(doc).ok_or(e)?)),
        },
        Format::SkilldropTerminals => Model::SkilldropTerminals(read(doc)?),
        Format::SkilldropPack => Model::SkilldropPack(read(doc)?),
        Format::SkilldropCatalogue => Model::SkilldropCatalogue(read(doc)?),
        Format::AgentSkill | Format::PluginAgent | Format::PluginCommand => {
            if doc.root().is_none() {
                Model::None
            } else {
                Model::Frontmatter(read(doc)?)
            }
        }
        Format::OpenCodeContract => Model::OpenCodeContract(read(doc)?),
        Format::OpenCodeConfig => Model::OpenCodeConfig(read(doc)?),
        Format::LoomAgentSpec => Model::LoomAgentSpec(read(doc)?),
        Format::LoopmasterManifest => Model::LoopmasterManifest(read(doc)?),
        Format::BaileyAssistant => Model::BaileyAssistant(read(doc)?),
        Format::AgentPluginsManifest | Format::ClaudePlugin | Format::CodexPlugin => {
            Model::Plugin(read(doc)?)
        }
        Format::ClaudeMarketplace => Model::Marketplace(read(doc)?),
        Format::ClaudeHooks => Model::Hooks(read(doc)?),
        Format::McpConfig | Format::AgentPluginsMcp => Model::McpConfig(read(doc)?),
        Format::SkilldropLoopDoc
        | Format::SkillReference
        | Format::SkillScript
        | Format::ClaudeSettings
        | Format::ClaudePluginSettings
        | Format::ClaudeLspServers
        | Format::ClaudeIgnore
        | Format::GeminiSettings
        | Format::CodexHooks
        | Format::CursorHooks
        | Format::CopilotHooks
        | Format::CodexConfig
        | Format::ClaudeMemory
        | Format::AgentsMd
        | Format::GeminiMemory
        | Format::WindsurfRule
        | Format::KiroSteering
        | Format::CursorRule
        | Format::CursorLegacyRules
        | Format::CopilotInstructions
        | Format::CopilotPathInstructions
        | Format::CopilotPrompt
        | Format::CopilotAgent => Model::None,
    })
}

#[cfg(test)]
mod tests {
    use super::cursor_globs_as_written;

    #[test]
    fn cursor_globs_read_as_written() {
        let text = "---\ndescription: x\nglobs: **/*.ts, *.py\n---\nbody: *x\n";
        let read = cursor_globs_as_written(text).unwrap();
        assert_eq!(read.len(), text.len());
        assert_eq!(
            read,
            "---\ndescription: x\nglobs: g*/*.ts, *.py\n---\nbody: *x\n"
        );
        assert_eq!(
            cursor_globs_as_written("---\nglobs:\t{src,lib}/**\n---\n").as_deref(),
            Some("---\nglobs:\tgsrc,lib}/**\n---\n")
        );
        // Quoted, plain or absent: read as it is.
        assert_eq!(
            cursor_globs_as_written("---\nglobs: \"**/*.ts\"\n---\n"),
            None
        );
        assert_eq!(cursor_globs_as_written("---\nglobs: src/**\n---\n"), None);
        assert_eq!(cursor_globs_as_written("globs: **/*.ts\n"), None);
    }
}
