//! The autofix applier and `skein check --fix` (issue #15): format
//! preservation, `--diff` against `patch -p1`, the CLI's counts and exit
//! statuses, and idempotence on a copy of the real corpus.

mod common;

use common::{skein, stderr, stdout, write};
use skein::fix::{FixOptions, apply, fix_files};
use skein::skein_syntax::{Edit, Fix, Span};
use skein::{InputFile, Options};
use std::path::Path;

fn unsafe_fixes() -> FixOptions {
    FixOptions {
        unsafe_fixes: true,
        ..Default::default()
    }
}

/// A SKILL.md with a BOM, CRLF line endings, comments and odd indentation
/// keeps every byte except the ones the fixes replace.
#[test]
fn crlf_bom_comments_and_indentation_survive() {
    let before = "\u{feff}---\r\nname: crlf-skill\r\n# a comment, kept\r\ndescription:    Reads files.   # trailing, kept\r\nmetadata:\r\n     owner:   team   # five spaces\r\nuser-invocable: \"true\"\r\nallowed-tools:\r\n   - read\r\n   - Grep\r\n---\r\n\r\n# Body\r\n\r\nText.\r\n";
    let run = fix_files(
        vec![InputFile::new("skills/crlf-skill/SKILL.md", before)],
        &Options::default(),
        &unsafe_fixes(),
    );
    assert_eq!(run.changes.len(), 1, "{:?}", run.applied);
    let after = &run.changes[0].after;
    let expected = before
        .replace("user-invocable: \"true\"", "user-invocable: true")
        .replace("   - read\r\n", "   - Read\r\n");
    assert_eq!(after, &expected);
    let codes: Vec<&str> = run.applied.iter().map(|a| a.code).collect();
    assert_eq!(codes, ["SKILL008", "SKILL009"]);
}

/// A replacement's line breaks follow the file's: `\n` becomes `\r\n` in a
/// CRLF file.
#[test]
fn inserted_line_breaks_follow_the_file() {
    let crlf = Fix::safe("x", vec![Edit::insert(3, "a\nb\n")]);
    assert_eq!(apply("x\r\ny\r\n", &[crlf]).0, "x\r\na\r\nb\r\ny\r\n");
    let lf = Fix::safe("x", vec![Edit::insert(2, "a\nb\n")]);
    assert_eq!(apply("x\ny\n", &[lf]).0, "x\na\nb\ny\n");
}

/// Overlapping fixes: the first (by its first edit) is applied, the other
/// waits; two insertions at one offset conflict; adjacent edits do not.
#[test]
fn overlapping_fixes_wait_for_the_next_round() {
    let a = Fix::safe("a", vec![Edit::replace(Span::new(0, 3), "A")]);
    let b = Fix::safe("b", vec![Edit::replace(Span::new(2, 4), "B")]);
    let c = Fix::safe("c", vec![Edit::replace(Span::new(4, 5), "C")]);
    let (text, taken) = apply("abcdef", &[a, b, c]);
    assert_eq!((text.as_str(), taken), ("AdCf", vec![0, 2]));
    let i = Fix::safe("i", vec![Edit::insert(1, "x")]);
    let j = Fix::safe("j", vec![Edit::insert(1, "y")]);
    assert_eq!(apply("ab", &[i, j]).1, vec![0]);
}

/// A fix that would add an error is dropped and reported, never applied:
/// setting `name: a` for the skill in folder `a` would give it the name
/// another skill already has (SKILL011, an error), so the rename waits for
/// a person.
#[test]
fn a_fix_that_adds_an_error_is_dropped() {
    let skill = |name: &str| {
        format!("---\nname: {name}\ndescription: Does a thing. Use when asked.\n---\n\nBody.\n")
    };
    let run = fix_files(
        vec![
            InputFile::new("skills/a/SKILL.md", skill("x")),
            InputFile::new("skills/Z_Bad/SKILL.md", skill("a")),
        ],
        &Options::default(),
        &unsafe_fixes(),
    );
    assert!(run.changes.is_empty(), "{:?}", run.changes);
    assert_eq!(run.dropped.len(), 1, "{:?}", run.dropped);
    assert_eq!(run.dropped[0].code, "REF005");
    assert_eq!(run.dropped[0].message, "set `name: a`");
    assert_eq!(
        run.dropped[0].reason,
        "it would add an error: `SKILL011` in skills/a/SKILL.md"
    );
}

