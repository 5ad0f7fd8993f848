//! Every output format on one fixture (`corpus/examples/formats`), as insta
//! snapshots in `tests/snapshots/`; SARIF validated against the SARIF 2.1.0
//! schema (the fixture and the real corpus); `-o FILE` through the binary;
//! and `docs/rules.md`, the page SARIF `helpUri`s point into, kept current.
//!
//! Accept changed snapshots with `INSTA_UPDATE=always cargo test -p skein
//! --test output_formats` and review the diff; regenerate the rules page with
//! `UPDATE_DOCS=1` on the same command.

mod common;

use serde_json::Value;
use skein::{Options, Report, check, rules};
use skein_report::{
    HumanOptions, json_value, render_concise, render_github, render_human, sarif_log,
};
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture() -> PathBuf {
    workspace().join("corpus/examples/formats")
}

fn report() -> Report {
    check(&fixture(), &Options::default()).expect("fixture readable")
}

fn human(r: &Report) -> String {
    render_human(r.diagnostics(), r.sources(), HumanOptions::default()) + &r.summary().line() + "\n"
}

fn json(r: &Report) -> String {
    serde_json::to_string_pretty(&json_value(r.diagnostics(), r.sources(), r.summary())).unwrap()
        + "\n"
}

fn sarif(r: &Report) -> String {
    let log = sarif_log(r.diagnostics(), r.sources(), &rules::all(), "");
    assert!(log.warnings.is_empty());
    serde_json::to_string_pretty(&log).unwrap() + "\n"
}

fn github(r: &Report) -> String {
    render_github(r.diagnostics(), r.sources(), "")
}

fn concise(r: &Report) -> String {
    render_concise(r.diagnostics(), r.sources()) + &r.summary().line() + "\n"
}

#[test]
fn snapshot_human() {
    insta::assert_snapshot!("human", human(&report()));
}

#[test]
fn snapshot_json() {
    insta::assert_snapshot!("json", json(&report()));
}

#[test]
fn snapshot_github() {
    insta::assert_snapshot!("github", github(&report()));
}

#[test]
fn snapshot_concise() {
    insta::assert_snapshot!("concise", concise(&report()));
}

/// The SARIF log with each rule's doc-derived text (`fullDescription`,
/// `help`) replaced by a marker, so editing a rule's documentation does not
/// churn this snapshot; the schema tests below check the real text.
#[test]
fn snapshot_sarif() {
    let mut v: Value = serde_json::from_str(&sarif(&report())).unwrap();
    for rule in v["runs"][0]["tool"]["driver"]["rules"]
        .as_array_mut()
        .unwrap()
    {
        let doc = rules::find(rule["id"].as_str().unwrap()).unwrap().doc;
        assert_eq!(rule["help"]["markdown"], doc);
        assert_eq!(rule["help"]["text"], doc);
        rule["fullDescription"]["text"] = "<first paragraph of the doc>".into();
        rule["help"] = serde_json::json!({"text": "<doc>", "markdown": "<doc>"});
    }
    insta::assert_snapshot!("sarif", serde_json::to_string_pretty(&v).unwrap() + "\n");
}

/// What the fixture must show: a duplicate gate id with a related location,
/// a gate without a blocked verdict, and a UTF-16 column that differs from the character one.
#[test]
fn fixture_shows_what_the_docs_promise() {
    let v: Value = serde_json::from_str(&sarif(&report())).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    let dup = results
        .iter()
        .find(|r| r["ruleId"] == "REF001")
        .expect("duplicate-gate-id");
    assert_eq!(dup["relatedLocations"].as_array().unwrap().len(), 1);
    assert!(dup["message"]["text"].as_str().unwrap().contains("](1)"));
    assert!(results.iter().any(|r| r["ruleId"] == "FLOW006"));
    let unknown = results
        .iter()
        .find(|r| r["ruleId"] == "REF002")
        .expect("unknown-skill");
    let region = &unknown["locations"][0]["physicalLocation"]["region"];
    let r = report();
    let d = r
        .diagnostics()
        .iter()
        .find(|d| d.rule.code == "REF002")
        .unwrap();
    let chars = r
        .sources()
        .get(d.primary.file)
        .line_col(d.primary.span.start as usize)
        .column;
    assert_eq!(region["startColumn"].as_u64().unwrap(), chars as u64 + 1);
    for r in results {
        let fp = r["partialFingerprints"]["primaryLocationLineHash"]
            .as_str()
            .unwrap();
        assert!(fp.contains(':'), "{fp}");
    }
}

/// Fingerprints in the fixture's SARIF, checked against values from the
/// reference script (see `crates/skein-report/tests/fingerprint.rs`) run with
/// node on the fixture's files.
#[test]
fn fixture_fingerprints_match_the_reference() {
    let v: Value = serde_json::from_str(&sarif(&report())).unwrap();
    let got: Vec<String> = v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            format!(
                "{}:{} {}",
                loc["artifactLocation"]["uri"].as_str().unwrap(),
                loc["region"]["startLine"],
                r["partialFingerprints"]["primaryLocationLineHash"]
                    .as_str()
                    .unwrap()
            )
        })
        .collect();
    let expected = include_str!("output_formats_fingerprints.txt");
    let expected: Vec<&str> = expected.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(got, expected);
}

fn validator(shared: &Path) -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(shared.join("sarif/sarif-schema-2.1.0.json"))
            .expect("SARIF schema"),
    )
    .unwrap();
    // The schema is draft-04 with only local `#/definitions` refs, and its
    // meta-schema is built into jsonschema: nothing is fetched.
    jsonschema::validator_for(&schema).expect("SARIF schema compiles offline")
}

