//! The incremental layer under `skein server` (issue #16): a
//! `Workspace`'s report equals a full `skein::check` of the same contents,
//! after edits, new files, closed buffers; and only changed files are
//! decoded again.

use skein::incremental::{RunStats, Workspace};
use skein::{Options, Report};
use std::path::Path;

use skein_test_support::demo_repo as demo;

/// Everything a renderer reads: each file's path and text, each
/// diagnostic, the summary.
fn view(r: &Report) -> (Vec<(String, String)>, String, String) {
    let files = r
        .sources()
        .iter()
        .map(|(_, f)| (f.path().to_string(), f.text().to_string()))
        .collect();
    (
        files,
        format!("{:#?}", r.diagnostics()),
        format!("{:?}", r.summary()),
    )
}

fn full(root: &Path) -> Report {
    skein::check(root, &Options::default()).unwrap()
}

#[test]
fn the_first_run_is_a_full_check() {
    let dir = demo();
    let mut ws = Workspace::open(dir.path(), &Options::default()).unwrap();
    let got = view(ws.analyze());
    assert_eq!(got, view(&full(dir.path())));
    assert_eq!(
        ws.stats(),
        RunStats {
            decoded: 19,
            reused: 0,
            local_reused: 0,
        }
    );
}

/// Artifacts among the 18 files an edit of one loop leaves unchanged: each
/// keeps the findings of its local passes.
const LOCAL_REUSED_AFTER_EDIT: usize = 18;

#[test]
fn an_edit_decodes_one_file_and_matches_a_full_check() {
    let dir = demo();
    let mut ws = Workspace::open(dir.path(), &Options::default()).unwrap();
    ws.analyze();
    let rel = "packs/core/loops/review/loop.json";
    let text = std::fs::read_to_string(dir.path().join(rel))
        .unwrap()
        .replace("\"id\": \"G1\"", "\"id\": \"G2\"");
    assert!(ws.set_overlay(rel, text.clone().into_bytes()));
    let got = view(ws.analyze());
    assert_eq!(
        ws.stats(),
        RunStats {
            decoded: 1,
            reused: 18,
            local_reused: LOCAL_REUSED_AFTER_EDIT,
        }
    );
    // The duplicate gate id of triage (in another file) is gone.
    assert!(!got.1.contains("REF001"));
    std::fs::write(dir.path().join(rel), &text).unwrap();
    assert_eq!(got, view(&full(dir.path())));
    // The same bytes again (a save) decode nothing.
    ws.set_overlay(rel, text.into_bytes());
    ws.analyze();
    assert_eq!(ws.stats().decoded, 0);
}

/// An open buffer is held to the size limit like the file on disk: over
/// it, SYN010 at the file and nothing decoded.
#[test]
fn a_buffer_over_the_size_limit_is_reported_not_decoded() {
    let dir = demo();
    let options = Options {
        max_file_size: Some(64),
        ..Options::default()
    };
    let mut ws = Workspace::open(dir.path(), &options).unwrap();
    ws.analyze();
    let rel = "skills/big/SKILL.md";
    let text = format!("---\nname: big\ndescription: {}\n---\n", "x".repeat(100));
    assert!(ws.set_overlay(rel, text.into_bytes()));
    let report = ws.analyze();
    let found: Vec<(String, &str, String)> = report
        .diagnostics()
        .iter()
        .filter(|d| report.sources().get(d.primary.file).path() == rel)
        .map(|d| (d.rule.code.to_string(), d.rule.name, d.message.clone()))
        .collect();
    assert_eq!(
        found,
        vec![(
            "SYN010".to_string(),
            "file-too-large",
            "contents are 132 bytes, over the limit of 64 bytes; not analyzed".to_string()
        )]
    );
}

