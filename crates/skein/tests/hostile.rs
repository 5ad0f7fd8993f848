//! Hostile input and fault tolerance (issue #7): skein never panics, hangs,
//! blows up memory, runs repository code, escapes the repository or leaks a
//! secret. Each test here puts a hostile file next to a valid artifact with
//! a known finding ([`KNOWN`]) and asserts both the hostile file's clear
//! diagnostic and that the known finding is still reported.
//!
//! Where each case is tested (every case once):
//!
//! | case | test |
//! |---|---|
//! | YAML alias bomb ("billion laughs") | `alias_bomb` (and `skein-syntax/tests/differential.rs` `alias_bomb_is_cheap_and_bounded` for the tree) |
//! | aliases that stack their anchors' depth | `alias_stacked_depth` |
//! | 10,000 / 100,000-deep YAML flow, JSON, compact block sequences (`- - - a`); 2,000-deep indented YAML block (its size grows with the square of the depth: 10,000 levels would be 50 MB of spaces) | `deep_nesting_on_a_2_mib_stack` |
//! | 100 MB file, `--max-file-size` | `hundred_megabyte_file`; the flag: `cli.rs` `file_too_large_is_reported_not_read`; `max-file-size` in skein.toml: `max_file_size_from_config` |
//! | binary file with a recognised name | `binary_file` |
//! | invalid UTF-8 | `invalid_utf8` |
//! | UTF-16 with BOM | `utf16_with_bom` |
//! | NUL bytes | `nul_bytes` |
//! | 10 MB single line | `ten_megabyte_line` |
//! | CRLF and lone CR | `crlf_and_lone_cr` |
//! | symlink loop | `symlink_loop` |
//! | symlink out of the root | `cli.rs` `symlinks_are_not_followed_out_of_the_root`, `explicit_symlink_path_is_not_followed`; no outside path in any format: `safety.rs` `no_outside_path_in_any_output` |
//! | unreadable file (permission denied) | `unreadable_file_as_unprivileged_user` (as `nobody` through `setpriv` when run as root; a printed skip, or a failure under `SKEIN_REQUIRE_UNPRIVILEGED=1`, where neither works) |
//! | file deleted during the walk | `file_deleted_during_the_run` (library, `check_listed`) |
//! | FIFO with a recognised name | `cli.rs` `fifo_with_artifact_name_is_reported_never_opened` |
//! | socket (a special file) with a recognised name | `socket_with_artifact_name` |
//! | 10,000 files in one folder | `ten_thousand_files_in_one_folder` |
//! | a loop of 3,000 stages, every gate revising forward (FLOW003 findings and their help stay linear) | `loop_of_three_thousand_stages_each_revising_forward` |
//! | non-UTF-8 bytes in a path | `cli.rs` `non_utf8_folder_names_are_analyzed`, and a file name: `non_utf8_file_name` |
//! | terminal control bytes | `cli.rs` `control_bytes_are_not_echoed` |
//! | a right-to-left override and a zero-width space in a finding's snippet and message (Trojan Source) | `bidi_and_zero_width_are_escaped_in_every_format` |
//! | a panicking pass or file decoding (internal error) | `internal_error_*` (the decoding panic injected by the test build's `fault-injection` hook) |
//! | walk order | `output_does_not_depend_on_file_order`; thread count: `cli.rs` `output_does_not_depend_on_thread_count` |
//! | no execution, no network, secrets redacted, no outside path | `safety.rs` |

mod common;

use common::{skein, stdout, write};
use skein::{InputFile, Options, Report};
use std::path::Path;

/// A valid artifact with a known finding, put next to every hostile file.
const KNOWN_PATH: &str = "skills/ok/SKILL.md";
const KNOWN_TEXT: &str = "---\nname: Bad_x\ndescription: d\n---\n";
/// The known finding: `path:line:col: CODE`.
const KNOWN: &str = "skills/ok/SKILL.md:2:7: REF005";

/// Checks `files` plus the known artifact in memory, on a dedicated pool of
/// two workers with 2 MiB stacks (Rust's default thread stack), from a
/// thread with a 2 MiB stack.
fn check_mem(files: Vec<(&str, Vec<u8>)>) -> Report {
    let mut input: Vec<InputFile> = files
        .into_iter()
        .map(|(p, b)| InputFile::new(p, b))
        .collect();
    input.push(InputFile::new(KNOWN_PATH, KNOWN_TEXT));
    on_small_stack(move || {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .stack_size(2 << 20)
            .build()
            .expect("pool");
        pool.install(|| skein::check_files(input, &Options::default()))
    })
}

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("no panic, no stack overflow")
}

