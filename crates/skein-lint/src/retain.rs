//! What the repository half of a run reads of each artifact (issue #17,
//! bounded memory).
//!
//! A lean run (skein's `Retention::Lean`, what `skein check` uses) runs
//! the [`Reads::Local`](crate::Reads::Local) passes of a file as soon as
//! it is decoded, then keeps of the artifact only what the graph build,
//! the repository passes ([`crate::PASSES`]) and the
//! [`Reads::Repository`](crate::Reads::Repository) file passes read: the
//! typed model, the Markdown body facts and the frontmatter spans always;
//! the document (the spanned tree) and the text as [`keep`] says.
//!
//! A wrong answer here costs time or memory, never output. A dropped
//! text that something reads is read again from the file (its hash
//! checked), and a dropped document that something reads raises the run's
//! [`skein_syntax::DropMark`], upon which the run starts again keeping
//! every tree. The table below is what the code reads today; a pass that
//! starts reading another format's tree belongs in it (the lean runs of
//! `crates/skein/tests/lean.rs` then stop falling back).

use crate::RepoFiles;
use crate::rules;
use skein_model::{Artifact, Format, Model};

/// What to keep of one artifact for the repository half of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    /// The document (the spanned tree of the file, or of its frontmatter).
    pub document: bool,
    /// The text: read whole by the repository half, so not worth dropping
    /// and reading again.
    pub text: bool,
}

/// What the repository half reads of `a`, the artifact at `path` whose
/// text is `text`, in a repository whose paths are `repo_files`.
///
/// Documents no repository-level reader opens:
/// - skilldrop loops and packs: the graph and the FLOW, REF and PERM
///   passes read their typed models;
/// - Loopmaster manifests: the graph reads the typed model, and PERM003
///   reads the manifest's own lists (a local pass);
/// - Loom agent specs: the graph reads the typed model and the spans of a
///   few values, kept without the tree ([`spans_kept`]);
/// - plugin commands: the graph reads the model's `name`;
/// - a skill's references and scripts, which have none;
/// - a `SKILL.md`'s, unless Claude Code loads the skill by itself (the
///   listing budget, SKILL031, reads its `description`), its frontmatter
///   declares `hooks` (HOOK021 reads them), its folder holds a file its
///   text does not name by its path or its file name (SKILL026 reads the
///   `name` key; it and SKILL027 pass a skill whose tree was dropped, and
///   read the others' texts for the names), or a Bailey
///   assistant beside its `skills/` folder may load it (PERM001 reads its
///   grants).
///
/// Texts read whole, or scanned for what the file's own passes cannot
/// tell (what the graph's links, REF009 and SKILL026 read of the others
/// is kept when the text is dropped, [`pieces_kept`]; a `LOOP.md`'s text
/// is read again, once for the graph's links and once for REF008):
/// - a Claude Code plugin manifest's: the PLUGIN rules read its values as
///   written;
/// - a skill's, agent's or command's that names `$CLAUDE_PLUGIN_` (PLUGIN014
///   scans the texts it is given, and passes the dropped ones).
pub fn keep(a: &Artifact, text: &str, path: &str, repo_files: &RepoFiles) -> Keep {
    let names_plugin_variable = || {
        memchr::memmem::find(
            text.as_bytes(),
            rules::plugins::unbraced_plugin_variable::PLUGIN_VARIABLE,
        )
        .is_some()
    };
    match a.format {
        Format::SkilldropLoop
        | Format::SkilldropPack
        | Format::LoopmasterManifest
        | Format::LoomAgentSpec
        | Format::SkillReference
        | Format::SkillScript
        | Format::ClaudeMemory
        | Format::GeminiMemory
        | Format::WindsurfRule
        | Format::KiroSteering
        | Format::CursorRule
        | Format::CursorLegacyRules
        | Format::CopilotInstructions
        | Format::CopilotPathInstructions
        | Format::CopilotPrompt
        | Format::CopilotAgent
        // MEM002 reads the length of every one (kept with a dropped text)
        // and the text of the few it reports.
        | Format::AgentsMd => Keep {
            document: false,
            text: false,
        },
        Format::PluginCommand => Keep {
            document: false,
            text: names_plugin_variable(),
        },
        Format::PluginAgent => Keep {
            document: true,
            text: names_plugin_variable(),
        },
        Format::AgentSkill => {
            let unnamed = path.strip_suffix("SKILL.md").is_some_and(|dir| {
                !rules::skills::unreferenced_skill_file::named_plainly(text, dir, repo_files)
            });
            let doc = &a.document;
            let hooks = doc.root().is_some_and(|r| doc.get(r, "hooks").is_some());
            Keep {
                document: unnamed
                    || hooks
                    || rules::skills::claude_loaded_in(repo_files, path)
                    || bailey_may_load(path, repo_files),
                text: names_plugin_variable(),
            }
        }
        // Every PLUGIN rule reads a Claude Code manifest's values as
        // written (`written`), and the file is small.
        Format::ClaudePlugin => Keep {
            document: true,
            text: true,
        },
        _ => Keep {
            document: true,
            text: false,
        },
    }
}

/// The JSON pointers whose spans the repository half reads of `a`'s
/// document, kept when the tree is dropped
/// ([`skein_syntax::Document::drop_keeping`]): a Loom spec's capability
/// agents and includes (the graph's delegation and library findings point
/// at them); none for other formats.
pub fn spans_kept(a: &Artifact) -> Vec<String> {
    match &a.model {
        Model::LoomAgentSpec(spec) => skein_model::graph::loom::spans_read(spec),
        _ => Vec::new(),
    }
}

