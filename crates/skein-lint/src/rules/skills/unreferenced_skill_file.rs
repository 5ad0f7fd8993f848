//! SKILL026 `unreferenced-skill-file`.

use super::Skill;
use crate::RepoFiles;
use crate::{Context, Pass};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};
use std::collections::{HashMap, HashSet};

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
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: false,
};

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

/// Whether `b` is a character of a path-like word (ASCII letters and
/// digits, `.`, `_`, `-`, `/`); any byte of a non-ASCII character is not.
fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/')
}

/// Whether artifact `o` at `path` is a configuration whose text may name
/// a skill's bundled file by its path (JSON, YAML, TOML: skilldrop loops,
/// hooks, manifests): neither Markdown nor a skill's own script (what the
/// skill names, not configuration).
pub(crate) fn is_configuration(o: &Artifact, path: &str) -> bool {
    o.format != Format::SkillScript && !path.ends_with(".md")
}

/// The path-like words of `text` that hold a `/` (each a byte range, in
/// order): the words around each `/`, each once.
pub(crate) fn path_words(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let mut next = 0;
    memchr::memchr_iter(b'/', bytes).filter_map(move |slash| {
        if slash < next {
            return None; // in the word already looked at
        }
        let start = bytes[..slash]
            .iter()
            .rposition(|&b| !word_byte(b))
            .map_or(0, |i| i + 1);
        let end = bytes[slash..]
            .iter()
            .position(|&b| !word_byte(b))
            .map_or(bytes.len(), |i| slash + i);
        next = end;
        Some((start, end))
    })
}

/// Which of `wanted` (each `<skill folder name>/<file>`) the repository's
/// configuration files (JSON, YAML, TOML: skilldrop loops, hooks,
/// manifests) name as a path: as a whole path-like word, or as its tail at
/// a `/` (`packs/core/skills/check/scripts/gate.py` names
/// `check/scripts/gate.py`): the files those configurations run or read.
/// Only the words around each `/` of a text are looked at.
fn named_by_configs(cx: &Context, wanted: &[String]) -> Vec<bool> {
    let mut found = vec![false; wanted.len()];
    if wanted.is_empty() {
        return found;
    }
    let mut index: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, w) in wanted.iter().enumerate() {
        index.entry(w.as_str()).or_default().push(i);
    }
    let mut mark = |w: &str| {
        if let Some(is) = index.get(w) {
            for &i in is {
                found[i] = true;
            }
        }
    };
    for o in cx.artifacts {
        if !is_configuration(o, cx.path(o.file)) {
            continue;
        }
        let src = cx.sources.get(o.file);
        // A lean run keeps the path-like words of a configuration's text
        // when it drops the text (`crate::retain::pieces_kept`); any other
        // text is scanned once (one read again is let go after the scan).
        let mut look = |word: &str| {
            mark(word);
            for (i, _) in word.match_indices('/') {
                mark(&word[i + 1..]);
            }
        };
        match src.pieces() {
            Some(words) => words.for_each(|(_, w)| look(w)),
            None => src.with_text(|text| {
                for (start, end) in path_words(text) {
                    // Word bytes are ASCII: the bounds are character
                    // boundaries.
                    look(&text[start..end]);
                }
            }),
        }
    }
    found
}

/// Whether the text of the `SKILL.md` in folder `dir` names every other
/// file below the folder by its path from the folder or by its file name.
/// Then neither this rule (which also accepts a folder that holds the
/// file) nor `nested-skill-reference` (which reads only those two names)
/// can find anything in the skill's folder: a lean run may drop the tree
/// ([`crate::retain::keep`]), and both rules pass a skill whose tree was
/// dropped.
pub(crate) fn named_plainly(text: &str, dir: &str, repo_files: &RepoFiles) -> bool {
    named_plainly_by(|t| text.contains(t), dir, repo_files)
}

/// [`named_plainly`], with `contains` telling whether the text holds a
/// string.
fn named_plainly_by(contains: impl Fn(&str) -> bool, dir: &str, repo_files: &RepoFiles) -> bool {
    repo_files.starting_with(dir).all(|f| {
        let rel = &f[dir.len()..];
        let name = rel.rsplit('/').next().unwrap_or(rel);
        rel == "SKILL.md" || contains(rel) || contains(name)
    })
}