/// `path:line:col: CODE message` of every diagnostic, in report order.
fn lines(r: &Report) -> Vec<String> {
    r.diagnostics()
        .iter()
        .map(|d| {
            let (path, line, col) = common::position(r, d);
            format!("{path}:{line}:{col}: {} {}", d.rule.code, d.message)
        })
        .collect()
}

/// Asserts that the report has exactly `expected` (plus the known finding
/// and its invalid-skill-name companion).
fn assert_findings(r: &Report, expected: &[&str]) {
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.push(format!(
        "{KNOWN} skill name `Bad_x` does not match its folder `ok`"
    ));
    want.push(
        "skills/ok/SKILL.md:2:7: SKILL002 skill name `Bad_x` is not a valid name: it has upper-case letters; it contains `_`"
            .to_string(),
    );
    let mut got = lines(r);
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn alias_bomb() {
    let mut y = String::from(
        "spec_version: \"0.1\"\nid: bomb\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
    );
    for level in 1..10u8 {
        let (name, prev) = ((b'a' + level) as char, (b'a' + level - 1) as char);
        let items = vec![format!("*{prev}"); 9].join(", ");
        y.push_str(&format!("{name}: &{name} [{items}]\n"));
    }
    let watchdog = skein_test_support::Watchdog::start(
        "this hostile input's check",
        std::time::Duration::from_secs(20),
    );
    let r = check_mem(vec![("loops/bomb/loop.yaml", y.into_bytes())]);
    drop(watchdog);
    assert_findings(
        &r,
        &[
            "loops/bomb/loop.yaml:8:8: SYN008 expanding aliases would produce more than 100000 values",
        ],
    );
}

#[test]
fn alias_stacked_depth() {
    // Each anchor nests 200 levels and holds an alias of the previous one:
    // expanded, 300 x 200 levels. It once overflowed the stack in `to_json`.
    let mut y = String::from("spec_version: \"0.1\"\nid: deep\nx:\n");
    for i in 0..300 {
        let inner = if i == 0 {
            "1".to_string()
        } else {
            format!("*a{}", i - 1)
        };
        y.push_str(&format!(
            "  a{i}: &a{i} {}{inner}{}\n",
            "[".repeat(200),
            "]".repeat(200)
        ));
    }
    y.push_str("permissions: *a299\n");
    let r = check_mem(vec![("deep/loop.yaml", y.into_bytes())]);
    assert_findings(
        &r,
        &[
            "deep/loop.yaml:5:211: SYN009 expanding aliases would nest values deeper than 256 levels",
        ],
    );
}

#[test]
fn deep_nesting_on_a_2_mib_stack() {
    for depth in [10_000usize, 100_000] {
        let block: String = (0..depth.min(2_000))
            .map(|i| format!("{}a:\n", " ".repeat(i)))
            .collect();
        // Block sequences nest `depth` levels in 2 bytes a level.
        let compact = format!(
            "spec_version: \"0.1\"\nid: c\nx:\n  {}a\n",
            "- ".repeat(depth)
        );
        let flow = format!(
            "spec_version: \"0.1\"\nid: f\nx: {}{}\n",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let flow_map = format!(
            "spec_version: \"0.1\"\nid: g\nx: {}1{}\n",
            "{a: ".repeat(depth),
            "}".repeat(depth)
        );
        let json = format!(
            "{{\"mcpServers\": {}{}}}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let md = format!(
            "---\nname: deep\ndescription: {}{}\n---\n",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let r = check_mem(vec![
            ("block/loop.yaml", block.into_bytes()),
            ("compact/loop.yaml", compact.into_bytes()),
            ("flow/loop.yaml", flow.into_bytes()),
            ("flowmap/loop.yaml", flow_map.into_bytes()),
            ("json/.mcp.json", json.into_bytes()),
            ("skills/deep/SKILL.md", md.into_bytes()),
        ]);
        assert_findings(
            &r,
            &[
                "block/loop.yaml:129:1: SYN009 YAML block structure nests deeper than 128 indentation levels",
                "block/loop.yaml:1:1: SCH003 unrecognised loop manifest: it has no `spec_version`, so it is not a Loopmaster v0.1 manifest",
                "compact/loop.yaml:4:1: SYN009 YAML block structure nests deeper than 128 indentation levels",
                "compact/loop.yaml:1:1: SCH003 unrecognised loop manifest: it has no `spec_version`, so it is not a Loopmaster v0.1 manifest",
                "flow/loop.yaml:3:260: SYN009 values nest deeper than 256 levels",
                "flowmap/loop.yaml:3:1025: SYN009 values nest deeper than 256 levels",
                "json/.mcp.json:1:272: SYN009 values nest deeper than 256 levels",
                "skills/deep/SKILL.md:3:270: SYN009 values nest deeper than 256 levels",
            ],
        );
    }
}

#[test]
fn hundred_megabyte_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), KNOWN_PATH, KNOWN_TEXT);
    std::fs::create_dir_all(dir.path().join("big")).expect("mkdir");
    // Sparse: 100 MB of size, no 100 MB of disk, and never read.
    let f = std::fs::File::create(dir.path().join("big/.mcp.json")).expect("create");
    f.set_len(100_000_000).expect("set_len");
    let o = skein(&["check", "--format", "concise"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "big/.mcp.json:1:1: error[SYN010] file is 100000000 bytes, over the limit of 10485760 bytes; not read [file-too-large]\n\
         skills/ok/SKILL.md:2:7: error[REF005] skill name `Bad_x` does not match its folder `ok` [name-mismatch]\n\
         skills/ok/SKILL.md:2:7: error[SKILL002] skill name `Bad_x` is not a valid name: it has upper-case letters; it contains `_` [invalid-skill-name]\n\
         checked 2 files (agent-skill 1, 1 not analyzed): 3 errors, 0 warnings, 0 infos\n\
         [*] 1 fixable with `--fix --unsafe-fixes`\n"
    );
}

#[test]
fn max_file_size_from_config() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), KNOWN_PATH, KNOWN_TEXT);
    write(dir.path(), "skein.toml", "max-file-size = 38\n");
    write(
        dir.path(),
        "m/.mcp.json",
        "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}\n",
    );
    let o = skein(&["check", "--format", "concise"], dir.path());
    let out = stdout(&o);
    assert!(
        out.starts_with("m/.mcp.json:1:1: error[SYN010] file is 40 bytes, over the limit of 38 bytes; not read [file-too-large]\nskills/ok/SKILL.md:2:7: error[REF005]"),
        "{out}"
    );
    // The flag wins over the file.
    let o = skein(
        &["check", "--format", "concise", "--max-file-size", "1000"],
        dir.path(),
    );
    assert!(!stdout(&o).contains("SYN010"), "{}", stdout(&o));
}