/// The spans of `a`'s text (`text`, of the file at `path`) that the
/// repository half reads as written, kept when the text is dropped
/// ([`skein_syntax::SourceFile::drop_text_keeping`], read back by
/// [`skein_syntax::SourceFile::slice`] and
/// [`skein_syntax::SourceFile::pieces`]):
/// - of a configuration (neither Markdown nor a skill's script): its
///   path-like words that hold a `/`, which SKILL026 looks in for the
///   skill files a configuration runs or reads;
/// - of a `SKILL.md` whose tree is kept: the first place of each name of
///   a file or folder of its folder that SKILL026 looks for in it, and its
///   globs;
/// - of a Markdown body but a `LOOP.md`'s: the destination of every link
///   but an autolink (the graph's `Links` edges, REF007);
/// - of a `LOOP.md`: the headings that open a section REF009 requires
///   (REF009 reads no other heading of a dropped text). The graph's links and REF008
///   read its names too (code spans, strong emphasis, table cells): many
///   and short, they cost more kept (the first try kept them: 9 MB more
///   at peak on the generated 100k tree, for its 7,016 `LOOP.md`s) than
///   read again, once each.
///
/// `repo_files` are the repository's paths, `bundled` their
/// [`BundledNames`] (`None`: every path-like word is kept).
pub fn pieces_kept(
    a: &Artifact,
    text: &str,
    path: &str,
    repo_files: &RepoFiles,
    bundled: Option<&BundledNames>,
) -> Vec<skein_syntax::Span> {
    use rules::skills::unreferenced_skill_file as skill026;
    use skein_syntax::{LinkKind, Span};
    if skill026::is_configuration(a, path) {
        return skill026::path_words(text)
            .filter(|&(start, end)| bundled.is_none_or(|b| b.may_name(&text[start..end])))
            .map(|(start, end)| Span::new(start, end))
            .collect();
    }
    let mut spans = Vec::new();
    if a.format == Format::AgentSkill && !a.document.is_dropped() {
        spans = skill026::names_found(text, path, repo_files);
    }
    let Some(body) = &a.body else {
        return spans;
    };
    if a.format == Format::SkilldropLoopDoc {
        spans.extend(body.headings.iter().filter(|h| {
            text.get(h.range())
                .is_some_and(rules::refs::missing_doc_section::required)
        }));
    } else {
        spans.extend(
            body.links
                .iter()
                .filter(|l| l.kind != LinkKind::Autolink)
                .map(|l| l.target),
        );
    }
    spans
}

/// The last two parts of every path of a repository but a `SKILL.md`'s
/// (`<folder>/<file name>`, `/<file name>` at the root), by a 64-bit hash:
/// what a path-like word of a configuration must end with to name a file
/// bundled in a skill (SKILL026 looks for `<skill folder>/<path in it>`,
/// which ends so, and never for a `SKILL.md`). A word that does not is
/// not kept ([`pieces_kept`]); one that hashes the same by chance is, at
/// no cost but its bytes.
#[derive(Debug, Default)]
pub struct BundledNames(std::collections::HashSet<u64>);

impl BundledNames {
    /// The names of the paths `repo_files`.
    pub fn of(repo_files: &RepoFiles) -> BundledNames {
        BundledNames(
            repo_files
                .iter()
                .filter(|f| f.rsplit('/').next() != Some("SKILL.md"))
                .map(|f| match f.rsplit_once('/') {
                    Some((parent, name)) => {
                        let parent = parent.rsplit('/').next().unwrap_or(parent);
                        Self::hash(parent, name)
                    }
                    None => Self::hash("", f),
                })
                .collect(),
        )
    }

    fn hash(parent: &str, name: &str) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        (parent, name).hash(&mut h);
        h.finish()
    }

    /// Whether `word` (which holds a `/`) may end with a name: its last
    /// two parts are those of a path.
    fn may_name(&self, word: &str) -> bool {
        let Some((head, name)) = word.rsplit_once('/') else {
            return false;
        };
        let parent = head.rsplit('/').next().unwrap_or(head);
        self.0.contains(&Self::hash(parent, name))
    }
}

/// Whether a Bailey assistant may load the skill at `path`: it loads
/// `skills/<name>/SKILL.md` from its own folder.
fn bailey_may_load(path: &str, repo_files: &RepoFiles) -> bool {
    path.strip_suffix("/SKILL.md")
        .and_then(|p| p.rsplit_once('/'))
        .and_then(|(skills, _)| skills.strip_suffix("skills"))
        .is_some_and(|folder| repo_files.contains(&format!("{folder}assistant.json")))
}

/// Drops from `a`'s typed model what no repository-level reader reads:
/// of a frontmatter (a skill's, agent's or command's), all but its `name`
/// (the graph's node, SKILL021, REF004) and an agent's `skills` (the graph
/// attaches them); an MCP configuration's and a hooks file's models, which
/// only their own file's passes read, whole (the graph and the rules read
/// those files' trees).
pub fn trim_model(a: &mut Artifact) {
    match &mut a.model {
        Model::Frontmatter(fm) => {
            fm.description = None;
            fm.allowed_tools = None;
            fm.tools = None;
            if a.format != Format::PluginAgent {
                fm.skills = None;
            }
        }
        Model::McpConfig(_) | Model::Hooks(_) => a.model = Model::None,
        _ => {}
    }
}
