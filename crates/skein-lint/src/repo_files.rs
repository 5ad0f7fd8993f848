//! [`RepoFiles`]: every file path of the analyzed repository, the set the
//! existence checks read ([`crate::Context::repo_files`]).

/// Every file path of a repository (repo-relative, `/`-separated, as the
/// walk lists them; not only artifacts), sorted byte-wise and without
/// repeats, kept as one string and the end offset of each path in it.
///
/// A run keeps it from the walk to the last repository pass, so its shape
/// is what a monorepo's memory pays for (issue #17, bounded memory): at
/// 100,000 paths of about 65 bytes it is one 6.5 MB string and 0.8 MB of
/// offsets, against about 11 MB for a `BTreeSet<String>` (a 24-byte string
/// in a B-tree node and a heap block per path). Lookups are by bisection:
/// [`RepoFiles::contains`] is `O(log n)` string comparisons,
/// [`RepoFiles::starting_with`] `O(log n)` and then one step per path of
/// the prefix.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct RepoFiles {
    /// The paths, one after the other, in order.
    text: String,
    /// Where each path ends in `text` (exclusive); path `i` starts where
    /// path `i - 1` ends.
    ends: Vec<usize>,
}

impl RepoFiles {
    /// No path.
    pub fn new() -> RepoFiles {
        RepoFiles::default()
    }

    /// The paths of `sorted`, which must be in byte-wise order without
    /// repeats.
    fn from_sorted<'a>(sorted: impl Iterator<Item = &'a str>) -> RepoFiles {
        let mut files = RepoFiles::default();
        for p in sorted {
            debug_assert!(
                files.last().is_none_or(|last| last < p),
                "sorted, no repeats"
            );
            files.text.push_str(p);
            files.ends.push(files.text.len());
        }
        files.text.shrink_to_fit();
        files.ends.shrink_to_fit();
        files
    }

    /// The number of paths.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no path.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Path `i` in order (`i < len()`).
    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    fn last(&self) -> Option<&str> {
        self.len().checked_sub(1).map(|i| self.get(i))
    }

    /// The index of the first path not less than `p`.
    fn lower_bound(&self, p: &str) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.get(mid) < p {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Whether `path` is one of the paths.
    pub fn contains(&self, path: &str) -> bool {
        let i = self.lower_bound(path);
        i < self.len() && self.get(i) == path
    }

    /// Every path, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The paths that start with `prefix` (a folder with its trailing `/`,
    /// or any text), in order.
    pub fn starting_with<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        (self.lower_bound(prefix)..self.len())
            .map(|i| self.get(i))
            .take_while(move |p| p.starts_with(prefix))
    }

    /// Adds `path` where it sorts (nothing when it is there already);
    /// `O(n)`, for the few paths added after the walk (a file given in
    /// memory that is not on disk). Returns whether it was added.
    pub fn insert(&mut self, path: &str) -> bool {
        let i = self.lower_bound(path);
        if i < self.len() && self.get(i) == path {
            return false;
        }
        let at = if i == 0 { 0 } else { self.ends[i - 1] };
        self.text.insert_str(at, path);
        for end in &mut self.ends[i..] {
            *end += path.len();
        }
        self.ends.insert(i, at + path.len());
        true
    }

    /// Removes `path`; `O(n)`, for a file deleted while a language server
    /// runs. Returns whether it was there.
    pub fn remove(&mut self, path: &str) -> bool {
        let i = self.lower_bound(path);
        if i == self.len() || self.get(i) != path {
            return false;
        }
        let end = self.ends[i];
        self.text.replace_range(end - path.len()..end, "");
        self.ends.remove(i);
        for e in &mut self.ends[i..] {
            *e -= path.len();
        }
        true
    }
}

impl std::fmt::Debug for RepoFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<'a> FromIterator<&'a str> for RepoFiles {
    /// The paths in any order, repeats dropped.
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> RepoFiles {
        let mut paths: Vec<&str> = iter.into_iter().collect();
        rayon::slice::ParallelSliceMut::par_sort_unstable(&mut paths[..]);
        paths.dedup();
        RepoFiles::from_sorted(paths.into_iter())
    }
}

impl FromIterator<String> for RepoFiles {
    /// The paths in any order, repeats dropped.
    fn from_iter<I: IntoIterator<Item = String>>(iter: I) -> RepoFiles {
        let paths: Vec<String> = iter.into_iter().collect();
        paths.iter().map(String::as_str).collect()
    }
}

impl Extend<String> for RepoFiles {
    /// Adds paths in any order (repeats dropped), in one merge: `O(n log n)`
    /// for `n` paths in all.
    fn extend<I: IntoIterator<Item = String>>(&mut self, iter: I) {
        let more: Vec<String> = iter.into_iter().collect();
        if more.is_empty() {
            return;
        }
        *self = self.iter().chain(more.iter().map(String::as_str)).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> RepoFiles {
        [
            "b/x.md",
            "a/SKILL.md",
            "a/ref/one.md",
            "b/x.md",
            "ab.md",
            "",
        ]
        .into_iter()
        .collect()
    }

    #[test]
    fn sorted_without_repeats() {
        let f = files();
        assert_eq!(
            f.iter().collect::<Vec<_>>(),
            ["", "a/SKILL.md", "a/ref/one.md", "ab.md", "b/x.md"]
        );
        assert_eq!(f.len(), 5);
        assert_eq!(
            format!("{f:?}"),
            r#"{"", "a/SKILL.md", "a/ref/one.md", "ab.md", "b/x.md"}"#
        );
    }

    #[test]
    fn contains_by_bisection() {
        let f = files();
        for p in ["", "a/SKILL.md", "a/ref/one.md", "ab.md", "b/x.md"] {
            assert!(f.contains(p), "{p}");
        }
        for p in ["a", "a/", "a/ref", "b/x.mdx", "c", "0"] {
            assert!(!f.contains(p), "{p}");
        }
        assert!(!RepoFiles::new().contains(""));
    }

    #[test]
    fn starting_with_a_folder() {
        let f = files();
        assert_eq!(
            f.starting_with("a/").collect::<Vec<_>>(),
            ["a/SKILL.md", "a/ref/one.md"]
        );
        assert_eq!(
            f.starting_with("a").collect::<Vec<_>>(),
            ["a/SKILL.md", "a/ref/one.md", "ab.md"]
        );
        assert_eq!(f.starting_with("c/").count(), 0);
        assert_eq!(f.starting_with("").count(), 5);
    }

    #[test]
    fn insert_keeps_the_order() {
        let mut f = files();
        assert!(f.insert("a/new.md"));
        assert!(!f.insert("ab.md"));
        assert!(f.insert("z.md"));
        assert!(f.insert("0.md"));
        assert_eq!(
            f.iter().collect::<Vec<_>>(),
            [
                "",
                "0.md",
                "a/SKILL.md",
                "a/new.md",
                "a/ref/one.md",
                "ab.md",
                "b/x.md",
                "z.md"
            ]
        );
        let rebuilt: RepoFiles = f.iter().map(str::to_string).collect();
        assert_eq!(rebuilt, f);
        assert!(f.remove("a/new.md"));
        assert!(!f.remove("a/new.md"));
        assert!(f.insert("a/new.md"));
        f.extend(["b/a.md".to_string(), "z.md".to_string(), "1.md".to_string()]);
        assert_eq!(
            f.iter().collect::<Vec<_>>(),
            [
                "",
                "0.md",
                "1.md",
                "a/SKILL.md",
                "a/new.md",
                "a/ref/one.md",
                "ab.md",
                "b/a.md",
                "b/x.md",
                "z.md"
            ]
        );
    }
}
