//! The `skein` binary as a user runs it: exit codes, output formats, paths
//! relative to the analyzed root, `rules` and `rule`. Fixture repositories
//! are built in temporary folders.

mod common;

use common::{skein, stdout, write};
use std::process::Command;

#[test]
fn clean_repo_exits_zero_with_summary() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "skills/review/SKILL.md",
        "---\nname: review\ndescription: Reviews a diff.\n---\n# Review\n",
    );
    write(dir.path(), "README.md", "not an artifact\n");
    let o = skein(&["check", "."], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(
        stdout(&o),
        "checked 1 file (agent-skill 1): 0 errors, 0 warnings, 0 infos\n"
    );
}

#[test]
fn errors_exit_one_and_render_rustc_style() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "repo/assistant.json",
        "{\n  \"format_version\": \"1.0\",\n  \"name\": \"shop\",\n  \"title\": \"Shop\",\n  \"instructions\": \"skills/shop/SKILL.md\"\n}\n",
    );
    write(
        dir.path(),
        "repo/skills/shop/SKILL.md",
        "---\nname: shop\ndescription: Runs the shop.\n---\n",
    );
    let o = skein(&["check", "repo"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let expected = "\
error[SCH001]: `/format_version` is `1.0`, expected `0.1` [schema-violation]
  ┌─ assistant.json:2:21
  │
2 │   \"format_version\": \"1.0\",
  │                     ^^^^^ expected `\"0.1\"`
  │
  = note: bailey-assistant schema: /properties/format_version/const

checked 2 files (agent-skill 1, bailey-assistant 1): 1 error, 0 warnings, 0 infos
";
    assert_eq!(stdout(&o), expected);
}

#[test]
fn json_format_has_byte_and_line_spans() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "a/loops/x/loop.yaml", "name: x\n");
    write(
        dir.path(),
        "b/.mcp.json",
        "{\"mcpServers\": {\"db\": {\"command\": \"db\", \"command\": \"db2\"}}}",
    );
    let o = skein(&["check", "--format", "json"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
    assert_eq!(v["version"], 1);
    let diags = v["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diags.len(), 2, "{v:#}");
    assert_eq!(diags[0]["path"], "a/loops/x/loop.yaml");
    assert_eq!(diags[0]["code"], "SCH003");
    assert_eq!(diags[0]["severity"], "info");
    let d = &diags[1];
    assert_eq!(d["path"], "b/.mcp.json");
    assert_eq!(d["code"], "SYN002");
    assert_eq!(d["name"], "duplicate-key");
    assert_eq!(d["span"], serde_json::json!({"start": 40, "end": 49}));
    assert_eq!(d["start"], serde_json::json!({"line": 1, "column": 41}));
    assert_eq!(
        d["labels"][0]["span"],
        serde_json::json!({"start": 23, "end": 32})
    );
    assert_eq!(d["labels"][0]["message"], "first defined here");
    assert_eq!(v["summary"]["errors"], 1);
    assert_eq!(v["summary"]["infos"], 1);
}

#[test]
fn usage_errors_exit_two() {
    let dir = tempfile::tempdir().expect("tempdir");
    let o = skein(&["check", "does-not-exist"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read does-not-exist"));
    let o = skein(&["check", "--format", "xml"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    let o = skein(&["rule", "NOPE999"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    // A thread count is bounded: 100,000 threads once ran for minutes.
    for n in ["0", "257", "100000"] {
        let o = skein(&["check", "--threads", n], dir.path());
        assert_eq!(o.status.code(), Some(2), "--threads {n}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(&format!(
                "invalid value '{n}' for '--threads <N>': {n} is not in 1..=256"
            )),
            "--threads {n}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn rules_and_rule_docs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let o = skein(&["rules"], dir.path());
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.starts_with("SYN002        duplicate-key ")),
        "{out}"
    );
    // The longest code keeps the columns aligned.
    assert!(
        out.lines()
            .any(|l| l.starts_with("LOOPMASTER001 manifest-file-name ")),
        "{out}"
    );
    let o = skein(&["rule", "duplicate-key"], dir.path());
    let doc = stdout(&o);
    assert!(doc.starts_with("# duplicate-key (SYN002)\n"), "{doc}");
    assert!(doc.contains("## Why is this bad?"));
}

#[test]
fn gitignored_files_are_skipped() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), ".gitignore", "build/\n");
    write(dir.path(), "build/SKILL.md", "# no frontmatter\n");
    write(dir.path(), "src/SKILL.md", "# no frontmatter\n");
    // The paths of the findings of `skein check --format json ARGS`.
    let paths = |args: &[&str]| -> Vec<String> {
        let o = skein(&[&["check", "--format", "json"], args].concat(), dir.path());
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["path"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(paths(&[]), ["src/SKILL.md"]);
    // A CI gate asks for every file: an ignore file cannot hide an artifact.
    write(dir.path(), ".ignore", "src/\n");
    assert_eq!(
        paths(&["--no-ignore-files"]),
        ["build/SKILL.md", "src/SKILL.md"]
    );
}

#[cfg(unix)]
#[test]
fn symlinks_are_not_followed_out_of_the_root() {
    let outside = tempfile::tempdir().expect("tempdir");
    write(outside.path(), "secret/SKILL.md", "# outside\n");
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "skills/ok/SKILL.md",
        "---\nname: ok\ndescription: Fine.\n---\n",
    );
    std::os::unix::fs::symlink(
        outside.path().join("secret"),
        dir.path().join("skills/linked"),
    )
    .expect("symlink");
    let o = skein(&["check"], dir.path());
    assert_eq!(
        stdout(&o),
        "checked 1 file (agent-skill 1): 0 errors, 0 warnings, 0 infos\n"
    );
}

#[test]
fn file_too_large_is_reported_not_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "skills/big/SKILL.md",
        &format!("---\nname: big\ndescription: {}\n---\n", "x".repeat(200)),
    );
    let o = skein(&["check", "--max-file-size", "100"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("error[SYN010]: skills/big/SKILL.md: file is 232 bytes, over the limit of 100 bytes; not read [file-too-large]\n"),
        "{}",
        stdout(&o)
    );
}

#[cfg(unix)]
#[test]
fn fifo_with_artifact_name_is_reported_never_opened() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("skills/pipe")).expect("mkdir");
    let fifo = dir.path().join("skills/pipe/SKILL.md");
    let status = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    // Reading a FIFO with no writer blocks forever: finishing at all is the test.
    let o = skein(&["check", "--format", "json"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["diagnostics"][0]["code"], "SYN011");
    assert_eq!(v["diagnostics"][0]["path"], "skills/pipe/SKILL.md");
}

/// Output is byte-identical for one and two worker threads on the whole real corpus.
#[test]
fn output_does_not_depend_on_thread_count() {
    let Some(corpus) = skein_test_support::real_corpus() else {
        return;
    };
    let run = |threads: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_skein"))
            .args(["check", "--format", "json", "--threads", threads])
            .arg(&corpus)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .expect("skein runs");
        o.stdout
    };
    let one = run("1");
    let two = run("2");
    assert!(one.len() > 1000, "suspiciously small output");
    assert!(
        one == two,
        "output differs between --threads 1 and --threads 2"
    );
}

/// Regression (hostile-input trial): an artifact under a folder whose name is
/// not UTF-8 was silently skipped; it is analyzed, shown with U+FFFD.
#[cfg(unix)]
#[test]
fn non_utf8_folder_names_are_analyzed() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let odd = dir.path().join(std::ffi::OsStr::from_bytes(b"sk\xff"));
    std::fs::create_dir_all(&odd).expect("mkdir");
    std::fs::write(
        odd.join("SKILL.md"),
        "---\nname: Bad_x\ndescription: d\n---\n",
    )
    .expect("write");
    let o = skein(&["check", "--format", "json"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["diagnostics"][0]["path"], "sk\u{fffd}/SKILL.md");
    assert_eq!(v["diagnostics"][0]["code"], "REF005");
}

/// Regression: terminal control bytes in a file never reach the terminal.
#[test]
fn control_bytes_are_not_echoed() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "s/SKILL.md",
        "---\nname: Bad_\u{1b}]0;PWNED\u{7}\u{1b}[31mRED\n---\n",
    );
    let o = skein(&["check", "--color", "never"], dir.path());
    let out = stdout(&o);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    assert!(out.contains("name: Bad_?]0;PWNED??[31mRED"), "{out}");
}

