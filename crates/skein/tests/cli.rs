//! The `skein` binary as a user runs it: exit codes, output formats, paths
//! relative to the analyzed root, `rules` and `rule`. Fixture repositories
//! are built in temporary folders.

mod common;

use common::{skein, stdout, write};
use std::path::Path;
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
  ┌─ repo/assistant.json:2:21
  │
2 │   \"format_version\": \"1.0\",
  │                     ^^^^^ expected `\"0.1\"`
  │
  = note: bailey-assistant schema: /properties/format_version/const
  = docs: https://github.com/skein-dev/skein/blob/main/docs/rules.md#sch001-schema-violation

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

/// The paths of the findings of `skein ARGS` (JSON output) run in `dir`.
fn finding_paths(args: &[&str], dir: &std::path::Path) -> Vec<String> {
    let o = skein(args, dir);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn gitignored_files_are_skipped() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), ".gitignore", "build/\n");
    write(dir.path(), "build/SKILL.md", "# no frontmatter\n");
    write(dir.path(), "src/SKILL.md", "# no frontmatter\n");
    // The paths of the findings of `skein check --format json ARGS`.
    let paths =
        |args: &[&str]| finding_paths(&[&["check", "--format", "json"], args].concat(), dir.path());
    assert_eq!(paths(&[]), ["src/SKILL.md"]);
    // A CI gate asks for every file: an ignore file cannot hide an artifact.
    write(dir.path(), ".ignore", "src/\n");
    assert_eq!(
        paths(&["--no-ignore-files"]),
        ["build/SKILL.md", "src/SKILL.md"]
    );
}

#[test]
fn ignore_files_above_the_project_apply_only_inside_its_git_work_tree() {
    // The paths of the findings of `skein check --format json --no-cache DIR`.
    let paths = |dir: &std::path::Path| {
        let args = [
            "check",
            "--format",
            "json",
            "--no-cache",
            dir.to_str().unwrap(),
        ];
        finding_paths(&args, dir)
    };
    let above = tempfile::tempdir().expect("tempdir");
    // A home folder kept in git, ignoring everything; a project of its own
    // below it (its own work tree).
    write(above.path(), ".gitignore", "*\n");
    std::fs::create_dir_all(above.path().join(".git")).unwrap();
    let project = above.path().join("src/proj");
    write(&project, "skein.toml", "");
    write(&project, "skills/a/SKILL.md", "# no frontmatter\n");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    assert_eq!(paths(&project), ["skills/a/SKILL.md"], "its own work tree");
    // Not in a git work tree at all: only the project's own ignore files.
    std::fs::remove_dir_all(above.path().join(".git")).unwrap();
    std::fs::remove_dir_all(project.join(".git")).unwrap();
    assert_eq!(paths(&project), ["skills/a/SKILL.md"], "no git");
    // A subfolder of one work tree: its `.gitignore` applies, as in git.
    std::fs::create_dir_all(above.path().join(".git")).unwrap();
    write(above.path(), ".gitignore", "src/proj/skills/\n");
    write(&project, "other/SKILL.md", "# no frontmatter\n");
    assert_eq!(
        paths(&project),
        ["other/SKILL.md"],
        "in the outer work tree"
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
        "info[SYN012]: skills/linked: symbolic link to a folder, not followed (it could point outside the analyzed folder); no artifact in it is analyzed under this path [symlink-not-followed]\n \
         = docs: https://github.com/skein-dev/skein/blob/main/docs/rules.md#syn012-symlink-not-followed\n\
         \n\
         checked 2 files (agent-skill 1, 1 not analyzed): 0 errors, 0 warnings, 1 info\n"
    );
}

/// A link to a folder is reported as a link named like an artifact is
/// (SYN012), wherever it points and whatever it holds, unless the folder
/// it stands in is excluded or ignored; a link to a file that is no
/// artifact's is not.
#[cfg(unix)]
#[test]
fn a_linked_folder_is_reported_like_a_linked_file() {
    let dir = common::project();
    write(
        dir.path(),
        "shared/review/SKILL.md",
        "---\nname: review\ndescription: Reviews a diff.\n---\n",
    );
    write(dir.path(), "docs/notes.txt", "notes\n");
    write(dir.path(), ".gitignore", "ignored/\n");
    std::fs::create_dir_all(dir.path().join("plugins/p/skills")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("skills/linked")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("ignored")).expect("mkdir");
    for (target, link) in [
        ("../../../shared/review", "plugins/p/skills/review"),
        ("../../shared/review/SKILL.md", "skills/linked/SKILL.md"),
        ("docs", "handbook"),
        ("docs/notes.txt", "notes.txt"),
        ("../docs", "ignored/docs"),
        ("../docs", "vendor"),
    ] {
        std::os::unix::fs::symlink(target, dir.path().join(link)).expect("symlink");
    }
    let o = skein(
        &["check", "--format", "concise", "--exclude", "vendor"],
        dir.path(),
    );
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (
            Some(0),
            "handbook:1:1: info[SYN012] symbolic link to a folder, not followed (it could point outside the analyzed folder); no artifact in it is analyzed under this path [symlink-not-followed]\n\
             plugins/p/skills/review:1:1: info[SYN012] symbolic link to a folder, not followed (it could point outside the analyzed folder); no artifact in it is analyzed under this path [symlink-not-followed]\n\
             skills/linked/SKILL.md:1:1: info[SYN012] symbolic link not followed (it could point outside the analyzed folder); its target is not analyzed [symlink-not-followed]\n\
             checked 4 files (agent-skill 1, 3 not analyzed): 0 errors, 0 warnings, 3 infos\n"
                .to_string()
        )
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
        out.starts_with("s/SKILL.md:1:1: info[SYN012] symbolic link not followed"),
        "{out}"
    );
}

