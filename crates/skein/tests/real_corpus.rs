//! `skein check ../shared/corpus/real`: no panic, every recognised file
//! decoded or diagnosed, and the known upstream defects found at their
//! exact line and column (see the corpus's SOURCES.md).

mod common;

use skein::{Options, check};

#[test]
fn real_corpus_known_findings() {
    let Some(shared) = common::shared() else {
        return;
    };
    let report = check(&shared.join("corpus/real"), &Options::default()).expect("corpus readable");
    let locs = common::locations(&report);
    let expected = [
        // opencode-kit's contract.json fails its own schema (4 errors).
        "RizkiRachman__opencode-kit/contract.json:48:13: SCH001",
        "RizkiRachman__opencode-kit/contract.json:63:30: SCH001",
        "RizkiRachman__opencode-kit/contract.json:80:13: SCH001",
        "RizkiRachman__opencode-kit/contract.json:121:28: SCH001",
        // claude-api's description is 1,068 characters (limit 1,024).
        "anthropics__skills/skills/claude-api/SKILL.md:3:14: SKILL004",
        // opencode-kit skills with no frontmatter, and with no `name`.
        "RizkiRachman__opencode-kit/skills/ci-cd/SKILL.md:1:1: SCH002",
        "RizkiRachman__opencode-kit/skills/security-audit/SKILL.md:1:1: SCH002",
        "RizkiRachman__opencode-kit/skills/learner/SKILL.md:1:1: SKILL001",
        "RizkiRachman__opencode-kit/skills/qa-expert/SKILL.md:1:1: SKILL001",
    ];
    for e in expected {
        assert!(locs.iter().any(|l| l == e), "missing finding {e}");
    }
    let contract: Vec<_> = report
        .diagnostics()
        .iter()
        .filter(|d| {
            report.sources().get(d.primary.file).path()
                == "RizkiRachman__opencode-kit/contract.json"
        })
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        contract,
        [
            "`/requirements/goal` is empty; expected at least 1 character",
            "`/decisions/approved_architecture` is null, expected string or object",
            "`/governance/mode` is `\"\"`, not one of the allowed values",
            "`/governance/permissions/allowed_execution` is an object, expected array",
        ]
    );
    let desc = report
        .diagnostics()
        .iter()
        .find(|d| {
            report.sources().get(d.primary.file).path()
                == "anthropics__skills/skills/claude-api/SKILL.md"
                && d.rule.code == "SKILL004"
        })
        .expect("claude-api finding");
    assert_eq!(
        desc.message,
        "the skill's description is 1068 characters long, more than the maximum of 1024"
    );

    // Every recognised file is either an artifact or has a diagnostic.
    let with_diag: std::collections::HashSet<_> = report
        .diagnostics()
        .iter()
        .map(|d| d.primary.file)
        .collect();
    let artifacts: std::collections::HashSet<_> =
        report.artifacts().iter().map(|a| a.file).collect();
    for (id, f) in report.sources().iter() {
        // Uncertain candidates (`*contract*.json`, `agent.yaml`) whose content
        // does not match are, correctly, not artifacts.
        // A file of a skill's folder (a reference, a script) is recognised
        // by its folder, and silently none when it is not text.
        let uncertain = match skein::skein_model::classify_path(f.path()) {
            Some(c) => !c.certain,
            None => {
                assert!(
                    skein::skein_model::skill_file_shape(f.path()).is_some(),
                    "recognised: {}",
                    f.path()
                );
                true
            }
        };
        assert!(
            artifacts.contains(&id) || with_diag.contains(&id) || uncertain,
            "{} was read but neither analyzed nor reported",
            f.path()
        );
    }
    let s = report.summary();
    let count = |f: &str| {
        s.artifacts
            .iter()
            .find(|(n, _)| n == f)
            .map(|(_, c)| *c)
            .unwrap_or(0)
    };
    assert_eq!(count("agent-skill"), 1728);
    assert_eq!(count("skilldrop-loop"), 8);
    assert_eq!(count("opencode-contract"), 3);
    assert_eq!(count("loom-agent-spec"), 18);
}

