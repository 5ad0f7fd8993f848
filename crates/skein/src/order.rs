//! The order a run decodes its files in (issue #17, closer to the floor).
//!
//! A run numbers its files in path order (their `FileId`s, which fix the
//! report's order), but decodes them grouped by format: files of one format
//! run the same grammar, decoder, schema and local rules one after the
//! other, which keeps that code and its tables in the core's caches. In path
//! order a monorepo interleaves formats (a skill's `SKILL.md`, its
//! references, a plugin's manifest, its commands), and every switch evicts
//! the last format's tables. Grouping made the cold run on the generated
//! 100k-file tree 13% faster on 2 threads (7.52 s → 6.56 s, medians of 3
//! alternating runs). The benches' read+parse floor reads in the same order,
//! so the two stay comparable.
//!
//! [`processing_order`] gives the permutation; [`gather`] puts a list in it
//! and [`scatter`] puts the results back in `FileId` order, both in place.

use rayon::prelude::*;

/// The processing order of `n` files whose grouping keys are `key(i)`: the
/// indices `0..n` sorted by key, ties (one format) in index order. A
/// permutation of `0..n`.
pub(crate) fn processing_order<K: Ord + Send>(
    n: usize,
    key: impl Fn(usize) -> K + Sync,
) -> Vec<usize> {
    let mut keyed: Vec<(K, usize)> = (0..n).into_par_iter().map(|i| (key(i), i)).collect();
    keyed.par_sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// Rearranges `v` in place so that `v[k]` becomes the old `v[order[k]]`:
/// a list in index order put in processing order. `order` must be a
/// permutation of `0..v.len()`. `O(n)` swaps and `n` bytes of bookkeeping.
pub(crate) fn gather<T>(v: &mut [T], order: &[usize]) {
    debug_assert_eq!(v.len(), order.len());
    let mut done = vec![false; v.len()];
    for s in 0..v.len() {
        if done[s] {
            continue;
        }
        let mut k = s;
        loop {
            done[k] = true;
            let j = order[k];
            if j == s {
                break;
            }
            v.swap(k, j);
            k = j;
        }
    }
}

/// The inverse of [`gather`]: rearranges `v` in place so that the old
/// `v[k]` ends at `v[order[k]]`, a list of results in processing order
/// put back in index (`FileId`) order.
pub(crate) fn scatter<T>(v: &mut [T], order: &[usize]) {
    debug_assert_eq!(v.len(), order.len());
    let mut done = vec![false; v.len()];
    for s in 0..v.len() {
        if done[s] {
            continue;
        }
        done[s] = true;
        let mut j = order[s];
        while j != s {
            v.swap(s, j);
            done[j] = true;
            j = order[j];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_groups_by_key_then_index() {
        let keys = ["md", "json", "md", "yaml", "json", "md"];
        assert_eq!(
            processing_order(keys.len(), |i| keys[i]),
            vec![1, 4, 0, 2, 5, 3]
        );
        assert_eq!(processing_order(0, |i| i), Vec::<usize>::new());
    }

    #[test]
    fn gather_puts_in_order_and_scatter_puts_back() {
        let original: Vec<char> = "abcdefgh".chars().collect();
        // Cycles of lengths 1, 2 and 5.
        let order = vec![0, 2, 1, 5, 7, 3, 4, 6];
        let mut v = original.clone();
        gather(&mut v, &order);
        let expected: Vec<char> = order.iter().map(|&i| original[i]).collect();
        assert_eq!(v, expected);
        assert_eq!(v.iter().collect::<String>(), "acbfhdeg");
        scatter(&mut v, &order);
        assert_eq!(v, original);
    }

    #[test]
    fn scatter_of_results_in_processing_order() {
        // Results computed in processing order, each naming its index.
        let order = processing_order(7, |i| [3, 1, 2, 1, 3, 2, 1][i]);
        let mut results: Vec<usize> = order.clone();
        scatter(&mut results, &order);
        assert_eq!(results, (0..7).collect::<Vec<_>>());
    }
}
