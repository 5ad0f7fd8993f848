//! Benchmarks for skein: input loading and the read+parse floor, shared by
//! the criterion benches in `benches/` (`cargo bench -p skein-benches`) and
//! the `skein-floor` binary that `cargo xtask bench-report` runs.
//!
//! Inputs come from the real corpus (`../shared/corpus/real` next to the
//! workspace, or the folder named by `SKEIN_BENCH_CORPUS`), loaded into
//! memory once, and from generated monorepos ([`generated`] in memory,
//! [`generated_tree`] on disk under `target/bench-monorepo/`), made by
//! `xtask::gen_monorepo` with the seed of the benchmark report. When the
//! corpus is absent, [`synthetic`] generates inputs of the same shapes so
//! the parser benches still run.
//!
//! The floor ([`floor`]) is what any analyzer of these files must do at
//! least: find them, read them and tree-sitter-parse them (JSON and YAML
//! whole, Markdown's frontmatter in place), nothing else.

use rayon::prelude::*;
use skein_model::decode::relative_link_hint;
use skein_model::{Candidate, Format, Syntax, classify_in_repo, classify_path, skill_file_shape};
use skein_syntax::locate_frontmatter;
use std::path::{Path, PathBuf};
use tree_sitter::{Parser, Point, Range, Tree};

/// Files larger than this are left out of bench inputs (as `skein check` would).
pub const MAX_FILE_SIZE: u64 = skein::DEFAULT_MAX_FILE_SIZE;

/// One input file: its `/`-separated path relative to the corpus root and its text.
#[derive(Debug, Clone)]
pub struct BenchFile {
    /// Path relative to the corpus root.
    pub path: String,
    /// Contents (only UTF-8 files are kept).
    pub text: String,
}

/// Inputs of the benches, grouped by how they are parsed.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// Every `.yaml`/`.yml` file (artifact or not): YAML parser throughput.
    pub yaml: Vec<BenchFile>,
    /// Artifact files parsed as JSON.
    pub json: Vec<BenchFile>,
    /// Artifact files parsed as Markdown with frontmatter.
    pub markdown: Vec<BenchFile>,
    /// Every artifact file (all syntaxes), for the end-to-end bench.
    pub artifacts: Vec<BenchFile>,
}

/// Total bytes of some files.
pub fn total_bytes(files: &[BenchFile]) -> u64 {
    files.iter().map(|f| f.text.len() as u64).sum()
}

/// The real corpus folder, if present: `$SKEIN_BENCH_CORPUS`, else
/// `<workspace>/../shared/corpus/real`.
pub fn corpus_root() -> Option<PathBuf> {
    let root = match std::env::var_os("SKEIN_BENCH_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/real"),
    };
    root.is_dir().then_some(root)
}

/// Loads the corpus at `root` into memory: walks it once (hidden files
/// included, `.git` and symbolic links skipped) and reads every YAML file and
/// every recognised artifact.
pub fn load_corpus(root: &Path) -> Inputs {
    let mut inputs = Inputs::default();
    let mut stack = vec![root.to_path_buf()];
    let mut paths = Vec::new();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() && entry.file_name() != ".git" {
                stack.push(path);
            } else if kind.is_file() {
                paths.push(path);
            }
        }
    }
    paths.sort();
    for path in paths {
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let is_yaml = rel.ends_with(".yaml") || rel.ends_with(".yml");
        let candidate = classify_path(&rel);
        if !is_yaml && candidate.is_none() {
            continue;
        }
        let too_big = std::fs::metadata(&path).map_or(true, |m| m.len() > MAX_FILE_SIZE);
        if too_big {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let file = BenchFile { path: rel, text };
        if is_yaml {
            inputs.yaml.push(file.clone());
        }
        if let Some(c) = candidate {
            match c.syntax {
                Syntax::Json => inputs.json.push(file.clone()),
                Syntax::Markdown => inputs.markdown.push(file.clone()),
                Syntax::Yaml | Syntax::Toml | Syntax::Text => {}
            }
            inputs.artifacts.push(file);
        }
    }
    inputs
}