/// The graph passes on real trees: the seven skilldrop `packs-era` loops
/// (gate ids G0…G6, every cap 3) have no unreachable stage, no uncapped cycle
/// and no duplicate gate id; opencode-kit has exactly the four skills no
/// agent of `opencode.json.template` uses. (The skilldrop copy has no
/// `packs/*/skills/` folders, so its unknown-skill findings are expected.)
#[test]
fn real_corpus_graph_passes() {
    let Some(shared) = common::shared() else {
        return;
    };
    let report = check(&shared.join("corpus/real"), &Options::default()).expect("corpus readable");
    let locs = common::locations(&report);
    let in_packs_era = |l: &&String| l.starts_with("sananthanarayan__skilldrop/packs-era/");
    for code in ["FLOW001", "FLOW002", "REF001"] {
        let hits: Vec<_> = locs
            .iter()
            .filter(in_packs_era)
            .filter(|l| l.ends_with(code))
            .collect();
        assert!(hits.is_empty(), "{code} on packs-era: {hits:?}");
    }
    assert_eq!(
        report
            .graph()
            .loops()
            .iter()
            .filter(|l| l.root == "sananthanarayan__skilldrop/packs-era/")
            .count(),
        7
    );
    let orphans: Vec<_> = report
        .diagnostics()
        .iter()
        .filter(|d| d.rule.name == "orphan-skill")
        .map(|d| report.sources().get(d.primary.file).path())
        .collect();
    assert_eq!(
        orphans,
        [
            "RizkiRachman__opencode-kit/skills/adr-generator/SKILL.md",
            "RizkiRachman__opencode-kit/skills/learner/SKILL.md",
            "RizkiRachman__opencode-kit/skills/qa-expert/SKILL.md",
            "RizkiRachman__opencode-kit/skills/scoring-pipeline/SKILL.md",
        ]
    );
}

/// Every finding on `../shared/corpus/real`, pinned: the reviewed snapshot
/// `tests/snapshots/real_corpus.txt` holds them all as the fixtures print
/// them (`common::finding_lines`), so a change that adds or removes one
/// finding anywhere in the corpus fails here and is blessed on purpose
/// (`SKEIN_BLESS=1 cargo test -p skein --test real_corpus`), its diff read
/// in review.
#[test]
fn real_corpus_snapshot() {
    let Some(shared) = common::shared() else {
        return;
    };
    let report = check(&shared.join("corpus/real"), &Options::default()).expect("corpus readable");
    let got = common::finding_lines(&report);
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/real_corpus.txt");
    if std::env::var_os("SKEIN_BLESS").is_some() {
        std::fs::write(&path, &got).expect("write the snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).expect("tests/snapshots/real_corpus.txt");
    if got != expected {
        let (old, new): (std::collections::BTreeSet<_>, std::collections::BTreeSet<_>) =
            (expected.lines().collect(), got.lines().collect());
        let removed: Vec<_> = old.difference(&new).map(|l| format!("- {l}")).collect();
        let added: Vec<_> = new.difference(&old).map(|l| format!("+ {l}")).collect();
        panic!(
            "the findings on the real corpus changed ({} lines removed, {} added; \
             bless with SKEIN_BLESS=1 after review):\n{}\n{}",
            removed.len(),
            added.len(),
            removed.join("\n"),
            added.join("\n")
        );
    }
}

/// Issue #14: `skein check sub/dir` run in a real tree reports exactly the
/// findings of the whole-tree run that are in `sub/dir` (the tree is the
/// project: the current folder, no marker inside it).
#[test]
fn real_corpus_subfolder_runs_are_the_tree_run_restricted() {
    let Some(shared) = common::shared() else {
        return;
    };
    let real = shared.join("corpus/real");
    for (tree, subs) in [
        ("wshobson__agents", ["plugins/conductor", "plugins"]),
        (
            "sananthanarayan__skilldrop",
            ["packs-era", "packs-era/packs"],
        ),
        ("RizkiRachman__opencode-kit", ["skills", "_history"]),
    ] {
        let cwd = real.join(tree);
        let lines = |path: &str| -> Vec<String> {
            let o = common::skein(&["check", "--format", "concise", "-q", path], &cwd);
            assert!(
                o.status.code().is_some_and(|c| c <= 1),
                "{tree}/{path}: {o:?}"
            );
            common::stdout(&o).lines().map(str::to_string).collect()
        };
        let all = lines(".");
        assert!(!all.is_empty(), "{tree} has findings");
        for sub in subs {
            let want: Vec<String> = all
                .iter()
                .filter(|l| l.starts_with(&format!("{sub}/")))
                .cloned()
                .collect();
            assert!(!want.is_empty(), "{tree}/{sub} has findings");
            assert_eq!(lines(sub), want, "{tree}/{sub}");
        }
    }
}
