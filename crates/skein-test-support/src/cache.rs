//! What the two suites of skein's persistent cache compare
//! (`crates/skein/tests/cache.rs` on the demo repository and the real
//! corpus, `xtask/tests/cache.rs` on a generated monorepo): a run with the
//! cache must print, byte for byte, what a run without it prints.

use skein::cache::{CacheSettings, CacheStats};
use skein::skein_report::{HumanOptions, json_value, render_human};
use skein::{Options, Report};
use std::path::Path;

/// What the command line prints of a report, in two formats (human, with
/// unsafe fixes shown; JSON), and the secrets each file masks: two runs
/// render alike exactly when their outputs are the same.
pub fn render(r: &Report) -> String {
    let human = render_human(
        r.diagnostics(),
        r.sources(),
        HumanOptions {
            color: false,
            links: false,
            unsafe_fixes: true,
        },
    );
    let json = json_value(r.diagnostics(), r.sources(), r.summary());
    let secrets: Vec<String> = r
        .sources()
        .iter()
        .map(|(_, f)| format!("{} {:?}", f.path(), f.secrets()))
        .collect();
    format!("{human}\n{json:#}\n{}", secrets.join("\n"))
}

/// The options of a run with its cache in the folder `cache`, as skein
/// version `version` (the version part of the cache's key), replaying the
/// last run when its inputs are unchanged if `replay`.
pub fn cache_options(cache: &Path, version: &str, replay: bool) -> Options {
    Options {
        cache: Some(CacheSettings {
            dir: Some(cache.to_path_buf()),
            version: version.into(),
            replay,
        }),
        ..Options::default()
    }
}

/// [`render`] of a run of `root` without a cache.
///
/// # Panics
/// When `root` cannot be read.
pub fn uncached(root: &Path) -> String {
    render(&skein::check(root, &Options::default()).expect("a readable root"))
}

/// A run of `root` with [`cache_options`]: its [`render`] and what the
/// cache did.
///
/// # Panics
/// When `root` cannot be read.
pub fn cached(root: &Path, cache: &Path, version: &str, replay: bool) -> (String, CacheStats) {
    let r = skein::check(root, &cache_options(cache, version, replay)).expect("a readable root");
    let stats = r.cache_stats().expect("a run with a cache has statistics");
    (render(&r), stats)
}