#[test]
fn binary_file() {
    let mut bytes = vec![
        0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d,
    ];
    bytes.extend((0..=255u8).cycle().take(4096));
    let r = check_mem(vec![("bin/.mcp.json", bytes)]);
    assert_findings(
        &r,
        &[
            "bin/.mcp.json:1:1: SYN005 binary file, not UTF-8 text (invalid at byte 0, with NUL bytes): not analyzed as mcp-config",
        ],
    );
}

#[test]
fn invalid_utf8() {
    let r = check_mem(vec![(
        "skills/latin/SKILL.md",
        b"---\nname: latin\ndescription: caf\xe9\n---\n".to_vec(),
    )]);
    assert_findings(
        &r,
        &["skills/latin/SKILL.md:3:17: SYN005 invalid UTF-8 at byte 32"],
    );
}

#[test]
fn utf16_with_bom() {
    let text = "{\"mcpServers\": {}}\n";
    for (bom, unit) in [
        ([0xffu8, 0xfe], u16::to_le_bytes as fn(u16) -> [u8; 2]),
        ([0xfe, 0xff], u16::to_be_bytes),
    ] {
        let mut bytes = bom.to_vec();
        for u in text.encode_utf16() {
            bytes.extend(unit(u));
        }
        let r = check_mem(vec![("u/.mcp.json", bytes)]);
        assert_findings(
            &r,
            &[
                "u/.mcp.json:1:1: SYN005 UTF-16 is not supported: the file starts with a UTF-16 byte-order mark",
            ],
        );
        let d = &r.diagnostics()[r.diagnostics().len() - 1];
        assert_eq!(d.rule.code, "SYN005");
        assert_eq!(
            d.help.as_deref(),
            Some("convert the file to UTF-8 (for example `iconv -f UTF-16 -t UTF-8`)")
        );
    }
}

#[test]
fn nul_bytes() {
    let r = check_mem(vec![
        (
            "n/.mcp.json",
            b"{\"mcpServers\": {\"a\x00b\": {\"command\": \"x\"}}}".to_vec(),
        ),
        (
            "skills/nul/SKILL.md",
            b"---\nname: nul\ndescription: a\x00b\n---\n".to_vec(),
        ),
    ]);
    assert_findings(
        &r,
        &[
            "n/.mcp.json:1:19: SYN001 syntax error: unexpected `\\u{0}b`",
            "skills/nul/SKILL.md:3:15: SYN001 syntax error: NUL byte in YAML",
        ],
    );
}