/// Two keys that would be renamed onto one event (`preToolUse` and
/// `PRETOOLUSE`), and one key written twice (`stop`), get no rename: any
/// of those renames makes a duplicate key, which makes Codex refuse the
/// whole file. The file's other fix (`notification` -> `Notification`,
/// no clash) is applied, and the rest are left with a help.
#[test]
fn renames_onto_one_event_are_not_offered() {
    let hooks = "{\n  \"hooks\": {\n    \"preToolUse\": [],\n    \"PRETOOLUSE\": [],\n    \"stop\": [],\n    \"stop\": [],\n    \"sessionStart\": []\n  }\n}\n";
    let run = fix_files(
        vec![InputFile::new(".codex/hooks.json", hooks)],
        &Options::default(),
        &unsafe_fixes(),
    );
    assert!(run.dropped.is_empty(), "{:?}", run.dropped);
    assert_eq!(run.changes.len(), 1, "{:?}", run.applied);
    assert_eq!(
        run.changes[0].after,
        hooks.replace("sessionStart", "SessionStart")
    );
    let applied: Vec<(&str, &str)> = run
        .applied
        .iter()
        .map(|a| (a.code, a.message.as_str()))
        .collect();
    assert_eq!(applied, [("HOOK023", "rename to `SessionStart`")]);
    let left: Vec<(&str, Option<&str>, bool)> = run
        .report
        .diagnostics()
        .iter()
        .filter(|d| d.rule.code == "HOOK023")
        .map(|d| (d.rule.code, d.help.as_deref(), d.fix.is_some()))
        .collect();
    assert_eq!(
        left,
        [
            ("HOOK023", Some("rename the key to `PreToolUse`"), false),
            ("HOOK023", Some("rename the key to `PreToolUse`"), false),
            ("HOOK023", Some("rename the key to `Stop`"), false),
            ("HOOK023", Some("rename the key to `Stop`"), false),
        ]
    );
}

fn fixture_repo(root: &Path) {
    write(
        root,
        "skills/review/SKILL.md",
        "---\nname: review\ndescription: Reviews a diff.\nuser-invocable: \"true\"\nallowed-tools: read Grep\n---\n# Review\n",
    );
    write(
        root,
        "plugin/.claude-plugin/plugin.json",
        "{\n  \"name\": \"p\",\n  \"agents\": [\"agents/a.md\"]\n}\n",
    );
    write(
        root,
        "plugin/agents/a.md",
        "---\nname: a\ndescription: An agent.\n---\nBody.\n",
    );
    write(root, ".mcp.json", "\u{feff}{\"mcpServers\": {}}\n");
    std::fs::create_dir_all(root.join(".git")).unwrap();
}