/// Issue #14: one path convention. Two folders outside the current one:
/// every format names each finding from the current folder (`../<dir>/...`),
/// so the two never collide, in SARIF as in the concise output.
#[test]
fn paths_are_relative_to_the_current_folder_in_every_format() {
    let top = tempfile::tempdir().expect("tempdir");
    for d in ["a", "b"] {
        write(
            &top.path().join(d),
            "skills/x/SKILL.md",
            "---\nname: y\ndescription: d\n---\n",
        );
    }
    std::fs::create_dir_all(top.path().join("cwd")).expect("mkdir");
    let cwd = top.path().join("cwd");
    let o = skein(&["check", "--format", "sarif", "../a", "../b"], &cwd);
    assert_eq!(o.status.code(), Some(1));
    assert!(common::stderr(&o).is_empty(), "{}", common::stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("sarif");
    let uris: Vec<&str> = v["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .expect("uri")
        })
        .collect();
    assert_eq!(uris, ["../a/skills/x/SKILL.md", "../b/skills/x/SKILL.md"]);
    for (format, want) in [
        ("concise", "../a/skills/x/SKILL.md:2:7: error[REF005]"),
        ("github", "::error file=../a/skills/x/SKILL.md,line=2,"),
        ("json", "\"path\": \"../a/skills/x/SKILL.md\""),
        ("human", "┌─ ../a/skills/x/SKILL.md:2:7"),
    ] {
        let o = skein(&["check", "--format", format, "../a"], &cwd);
        assert!(stdout(&o).contains(want), "{format}: {}", stdout(&o));
    }
    // From inside the project, the same finding is named from there.
    let o = skein(
        &["check", "--format", "concise", "."],
        &top.path().join("a/skills"),
    );
    assert!(
        stdout(&o).starts_with("x/SKILL.md:2:7: error[REF005]"),
        "{}",
        stdout(&o)
    );
}

/// Issue #14: a path is reported as part of its project. A lone agent file
/// with a YAML error is recognised by its place and fails the run; a lone
/// `SKILL.md` keeps its name/folder check; a folder with nothing skein reads
/// exits 3 with a warning; a file skein does not read says so.
#[test]
fn named_paths_are_read_within_their_project() {
    let dir = common::project();
    write(
        dir.path(),
        ".claude/agents/rev.md",
        "---\nname: rev\ndescription: [unclosed\n---\nx\n",
    );
    write(
        dir.path(),
        ".claude/skills/tidy/SKILL.md",
        "---\nname: tidyy\ndescription: Tidies code.\n---\nx\n",
    );
    write(dir.path(), "notes.txt", "hi\n");
    std::fs::create_dir_all(dir.path().join("empty")).expect("mkdir");
    let agents = dir.path().join(".claude/agents");
    let o = skein(&["check", "--format", "concise", "rev.md"], &agents);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "rev.md:4:1: error[SYN001] syntax error: while parsing a flow sequence, expected ',' or ']' [syntax-error]\n\
         checked 1 file (plugin-agent 1): 1 error, 0 warnings, 0 infos\n"
    );
    let o = skein(
        &[
            "check",
            "--format",
            "concise",
            ".claude/skills/tidy/SKILL.md",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with(
            ".claude/skills/tidy/SKILL.md:2:7: error[REF005] skill name `tidyy` does not match its folder `tidy`"
        ),
        "{}",
        stdout(&o)
    );
    let o = skein(&["check", "empty"], dir.path());
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        common::stderr(&o),
        "skein: warning: no file skein reads was found in empty: nothing was analyzed (exit status 3)\n"
    );
    // `skein graph` says the same, and still prints the (empty) graph.
    let o = skein(&["graph", "empty"], dir.path());
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        common::stderr(&o),
        "skein: warning: no file skein reads was found in empty: the graph is empty (exit status 3)\n"
    );
    assert!(
        stdout(&o).starts_with("digraph repository {"),
        "{}",
        stdout(&o)
    );
    let o = skein(&["check", "notes.txt"], dir.path());
    assert_eq!(o.status.code(), Some(3));
    assert!(
        common::stderr(&o)
            .starts_with("skein: warning: notes.txt is not a kind of file skein reads"),
        "{}",
        common::stderr(&o)
    );
    // `--no-project` reads the file alone: by its name, an agent file is
    // not recognised outside `agents/`.
    let o = skein(&["check", "--no-project", "rev.md"], &agents);
    assert_eq!(o.status.code(), Some(3));
}