#[test]
fn ten_megabyte_line() {
    // One 10 MB line with a finding at its end, and a line of 200,000
    // invalid numbers: bounded diagnostics, bounded snippets, linear time.
    let long = format!(
        "{{\"mcpServers\": {{\"a\": {{\"command\": \"x\", \"description\": \"{}\", \"command\": \"y\"}}}}}}",
        "a".repeat(10_000_000)
    );
    let numbers = format!("[{}1]", "1.,".repeat(200_000));
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), KNOWN_PATH, KNOWN_TEXT);
    write(dir.path(), "long/.mcp.json", &long);
    write(dir.path(), "nums/.mcp.json", &numbers);
    let watchdog = skein_test_support::Watchdog::start(
        "this hostile input's check",
        std::time::Duration::from_secs(60),
    );
    let o = skein(&["check", "--color", "never"], dir.path());
    drop(watchdog);
    let out = stdout(&o);
    assert!(out.len() < 100_000, "output of {} bytes", out.len());
    assert!(out.contains(
        "error[SYN002]: long/.mcp.json:1:10000058: duplicate key `command` [duplicate-key]\n = note: line 1 is 10000074 characters long; its snippet is not shown\n"
    ), "{}", &out[..out.len().min(3000)]);
    assert!(out.contains(
        "error[SYN001]: nums/.mcp.json:1:151: 199950 more syntax diagnostics in this file are not shown [syntax-error]\n"
    ));
    assert!(out.contains("error[REF005]: skill name `Bad_x` does not match its folder `ok` [name-mismatch]\n  ┌─ skills/ok/SKILL.md:2:7\n"));
    assert!(
        out.ends_with(
            "checked 3 files (agent-skill 1, mcp-config 2): 54 errors, 0 warnings, 0 infos\n[*] 1 fixable with `--fix --unsafe-fixes`\n"
        ),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
}

#[test]
fn crlf_and_lone_cr() {
    let r = check_mem(vec![
        (
            "skills/crlf/SKILL.md",
            b"---\r\nname: Bad_y\r\ndescription: d\r\n---\r\n".to_vec(),
        ),
        (
            "skills/cr/SKILL.md",
            b"---\rname: cr\rdescription: d\r---\r".to_vec(),
        ),
        (
            "c/.mcp.json",
            b"{\r\"mcpServers\": {\r\"a\": {\"command\": 1}}}".to_vec(),
        ),
    ]);
    assert_findings(
        &r,
        &[
            // A lone CR is no line break for skein's line index (nor for JSON):
            // one line. CommonMark would see lines; skein finds no frontmatter.
            "c/.mcp.json:1:36: SCH001 `/mcpServers/a/command` is an integer `1`, expected string",
            "skills/cr/SKILL.md:1:1: SCH002 SKILL.md has no YAML frontmatter",
            "skills/crlf/SKILL.md:2:7: REF005 skill name `Bad_y` does not match its folder `crlf`",
            "skills/crlf/SKILL.md:2:7: SKILL002 skill name `Bad_y` is not a valid name: it has upper-case letters; it contains `_`",
        ],
    );
}

#[cfg(unix)]
#[test]
fn symlink_loop() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), KNOWN_PATH, KNOWN_TEXT);
    std::os::unix::fs::symlink(".", dir.path().join("skills/again")).expect("symlink");
    std::fs::create_dir_all(dir.path().join("skills/self")).expect("mkdir");
    std::os::unix::fs::symlink("SKILL.md", dir.path().join("skills/self/SKILL.md"))
        .expect("symlink");
    let o = skein(&["check", "--format", "concise"], dir.path());
    assert_eq!(
        stdout(&o),
        "skills/again:1:1: info[SYN012] symbolic link to a folder, not followed (it could point outside the analyzed folder); no artifact in it is analyzed under this path [symlink-not-followed]\n\
         skills/ok/SKILL.md:2:7: error[REF005] skill name `Bad_x` does not match its folder `ok` [name-mismatch]\n\
         skills/ok/SKILL.md:2:7: error[SKILL002] skill name `Bad_x` is not a valid name: it has upper-case letters; it contains `_` [invalid-skill-name]\n\
         skills/self/SKILL.md:1:1: info[SYN012] symbolic link not followed (it could point outside the analyzed folder); its target is not analyzed [symlink-not-followed]\n\
         checked 3 files (agent-skill 1, 2 not analyzed): 2 errors, 0 warnings, 2 infos\n\
         [*] 1 fixable with `--fix --unsafe-fixes`\n"
    );
}