/// Generated inputs for when the real corpus is absent: `n` files of each
/// syntax, shaped like real skills, plugin manifests and loop manifests.
/// `artifacts` holds all of them, under artifact paths.
pub fn synthetic(n: usize) -> Inputs {
    let mut inputs = Inputs::default();
    for i in 0..n {
        let yaml = format!(
            "spec_version: \"0.1\"\nid: loop-{i}\nname: Generated loop {i}\n\
             purpose: Sweep dependencies for service {i} and open pull requests.\n\
             audience: [team, agent]\ntrigger:\n  type: schedule\n  schedule: \"0 {h} * * *\"\n\
             permissions:\n  allowed_actions: [read_repository, open_pull_request]\n  \
             forbidden_actions: [merge_pull_request]\nstate:\n  paths: [state/{i}.json]\n\
             outputs:\n  artifacts: [report-{i}.md]\nverification:\n  required: [tests pass]\n  \
             commands:\n    - name: tests\n      run: make test\nhuman_gates:\n  required_for: [merge]\n\
             failure_policy:\n  retry: {r}\n  escalate_after: 2 runs\nmaintenance:\n  freshness_cadence: quarterly\n\
             backends:\n  cron:\n    schedule: \"0 {h} * * *\"\n    install_notes:\n      - |\n        \
             Install with crontab -e on host {i}.\n        Then check the log.\n",
            h = i % 24,
            r = i % 4,
        );
        inputs.yaml.push(BenchFile {
            path: format!("loops/gen-{i}.loop.yaml"),
            text: yaml,
        });
        let json = format!(
            "{{\n  \"name\": \"plugin-{i}\",\n  \"version\": \"1.{i}.0\",\n  \
             \"description\": \"Generated plugin number {i} with a few commands and agents.\",\n  \
             \"author\": {{ \"name\": \"Bench\", \"email\": \"bench@example.com\" }},\n  \
             \"keywords\": [\"review\", \"test\", \"gen{i}\"],\n  \
             \"mcpServers\": {{ \"s{i}\": {{ \"command\": \"npx\", \"args\": [\"-y\", \"server-{i}\"], \
             \"env\": {{ \"TOKEN\": \"${{TOKEN_{i}}}\" }} }} }}\n}}\n"
        );
        inputs.json.push(BenchFile {
            path: format!("plugins/p{i}/.claude-plugin/plugin.json"),
            text: json,
        });
        let md = format!(
            "---\nname: skill-{i}\ndescription: >-\n  Generated skill {i}. Use when the bench needs a\n  \
             realistic frontmatter with a folded description.\nallowed-tools: Read Grep Glob\n\
             metadata:\n  pack: gen\n  index: \"{i}\"\n---\n# Skill {i}\n\n{body}",
            body = "Steps to follow, one per line.\n".repeat(20),
        );
        inputs.markdown.push(BenchFile {
            path: format!("packs/gen/skills/skill-{i}/SKILL.md"),
            text: md,
        });
    }
    inputs.artifacts = [&inputs.yaml, &inputs.json, &inputs.markdown]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    inputs
}

/// The generated monorepo of `n` files (seed and fault rate of the
/// benchmark report), in memory, as bench files (every file of the tree,
/// artifact or not, as a repository has them).
pub fn generated(n: usize) -> Vec<BenchFile> {
    let g = xtask::gen_monorepo::generate(
        n,
        xtask::bench_report::SEED,
        xtask::bench_report::FAULT_RATE,
    );
    g.files
        .into_iter()
        .map(|(p, b)| BenchFile {
            path: p.to_string_lossy().replace('\\', "/"),
            text: String::from_utf8(b).expect("generated files are UTF-8"),
        })
        .collect()
}