/// A path that does not exist (mistyped) is a usage error, exit status 2,
/// as `skein check --help` says; 3 is only for a path that exists and holds
/// no file skein reads.
#[test]
fn a_path_that_does_not_exist_exits_two_as_the_help_says() {
    let dir = tempfile::tempdir().expect("tempdir");
    let o = skein(&["check", "skils"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        common::stderr(&o),
        "skein: error: cannot read skils: No such file or directory (os error 2)\n"
    );
    assert!(o.stdout.is_empty());
    let help = stdout(&skein(&["check", "--help"], dir.path()));
    let status: String = help
        .split("\n\n")
        .find(|p| p.starts_with("Exit status:"))
        .expect("an exit status paragraph")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        status,
        "Exit status: 0 when no diagnostic at or above `--fail-on` (default: `fail-on` of skein.toml, \
         else error) was found (or `--exit-zero`), 1 when some was, 2 on a usage or internal error \
         (a path that does not exist is one), 3 when no file skein reads was found (an empty folder, \
         a folder of other files: never a silent green)."
    );
}

/// `--stdin-filename` names an unsaved buffer: the folders above it need
/// not exist (the nearest one that does places it in its project), and
/// nothing is created.
#[test]
fn stdin_filename_in_folders_that_do_not_exist_yet() {
    let dir = common::project();
    write(
        dir.path(),
        "skills/other/SKILL.md",
        "---\nname: other\ndescription: Other.\n---\n",
    );
    let skill = b"---\nname: x\ndescription: Reviews code.\n---\n";
    for (cwd, named, shown) in [
        (
            "",
            "plugins/p/skills/review/SKILL.md",
            "plugins/p/skills/review/SKILL.md",
        ),
        (
            "",
            "skills/new/../review/SKILL.md",
            "skills/review/SKILL.md",
        ),
        ("skills", "review/SKILL.md", "review/SKILL.md"),
        (
            "skills/other",
            "../../plugins/q/skills/review/SKILL.md",
            "../../plugins/q/skills/review/SKILL.md",
        ),
    ] {
        let o = common::skein_with_stdin(
            &[
                "check",
                "--format",
                "concise",
                "-",
                "--stdin-filename",
                named,
            ],
            &dir.path().join(cwd),
            skill,
        );
        assert_eq!(
            (o.status.code(), stdout(&o), common::stderr(&o)),
            (
                Some(1),
                format!(
                    "{shown}:2:7: error[REF005] skill name `x` does not match its folder `review` [name-mismatch]\n\
                     checked 1 file (agent-skill 1): 1 error, 0 warnings, 0 infos\n\
                     [*] 1 fixable with `--fix --unsafe-fixes`\n"
                ),
                String::new()
            ),
            "{named} from {cwd:?}"
        );
    }
    assert!(!dir.path().join("plugins").exists());
    assert!(!dir.path().join("skills/review").exists());
}

/// Standard input is held to `--max-file-size` like a file on disk: over
/// the limit it is reported (SYN010) and not parsed.
#[test]
fn stdin_over_the_size_limit_is_reported_not_parsed() {
    let dir = common::project();
    let args = [
        "check",
        "-",
        "--stdin-filename",
        ".mcp.json",
        "--max-file-size",
        "5",
        "--format",
        "concise",
    ];
    let o = common::skein_with_stdin(&args, dir.path(), b"{\"mcpServers\": {}}");
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (
            Some(1),
            ".mcp.json:1:1: error[SYN010] contents are 18 bytes, over the limit of 5 bytes; not analyzed [file-too-large]\n\
             checked 1 file (1 not analyzed): 1 error, 0 warnings, 0 infos\n"
                .to_string()
        )
    );
}

/// A file none of whose folders exist below `/` has no project: skein
/// says so (exit 2) instead of analyzing `/`, the whole filesystem.
#[test]
fn stdin_filename_with_no_project_above_is_refused() {
    let dir = common::project();
    let o = common::skein_with_stdin(
        &[
            "check",
            "-",
            "--stdin-filename",
            "/skein-test-no-such-folder/.mcp.json",
        ],
        dir.path(),
        b"{}",
    );
    assert_eq!(
        (o.status.code(), stdout(&o), common::stderr(&o)),
        (
            Some(2),
            String::new(),
            "skein: error: cannot read /skein-test-no-such-folder/.mcp.json: its nearest existing folder, /, \
             is no project (no skein.toml or .git there); name a path inside a project, or create its folder first\n"
                .to_string()
        )
    );
}

