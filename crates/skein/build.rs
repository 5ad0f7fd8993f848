//! Records the commit skein is built from, for `skein --version`
//! (`0.1.0 (1a2b3c4d5e6f)`), or `unknown commit` outside a git checkout
//! (a crates.io or tarball build).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    println!(
        "cargo:rustc-env=SKEIN_COMMIT={}",
        commit.as_deref().unwrap_or("unknown commit")
    );
    // Rebuilt when HEAD moves (a commit, a checkout).
    for dir in [
        git(&["rev-parse", "--git-dir"]),
        git(&["rev-parse", "--git-common-dir"]),
    ]
    .into_iter()
    .flatten()
    {
        let dir = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default())
            .join(dir);
        for f in ["HEAD", "packed-refs", "refs/heads"] {
            let p = dir.join(f);
            if p.exists() {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
