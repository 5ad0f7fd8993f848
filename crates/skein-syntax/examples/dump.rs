//! Prints the tree-sitter tree and the Document of a YAML or JSON file:
//! `cargo run -p skein-syntax --example dump -- FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: dump FILE");
    let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
    let mut p = skein_syntax::Parsers::new();
    let parsed = if path.ends_with(".json") {
        p.parse_json(skein_syntax::FileId(0), &text)
    } else if path.ends_with(".md") {
        let m = p.parse_markdown(skein_syntax::FileId(0), &text);
        skein_syntax::Parsed {
            document: m.document,
            diagnostics: m.diagnostics,
            comments: m.comments,
        }
    } else {
        p.parse_yaml(skein_syntax::FileId(0), &text)
    };
    println!("{:#?}", parsed.document.to_json(1_000_000));
    for d in &parsed.diagnostics {
        println!("{} {} {:?}", d.rule.code, d.message, d.primary.span);
    }
}