fn assert_valid(validator: &jsonschema::Validator, sarif: &str) {
    let v: Value = serde_json::from_str(sarif).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&v)
        .take(10)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "SARIF invalid:\n{}", errors.join("\n"));
}

#[test]
fn sarif_validates_against_the_schema() {
    let Some(shared) = common::shared() else {
        return;
    };
    let validator = validator(&shared);
    assert_valid(&validator, &sarif(&report()));
    let real = check(&shared.join("corpus/real"), &Options::default()).expect("corpus readable");
    assert!(!real.diagnostics().is_empty());
    let log = sarif(&real);
    assert_valid(&validator, &log);
    // Its fixes (issue #15) are among what the schema checked.
    assert!(
        log.contains("\"artifactChanges\""),
        "no fix in the real corpus's SARIF"
    );
    // And a log the validator must reject, so the check is not vacuous.
    let mut bad: Value = serde_json::from_str(&log).unwrap();
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startColumn"] =
        0.into();
    assert!(!validator.is_valid(&bad));
}

#[test]
fn output_flag_writes_the_file_for_every_format() {
    let dir = tempfile::tempdir().unwrap();
    // Run from the workspace root, every format names files from there
    // (issue #14): the library's report, relocated the same way.
    let mut r = report();
    r.relocate(
        &fixture().canonicalize().unwrap(),
        &workspace().canonicalize().unwrap(),
    );
    for (format, expected) in [
        ("human", human(&r)),
        ("json", {
            // The CLI adds the path it was given.
            let mut v = json_value(r.diagnostics(), r.sources(), r.summary());
            v.as_object_mut()
                .unwrap()
                .insert("root".into(), "corpus/examples/formats".into());
            serde_json::to_string_pretty(&v).unwrap() + "\n"
        }),
        ("sarif", sarif(&r)),
        ("github", github(&r)),
        ("concise", concise(&r)),
    ] {
        let out = dir.path().join(format!("out.{format}"));
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_skein"))
            .current_dir(workspace())
            .args(["check", "corpus/examples/formats", "--no-cache"])
            .args(["--format", format, "-o"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{format}: errors found");
        assert!(run.stdout.is_empty(), "{format}: nothing on stdout");
        let written = std::fs::read_to_string(&out).unwrap();
        assert!(
            written.contains("corpus/examples/formats/packs/"),
            "{format}: {written}"
        );
        assert_eq!(written, expected, "{format}");
    }
}

/// `docs/rules.md`: every rule's documentation under an anchor
/// `code-name`, which SARIF `helpUri`s link to.
#[test]
fn rules_page_is_current() {
    let mut page = String::from(
        "# Rules\n\n<!-- Generated from the rules' docs by `UPDATE_DOCS=1 cargo test -p skein --test output_formats`; do not edit. -->\n\n\
         Every rule skein has, by code. `skein rules` lists them and `skein rule CODE` prints one.\n\n\
         The fix column says whether `skein check --fix` repairs a finding: `safe` (by `--fix`), \
         `unsafe` (only with `--unsafe-fixes`), or nothing.\n\n\
         | code | name | default severity | fix | summary |\n|---|---|---|---|---|\n",
    );
    let all = rules::all();
    for r in &all {
        page.push_str(&format!(
            "| [{}](#{}) | `{}` | {} | {} | {} |\n",
            r.code,
            skein_report::sarif::rule_anchor(r),
            r.name,
            r.severity.as_str(),
            match r.fix {
                Some(skein::skein_syntax::Applicability::Safe) => "safe",
                Some(skein::skein_syntax::Applicability::Unsafe) => "unsafe",
                None => "",
            },
            r.summary.replace('|', "\\|")
        ));
    }
    for r in &all {
        page.push_str(&format!(
            "\n## {} {}\n\nDefault severity: {}. Fix: {}.\n\n",
            r.code,
            r.name,
            r.severity.as_str(),
            rules::fix_kind(r)
        ));
        let mut fenced = false;
        for line in r.doc.lines() {
            fenced ^= line.starts_with("```");
            // The rule's own `##` sections go one level down.
            if !fenced && line.starts_with('#') {
                page.push('#');
            }
            page.push_str(line);
            page.push('\n');
        }
    }
    let path = workspace().join("docs/rules.md");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &page).unwrap();
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == page,
        "docs/rules.md is out of date: run `UPDATE_DOCS=1 cargo test -p skein --test output_formats` and review the diff"
    );
}

/// The README's count of rules is the number `skein rules` lists.
#[test]
fn readme_counts_every_rule() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let expected = format!("(`skein rules` lists all {})", rules::all().len());
    assert!(
        readme.contains(&expected),
        "README.md should say {expected}, the number of rules"
    );
}

/// `JsonReport::write_pretty` (what `skein check --format json` writes)
/// gives serde_json's pretty printing of the same document byte for byte:
/// on the formats fixture, on the demo repository, on a report with no
/// finding (the empty `diagnostics` array) and without a `root`.
#[test]
fn json_written_in_parallel_is_serde_json_pretty() {
    let clean = tempfile::tempdir().unwrap();
    let reports = [
        report(),
        check(
            &workspace().join("corpus/examples/demo-repo"),
            &Options::default(),
        )
        .unwrap(),
        check(clean.path(), &Options::default()).unwrap(),
    ];
    assert_eq!(reports[2].diagnostics().len(), 0);
    for r in &reports {
        for root in [Some("some/root \"quoted\""), None] {
            let doc = skein_report::JsonReport {
                diagnostics: r.diagnostics(),
                sources: r.sources(),
                summary: r.summary(),
                root,
            };
            let mut written = Vec::new();
            doc.write_pretty(&mut written).unwrap();
            let expected = serde_json::to_vec_pretty(&doc).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
    }
}
