//! REF: references across files (DESIGN.md §6).

pub mod broken_link;
pub mod case_conflicting_paths;
pub mod doc_manifest_drift;
pub mod duplicate_gate_id;
pub mod missing_doc_section;
pub mod missing_file;
pub mod name_mismatch;
pub mod orphan_skill;
pub mod unknown_agent;
pub mod unknown_skill;

use crate::RepoFiles;

#[cfg(test)]
use crate::similar::edit_distance;

/// The candidate nearest to `name` within edit distance 2, if any: the
/// smallest distance, then the smallest candidate (deterministic whatever the
/// order of `candidates`).
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<(&'a str, usize)> {
    let mut best: Option<(&str, usize)> = None;
    let ascii = name.is_ascii();
    for c in candidates {
        let limit = best.map_or(2, |(_, d)| d);
        // A UTF-8 length difference over 8 is a distance over 2 (a character
        // is at most four bytes), and between ASCII strings a length
        // difference over the limit is: skip the table.
        let diff = c.len().abs_diff(name.len());
        if diff > 8 || (ascii && diff > limit && c.is_ascii()) {
            continue;
        }
        let Some(d) = crate::similar::within(name, c, limit) else {
            continue;
        };
        if best.is_none_or(|(b, bd)| (d, c) < (bd, b)) {
            best = Some((c, d));
        }
    }
    best
}

/// Whether `path` (repo-relative, no trailing `/`) is a file or a folder
/// holding at least one file.
pub(crate) fn exists(files: &RepoFiles, path: &str) -> bool {
    if path.is_empty() {
        return true;
    }
    if files.contains(path) {
        return true;
    }
    let dir = format!("{}/", path.trim_end_matches('/'));
    files.starting_with(&dir).next().is_some()
}

/// The folder of a repo-relative path, with trailing `/` (`""` at the root).
pub(crate) fn dir_of(path: &str) -> &str {
    match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "",
    }
}

/// How a folder is named in a message: `a/b/` or "the repository root".
pub(crate) fn folder_label(dir: &str) -> String {
    if dir.is_empty() {
        "the repository root".into()
    } else {
        format!("`{dir}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_and_closest() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "ab"), 2);
        assert_eq!(edit_distance("plan", "plans"), 1);
        assert_eq!(closest("plna", ["plan", "ship", "pla"]), Some(("pla", 1)));
        assert_eq!(closest("zzzz", ["plan"]), None);
    }

    #[test]
    fn existence() {
        let files: RepoFiles = ["a/b/c.md", "a/bb.md"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(exists(&files, "a/b"));
        assert!(exists(&files, "a/b/c.md"));
        assert!(!exists(&files, "a/c"));
        assert!(!exists(&files, "a/b/c"));
    }
}
