//! Benchmarks for skein: input loading shared by the criterion benches in
//! `benches/` (the benches themselves are `cargo bench -p skein-benches`).
//!
//! Inputs come from the real corpus (`../shared/corpus/real` next to the
//! workspace, or the folder named by `SKEIN_BENCH_CORPUS`), loaded into
//! memory once. When the corpus is absent, [`synthetic`] generates inputs of
//! the same shapes so the parser benches still run.

use skein_model::{Syntax, classify_path};
use std::path::{Path, PathBuf};

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
                Syntax::Yaml => {}
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

#[cfg(test)]
mod tests {
    use super::*;

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
