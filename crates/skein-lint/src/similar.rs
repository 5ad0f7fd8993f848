//! String similarity for "did you mean" suggestions.

/// A key folded for comparison: lowercase, without `-` and `_`
/// (`allowed_tools`, `allowedTools` and `allowed-tools` fold alike).
pub fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The one of `candidates` that `written` was probably meant to be: the
/// same after [`fold`] (`alwaysapply`, `apply_to`, `VSCode`), else the
/// closest within two edits (`descripton`); `None` when none is near.
pub fn suggest(written: &str, candidates: &[&'static str]) -> Option<&'static str> {
    let folded = fold(written);
    candidates
        .iter()
        .copied()
        .find(|c| fold(c) == folded)
        .or_else(|| {
            crate::rules::refs::closest(written, candidates.iter().copied()).map(|(c, _)| c)
        })
}

/// Levenshtein distance (in characters) between `a` and `b`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    within(a, b, usize::MAX).unwrap_or(usize::MAX)
}

/// The Levenshtein distance (in characters) between `a` and `b` when it is
/// at most `max`, `None` when it is larger. Cheaper than [`edit_distance`]
/// for "did you mean" lookups over many candidates: a length difference over
/// `max` answers without the table, ASCII strings are compared as bytes
/// without allocating characters, and the table stops at the first row whose
/// every cell exceeds `max`.
pub fn within(a: &str, b: &str, max: usize) -> Option<usize> {
    if a.is_ascii() && b.is_ascii() {
        table(a.as_bytes(), b.as_bytes(), max)
    } else {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        table(&a, &b, max)
    }
}

/// The dynamic-programming table, one row at a time.
fn table<T: PartialEq>(a: &[T], b: &[T], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    // A row on the stack for the short strings names are.
    let mut stack = [0usize; 64];
    let mut heap = Vec::new();
    let row: &mut [usize] = if b.len() < stack.len() {
        &mut stack[..=b.len()]
    } else {
        heap.resize(b.len() + 1, 0);
        &mut heap
    };
    for (j, cell) in row.iter_mut().enumerate() {
        *cell = j;
    }
    for (i, ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        let mut least = row[0];
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diag + usize::from(ca != cb))
                .min(above + 1)
                .min(row[j] + 1);
            diag = above;
            least = least.min(row[j + 1]);
        }
        if least > max {
            return None;
        }
    }
    Some(row[b.len()]).filter(|&d| d <= max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_distance_agrees_with_the_full_one() {
        let words = [
            "", "a", "plan", "plans", "pla", "kitten", "sitting", "Bash", "bash", "résumé",
            "resume", "ß",
        ];
        for a in words {
            for b in words {
                let d = edit_distance(a, b);
                for max in 0..4 {
                    assert_eq!(
                        within(a, b, max),
                        (d <= max).then_some(d),
                        "{a:?} {b:?} {max}"
                    );
                }
            }
        }
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("résumé", "resume"), 2);
    }
}