/// A mode-000 file is reported, not skipped. As root (CI), skein runs as
/// `nobody` through `setpriv`, since root reads any file; where neither is
/// possible the test says it skipped (a failure under
/// `SKEIN_REQUIRE_UNPRIVILEGED=1`).
#[cfg(unix)]
#[test]
fn unreadable_file_as_unprivileged_user() {
    use std::os::unix::fs::PermissionsExt;
    let Some(runner) = skein_test_support::unprivileged() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), KNOWN_PATH, KNOWN_TEXT);
    write(dir.path(), "locked/.mcp.json", "{\"mcpServers\": {}}\n");
    // `nobody` must be able to walk the tree and read the rest of it.
    for d in [
        dir.path(),
        &dir.path().join("locked"),
        &dir.path().join("skills"),
        &dir.path().join("skills/ok"),
    ] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).expect("chmod dir");
    }
    let locked = dir.path().join("locked/.mcp.json");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let o = runner
        .command(Path::new(env!("CARGO_BIN_EXE_skein")))
        .args(["check", "--format", "concise"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("skein runs");
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    assert_eq!(
        stdout(&o).lines().next(),
        Some(
            "locked/.mcp.json:1:1: error[SYN011] cannot read file: Permission denied (os error 13) [unreadable-file]"
        )
    );
    assert!(stdout(&o).contains("skills/ok/SKILL.md:2:7: error[REF005]"));
}

#[test]
fn file_deleted_during_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), KNOWN_PATH, KNOWN_TEXT);
    // The list a walk produced; `gone/.mcp.json` was deleted since.
    let listed = vec![KNOWN_PATH.to_string(), "gone/.mcp.json".to_string()];
    let r = skein::check_listed(dir.path(), &listed, &Options::default()).expect("root readable");
    assert_findings(
        &r,
        &["gone/.mcp.json:1:1: SYN011 cannot read file: No such file or directory (os error 2)"],
    );
    // A listed path that climbs out of the root is never opened.
    let listed = vec![KNOWN_PATH.to_string(), "../outside/.mcp.json".to_string()];
    let r = skein::check_listed(dir.path(), &listed, &Options::default()).expect("root readable");
    assert_findings(
        &r,
        &["../outside/.mcp.json:1:1: SYN011 not a path inside the analyzed folder; never opened"],
    );
}

#[cfg(unix)]
#[test]
fn socket_with_artifact_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), KNOWN_PATH, KNOWN_TEXT);
    std::fs::create_dir_all(dir.path().join("sock")).expect("mkdir");
    let _listener =
        std::os::unix::net::UnixListener::bind(dir.path().join("sock/.mcp.json")).expect("bind");
    let o = skein(&["check", "--format", "concise"], dir.path());
    assert_eq!(
        stdout(&o).lines().next(),
        Some(
            "skills/ok/SKILL.md:2:7: error[REF005] skill name `Bad_x` does not match its folder `ok` [name-mismatch]"
        )
    );
    assert!(stdout(&o).contains(
        "sock/.mcp.json:1:1: error[SYN011] not a regular file (a FIFO, socket or device); never opened [unreadable-file]\n"
    ));
}

#[test]
fn ten_thousand_files_in_one_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), KNOWN_PATH, KNOWN_TEXT);
    let agents = dir.path().join("plugin/agents");
    std::fs::create_dir_all(&agents).expect("mkdir");
    for i in 0..10_000 {
        std::fs::write(
            agents.join(format!("a{i:05}.md")),
            format!("---\nname: a{i:05}\ndescription: Agent {i}.\n---\n"),
        )
        .expect("write");
    }
    let watchdog = skein_test_support::Watchdog::start(
        "this hostile input's check",
        std::time::Duration::from_secs(120),
    );
    let r = skein::check(dir.path(), &Options::default()).expect("readable");
    drop(watchdog);
    assert_eq!(r.summary().files_read, 10_001);
    assert_findings(&r, &[]);
}

#[cfg(unix)]
#[test]
fn non_utf8_file_name() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), KNOWN_PATH, KNOWN_TEXT);
    std::fs::create_dir_all(dir.path().join("specs")).expect("mkdir");
    std::fs::write(
        dir.path()
            .join("specs")
            .join(std::ffi::OsStr::from_bytes(b"w\xffr.agent.yaml")),
        "spec_version: 1\nname: 5\n",
    )
    .expect("write");
    let r = skein::check(dir.path(), &Options::default()).expect("readable");
    let got = lines(&r);
    assert!(
        got.iter()
            .any(|l| l.starts_with("specs/w\u{fffd}r.agent.yaml:")),
        "{got:?}"
    );
    assert!(got.iter().any(|l| l.starts_with(KNOWN)));
}