/// `-` beside another path, or another path alone (`.` included), would
/// drop that path in silence: refused.
#[test]
fn stdin_beside_another_path_is_refused() {
    let dir = common::project();
    let cases: [&[&str]; 4] = [&["-", "."], &[".", "-"], &["."], &["sub"]];
    for args in cases {
        let mut all = vec!["check"];
        all.extend(args);
        all.extend(["--stdin-filename", ".mcp.json"]);
        let o = common::skein_with_stdin(&all, dir.path(), b"{}");
        assert_eq!(
            (o.status.code(), common::stderr(&o)),
            (
                Some(2),
                "skein: error: --stdin-filename reads standard input: name no other path than `-`\n"
                    .to_string()
            ),
            "{args:?}"
        );
    }
}

/// Run from `/` (no marker anywhere), a named file's project is its own
/// folder, not `/`: the filesystem is not walked, no cache is left there.
#[test]
fn the_filesystem_root_is_never_an_implicit_project() {
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir.path().canonicalize().expect("canonical");
    if folder
        .ancestors()
        .any(|a| a.join(".git").exists() || a.join("skein.toml").is_file())
    {
        eprintln!("skipped: a folder above the temporary folder is a project");
        return;
    }
    write(
        &folder,
        "v/.mcp.json",
        "{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}\n",
    );
    let named = folder.join("v/.mcp.json");
    let o = common::skein(
        &["check", "--show-settings", named.to_str().expect("UTF-8")],
        Path::new("/"),
    );
    let first = stdout(&o).lines().next().unwrap_or_default().to_string();
    assert_eq!(
        (o.status.code(), first),
        (
            Some(0),
            format!("project root: {}", folder.join("v").display())
        ),
        "{}",
        common::stderr(&o)
    );
}

/// REF005's help names only valid skill names (SKILL002's judgement): it
/// never tells a user to rename a folder to `Customer.io Automation`, nor
/// (with its fix) to set `name: web.tools`.
#[test]
fn name_mismatch_help_suggests_only_valid_skill_names() {
    let dir = common::project();
    let cases = [
        (
            "ok-folder",
            "other-name",
            "rename the folder to `other-name` or set `name: ok-folder`",
            Some("set `name: ok-folder`"),
        ),
        (
            "customerio-automation",
            "Customer.io Automation",
            "set `name: customerio-automation`: skill names are lowercase words joined by `-`, and equal the folder",
            Some("set `name: customerio-automation`"),
        ),
        ("web.tools", "web", "rename the folder to `web`", None),
        (
            "Customer.io",
            "Customer.io Automation",
            "neither `Customer.io Automation` nor `Customer.io` is a valid skill name: rename the folder to `customer-io-automation` and set `name: customer-io-automation`",
            None,
        ),
        (
            "!!",
            "??",
            "give the folder and `name` one valid skill name: lowercase words joined by `-`",
            None,
        ),
    ];
    for (folder, name, _, _) in &cases {
        write(
            dir.path(),
            &format!("skills/{folder}/SKILL.md"),
            &format!("---\nname: \"{name}\"\ndescription: Does things.\n---\n"),
        );
    }
    let o = skein(
        &["check", "--format", "json", "--select", "REF005"],
        dir.path(),
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
    let mut got: Vec<(String, String, Option<String>)> = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap_or_default().to_string(),
                d["help"].as_str().unwrap_or_default().to_string(),
                d["fix"]["message"].as_str().map(str::to_string),
            )
        })
        .collect();
    got.sort();
    let mut want: Vec<(String, String, Option<String>)> = cases
        .iter()
        .map(|(folder, _, help, fix)| {
            (
                format!("skills/{folder}/SKILL.md"),
                help.to_string(),
                fix.map(str::to_string),
            )
        })
        .collect();
    want.sort();
    assert_eq!(got, want);
    // Following the help for both fields leaves neither finding.
    let both = dir.path().join("skills/customer-io-automation");
    std::fs::rename(dir.path().join("skills/Customer.io"), &both).expect("rename");
    std::fs::write(
        both.join("SKILL.md"),
        "---\nname: customer-io-automation\ndescription: Does things.\n---\n",
    )
    .expect("write");
    let o = skein(
        &[
            "check",
            "--format",
            "concise",
            "--select",
            "REF005,SKILL002",
            "skills/customer-io-automation",
        ],
        dir.path(),
    );
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (
            Some(0),
            "checked 1 file (agent-skill 1): 0 errors, 0 warnings, 0 infos\n".to_string()
        )
    );
}