/// `--diff` prints a unified diff that `patch -p1` applies from the project
/// root to give exactly what `--fix` writes; it writes nothing and exits 1.
#[test]
fn diff_applies_with_patch_to_what_fix_writes() {
    if std::process::Command::new("patch")
        .arg("--version")
        .output()
        .is_err()
    {
        skein_test_support::skip("SKEIN_REQUIRE_PATCH", "`patch` is not installed");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    fixture_repo(&a);
    fixture_repo(&b);
    let before = std::fs::read(a.join("skills/review/SKILL.md")).unwrap();
    let diff = skein(&["check", "--diff", "--unsafe-fixes"], &a);
    assert_eq!(diff.status.code(), Some(1), "{}", stderr(&diff));
    assert_eq!(
        std::fs::read(a.join("skills/review/SKILL.md")).unwrap(),
        before,
        "--diff wrote a file"
    );
    assert_eq!(
        stderr(&diff),
        "skein: would fix 4 findings in 3 files\n",
        "{}",
        stdout(&diff)
    );
    let patch = std::process::Command::new("patch")
        .args(["-p1", "--quiet", "--batch"])
        .current_dir(&b)
        .stdin(
            std::fs::File::open({
                let p = tmp.path().join("fix.diff");
                std::fs::write(&p, &diff.stdout).unwrap();
                p
            })
            .unwrap(),
        )
        .output()
        .unwrap();
    assert!(patch.status.success(), "{}", stdout(&patch));
    let fix = skein(&["check", "--fix", "--unsafe-fixes", "--fix-only"], &a);
    assert_eq!(fix.status.code(), Some(0), "{}", stderr(&fix));
    for rel in [
        "skills/review/SKILL.md",
        "plugin/.claude-plugin/plugin.json",
        ".mcp.json",
    ] {
        assert_eq!(
            String::from_utf8(std::fs::read(a.join(rel)).unwrap()).unwrap(),
            String::from_utf8(std::fs::read(b.join(rel)).unwrap()).unwrap(),
            "{rel}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(a.join("skills/review/SKILL.md")).unwrap(),
        "---\nname: review\ndescription: Reviews a diff.\nuser-invocable: true\nallowed-tools: Read Grep\n---\n# Review\n"
    );
    // Nothing left to do.
    let again = skein(&["check", "--diff", "--unsafe-fixes"], &a);
    assert_eq!(again.status.code(), Some(0), "{}", stdout(&again));
    assert_eq!(stdout(&again), "");
}

/// `--fix` applies safe fixes only, and the summary says how many were
/// fixed, how many remain and how many more `--unsafe-fixes` would fix.
#[test]
fn fix_applies_safe_fixes_and_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fixture_repo(root);
    let check = skein(&["check", "--format", "concise"], root);
    let out = stdout(&check);
    assert!(
        out.contains("warning[SYN006] [*] JSON file starts with a byte-order mark"),
        "{out}"
    );
    assert!(
        out.ends_with("[*] 3 fixable with `--fix` (1 more with `--unsafe-fixes`)\n"),
        "{out}"
    );
    let fix = skein(
        &["check", "--fix", "--format", "concise", "--show-fixes"],
        root,
    );
    let out = stdout(&fix);
    assert!(
        out.contains("\nfixed 3 findings, 1 remaining\nFixed 3 findings:\n- .mcp.json:\n    1 × SYN006 (byte-order-mark)\n- plugin/.claude-plugin/plugin.json:\n    1 × PLUGIN004 (invalid-component-path)\n- skills/review/SKILL.md:\n    1 × SKILL009 (string-boolean)\n[*] 1 fixable with `--fix --unsafe-fixes`\n"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join(".mcp.json")).unwrap(),
        "{\"mcpServers\": {}}\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("plugin/.claude-plugin/plugin.json")).unwrap(),
        "{\n  \"name\": \"p\",\n  \"agents\": [\"./agents/a.md\"]\n}\n"
    );
}

/// The JSON output carries each finding's fix: message, applicability and
/// edits with byte spans, positions and the replacement.
#[test]
fn json_has_the_fix_object() {
    let tmp = tempfile::tempdir().unwrap();
    fixture_repo(tmp.path());
    let o = skein(&["check", "--format", "json"], tmp.path());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let bom = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "SYN006")
        .unwrap();
    assert_eq!(
        bom["fix"],
        serde_json::json!({
            "message": "remove the byte-order mark",
            "applicability": "safe",
            "edits": [{
                "span": {"start": 0, "end": 3},
                "start": {"line": 1, "column": 1},
                "end": {"line": 1, "column": 2},
                "replacement": "",
            }],
        })
    );
    let none = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["fix"].is_null());
    assert!(none.is_none() || none.unwrap()["fix"].is_null());
}