/// The generated monorepo of `n` files on disk, under
/// `<workspace>/target/bench-monorepo/` (written once, reused while its
/// `faults.json` says it has the same generator version, seed and rate).
pub fn generated_tree(n: usize) -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    xtask::bench_report::ensure_tree(&workspace, n).expect("generated tree written")
}

/// Splits files into [`Inputs`] the way [`load_corpus`] does.
pub fn split_inputs(files: &[BenchFile]) -> Inputs {
    let mut inputs = Inputs::default();
    for f in files {
        if f.path.ends_with(".yaml") || f.path.ends_with(".yml") {
            inputs.yaml.push(f.clone());
        }
        if let Some(c) = classify_path(&f.path) {
            match c.syntax {
                Syntax::Json => inputs.json.push(f.clone()),
                Syntax::Markdown => inputs.markdown.push(f.clone()),
                Syntax::Yaml | Syntax::Toml | Syntax::Text => {}
            }
            inputs.artifacts.push(f.clone());
        }
    }
    inputs
}

/// How the floor parses Markdown artifacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FloorMode {
    /// As the pipeline does: the whole file with the agentmd grammar when a
    /// rule reads its body (a LOOP.md, or a body that may hold a link or a
    /// comment), then the frontmatter as YAML in place.
    #[default]
    Full,
    /// The frontmatter as YAML in place only (the pipeline before it read
    /// Markdown bodies).
    FrontmatterOnly,
}

/// Tree-sitter parsers for the floor: YAML, JSON and agentmd.
pub struct FloorParsers {
    yaml: Parser,
    json: Parser,
    markdown: Parser,
    mode: FloorMode,
}

impl Default for FloorParsers {
    fn default() -> Self {
        Self::new()
    }
}

impl FloorParsers {
    /// Parsers with their languages set, in [`FloorMode::Full`].
    pub fn new() -> Self {
        Self::with_mode(FloorMode::Full)
    }

    /// Parsers with their languages set.
    pub fn with_mode(mode: FloorMode) -> Self {
        let mut yaml = Parser::new();
        yaml.set_language(&tree_sitter_yaml::LANGUAGE.into())
            .expect("tree-sitter-yaml ABI");
        let mut json = Parser::new();
        json.set_language(&tree_sitter_json::LANGUAGE.into())
            .expect("tree-sitter-json ABI");
        let mut markdown = Parser::new();
        markdown
            .set_language(&tree_sitter_agentmd::LANGUAGE.into())
            .expect("tree-sitter-agentmd ABI");
        FloorParsers {
            yaml,
            json,
            markdown,
            mode,
        }
    }

    /// Parses one file as the pipeline does, without building a `Document`
    /// or reading anything from the trees: JSON and YAML whole; Markdown
    /// whole with agentmd (in [`FloorMode::Full`]), then its frontmatter as
    /// YAML in place (included ranges). Returns the last tree; `None` for a
    /// path that is no artifact, or a Markdown file without frontmatter in
    /// [`FloorMode::FrontmatterOnly`].
    pub fn parse(&mut self, path: &str, text: &str) -> Option<Tree> {
        self.parse_candidate(classify_path(path)?, text)
    }