/// Regression: a link given as the path itself was followed (and could quote
/// a file outside the repository); it is reported like one found by the walk.
#[cfg(unix)]
#[test]
fn explicit_symlink_path_is_not_followed() {
    let outside = tempfile::tempdir().expect("tempdir");
    write(outside.path(), "secret.txt", "password: hunter2\n");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("s")).expect("mkdir");
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        dir.path().join("s/SKILL.md"),
    )
    .expect("symlink");
    let o = skein(&["check", "--format", "concise", "s/SKILL.md"], dir.path());
    let out = stdout(&o);
    assert!(!out.contains("hunter2"), "{out}");
    assert!(
        out.starts_with("SKILL.md:1:1: info[SYN012] symbolic link not followed"),
        "{out}"
    );
}

/// Two folders outside the current one: SARIF locations are relative to each,
/// so skein warns that they may collide.
#[test]
fn sarif_warns_when_roots_outside_the_current_folder_may_collide() {
    let a = tempfile::tempdir().expect("tempdir");
    let b = tempfile::tempdir().expect("tempdir");
    let cwd = tempfile::tempdir().expect("tempdir");
    for d in [&a, &b] {
        write(
            d.path(),
            "skills/x/SKILL.md",
            "---\nname: x\ndescription: d\n---\n",
        );
    }
    let (pa, pb) = (
        a.path().to_str().expect("utf-8"),
        b.path().to_str().expect("utf-8"),
    );
    let o = skein(&["check", "--format", "sarif", pa, pb], cwd.path());
    assert_eq!(o.status.code(), Some(0));
    let err = common::stderr(&o);
    assert!(err.contains("are outside the current folder"), "{err}");
    let o = skein(&["check", "--format", "sarif", pa], cwd.path());
    assert!(common::stderr(&o).is_empty());
}
