//! `Document::pointer_to`: the pointer a `skein.toml` `[[ignore]]` entry
//! needs to name the node that holds a finding (docs/configuration.md,
//! "JSON suppressions"), and its round trip through `Document::pointer`.

use skein_syntax::{FileId, Parsers, Span};

fn pointer(text: &str, needle: &str, json: bool) -> String {
    let mut parsers = Parsers::new();
    let parsed = if json {
        parsers.parse_json(FileId(0), text)
    } else {
        parsers.parse_yaml(FileId(0), text)
    };
    let start = text.find(needle).expect("needle in text");
    let span = Span::new(start, start + needle.len());
    let doc = &parsed.document;
    let p = doc.pointer_to(span);
    // The pointer resolves whole, to a node that holds the span.
    let (node, whole) = doc.pointer(&p).expect("a root");
    assert!(whole, "{p} resolves");
    let mut s = doc.node(node).span;
    if let Some(k) = doc.key_of(node) {
        s = Span::new(doc.node(k).span.start as usize, s.end as usize);
    }
    assert!(
        s.start <= span.start && span.end <= s.end,
        "{p} holds {needle}"
    );
    p
}

#[test]
fn json_values_keys_and_escapes() {
    let text =
        r#"{"stages": [{"id": "a"}, {"id": "b", "gate": {"x/y": 1, "a~b": true}}], "n": null}"#;
    assert_eq!(pointer(text, r#""b""#, true), "/stages/1/id");
    assert_eq!(pointer(text, r#""gate""#, true), "/stages/1/gate");
    assert_eq!(pointer(text, "1", true), "/stages/1/gate/x~1y");
    assert_eq!(pointer(text, "true", true), "/stages/1/gate/a~0b");
    assert_eq!(pointer(text, r#"{"id": "a"}"#, true), "/stages/0");
    assert_eq!(pointer(text, "null", true), "/n");
    assert_eq!(pointer(text, text, true), "");
}

#[test]
fn a_shadowed_duplicate_key_stops_at_its_mapping() {
    let text = r#"{"m": {"k": 1, "k": 2}}"#;
    assert_eq!(pointer(text, "1", true), "/m");
    assert_eq!(pointer(text, "2", true), "/m/k");
}

#[test]
fn yaml_blocks_and_non_string_keys() {
    let text = "stages:\n  - id: triage\n    next: [a, b]\n1: one\n";
    assert_eq!(pointer(text, "b", false), "/stages/0/next/1");
    assert_eq!(pointer(text, "triage", false), "/stages/0/id");
    assert_eq!(pointer(text, "one", false), "/1");
}
