//! Configuration (`skein.toml`), suppressions and baselines as a user meets
//! them: discovery, `--config`, `--isolated`, `--no-ignores`, `--fail-on`,
//! `--write-baseline` / `--baseline`, format mappings, and the committed JSON
//! Schema of the configuration.

mod common;

use common::{skein, stderr, stdout, write};
use std::path::Path;
use std::process::Output;

/// Codes of the findings of a `--format json` run.
fn codes(o: &Output) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(&stdout(o)).expect("json output");
    v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().expect("code").to_string())
        .collect()
}

/// A skill whose name differs from its folder: REF005 (error) at line 2.
const MISNAMED: &str = "---\nname: reviews\ndescription: Reviews a diff.\n---\n";

#[test]
fn committed_config_schema_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/skein.toml.schema.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == skein::config::json_schema(),
        "schemas/skein.toml.schema.json is stale: run `cargo xtask codegen`"
    );
    // The schema accepts the documented example and names every key.
    let schema: serde_json::Value = serde_json::from_str(&committed).expect("schema is JSON");
    for key in [
        "select",
        "ignore",
        "severity",
        "per-path-ignores",
        "formats",
        "fail-on",
    ] {
        assert!(schema["properties"].get(key).is_some(), "{key}");
    }
    assert_eq!(schema["additionalProperties"], false);
}

#[test]
fn config_is_discovered_upward_and_isolated_ignores_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "repo/skills/review/SKILL.md", MISNAMED);
    write(dir.path(), "skein.toml", "ignore = [\"REF\"]\n");
    let repo = dir.path().join("repo");
    let o = skein(&["check", "--format", "json", "."], &repo);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(codes(&o).is_empty());
    // The nearest file wins.
    write(dir.path(), "repo/skein.toml", "ignore = [\"SCH\"]\n");
    let o = skein(&["check", "--format", "json", "."], &repo);
    assert_eq!(codes(&o), ["REF005"]);
    std::fs::remove_file(repo.join("skein.toml")).expect("rm");
    let o = skein(&["check", "--isolated", "--format", "json", "."], &repo);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(codes(&o), ["REF005"]);
    // --config names a file anywhere.
    write(dir.path(), "other.toml", "[severity]\nREF005 = \"info\"\n");
    let o = skein(
        &[
            "check",
            "--config",
            "../other.toml",
            "--format",
            "json",
            ".",
        ],
        &repo,
    );
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["diagnostics"][0]["severity"], "info");
}

#[test]
fn invalid_config_renders_in_skein_toml_above_the_root() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "repo/skills/review/SKILL.md", MISNAMED);
    write(dir.path(), "skein.toml", "\nfail_on = \"error\"\n");
    let o = skein(
        &["check", "--format", "concise", "."],
        &dir.path().join("repo"),
    );
    let out = stdout(&o);
    assert!(out.contains("../skein.toml:2:1: "), "{out}");
    assert!(out.contains("SCH005"), "{out}");
    assert!(out.contains("unknown field `fail_on`"), "{out}");
    // The config file is not counted as an analyzed file.
    assert!(out.contains("checked 1 file "), "{out}");
}

#[test]
fn no_ignores_shows_suppressed_findings() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "skills/review/SKILL.md",
        "---\nname: reviews # skein: ignore[REF005] renamed upstream\ndescription: Reviews a diff.\n---\n",
    );
    write(
        dir.path(),
        "skills/other/SKILL.md",
        "---\nname: others\ndescription: Other.\n---\n",
    );
    write(
        dir.path(),
        "skein.toml",
        "[per-path-ignores]\n\"skills/other/**\" = [\"name-mismatch\"]\n",
    );
    let o = skein(&["check", "--format", "json", "."], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(codes(&o).is_empty(), "{:?}", codes(&o));
    let o = skein(
        &["check", "--no-ignores", "--format", "json", "."],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(codes(&o), ["REF005", "REF005"]);
}

#[test]
fn fail_on_from_flag_and_config() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "skills/review/SKILL.md", MISNAMED);
    write(
        dir.path(),
        "skein.toml",
        "[severity]\nREF005 = \"warning\"\n",
    );
    let o = skein(&["check", "."], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = skein(&["check", "--fail-on", "warning", "."], dir.path());
    assert_eq!(o.status.code(), Some(1));
    write(
        dir.path(),
        "skein.toml",
        "fail-on = \"info\"\n[severity]\nREF005 = \"info\"\n",
    );
    let o = skein(&["check", "."], dir.path());
    assert_eq!(o.status.code(), Some(1));
    // The flag wins over the file.
    let o = skein(&["check", "--fail-on", "error", "."], dir.path());
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn format_mapping_classifies_a_custom_path() {
    let files = vec![
        skein::InputFile::new(
            "skein.toml",
            "[formats]\n\"prompts/*.skill.md\" = \"agent-skill\"\n",
        ),
        skein::InputFile::new(
            "prompts/review.skill.md",
            "---\nname: Review\ndescription: Reviews.\n---\n",
        ),
    ];
    let report = skein::check_files(files, &skein::Options::default());
    assert_eq!(
        report.summary().artifacts,
        vec![("agent-skill".to_string(), 1)]
    );
    assert!(
        report
            .diagnostics()
            .iter()
            .any(|d| d.rule.code == "SKILL002"),
        "{:?}",
        report.diagnostics()
    );
}

#[test]
fn baseline_survives_moved_lines_and_reports_only_the_new_finding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let skill = "---\ndescription: Reviews a diff.\nname: reviews\n---\n";
    write(dir.path(), "skills/review/SKILL.md", skill);
    write(
        dir.path(),
        "skills/other/SKILL.md",
        "---\nname: other\ndescription: Other.\n---\n",
    );
    let o = skein(
        &["check", "--write-baseline", "baseline.json", "."],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("wrote 1 finding(s)"), "{}", stderr(&o));
    let b = skein::baseline::Baseline::from_json(
        &std::fs::read_to_string(dir.path().join("baseline.json")).expect("baseline"),
    )
    .expect("valid baseline");
    assert_eq!(b.len(), 1);
    // Three blank lines above the known finding, and one new fault.
    write(
        dir.path(),
        "skills/review/SKILL.md",
        "---\ndescription: Reviews a diff.\n\n\n\nname: reviews\n---\n",
    );
    write(
        dir.path(),
        "skills/other/SKILL.md",
        "---\nname: others\ndescription: Other.\n---\n",
    );
    let o = skein(
        &[
            "check",
            "--baseline",
            "baseline.json",
            "--format",
            "json",
            ".",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let diags = v["diagnostics"].as_array().expect("array");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["path"], "skills/other/SKILL.md");
    assert_eq!(v["summary"]["errors"], 1);
    assert!(stderr(&o).contains("1 known finding(s) not reported, 0 fixed"));
    // Fixing the known finding counts it as fixed.
    write(
        dir.path(),
        "skills/review/SKILL.md",
        MISNAMED.replace("reviews", "review").as_str(),
    );
    let o = skein(&["check", "--baseline", "baseline.json", "."], dir.path());
    assert!(
        stderr(&o).contains("0 known finding(s) not reported, 1 fixed"),
        "{}",
        stderr(&o)
    );
}
