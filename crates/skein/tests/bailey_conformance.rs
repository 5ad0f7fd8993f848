//! Bailey conformance: every document of the Bailey 0.1 conformance table
//! (`../shared/corpus/real/sigrix-io__bailey/schemas/0.1/assistant.cases.json`)
//! checked through skein's `assistant.json` path. Valid documents give no
//! diagnostic; each invalid one (a valid base with one RFC 6902 change) gives
//! at least one, located at the JSON pointer the change touches.

mod common;

use serde_json::Value;
use skein::{InputFile, Options, check_files};

/// Applies one RFC 6902 `add`/`replace`/`remove` operation.
fn apply(doc: &mut Value, op: &Value) {
    let path = op["path"].as_str().expect("change.path");
    let (parent, last) = path.rsplit_once('/').expect("pointer with a parent");
    let last = last.replace("~1", "/").replace("~0", "~");
    let target = doc.pointer_mut(parent).expect("parent exists");
    match (op["op"].as_str().expect("change.op"), target) {
        ("remove", Value::Object(m)) => {
            m.shift_remove(&last);
        }
        ("remove", Value::Array(a)) => {
            a.remove(last.parse::<usize>().expect("index"));
        }
        ("add" | "replace", Value::Object(m)) => {
            m.insert(last, op["value"].clone());
        }
        ("add", Value::Array(a)) if last == "-" => a.push(op["value"].clone()),
        ("add", Value::Array(a)) => a.insert(last.parse().expect("index"), op["value"].clone()),
        ("replace", Value::Array(a)) => {
            a[last.parse::<usize>().expect("index")] = op["value"].clone()
        }
        (o, t) => panic!("unsupported change {o} on {t}"),
    }
}

#[test]
fn bailey_conformance_table() {
    let Some(shared) = common::shared() else {
        return;
    };
    let table: Value = serde_json::from_str(
        &std::fs::read_to_string(
            shared.join("corpus/real/sigrix-io__bailey/schemas/0.1/assistant.cases.json"),
        )
        .expect("conformance table"),
    )
    .expect("table is JSON");
    let valid = table["valid"].as_array().expect("valid[]");
    let invalid = table["invalid"].as_array().expect("invalid[]");
    assert_eq!(
        (valid.len(), invalid.len()),
        (5, 38),
        "the table this test was written against"
    );

    let run = |doc: &Value| {
        let text = serde_json::to_string_pretty(doc).expect("serialize");
        let report = check_files(
            vec![InputFile::new("assistant.json", text.clone())],
            &Options::default(),
        );
        (text, report)
    };

    // The documents stand alone: the files they reference (instructions,
    // persona, skills) are not there, so cross-file REF findings are expected.
    let own = |l: &String| !l.contains(": REF");
    for case in valid {
        let (_, report) = run(&case["document"]);
        let locs: Vec<_> = common::locations(&report).into_iter().filter(own).collect();
        assert!(
            locs.is_empty(),
            "valid case {:?} gave {locs:?}",
            case["name"]
        );
        assert_eq!(
            report.summary().artifacts,
            vec![("bailey-assistant".to_string(), 1)]
        );
    }

    for case in invalid {
        let name = case["name"].as_str().expect("name");
        let base = valid
            .iter()
            .find(|v| v["name"] == case["base"])
            .unwrap_or_else(|| panic!("case {name}: unknown base"));
        let mut doc = base["document"].clone();
        apply(&mut doc, &case["change"]);
        let (text, report) = run(&doc);
        let diags: Vec<_> = report
            .diagnostics()
            .iter()
            .filter(|d| !d.rule.code.starts_with("REF"))
            .collect();
        assert!(
            !diags.is_empty(),
            "invalid case {name:?} gave no diagnostic"
        );

        // Where the change is, in the serialized document: the changed value,
        // or for a removal the object it was removed from.
        let path = case["change"]["path"].as_str().expect("path");
        let op = case["change"]["op"].as_str().expect("op");
        let pointer = if op == "remove" {
            path.rsplit_once('/').expect("parent").0
        } else {
            path
        };
        let reparsed = skein_syntax::Parsers::new().parse_json(skein_syntax::FileId(0), &text);
        let doc_tree = &reparsed.document;
        let (node, complete) = doc_tree.pointer(pointer).expect("root");
        assert!(
            complete,
            "case {name}: {pointer} not in the changed document"
        );
        let mut region = doc_tree.node(node).span;
        if let Some(key) = doc_tree.key_of(node) {
            // The key of the changed member counts as "at" it too.
            let k = doc_tree.node(key).span;
            region = skein_syntax::Span::new(
                k.start.min(region.start) as usize,
                k.end.max(region.end) as usize,
            );
        }
        let hit = diags
            .iter()
            .any(|d| d.primary.span.start >= region.start && d.primary.span.end <= region.end);
        assert!(
            hit,
            "case {name:?}: no diagnostic inside `{pointer}` (bytes {region:?}); got {:?}",
            diags
                .iter()
                .map(|d| (&d.message, d.primary.span))
                .collect::<Vec<_>>()
        );
        // Format-level findings are all schema violations; repository-level
        // rules (REF, PERM) may also see the change (a tool dropped from
        // `tools` but still in `write_tools` is undeclared, PERM001).
        assert!(
            diags
                .iter()
                .filter(|d| d.rule.code.starts_with("SYN") || d.rule.code.starts_with("SCH"))
                .all(|d| d.rule.code == "SCH001"),
            "case {name:?}: {:?}",
            common::locations(&report)
                .into_iter()
                .filter(own)
                .collect::<Vec<_>>()
        );
    }
}