// ------------------------------------------------------------ internal errors

/// A per-file pass that panics on one chosen file.
fn panics_on_chosen(
    cx: &skein::skein_lint::Context,
    a: &skein::skein_model::Artifact,
) -> Vec<skein::skein_syntax::Diagnostic> {
    if cx.path(a.file) == "skills/boom/SKILL.md" {
        panic!("boom on {}", cx.path(a.file));
    }
    Vec::new()
}

/// A repository pass that always panics.
fn panics_always(_: &skein::skein_lint::Context) -> Vec<skein::skein_syntax::Diagnostic> {
    panic!("repository pass gave up");
}

const TEST_RULE: skein::skein_syntax::Rule = skein::skein_syntax::Rule {
    code: "SEC999",
    name: "test-panic",
    severity: skein::skein_syntax::Severity::Error,
    summary: "test",
    doc: "test",
    fix: None,
};

fn options_with_failing_passes() -> Options {
    Options {
        extra_passes: vec![skein::ExtraPass {
            repo: Some(skein::skein_lint::Pass {
                rule: TEST_RULE,
                check: panics_always,
                reads_graph: true,
            }),
            file: Some(skein::skein_lint::FilePass {
                rule: TEST_RULE,
                check: panics_on_chosen,
                reads: skein::skein_lint::Reads::Local,
                on: skein::skein_lint::On::Any,
            }),
        }],
        ..Options::default()
    }
}

#[test]
fn internal_error_names_rule_and_file_and_keeps_other_results() {
    let files = vec![
        InputFile::new(KNOWN_PATH, KNOWN_TEXT),
        InputFile::new(
            "skills/boom/SKILL.md",
            "---\nname: boom\ndescription: d\n---\n",
        ),
    ];
    let r = skein::check_files(files, &options_with_failing_passes());
    let got = lines(&r);
    assert_eq!(got.len(), 4, "{got:#?}");
    // The panic's place in skein's (here: this test's) source ends the message.
    let at = " (at crates/skein/tests/hostile.rs:";
    let (file, _) = got[0].split_once(at).expect("a location");
    assert_eq!(
        file,
        "skills/boom/SKILL.md:1:1: SKEIN001 internal error in rule SEC999 `test-panic` on this file: boom on skills/boom/SKILL.md"
    );
    assert_eq!(
        got[1],
        format!("{KNOWN} skill name `Bad_x` does not match its folder `ok`")
    );
    assert_eq!(
        got[2],
        "skills/ok/SKILL.md:2:7: SKILL002 skill name `Bad_x` is not a valid name: it has upper-case letters; it contains `_`"
    );
    // A repository pass has no file: the stand-in `.` comes last.
    let (repo, repo_at) = got[3].split_once(at).expect("a location");
    assert_eq!(
        repo,
        ".:1:1: SKEIN001 internal error in rule SEC999 `test-panic` on the repository: repository pass gave up"
    );
    assert!(repo_at.ends_with(":5)"), "{repo_at}");
    let d = r
        .diagnostics()
        .iter()
        .find(|d| d.rule.code == "SKEIN001")
        .expect("internal error");
    assert_eq!(
        d.help.as_deref(),
        Some("this is a bug in skein: please report it with this message")
    );
    assert!(r.has_internal_error());
    assert_eq!(r.summary().files_read, 2);
}