/// A binary file saved as `SKILL.md` is said to be one (SYN005), and the
/// summary counts it as a file not analyzed instead of "(no artifacts)".
#[test]
fn a_binary_skill_is_reported_and_counted_as_not_analyzed() {
    let dir = common::project();
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10";
    let p = dir.path().join("skills/logo/SKILL.md");
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(&p, png).expect("write");
    let o = skein(&["check", "--format", "concise"], dir.path());
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (
            Some(1),
            "skills/logo/SKILL.md:1:1: error[SYN005] binary file, not UTF-8 text (invalid at byte 0, with NUL bytes): not analyzed as agent-skill [not-utf8]\n\
             checked 1 file (1 not analyzed): 1 error, 0 warnings, 0 infos\n"
                .to_string()
        )
    );
    // Beside an artifact; and in the JSON summary.
    write(
        dir.path(),
        "skills/ok/SKILL.md",
        "---\nname: ok\ndescription: Fine.\n---\n",
    );
    let o = skein(&["check", "--format", "concise"], dir.path());
    assert!(
        stdout(&o).ends_with(
            "\nchecked 2 files (agent-skill 1, 1 not analyzed): 1 error, 0 warnings, 0 infos\n"
        ),
        "{}",
        stdout(&o)
    );
    let o = skein(&["check", "--format", "json"], dir.path());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
    assert_eq!(
        v["summary"],
        serde_json::json!({
            "files_read": 2,
            "artifacts": [["agent-skill", 1]],
            "not_analyzed": 1,
            "errors": 1,
            "warnings": 0,
            "infos": 0
        })
    );
    // Text in another encoding is not called binary.
    std::fs::write(&p, b"---\nname: logo\ndescription: caf\xe9\n---\n").expect("write");
    let o = skein(&["check", "--format", "concise", "skills/logo"], dir.path());
    assert_eq!(
        stdout(&o),
        "skills/logo/SKILL.md:3:17: error[SYN005] invalid UTF-8 at byte 31 [not-utf8]\n\
         checked 1 file (1 not analyzed): 1 error, 0 warnings, 0 infos\n"
    );
}

/// `skein rule SKILL001` names each source once (it listed Claude Code's
/// skills page twice).
#[test]
fn rule_doc_lists_each_source_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let o = skein(&["rule", "SKILL001"], dir.path());
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let source = &out[out.find("## Source").expect("a source section")..];
    assert_eq!(
        source,
        "## Source\n\
         - Agent Skills specification, \"Frontmatter\" table and \"`name` field\" /\n  \
         \"`description` field\" (<https://agentskills.io/specification>): both\n  \
         fields are marked required.\n\
         - Claude Code, \"Extend Claude with skills\", \"Frontmatter reference\"\n  \
         (<https://docs.claude.com/en/docs/claude-code/skills>): `description` is\n  \
         recommended, `name` \"If omitted, uses the directory name\".\n\
         \n\n\
         Documentation: https://github.com/skein-dev/skein/blob/main/docs/rules.md#skill001-missing-skill-field\n"
    );
}

/// Issue #14: the findings of `skein check sub/dir` are the whole-project
/// findings restricted to `sub/dir` (the demo repository, from the
/// workspace root).
#[test]
fn a_subfolder_run_is_the_project_run_restricted_to_it() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let lines = |path: &str| -> Vec<String> {
        // No cache beside the repository's own examples.
        let o = skein(
            &["check", "--format", "concise", "--no-cache", path],
            &workspace,
        );
        stdout(&o)
            .lines()
            .filter(|l| !l.starts_with("checked ") && !l.starts_with("[*] "))
            .map(str::to_string)
            .collect()
    };
    let all = lines("corpus/examples/demo-repo");
    for sub in [
        "corpus/examples/demo-repo/packs",
        "corpus/examples/demo-repo/plugins",
    ] {
        let want: Vec<String> = all
            .iter()
            .filter(|l| l.starts_with(&format!("{sub}/")))
            .cloned()
            .collect();
        assert!(!want.is_empty(), "{sub} has findings in the demo");
        assert_eq!(lines(sub), want, "{sub}");
    }
}

/// A project with one finding in each of two files, for the flag tests.
fn two_findings() -> tempfile::TempDir {
    let dir = common::project();
    write(
        dir.path(),
        ".claude/agents/rev.md",
        "---\nname: rev\ndescription: [unclosed\n---\nx\n",
    );
    write(
        dir.path(),
        ".claude/skills/tidy/SKILL.md",
        "---\nname: tidyy\ndescription: Tidies code.\n---\nx\n",
    );
    dir
}

const AGENT_LINE: &str = ".claude/agents/rev.md:4:1: error[SYN001] syntax error: while parsing a flow sequence, expected ',' or ']' [syntax-error]";
const SKILL_LINE: &str = ".claude/skills/tidy/SKILL.md:2:7: error[REF005] skill name `tidyy` does not match its folder `tidy` [name-mismatch]";