/// A run cancelled at its `n`-th question (for growing `n`, until a run
/// completes), then cancelled again at once, leaves the workspace such that
/// the next run gives a full check's report, decoding nothing again and
/// reusing at least the local findings the cancelled runs were given.
#[test]
fn a_cancelled_run_loses_nothing() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let dir = demo();
    let rel = "packs/core/loops/review/loop.json";
    let text = std::fs::read_to_string(dir.path().join(rel))
        .unwrap()
        .replace("\"id\": \"G1\"", "\"id\": \"G2\"");
    let mut runs = Vec::new();
    let mut n = 0;
    loop {
        let mut ws = Workspace::open(dir.path(), &Options::default()).unwrap();
        ws.analyze();
        ws.set_overlay(rel, text.clone().into_bytes());
        let asked = AtomicUsize::new(0);
        let cancel = || asked.fetch_add(1, Ordering::SeqCst) >= n;
        if ws.analyze_cancellable(&cancel).is_some() {
            break;
        }
        assert!(ws.report().is_none());
        assert_eq!(ws.stats().decoded, 1);
        // Cancelled again at its first question: it starts from what the
        // first left.
        assert!(ws.analyze_cancellable(&|| true).is_none());
        assert_eq!(ws.stats().decoded, 0);
        runs.push(view(ws.analyze()));
        assert_eq!(ws.stats().decoded, 0, "cancelled at {n}");
        assert!(
            ws.stats().local_reused >= LOCAL_REUSED_AFTER_EDIT,
            "cancelled at {n}"
        );
        n = n * 2 + 1;
        assert!(n < 1 << 20, "no run completed");
    }
    assert!(runs.len() >= 3, "{} cancelled runs", runs.len());
    std::fs::write(dir.path().join(rel), &text).unwrap();
    let want = view(&full(dir.path()));
    for (i, got) in runs.iter().enumerate() {
        assert!(*got == want, "run {i} differs from a full check");
    }
}

/// A plugin manifest saved with a new `hooks` path makes the file it names
/// an artifact: the workspace walks again, as a full check would read it.
#[test]
fn a_manifest_that_names_a_hooks_file_makes_it_an_artifact() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    let manifest = "p/.claude-plugin/plugin.json";
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        manifest,
        r#"{"name": "p", "description": "Guards.", "version": "1.0.0"}"#,
    );
    write(
        "p/config/guard.json",
        r#"{"hooks": {"onSave": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    let mut ws = Workspace::open(root, &Options::default()).unwrap();
    assert!(!view(ws.analyze()).1.contains("HOOK001"));
    write(
        manifest,
        r#"{"name": "p", "description": "Guards.", "version": "1.0.0", "hooks": "./config/guard.json"}"#,
    );
    ws.refresh(manifest);
    let got = view(ws.analyze());
    assert!(got.1.contains("unknown hook event `onSave`"), "{}", got.1);
    assert_eq!(got, view(&full(root)));
}

#[test]
fn a_new_file_renumbers_the_files_after_it() {
    let dir = demo();
    let mut ws = Workspace::open(dir.path(), &Options::default()).unwrap();
    ws.analyze();
    // Sorts before most files: every later FileId moves by one.
    let rel = "agents/aaa.agent.yaml";
    let text = "name: aaa\nbad: [\n";
    assert!(ws.set_overlay(rel, text.as_bytes().to_vec()));
    let got = view(ws.analyze());
    assert_eq!(ws.stats().decoded, 1);
    // A new path: local passes read the path list, none is reused.
    assert_eq!(ws.stats().local_reused, 0);
    std::fs::write(dir.path().join(rel), text).unwrap();
    assert_eq!(got, view(&full(dir.path())));
    // Closed before it was saved: gone again.
    std::fs::remove_file(dir.path().join(rel)).unwrap();
    ws.close_overlay(rel);
    let got = view(ws.analyze());
    assert_eq!(ws.stats().decoded, 0);
    assert_eq!(got, view(&full(dir.path())));
}