/// Every string the rule may look for in the text of the `SKILL.md` in
/// folder `dir`, and whether it is a folder's: of each file below the
/// folder, its path from the folder and its file name, and each folder
/// between (with and without its `/`).
fn names_looked_for<'a>(
    dir: &'a str,
    repo_files: &'a RepoFiles,
) -> impl Iterator<Item = (&'a str, bool)> + 'a {
    repo_files.starting_with(dir).flat_map(move |f| {
        let rel = &f[dir.len()..];
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let folders = rel
            .match_indices('/')
            .flat_map(move |(i, _)| [(&rel[..=i], true), (&rel[..i], true)]);
        [(rel, false), (name, false)].into_iter().chain(folders)
    })
}

/// Whether byte `b` after a name continues a path (`scripts/run.py`
/// continues `scripts/`): an ASCII letter or digit, `_`, `-` or `*` (a
/// glob, matched on its own: [`glob_names`]), or a `.` followed by one of
/// those (not the full stop that ends a sentence).
fn continues(text: &[u8], at: usize) -> bool {
    let more = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'*');
    match text.get(at) {
        Some(&b'.') => text.get(at + 1).is_some_and(|&b| more(b)),
        Some(&b) => more(b),
        None => false,
    }
}

/// Where `text` first names the folder `folder` (`scripts/`, or `scripts`
/// in a code span) as a folder: not inside a longer word (`myscripts/`),
/// not as the start of one of its files' paths or of a glob
/// (`scripts/run.py` names that file, not every file of `scripts/`), and a
/// bare word only as code (`` `scripts` ``: "needs no scripts" in prose
/// names no folder).
pub(crate) fn find_folder(text: &str, folder: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text.get(from..)?.find(folder) {
        let at = from + i;
        let end = at + folder.len();
        let inside =
            at > 0 && (b[at - 1].is_ascii_alphanumeric() || matches!(b[at - 1], b'_' | b'-'));
        let longer = if folder.ends_with('/') {
            continues(b, end)
        } else {
            // A bare folder word counts in a code span only.
            !(at > 0 && b[at - 1] == b'`' && b.get(end) == Some(&b'`'))
        };
        if !inside && !longer {
            return Some(at);
        }
        from = at + folder.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// The glob-shaped words of `text` (byte ranges, in order): path-like
/// words (letters, digits, `.`, `_`, `-`, `/`) holding a `*` and a `/`
/// (`shared/managed-agents-*.md`, `assets/*.yaml`), which name every file
/// of the skill they match ([`glob_names`]).
pub(crate) fn glob_words(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let glob_byte = |b: u8| word_byte(b) || b == b'*';
    let mut next = 0;
    memchr::memchr_iter(b'*', bytes).filter_map(move |star| {
        if star < next {
            return None;
        }
        let start = bytes[..star]
            .iter()
            .rposition(|&b| !glob_byte(b))
            .map_or(0, |i| i + 1);
        let end = bytes[star..]
            .iter()
            .position(|&b| !glob_byte(b))
            .map_or(bytes.len(), |i| star + i);
        next = end;
        // Not a sentence's full stop at the end.
        let end = if bytes[start..end].ends_with(b".") {
            end - 1
        } else {
            end
        };
        bytes[start..end].contains(&b'/').then_some((start, end))
    })
}

/// Whether glob `pattern` matches `path` whole: `*` stands for any run of
/// characters but `/`, `**` for any run at all. Dynamic programming over
/// (pattern, path) positions: time `pattern × path`, whatever the stars
/// (a text's globs are the author's, and a hostile one must not hang).
pub(crate) fn glob_names(pattern: &str, path: &str) -> bool {
    let (p, s) = (pattern.as_bytes(), path.as_bytes());
    // `row[j]`: whether the pattern read so far matches `s[..j]`.
    let mut row = vec![false; s.len() + 1];
    row[0] = true;
    let mut i = 0;
    while i < p.len() {
        let mut next = vec![false; s.len() + 1];
        if p[i] == b'*' {
            let any = p.get(i + 1) == Some(&b'*');
            // A star extends any match so far over the bytes it may cover.
            let mut on = false;
            for j in 0..=s.len() {
                if !any && j > 0 && s[j - 1] == b'/' {
                    on = false;
                }
                on |= row[j];
                next[j] = on;
            }
            i += if any { 2 } else { 1 };
        } else {
            for j in 1..=s.len() {
                next[j] = row[j - 1] && s[j - 1] == p[i];
            }
            i += 1;
        }
        row = next;
    }
    row[s.len()]
}

/// Where the text of the `SKILL.md` at `path` (`text`) first holds each
/// string the rule may look for in it ([`names_looked_for`]; a folder's
/// only where it names the folder, [`find_folder`]): kept when a lean run
/// drops the text ([`crate::retain::pieces_kept`]), the rule then asks the
/// pieces. A file's string is in the text exactly when a piece holds it, a
/// folder's exactly when a piece is it.
pub(crate) fn names_found(text: &str, path: &str, repo_files: &RepoFiles) -> Vec<Span> {
    let Some(dir) = path.strip_suffix("SKILL.md") else {
        return Vec::new();
    };
    let mut seen: HashSet<(&str, bool)> = HashSet::new();
    names_looked_for(dir, repo_files)
        .filter(|&(n, folder)| !n.is_empty() && seen.insert((n, folder)))
        .filter_map(|(n, folder)| {
            let at = if folder {
                find_folder(text, n)
            } else {
                text.find(n)
            };
            at.map(|at| Span::new(at, at + n.len()))
        })
        .chain(glob_words(text).map(|(start, end)| Span::new(start, end)))
        .collect()
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
    let mut skills: Vec<(&Artifact, Skill, &str, Vec<&str>)> = cx
        .artifacts
        .iter()
        .filter_map(|a| {
            let (skill, dir, missing) = unnamed_files(cx, a, &manifests)?;
            Some((a, skill, dir, missing))
        })
        .collect();
    // A file another artifact runs or reads by its path (a skilldrop gate's
    // `script`, a plugin hook's command) is used without the skill naming it.
    let wanted: Vec<String> = skills
        .iter()
        .flat_map(|(_, _, dir, missing)| {
            let skill_name = dir.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            missing.iter().map(move |rel| format!("{skill_name}/{rel}"))
        })
        .collect();
    let mut named = named_by_configs(cx, &wanted).into_iter();
    for (_, _, _, missing) in &mut skills {
        missing.retain(|_| !named.next().unwrap_or(false));
    }
    skills
        .into_iter()
        .filter_map(|(a, skill, _, missing)| diagnostic(a, &skill, &missing))
        .collect()
}

/// The files of skill `a`'s folder that its `SKILL.md` never names (before
/// the configurations are asked), with the skill and its folder; `None`
/// when `a` is no skill.
fn unnamed_files<'a>(
    cx: &'a Context,
    a: &'a Artifact,
    manifests: &HashSet<&str>,
) -> Option<(Skill<'a>, &'a str, Vec<&'a str>)> {
    // A lean run keeps the tree of every skill whose folder holds a file
    // its text does not name (`named_plainly`): a skill whose tree it
    // dropped has none missing, and one that names them all has nothing
    // missing either (its tree is not asked).
    if a.format != Format::AgentSkill || a.document.is_dropped() {
        return None;
    }
    let path = cx.path(a.file);
    let dir = path.strip_suffix("SKILL.md")?;
    // A lean run keeps the places of the names looked for when it drops
    // the text (`names_found`): a name is in the text exactly when one of
    // the pieces holds it.
    let src = cx.sources.get(a.file);
    match src.pieces() {
        Some(pieces) => {
            let pieces: Vec<&str> = pieces.map(|(_, p)| p).collect();
            unnamed_in(
                cx,
                a,
                Names {
                    file: &|t| pieces.iter().any(|p| p.contains(t)),
                    folder: &|t| pieces.contains(&t),
                    glob: &|rel| pieces.iter().any(|p| p.contains('*') && glob_names(p, rel)),
                },
                dir,
                manifests,
            )
        }
        None => {
            let text = src.text();
            unnamed_in(
                cx,
                a,
                Names {
                    file: &|t| text.contains(t),
                    folder: &|t| find_folder(text, t).is_some(),
                    glob: &|rel| glob_words(text).any(|(s, e)| glob_names(&text[s..e], rel)),
                },
                dir,
                manifests,
            )
        }
    }
}

/// What a skill's text names: whether it holds a file's path or name
/// (`file`), whether it names a folder as a folder (`folder`,
/// [`find_folder`]), whether one of its globs matches a path (`glob`).
struct Names<'n> {
    file: &'n dyn Fn(&str) -> bool,
    folder: &'n dyn Fn(&str) -> bool,
    /// Whether a glob of the text matches a file's path ([`glob_words`]).
    glob: &'n dyn Fn(&str) -> bool,
}