/// Issue #14: `--select`, `--extend-select`, `--ignore`,
/// `--per-file-ignores` and `--exclude`, over skein.toml as ruff's flags.
#[test]
fn rule_and_file_selection_flags() {
    let dir = two_findings();
    let run = |args: &[&str]| {
        let mut all = vec!["check", "--format", "concise", "-q"];
        all.extend_from_slice(args);
        let o = skein(&all, dir.path());
        (o.status.code(), stdout(&o))
    };
    let both = format!("{AGENT_LINE}\n{SKILL_LINE}\n");
    assert_eq!(run(&[]), (Some(1), both.clone()));
    assert_eq!(
        run(&["--select", "SYN"]),
        (Some(1), format!("{AGENT_LINE}\n"))
    );
    assert_eq!(
        run(&["--select", "SYN", "--extend-select", "name-mismatch"]),
        (Some(1), both)
    );
    assert_eq!(run(&["--ignore", "SYN001,REF"]), (Some(0), String::new()));
    assert_eq!(
        run(&["--per-file-ignores", ".claude/skills/**:REF005"]),
        (Some(1), format!("{AGENT_LINE}\n"))
    );
    assert_eq!(
        run(&["--exclude", ".claude/agents/**"]),
        (Some(1), format!("{SKILL_LINE}\n"))
    );
    // skein.toml's `select` is replaced by --select, its `ignore` extended.
    write(
        dir.path(),
        "skein.toml",
        "select = [\"REF\"]\nexclude = [\"nothing/**\"]\n",
    );
    assert_eq!(run(&[]), (Some(1), format!("{SKILL_LINE}\n")));
    assert_eq!(
        run(&["--select", "SYN"]),
        (Some(1), format!("{AGENT_LINE}\n"))
    );
    // A selector that matches no rule is a usage error.
    let o = skein(&["check", "--ignore", "NOPE1"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        common::stderr(&o),
        "skein: error: no rule has the code, name or code prefix `NOPE1`; `skein rules` lists them\n"
    );
    let o = skein(&["check", "--per-file-ignores", "legacy"], dir.path());
    assert_eq!(o.status.code(), Some(2));
}

/// Issue #14: `--exit-zero`, `--quiet`, `--silent`, `--statistics`.
#[test]
fn output_and_exit_flags() {
    let dir = two_findings();
    let o = skein(&["check", "--format", "concise", "--exit-zero"], dir.path());
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        format!(
            "{AGENT_LINE}\n{SKILL_LINE}\nchecked 2 files (agent-skill 1, plugin-agent 1): 2 errors, 0 warnings, 0 infos\n[*] 1 fixable with `--fix --unsafe-fixes`\n"
        )
    );
    let o = skein(&["check", "--silent"], dir.path());
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), ""));
    assert!(common::stderr(&o).is_empty());
    let o = skein(&["check", "--statistics"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "1  REF005  name-mismatch\n1  SYN001  syntax-error\n"
    );
    let o = skein(&["check", "--statistics", "--format", "json"], dir.path());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(
        v,
        serde_json::json!([
            {"code": "REF005", "name": "name-mismatch", "count": 1},
            {"code": "SYN001", "name": "syntax-error", "count": 1}
        ])
    );
    let o = skein(&["check", "--statistics", "--format", "sarif"], dir.path());
    assert_eq!(o.status.code(), Some(2));
}

/// `--show-files` and `--show-settings` print text only: asked for
/// another format, they say so rather than print text under its name.
#[test]
fn show_files_refuses_a_machine_format() {
    let dir = common::project();
    for flag in ["--show-files", "--show-settings"] {
        for format in ["json", "sarif", "github"] {
            let o = skein(&["check", flag, "--format", format], dir.path());
            assert_eq!(o.status.code(), Some(2), "{flag} --format {format}");
            assert!(
                String::from_utf8_lossy(&o.stderr).contains(
                    "--show-settings and --show-files print text (human, concise): not --format json, sarif or github"
                ),
                "{flag} --format {format}"
            );
        }
        let o = skein(&["check", flag, "--format", "concise"], dir.path());
        assert_eq!(o.status.code(), Some(0), "{flag} --format concise");
    }
}