    /// [`FloorParsers::parse`] of a file classified as `candidate`: also the
    /// files of a skill's folder, which only a repository's paths classify
    /// ([`skein_model::classify_in_repo`]). A reference is parsed whole
    /// when it may link a file by a relative path
    /// ([`skein_model::decode::relative_link_hint`]), as `decode` does; a
    /// script is read, never parsed.
    pub fn parse_candidate(&mut self, candidate: Candidate, text: &str) -> Option<Tree> {
        if candidate.format == Format::SkillReference {
            return relative_link_hint(text)
                .then(|| self.parse_markdown_whole(text))
                .flatten();
        }
        match candidate.syntax {
            Syntax::Json => self.json.parse(text, None),
            Syntax::Yaml => self.yaml.parse(text, None),
            // A tree-sitter floor has no TOML grammar; TOML files are few.
            // Plain text is never parsed.
            Syntax::Toml | Syntax::Text => None,
            Syntax::Markdown => {
                let located = locate_frontmatter(text);
                // The pipeline parses a body only when a rule reads it: a
                // skilldrop LOOP.md always, another Markdown artifact when its
                // body may hold a link or a comment (`Parsers::parse_markdown_links`).
                let body_start = match located {
                    Ok(Some(f)) => f.body_start as usize,
                    _ => 0,
                };
                let read_body = candidate.format == Format::SkilldropLoopDoc
                    || located.is_err()
                    || skein::skein_syntax::markdown::may_link(text, body_start);
                self.markdown_and_frontmatter(text, read_body)
            }
        }
    }

    /// A Markdown file whole with agentmd (in [`FloorMode::Full`]), as
    /// `Parsers::parse_markdown` does.
    fn parse_markdown_whole(&mut self, text: &str) -> Option<Tree> {
        self.markdown_and_frontmatter(text, true)
    }

    /// The body with agentmd when `read_body` (in [`FloorMode::Full`]), then
    /// the frontmatter as YAML in place. Returns the last tree.
    fn markdown_and_frontmatter(&mut self, text: &str, read_body: bool) -> Option<Tree> {
        let body = match self.mode {
            FloorMode::Full if read_body => self.markdown.parse(text, None),
            FloorMode::Full | FloorMode::FrontmatterOnly => None,
        };
        let Some(fm) = locate_frontmatter(text).ok().flatten() else {
            return body;
        };
        let (start, end) = (fm.content.start as usize, fm.content.end as usize);
        if start == end {
            return body;
        }
        let range = Range {
            start_byte: start,
            end_byte: end,
            start_point: point_of(text, start),
            end_point: point_of(text, end),
        };
        self.yaml.set_included_ranges(&[range]).ok()?;
        let tree = self.yaml.parse(text, None);
        self.yaml.set_included_ranges(&[]).ok()?;
        tree
    }
}

fn point_of(text: &str, offset: usize) -> Point {
    let before = &text.as_bytes()[..offset];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let column = before.iter().rev().take_while(|&&b| b != b'\n').count();
    Point { row, column }
}

/// What a [`floor`] run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FloorStats {
    /// Files in the tree (artifact or not).
    pub all_files: usize,
    /// Files read: recognised artifacts and the files of skills' folders.
    pub files: usize,
    /// Bytes of those files.
    pub bytes: u64,
    /// Files tree-sitter parsed (artifacts, less Markdown without frontmatter
    /// or a body the pipeline reads, scripts, references without a relative
    /// link, and files that are not UTF-8).
    pub parsed: usize,
}