/// Files outside the project, links and files changed since they were
/// read are never written.
#[test]
fn only_regular_files_inside_the_project_are_written() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("p");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(tmp.path().join("outside.json"), "x").unwrap();
    let change = |path: &str, before: &str| skein::fix::Change {
        path: path.into(),
        before: before.into(),
        after: "y".into(),
    };
    let errors = skein::fix::write_changes(&root, &[change("../outside.json", "x")]);
    assert_eq!(
        errors[0].to_string(),
        "cannot write ../outside.json: `../outside.json` is not a path inside the project"
    );
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(tmp.path().join("outside.json"), root.join("l.json")).unwrap();
        let errors = skein::fix::write_changes(&root, &[change("l.json", "x")]);
        assert_eq!(
            errors[0].to_string(),
            "cannot write l.json: l.json is not a regular file"
        );
    }
    std::fs::write(root.join("a.json"), "changed").unwrap();
    let errors = skein::fix::write_changes(&root, &[change("a.json", "x")]);
    assert_eq!(
        errors[0].to_string(),
        "cannot write a.json: it changed since it was read; run again"
    );
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("outside.json")).unwrap(),
        "x"
    );
}

/// Permissions survive the atomic rename.
#[cfg(unix)]
#[test]
fn permissions_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("a.json");
    std::fs::write(&p, "x").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
    let errors = skein::fix::write_changes(
        tmp.path(),
        &[skein::fix::Change {
            path: "a.json".into(),
            before: "x".into(),
            after: "y".into(),
        }],
    );
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "y");
    assert_eq!(
        std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
        0o640
    );
    // No temporary file is left behind.
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

/// On a copy of the real corpus: `--fix --unsafe-fixes` settles, a second
/// run changes nothing, every changed file still parses, and the findings
/// it fixed are gone.
#[test]
fn real_corpus_fixes_are_idempotent() {
    let Some(real) = skein_test_support::real_corpus() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("real");
    skein_test_support::copy_tree(&real, &root);
    let options = Options::default();
    let all = [String::new()];
    let before = skein::check(&root, &options).unwrap();
    let run = skein::fix::fix_project(&root, &options, &all, &unsafe_fixes()).unwrap();
    assert!(!run.unconverged);
    assert!(skein::fix::write_changes(&root, &run.changes).is_empty());
    let again = skein::fix::fix_project(&root, &options, &all, &unsafe_fixes()).unwrap();
    assert!(again.changes.is_empty(), "{:?}", again.applied);
    let syntax = |r: &skein::Report| {
        r.diagnostics()
            .iter()
            .filter(|d| d.rule.code == "SYN001")
            .count()
    };
    assert!(syntax(&again.report) <= syntax(&before));
    let fixable = |r: &skein::Report| r.diagnostics().iter().filter(|d| d.fix.is_some()).count();
    assert_eq!(fixable(&again.report), run.dropped.len());
    // Each fix applied removes its finding (some remove others with it: a
    // tool name corrected is no longer unknown to two rules).
    assert!(
        before.diagnostics().len() - again.report.diagnostics().len() >= run.applied.len(),
        "{} findings before, {} after {} fixes",
        before.diagnostics().len(),
        again.report.diagnostics().len(),
        run.applied.len()
    );
}

/// `skein rule` says whether a rule's fix is safe, unsafe or absent.
#[test]
fn rule_docs_name_the_fix() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (code, line) in [
        ("SYN006", "Fix: safe (applied by `--fix`).\n"),
        (
            "SKILL008",
            "Fix: unsafe (applied with `--fix --unsafe-fixes`).\n",
        ),
        ("FLOW001", "Fix: none.\n"),
    ] {
        let o = skein(&["rule", code], here);
        assert!(stdout(&o).contains(line), "{code}: {}", stdout(&o));
    }
}

/// `--diff` never prints a secret: its value is masked on both sides.
#[test]
fn diff_masks_secrets() {
    let secret = "ghp_abcdefghijklmnop";
    let c = skein::fix::Change {
        path: "a.json".into(),
        before: format!("{{\"k\": \"{secret}\", \"x\": 1}}\n"),
        after: format!("{{\"k\": \"{secret}\", \"x\": \"1\"}}\n"),
    };
    let d = skein::fix::unified_diff(&[c], &|_| vec![secret.to_string()]);
    assert_eq!(
        d,
        "--- a/a.json\n+++ b/a.json\n@@ -1 +1 @@\n-{\"k\": \"ghp_****************\", \"x\": 1}\n+{\"k\": \"ghp_****************\", \"x\": \"1\"}\n"
    );
}