/// `--show-settings` says when skein.toml is not applied (not TOML, not
/// UTF-8, a key of the wrong name or type), and the defaults it shows are
/// the ones that apply.
#[test]
fn show_settings_says_an_invalid_configuration_is_not_applied() {
    let dir = common::project();
    write(dir.path(), "skein.toml", "select = 3\nfoo = 1\n");
    let o = skein(&["check", "--show-settings"], dir.path());
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let line = out.lines().nth(1).unwrap_or_default();
    assert_eq!(
        line,
        "configuration: skein.toml (not applied: 2 problems in it, shown by `skein check`; the defaults below apply)"
    );
    std::fs::write(dir.path().join("skein.toml"), b"select = [\"REF\"]\n\xff\n").unwrap();
    let o = skein(&["check", "--format", "concise"], dir.path());
    assert_eq!(
        (o.status.code(), String::from_utf8_lossy(&o.stdout).lines().next().map(str::to_string)),
        (
            Some(1),
            Some(
                "skein.toml:2:1: error[SCH005] invalid skein.toml: byte 0xff is not UTF-8 (a TOML file is UTF-8 text) [invalid-config]"
                    .to_string()
            )
        )
    );
}

/// `--show-files` lists a symbolic link named like an artifact with why it
/// is not read, as `check` reports it (SYN012) rather than analyzes it; a
/// skill's reference that is a link, which `check` passes over, is not
/// listed.
#[cfg(unix)]
#[test]
fn show_files_says_a_symbolic_link_is_not_followed() {
    let dir = common::project();
    write(
        dir.path(),
        "real.md",
        "---\nname: x\ndescription: Does x. Use when x.\n---\n",
    );
    std::fs::create_dir_all(dir.path().join("skills/x")).unwrap();
    std::os::unix::fs::symlink("../../real.md", dir.path().join("skills/x/SKILL.md")).unwrap();
    // A skill's reference that is a link is passed over in silence by
    // `check`: not listed either.
    write(
        dir.path(),
        "skills/y/SKILL.md",
        "---\nname: y\ndescription: Does y. Use when y.\n---\nSee [g](references/g.md).\n",
    );
    std::fs::create_dir_all(dir.path().join("skills/y/references")).unwrap();
    std::os::unix::fs::symlink(
        "../../../real.md",
        dir.path().join("skills/y/references/g.md"),
    )
    .unwrap();
    let o = skein(&["check", "--show-files", "skills"], dir.path());
    assert_eq!(
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned()
        ),
        (
            Some(0),
            "skills/x/SKILL.md agent-skill (symbolic link, not followed: SYN012)\nskills/y/SKILL.md agent-skill\n".to_string()
        )
    );
}