#[test]
fn a_closed_buffer_falls_back_to_the_disk() {
    let dir = demo();
    let mut ws = Workspace::open(dir.path(), &Options::default()).unwrap();
    let before = view(ws.analyze());
    let rel = "packs/core/skills/triage-issue/SKILL.md";
    ws.set_overlay(
        rel,
        b"---\nname: triage-issue\ndescription: x\n---\n".to_vec(),
    );
    let edited = view(ws.analyze());
    assert_ne!(edited, before);
    ws.close_overlay(rel);
    assert_eq!(view(ws.analyze()), before);
    assert_eq!(ws.stats().decoded, 1);
}

#[test]
fn a_file_changed_on_disk_is_read_again() {
    let dir = demo();
    let mut ws = Workspace::open(dir.path(), &Options::default()).unwrap();
    ws.analyze();
    let rel = "loops/nightly.loop.yaml";
    let p = dir.path().join(rel);
    let text = std::fs::read_to_string(&p)
        .unwrap()
        .replace("owner:", "# owner:");
    std::fs::write(&p, text).unwrap();
    ws.refresh(rel);
    let got = view(ws.analyze());
    assert_eq!(ws.stats().decoded, 1);
    assert_eq!(got, view(&full(dir.path())));
    // Deleted on disk: gone from the analysis.
    std::fs::remove_file(&p).unwrap();
    ws.refresh(rel);
    let got = view(ws.analyze());
    assert_eq!(got, view(&full(dir.path())));
}

#[test]
fn a_configuration_change_is_read_on_reload() {
    let dir = demo();
    let mut ws = Workspace::open(dir.path(), &Options::default()).unwrap();
    ws.analyze();
    std::fs::write(
        dir.path().join("skein.toml"),
        "[severity]\nduplicate-gate-id = \"warning\"\n",
    )
    .unwrap();
    ws.reload().unwrap();
    let got = view(ws.analyze());
    assert_eq!(ws.stats().decoded, 0);
    // The rules in force may have changed: local findings are computed again.
    assert_eq!(ws.stats().local_reused, 0);
    assert_eq!(got, view(&full(dir.path())));
}

#[test]
fn on_the_real_corpus_an_edit_matches_a_full_check_with_that_overlay() {
    let Some(root) = skein_test_support::real_corpus() else {
        return;
    };
    let mut ws = Workspace::open(&root, &Options::default()).unwrap();
    let first = view(ws.analyze());
    assert_eq!(first, view(&full(&root)));
    // The first loop.json (sorted): its first gate id made a duplicate of
    // nothing, its name changed; read-only corpus, so an overlay on both sides.
    let report = ws.report().unwrap();
    let rel = report
        .sources()
        .iter()
        .map(|(_, f)| f.path().to_string())
        .find(|p| p.ends_with("loop.json"))
        .expect("a loop in the corpus");
    let text = std::fs::read_to_string(root.join(&rel)).unwrap();
    let edited = text.replacen("\"name\"", "\"name\": \"edited\", \"was\"", 1);
    ws.set_overlay(&rel, edited.clone().into_bytes());
    let got = view(ws.analyze());
    assert_eq!(ws.stats().decoded, 1);
    let artifacts = ws.report().unwrap().artifacts().len();
    assert_eq!(ws.stats().local_reused, artifacts - 1);
    let options = Options {
        overlay: Some(skein::InputFile::new(rel, edited)),
        ..Options::default()
    };
    assert_eq!(got, view(&skein::check(&root, &options).unwrap()));
}

