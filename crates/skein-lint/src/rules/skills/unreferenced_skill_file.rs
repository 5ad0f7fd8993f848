//! SKILL026 `unreferenced-skill-file`.

use super::Skill;
use crate::{Context, Pass};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};
use std::collections::HashSet;

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL026",
    name: "unreferenced-skill-file",
    severity: Severity::Info,
    summary: "a file bundled in a skill's folder that its SKILL.md never names",
    doc: include_str!("unreferenced_skill_file.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass { rule: RULE, check };

/// Package metadata at a skill's root, read by the tools that publish or
/// install it (skilldrop's `manifest.json`, npm's `package.json`).
const PACKAGE_FILES: &[&str] = &[
    "manifest.json",
    "package.json",
    "package-lock.json",
    "skill.json",
    "metadata.json",
    "_meta.json",
];

/// Whether a folder between `dir` and the file `rel` (below `dir`) holds a
/// `SKILL.md` of its own, below the first level (which the caller checks).
fn nested_below(cx: &Context, dir: &str, rel: &str) -> bool {
    let mut at = match rel.find('/') {
        Some(i) => i + 1,
        None => return false,
    };
    while let Some(i) = rel[at..].find('/') {
        if cx
            .repo_files
            .contains(&format!("{dir}{}SKILL.md", &rel[..at + i + 1]))
        {
            return true;
        }
        at += i + 1;
    }
    false
}

/// How many bundled files are listed in the message.
const SHOWN: usize = 3;

/// Every path-like word of the repository's configuration files (JSON,
/// YAML, TOML: skilldrop loops, hooks, manifests) and each of its tails at a
/// `/` (`packs/core/skills/check/scripts/gate.py`, …, `check/scripts/gate.py`,
/// `scripts/gate.py`): the files those configurations run or read.
fn config_paths<'a>(cx: &'a Context) -> HashSet<&'a str> {
    let mut out = HashSet::new();
    for o in cx.artifacts {
        // A skill's own scripts are what the skill names, not configuration.
        if o.format == Format::SkillScript || cx.path(o.file).ends_with(".md") {
            continue;
        }
        let text = cx.sources.get(o.file).text();
        let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/');
        for w in text.split(|c: char| !word(c)) {
            if !w.contains('/') {
                continue;
            }
            out.insert(w);
            for (i, _) in w.match_indices('/') {
                out.insert(&w[i + 1..]);
            }
        }
    }
    out
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    // Configuration artifacts in a skill's folder (a skilldrop skill's
    // `manifest.json`) are read by the client, not named to the model.
    let manifests: HashSet<&str> = cx
        .artifacts
        .iter()
        .filter(|o| o.format != Format::SkillScript)
        .map(|o| cx.path(o.file))
        .filter(|p| !p.ends_with(".md"))
        .collect();
    let mut configs: Option<HashSet<&str>> = None;
    let mut out = Vec::new();
    for a in cx.artifacts {
        out.extend(check_skill(cx, a, &manifests, &mut configs));
    }
    out
}

fn check_skill<'a>(
    cx: &'a Context,
    a: &Artifact,
    manifests: &HashSet<&str>,
    configs: &mut Option<HashSet<&'a str>>,
) -> Vec<Diagnostic> {
    let Some(skill) = Skill::of(a) else {
        return Vec::new();
    };
    let path = cx.path(a.file);
    let Some(dir) = path.strip_suffix("SKILL.md") else {
        return Vec::new();
    };
    let text = cx.sources.get(a.file).text();
    // Folders below that hold a skill of their own are that skill's.
    let mut missing: Vec<&str> = Vec::new();
    // The files below a nested skill's folder are that skill's: a folder
    // whose `SKILL.md` exists is skipped whole (the files are in path order,
    // so a skipped folder's files are consecutive).
    let mut skipped: Option<&str> = None;
    for f in cx
        .repo_files
        .range(dir.to_string()..)
        .take_while(|f| f.starts_with(dir))
    {
        let rel = &f[dir.len()..];
        if skipped.is_some_and(|n| rel.starts_with(n)) {
            continue;
        }
        if let Some(i) = rel.find('/') {
            let top = &rel[..=i];
            if cx.repo_files.contains(&format!("{dir}{top}SKILL.md")) {
                skipped = Some(top);
                continue;
            }
            if nested_below(cx, dir, rel) {
                continue;
            }
        }
        if rel == "SKILL.md" || manifests.contains(f.as_str()) {
            continue;
        }
        let name = rel.rsplit('/').next().unwrap_or(rel);
        // Read by clients or test harnesses, not by the model: Codex's
        // `agents/openai.yaml`, skill-creator's `evals/`.
        if rel.split('/').any(skein_model::classify::incidental_file)
            || PACKAGE_FILES.contains(&rel)
            || rel == "agents/openai.yaml"
            || rel.starts_with("evals/")
        {
            continue;
        }
        // Named by its path, its file name, or a folder that holds it
        // (`scripts/`, `assets/fonts/`).
        let mut named = text.contains(rel) || text.contains(name);
        let mut at = 0;
        while !named && let Some(i) = rel[at..].find('/') {
            let folder = &rel[..at + i + 1];
            named = text.contains(folder) || text.contains(&folder[..folder.len() - 1]);
            at += i + 1;
        }
        if !named {
            missing.push(rel);
        }
    }
    // A file another artifact runs or reads by its path (a skilldrop gate's
    // `script`, a plugin hook's command) is used without the skill naming it.
    if !missing.is_empty() {
        let skill_name = dir.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        let configs = configs.get_or_insert_with(|| config_paths(cx));
        missing.retain(|rel| !configs.contains(format!("{skill_name}/{rel}").as_str()));
    }
    let Some(first) = missing.first() else {
        return Vec::new();
    };
    let span = skill
        .entry("name")
        .map(|e| skill.doc.node(e.key).span)
        .or_else(|| a.frontmatter.map(|f| f.open))
        .unwrap_or(Span::new(0, 0));
    let mut listed: Vec<String> = missing.iter().take(SHOWN).map(|m| quote(m)).collect();
    if missing.len() > SHOWN {
        listed.push(format!("and {} more", missing.len() - SHOWN));
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            if missing.len() == 1 {
                format!("the skill bundles {} but SKILL.md never names it", quote(first))
            } else {
                format!("the skill bundles {} files that SKILL.md never names: {}", missing.len(), listed.join(", "))
            },
        )
        .with_label("this skill's SKILL.md")
        .with_note("Claude learns of a skill's other files only from SKILL.md: a file it does not name is never read or run")
        .with_help("say in SKILL.md when to read or run each file (\"Run `scripts/extract.py` to pull the tables\"), or remove the file"),
    ]
}