/// `--show-files` lists what `check` analyzes, the files a plugin
/// manifest names by path (hooks files outside `hooks/`) included.
#[test]
fn show_files_lists_the_files_plugin_manifests_name() {
    let dir = common::project();
    write(
        dir.path(),
        "plugins/p/.claude-plugin/plugin.json",
        r#"{"name": "p", "description": "P.", "version": "1.0.0", "hooks": ["./config/h.json", "./config/h2.txt"]}"#,
    );
    write(dir.path(), "plugins/p/config/h.json", r#"{"hooks": {}}"#);
    write(dir.path(), "plugins/p/config/h2.txt", r#"{"hooks": {}}"#);
    write(
        dir.path(),
        "plugins/p/config/unnamed.json",
        r#"{"hooks": {}}"#,
    );
    let o = skein(&["check", "--show-files"], dir.path());
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "plugins/p/.claude-plugin/plugin.json claude-plugin\nplugins/p/config/h.json claude-hooks\nplugins/p/config/h2.txt claude-hooks\n"
    );
    let o = skein(&["check", "--no-cache", "--format", "concise"], dir.path());
    assert!(
        stdout(&o).ends_with(
            "checked 3 files (claude-hooks 2, claude-plugin 1): 1 error, 0 warnings, 0 infos\n"
        ),
        "{}",
        stdout(&o)
    );
}

/// Issue #14: `--show-files`, `--show-settings`, standard input as a
/// project file, completions, `--version`, and no tip naming the flag of
/// opposite meaning.
#[test]
fn settings_files_stdin_completions_and_tips() {
    let dir = two_findings();
    let o = skein(&["check", "--show-files"], dir.path());
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        ".claude/agents/rev.md plugin-agent\n.claude/skills/tidy/SKILL.md agent-skill\n"
    );
    let o = skein(&["check", "--show-settings", "--ignore", "SYN"], dir.path());
    let out = stdout(&o);
    let root = dir.path().canonicalize().expect("canonical");
    assert!(
        out.starts_with(&format!(
            "project root: {}\nconfiguration: none (defaults)\nfail-on: error\nfail-on-internal-error: false\nmax-file-size: 10485760\nrules on: {} of {}\n",
            root.display(),
            skein::rules::all().len() - 18,
            skein::rules::all().len()
        )),
        "{out}"
    );
    assert!(!out.contains("SYN001"), "{out}");
    // Standard input stands for the file: the same findings as on disk, and
    // the fixed text has none.
    let stdin = |text: &str| {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_skein"))
            .args([
                "check",
                "--format",
                "concise",
                "-",
                "--stdin-filename",
                ".claude/skills/tidy/SKILL.md",
            ])
            .current_dir(dir.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("skein runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("write");
        let o = child.wait_with_output().expect("skein ends");
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let disk = skein(
        &[
            "check",
            "--format",
            "concise",
            ".claude/skills/tidy/SKILL.md",
        ],
        dir.path(),
    );
    assert_eq!(
        stdin("---\nname: tidyy\ndescription: Tidies code.\n---\nx\n"),
        (Some(1), stdout(&disk))
    );
    assert_eq!(
        stdin("---\nname: tidy\ndescription: Tidies code.\n---\nx\n"),
        (
            Some(0),
            "checked 1 file (agent-skill 1): 0 errors, 0 warnings, 0 infos\n".to_string()
        )
    );
    let o = skein(&["completions", "bash"], dir.path());
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("--stdin-filename"), "{}", stdout(&o));
    let o = skein(&["--version"], dir.path());
    let v = stdout(&o);
    assert!(
        v.starts_with(&format!("skein {} (", skein::PKG_VERSION)) && v.ends_with(")\n"),
        "{v}"
    );
    for (typed, tip) in [
        ("--progress", None),
        ("--project", None),
        ("--no-select", None),
        (
            "--ignores",
            Some("tip: a similar argument exists: '--ignore'"),
        ),
        (
            "--no-ignore",
            Some(
                "tip: `--no-ignore-files` analyzes files .gitignore skips; `--no-ignores` applies no suppression",
            ),
        ),
    ] {
        let o = skein(&["check", typed], dir.path());
        assert_eq!(o.status.code(), Some(2), "{typed}");
        let err = common::stderr(&o);
        match tip {
            None => assert!(!err.contains("tip:"), "{typed}: {err}"),
            Some(t) => assert!(err.contains(t), "{typed}: {err}"),
        }
        // The usage line names no flag of opposite meaning either.
        if typed != "--ignores" {
            assert!(
                err.contains("Usage: skein check [OPTIONS] [PATHS]..."),
                "{typed}: {err}"
            );
        }
    }
}

/// Issue #14: a baseline written at the project root applies to a run of a
/// subfolder, from another current folder: it stores project-relative paths.
#[test]
fn a_root_baseline_applies_to_a_subfolder_run() {
    let dir = two_findings();
    let base = dir.path().join("baseline.json");
    let o = skein(
        &["check", "--write-baseline", base.to_str().expect("utf-8")],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(0));
    let o = skein(
        &[
            "check",
            "--format",
            "concise",
            "--baseline",
            base.to_str().expect("utf-8"),
            ".",
        ],
        &dir.path().join(".claude/skills"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(
        stdout(&o),
        "checked 1 file (agent-skill 1): 0 errors, 0 warnings, 0 infos\n"
    );
    assert_eq!(
        common::stderr(&o),
        "skein: baseline: 1 known finding(s) not reported, 0 fixed since the baseline was written\n"
    );
}

/// Issue #14: `exclude` and `extend-exclude` of skein.toml leave files out
/// of the analysis (globs relative to the file's folder).
#[test]
fn config_exclude_keys_leave_files_out() {
    let dir = two_findings();
    for (toml, want) in [
        ("exclude = [\".claude/agents/**\"]\n", SKILL_LINE),
        ("extend-exclude = [\".claude/skills/**\"]\n", AGENT_LINE),
    ] {
        write(dir.path(), "skein.toml", toml);
        let o = skein(&["check", "--format", "concise", "-q"], dir.path());
        assert_eq!(
            (o.status.code(), stdout(&o)),
            (Some(1), format!("{want}\n")),
            "{toml}"
        );
    }
}

/// A named file that `.gitignore` leaves out is reported as ignored (with
/// the flag that reads it), not as a kind skein does not read.
#[test]
fn a_named_ignored_file_says_why_it_was_not_analyzed() {
    let dir = two_findings();
    write(dir.path(), ".gitignore", ".claude/skills/\n");
    let o = skein(&["check", ".claude/skills/tidy/SKILL.md"], dir.path());
    assert_eq!(o.status.code(), Some(3));
    assert!(
        common::stderr(&o).starts_with(
            "skein: warning: .claude/skills/tidy/SKILL.md was not analyzed: `.gitignore` (or `.ignore`), an `exclude` glob, or its place below a plugin skill's folder leaves it out (`--no-ignore-files` reads ignored files)\n"
        ),
        "{}",
        common::stderr(&o)
    );
    let o = skein(
        &[
            "check",
            "--no-ignore-files",
            "--format",
            "concise",
            "-q",
            ".claude/skills/tidy/SKILL.md",
        ],
        dir.path(),
    );
    assert_eq!(
        (o.status.code(), stdout(&o)),
        (Some(1), format!("{SKILL_LINE}\n"))
    );
}