/// [`unnamed_files`] of the skill `a` in folder `dir`, whose text names
/// what `names` says it does.
fn unnamed_in<'a>(
    cx: &'a Context,
    a: &'a Artifact,
    names: Names<'_>,
    dir: &'a str,
    manifests: &HashSet<&str>,
) -> Option<(Skill<'a>, &'a str, Vec<&'a str>)> {
    let contains = names.file;
    if named_plainly_by(contains, dir, cx.repo_files) {
        return None;
    }
    let skill = Skill::of(a)?;
    // Folders below that hold a skill of their own are that skill's.
    let mut missing: Vec<&str> = Vec::new();
    // The files below a nested skill's folder are that skill's: a folder
    // whose `SKILL.md` exists is skipped whole (the files are in path order,
    // so a skipped folder's files are consecutive).
    let mut skipped: Option<&str> = None;
    for f in cx.repo_files.starting_with(dir) {
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
        if rel == "SKILL.md" || manifests.contains(f) {
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
        // Named by its path, its file name, a folder that holds it
        // (`scripts/`, `assets/fonts/`), or a glob (`assets/*.yaml`).
        let mut named = contains(rel) || contains(name);
        let mut at = 0;
        while !named && let Some(i) = rel[at..].find('/') {
            let folder = &rel[..at + i + 1];
            named = (names.folder)(folder) || (names.folder)(&folder[..folder.len() - 1]);
            at += i + 1;
        }
        if !named && !(names.glob)(rel) {
            missing.push(rel);
        }
    }
    Some((skill, dir, missing))
}

/// The finding of a skill with unnamed files `missing`, if there are any.
fn diagnostic(a: &Artifact, skill: &Skill, missing: &[&str]) -> Option<Diagnostic> {
    let first = missing.first()?;
    let span = skill
        .entry("name")
        .map(|e| skill.doc.node(e.key).span)
        .or_else(|| a.frontmatter.map(|f| f.open))
        .unwrap_or(Span::new(0, 0));
    let mut listed: Vec<String> = missing.iter().take(SHOWN).map(|m| quote(m)).collect();
    if missing.len() > SHOWN {
        listed.push(format!("and {} more", missing.len() - SHOWN));
    }
    Some(
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
    )
}

#[cfg(test)]
mod tests {
    use super::{find_folder, glob_names, glob_words};

    #[test]
    fn folders_are_named_as_folders() {
        assert_eq!(find_folder("Run `scripts/a.py`.", "scripts/"), None);
        assert_eq!(find_folder("Run `scripts/a.py`.", "scripts"), None);
        assert_eq!(
            find_folder("Every file in `scripts/`.", "scripts/"),
            Some(15)
        );
        assert_eq!(find_folder("see the `scripts` folder", "scripts"), Some(9));
        assert_eq!(find_folder("needs no scripts at all", "scripts"), None);
        assert_eq!(find_folder("in myscripts/ only", "scripts/"), None);
        assert_eq!(
            find_folder("fonts in assets/fonts/.", "assets/fonts/"),
            Some(9)
        );
        // A glob names the files it matches, not the folder.
        assert_eq!(find_folder("glob scripts/*.py", "scripts/"), None);
    }

    #[test]
    fn globs_name_the_files_they_match() {
        let text = "Read `shared/managed-agents-*.md`, then assets/**/x.json. Not a*b.";
        let words: Vec<&str> = glob_words(text).map(|(s, e)| &text[s..e]).collect();
        assert_eq!(words, ["shared/managed-agents-*.md", "assets/**/x.json"]);
        assert!(glob_names(
            "shared/managed-agents-*.md",
            "shared/managed-agents-core.md"
        ));
        assert!(!glob_names("shared/*.md", "shared/deep/x.md"));
        assert!(glob_names("assets/**/x.json", "assets/a/b/x.json"));
        assert!(!glob_names("assets/*.yaml", "assets/x.yml"));
        assert!(glob_names("*", "a.md"));
        assert!(!glob_names("*", "a/b.md"));
        assert!(glob_names("a/**", "a/b/c"));
        // Many stars stay linear in the pattern (no backtracking).
        let hostile = "**/".repeat(200) + "x";
        assert!(!glob_names(&hostile, &"a/".repeat(200)));
    }
}