#[test]
fn on_the_real_corpus_skill_edits_reuse_local_findings_and_match_full_checks() {
    let Some(root) = skein_test_support::real_corpus() else {
        return;
    };
    let mut ws = Workspace::open(&root, &Options::default()).unwrap();
    let unedited = view(ws.analyze());
    let skills: Vec<String> = ws
        .report()
        .unwrap()
        .sources()
        .iter()
        .map(|(_, f)| f.path().to_string())
        .filter(|p| p.ends_with("/SKILL.md"))
        .step_by(500)
        .collect();
    assert!(skills.len() >= 3, "{} skills sampled", skills.len());
    for rel in skills {
        // The edit the language server bench makes: `name:` no longer the folder's.
        let text = std::fs::read_to_string(root.join(&rel)).unwrap();
        let edited = text.replacen("name:", "name: edited-", 1);
        ws.set_overlay(&rel, edited.clone().into_bytes());
        let got = view(ws.analyze());
        let artifacts = ws.report().unwrap().artifacts().len();
        assert_eq!(ws.stats().decoded, 1, "{rel}");
        assert_eq!(ws.stats().local_reused, artifacts - 1, "{rel}");
        let options = Options {
            overlay: Some(skein::InputFile::new(rel.clone(), edited)),
            ..Options::default()
        };
        assert_eq!(got, view(&skein::check(&root, &options).unwrap()), "{rel}");
        // Back to the disk's bytes: the report of the corpus as it is.
        ws.close_overlay(&rel);
        assert_eq!(view(ws.analyze()), unedited, "{rel}");
    }
}

/// What the probe pass saw, as its message.
fn probe(
    cx: &skein::skein_lint::Context,
    a: &skein::skein_model::Artifact,
) -> Vec<skein::skein_syntax::Diagnostic> {
    let message = format!(
        "{} artifacts, {} graph nodes",
        cx.artifacts.len(),
        cx.graph.graph().node_count()
    );
    vec![skein::skein_syntax::Diagnostic::new(
        PROBE,
        a.file,
        Default::default(),
        message,
    )]
}

const PROBE: skein::skein_syntax::Rule = skein::skein_syntax::Rule {
    code: "TEST002",
    name: "context-probe",
    severity: skein::skein_syntax::Severity::Info,
    summary: "what a pass sees",
    doc: "",
    fix: None,
};

/// A per-file pass that reads only its artifact sees that artifact alone
/// (the runner gives it no graph and no other artifact: `Reads::Local`),
/// and a reused `Local` stands in for running it.
#[test]
fn a_local_pass_sees_only_its_artifact_and_reused_findings_stand_in() {
    use skein::skein_lint::{Context, FilePass, Local, Memo, Reads, run_with};
    let dir = demo();
    let report = full(dir.path());
    let repo_files = report
        .sources()
        .iter()
        .map(|(_, f)| f.path().to_string())
        .collect();
    let cx = Context {
        graph: report.graph(),
        artifacts: report.artifacts(),
        sources: report.sources(),
        repo_files: &repo_files,
        memo: Memo::new(report.artifacts().len()),
    };
    let n = report.artifacts().len();
    let nodes = report.graph().graph().node_count();
    assert!(n > 1 && nodes > 0);
    let seen = |reads, reused| {
        let pass = FilePass {
            rule: PROBE,
            check: probe,
            reads,
            on: skein::skein_lint::On::Any,
        };
        let (d, errors) = run_with(&cx, &[], &[pass], reused).into_all();
        assert!(errors.is_empty());
        let mut messages: Vec<String> = d.into_iter().map(|d| d.message).collect();
        messages.sort();
        messages
    };
    assert_eq!(
        seen(Reads::Local, Vec::new()),
        vec!["1 artifacts, 0 graph nodes".to_string(); n]
    );
    assert_eq!(
        seen(Reads::Repository, Vec::new()),
        vec![format!("{n} artifacts, {nodes} graph nodes"); n]
    );
    // The first artifact's findings are taken as given, the others computed.
    let given = Local {
        diagnostics: vec![skein::skein_syntax::Diagnostic::new(
            PROBE,
            report.artifacts()[0].file,
            Default::default(),
            "reused",
        )],
        internal_errors: Vec::new(),
    };
    let mut want = vec!["1 artifacts, 0 graph nodes".to_string(); n - 1];
    want.push("reused".into());
    assert_eq!(seen(Reads::Local, vec![Some(given)]), want);
}