/// The read+parse floor of analyzing `root`: walk it as skein does (same
/// walker, same `threads`), read every file `skein check` reads (the
/// recognised artifacts and the files of their skills' folders) and
/// tree-sitter-parse it as the pipeline does
/// ([`FloorParsers::parse_candidate`] in `mode`), in parallel on the
/// current rayon pool. Nothing else: no `Document`, no schema, no graph.
pub fn floor(root: &Path, threads: usize, mode: FloorMode) -> FloorStats {
    // The files `skein check` reads: artifacts by path, and the files of a
    // skill's folder (references, scripts), known once every path is.
    let walked = skein::walk::walk_with(root, threads, &|rel: &str| {
        classify_path(rel).is_some() || skill_file_shape(rel).is_some()
    });
    let files: Vec<(&skein::walk::Found, Candidate)> = walked
        .artifacts
        .par_iter()
        .filter_map(|f| {
            let c = classify_in_repo(&f.rel, |_| None, |q| walked.all.contains(q))?;
            Some((f, c))
        })
        .collect();
    // In the pipeline's order: grouped by format, then path
    // (`skein::order`, private to the binary's library; same key).
    let mut files = files;
    files.par_sort_by(|a, b| (a.1.format, &a.0.rel).cmp(&(b.1.format, &b.0.rel)));
    let (bytes, parsed) = files
        .par_iter()
        .map_init(
            || FloorParsers::with_mode(mode),
            |parsers, (f, candidate)| {
                let Ok(bytes) = std::fs::read(&f.path) else {
                    return (0u64, 0usize);
                };
                let n = bytes.len() as u64;
                let parsed = match std::str::from_utf8(&bytes) {
                    Ok(text) => parsers.parse_candidate(*candidate, text).is_some(),
                    Err(_) => false,
                };
                (n, usize::from(parsed))
            },
        )
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    FloorStats {
        all_files: walked.all.len(),
        files: files.len(),
        bytes,
        parsed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_reads_and_parses_every_artifact() {
        let dir = std::env::temp_dir().join(format!("skein-floor-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("skills/a")).expect("mkdir");
        std::fs::write(
            dir.join("skills/a/SKILL.md"),
            "---\nname: a\ndescription: A.\n---\n# A\n",
        )
        .expect("write");
        std::fs::write(dir.join("mcp.json"), "{\"mcpServers\": {}}\n").expect("write");
        std::fs::write(dir.join("README.md"), "# not an artifact\n").expect("write");
        // A skill's files: a reference that links a file (parsed), one
        // that links nothing (read only), and a script (read only).
        std::fs::create_dir_all(dir.join("skills/a/references")).expect("mkdir");
        std::fs::create_dir_all(dir.join("skills/a/scripts")).expect("mkdir");
        std::fs::write(
            dir.join("skills/a/references/guide.md"),
            "See [run](../scripts/run.sh).\n",
        )
        .expect("write");
        std::fs::write(dir.join("skills/a/notes.md"), "Plain notes.\n").expect("write");
        std::fs::write(dir.join("skills/a/scripts/run.sh"), "#!/bin/sh\necho\n").expect("write");
        let stats = floor(&dir, 1, FloorMode::Full);
        let fm_only = floor(&dir, 1, FloorMode::FrontmatterOnly);
        let _ = std::fs::remove_dir_all(&dir);
        let bytes = 36 + 19 + 30 + 13 + 15;
        assert_eq!(
            stats,
            FloorStats {
                all_files: 6,
                files: 5,
                bytes,
                parsed: 3
            }
        );
        // Frontmatter only: the reference has none, so it is not parsed.
        assert_eq!(
            fm_only,
            FloorStats {
                all_files: 6,
                files: 5,
                bytes,
                parsed: 2
            }
        );
    }

    #[test]
    fn generated_inputs_split_by_syntax() {
        let files = generated(300);
        assert_eq!(files.len(), 300);
        let inputs = split_inputs(&files);
        assert!(!inputs.yaml.is_empty() && !inputs.json.is_empty() && !inputs.markdown.is_empty());
        assert!(inputs.artifacts.len() < files.len());
    }

    #[test]
    fn synthetic_inputs_parse_and_validate() {
        let inputs = synthetic(3);
        assert_eq!(inputs.artifacts.len(), 9);
        let files = inputs
            .artifacts
            .iter()
            .map(|f| skein::InputFile::new(f.path.clone(), f.text.clone()))
            .collect();
        let report = skein::check_files(files, &skein::Options::default());
        // Syntax and schema only: graph rules may rightly flag generated
        // skills that nothing references.
        let codes: Vec<_> = report
            .diagnostics()
            .iter()
            .filter(|d| d.rule.code.starts_with("SYN") || d.rule.code.starts_with("SCH"))
            .map(|d| format!("{} {}", d.rule.code, d.message))
            .collect();
        assert!(codes.is_empty(), "{codes:?}");
        assert_eq!(report.artifacts().len(), 9);
    }
}