/// The exit status contract of `--fail-on-internal-error`, on a real
/// internal error: the test build's fault hook (`src/fault.rs`, feature
/// `fault-injection`) makes the decoding of one file panic.
#[test]
fn internal_error_exit_status() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), KNOWN_PATH, KNOWN_TEXT);
    write(dir.path(), ".mcp.json", "{\"mcpServers\": {}}\n");
    let run = |args: &[&str], panic_on: Option<&str>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_skein"));
        c.args(args).current_dir(dir.path()).env("NO_COLOR", "1");
        if let Some(p) = panic_on {
            c.env("SKEIN_TEST_PANIC_DECODE", p);
        }
        c.output().expect("skein runs")
    };
    // The internal error (its message ends with the panic's location in
    // skein's source), then every other finding of the run.
    let reported = |out: &str| {
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[0].starts_with(
                ".mcp.json:1:1: error[SKEIN001] internal error in the reading of this file \
                 (parse, schema validation, decoding) on this file: fault injected by \
                 SKEIN_TEST_PANIC_DECODE (test builds only)"
            ) && lines[0].ends_with("[internal-error]"),
            "{out}"
        );
        assert_eq!(
            lines[1..],
            [
                "skills/ok/SKILL.md:2:7: error[REF005] skill name `Bad_x` does not match its folder `ok` [name-mismatch]",
                "skills/ok/SKILL.md:2:7: error[SKILL002] skill name `Bad_x` is not a valid name: it has upper-case letters; it contains `_` [invalid-skill-name]",
                "checked 2 files (agent-skill 1): 3 errors, 0 warnings, 0 infos",
                "[*] 1 fixable with `--fix --unsafe-fixes`",
            ]
        );
    };
    // No internal error: the findings decide, with or without the flag.
    let o = run(
        &["check", "--fail-on-internal-error", "--format", "concise"],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    assert!(!stdout(&o).contains("SKEIN001"), "{}", stdout(&o));
    // One file's decoding panics: it is reported, every other finding too.
    let o = run(&["check", "--format", "concise"], Some(".mcp.json"));
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    reported(&stdout(&o));
    let o = run(
        &["check", "--fail-on-internal-error", "--format", "concise"],
        Some(".mcp.json"),
    );
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
    reported(&stdout(&o));
    write(dir.path(), "skein.toml", "fail-on-internal-error = true\n");
    let o = run(&["check", "--format", "concise"], Some(".mcp.json"));
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
    let o = run(&["check", "--format", "concise"], None);
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    let o = skein(&["rule", "SKEIN001"], dir.path());
    assert!(
        stdout(&o).starts_with("# internal-error (SKEIN001)\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn output_does_not_depend_on_file_order() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/examples/demo-repo");
    let mut files = Vec::new();
    let w = skein::walk::walk(&root, 1);
    for f in w.all.iter() {
        let bytes = std::fs::read(root.join(f)).expect("read");
        files.push(InputFile::new(f.to_string(), bytes));
    }
    assert!(files.len() > 10);
    let render = |files: Vec<InputFile>| {
        let r = skein::check_files(files, &Options::default());
        serde_json::to_string(&skein::skein_report::json_value(
            r.diagnostics(),
            r.sources(),
            r.summary(),
        ))
        .expect("json")
    };
    let first = render(files.clone());
    assert!(
        first.contains("\"code\""),
        "the demo repository has findings"
    );
    // Seeded permutations (a small LCG; no dependency needed).
    let mut seed: u64 = 0x5eed;
    for _ in 0..5 {
        let mut shuffled = files.clone();
        for i in (1..shuffled.len()).rev() {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            shuffled.swap(i, (seed >> 33) as usize % (i + 1));
        }
        assert_eq!(render(shuffled), first);
    }
}

/// A body with 2,000 broken links reports the first 50 and one count of the
/// rest (the bound on output per file), not 2,000 warnings.
#[test]
fn thousands_of_broken_links_are_bounded_per_file() {
    let mut body = String::from("---\nname: s\ndescription: A skill.\n---\n");
    for i in 0..2000 {
        body.push_str(&format!("See [part {i}](missing/part{i}.md).\n"));
    }
    let report = skein::check_files(
        vec![InputFile::new("skills/s/SKILL.md", body)],
        &Options::default(),
    );
    let ref007: Vec<_> = report
        .diagnostics()
        .iter()
        .filter(|d| d.rule.code == "REF007")
        .collect();
    assert_eq!(ref007.len(), 51);
    assert_eq!(
        ref007[0].message,
        "link target `missing/part0.md` does not exist"
    );
    assert_eq!(
        ref007[49].message,
        "link target `missing/part49.md` does not exist"
    );
    assert_eq!(
        ref007[50].message,
        "1950 more broken links in this file are not shown"
    );
}

/// A right-to-left override (U+202E, closed by U+202C) and a zero-width
/// space (U+200B) on one line of a skill: both are findings (SEC009,
/// SEC010) whose message quotes the line, and the line is their snippet.
/// No output format carries either character raw: messages write them
/// `<U+XXXX>`, the human snippet replaces each byte by `?` (so offsets stay).
#[test]
fn bidi_and_zero_width_are_escaped_in_every_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "skills/ok/SKILL.md",
        "---\nname: ok\ndescription: Deploys. Use when asked.\n---\n\nRun `./\u{202e}hs.x\u{202c}` and deploy\u{200b}ment.\n",
    );
    let line = "`Run `./<U+202E>hs.x<U+202C>` and deploy<U+200B>ment.`";
    let m9 =
        format!("U+202E RIGHT-TO-LEFT OVERRIDE changes the order the text is displayed in: {line}");
    let m10 = format!("invisible U+200B ZERO WIDTH SPACE in the text: {line}");
    let raw = |s: &str| s.contains(['\u{202e}', '\u{202c}', '\u{200b}']);
    let run = |args: &[&str]| {
        let out = stdout(&skein(args, dir.path()));
        assert!(!raw(&out), "{args:?} carries a raw control: {out:?}");
        out
    };
    assert_eq!(
        run(&["check", "--format", "concise"]),
        format!(
            "skills/ok/SKILL.md:6:8: warning[SEC009] {m9} [bidi-control-character]\n\
             skills/ok/SKILL.md:6:26: warning[SEC010] {m10} [invisible-character]\n\
             checked 1 file (agent-skill 1): 0 errors, 2 warnings, 0 infos\n\
             [*] 2 fixable with `--fix --unsafe-fixes`\n"
        )
    );
    let github = run(&["check", "--format", "github"]);
    assert_eq!(
        github
            .lines()
            .map(|l| l.split("::").nth(2).unwrap_or(""))
            .collect::<Vec<_>>(),
        [
            format!(
                "{m9}: invisible direction control%0Anote: a reviewer reads the text reordered; the agent reads the characters in file order%0Ahelp: remove the character; write right-to-left text without explicit overrides"
            ),
            format!(
                "{m10}: invisible character%0Anote: a reviewer does not see it; the agent reads it, and a word split by it no longer matches a search or a deny rule%0Ahelp: remove the character"
            ),
        ]
    );
    let json: serde_json::Value =
        serde_json::from_str(&run(&["check", "--format", "json"])).expect("json");
    let messages: Vec<&str> = json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["message"].as_str().expect("message"))
        .collect();
    assert_eq!(messages, [m9.as_str(), m10.as_str()]);
    let sarif: serde_json::Value =
        serde_json::from_str(&run(&["check", "--format", "sarif"])).expect("sarif");
    let texts: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["message"]["text"].as_str().expect("text"))
        .map(|t| t.split('\n').next().unwrap_or(""))
        .collect();
    assert_eq!(texts, [m9.as_str(), m10.as_str()]);
    let human = run(&["check", "--color", "never"]);
    assert!(
        human.contains(&format!("warning[SEC009]: {m9} [bidi-control-character]")),
        "{human}"
    );
    assert!(
        human.contains(&format!("warning[SEC010]: {m10} [invisible-character]")),
        "{human}"
    );
    assert!(
        human.contains("6 │ Run `./???hs.x???` and deploy???ment."),
        "{human}"
    );
}

#[test]
fn loop_of_three_thousand_stages_each_revising_forward() {
    // Stage `sK`'s gate sends revisions to the stage after it: 2,999
    // FLOW003 findings, each naming at most five earlier stages in its help
    // (the list of every earlier stage made the report grow with the square
    // of the loop: 70 MB of text at 4,000 stages).
    const N: usize = 3_000;
    let stages: Vec<String> = (0..N)
        .map(|k| {
            let gate = if k + 1 < N {
                format!(
                    r#", "gate": {{"id": "G{k}", "kind": "review", "verdicts": ["READY", "NOT READY", "BLOCKED"], "revise_to": "s{}"}}"#,
                    k + 1
                )
            } else {
                String::new()
            };
            format!(
                r#"{{"id": "s{k}", "type": "verify", "intent": "Do s{k}.", "skills": ["work"]{gate}}}"#
            )
        })
        .collect();
    let text = format!(
        r#"{{"name": "big", "description": "A long loop.", "entrypoint": "LOOP.md", "kind": "loop", "cap": 3, "stages": [{}]}}"#,
        stages.join(",")
    );
    let watchdog = skein_test_support::Watchdog::start(
        "this hostile input's check",
        std::time::Duration::from_secs(120),
    );
    let r = check_mem(vec![("packs/core/loops/big/loop.json", text.into_bytes())]);
    drop(watchdog);
    let flow003: Vec<_> = r
        .diagnostics()
        .iter()
        .filter(|d| d.rule.code == "FLOW003")
        .collect();
    assert_eq!(flow003.len(), N - 1);
    let helps: Vec<&str> = flow003.iter().filter_map(|d| d.help.as_deref()).collect();
    assert_eq!(helps.len(), N - 1);
    assert!(helps.contains(
        &"name a stage before `s10`: `s5`, `s6`, `s7`, `s8`, `s9` (the 5 nearest of 10 earlier stages)"
    ));
    assert!(helps.contains(&"name a stage before `s2`: `s0`, `s1`"));
    let longest = helps.iter().max_by_key(|h| h.len()).expect("a help");
    assert!(longest.len() < 150, "a help too long: {longest}");
}
