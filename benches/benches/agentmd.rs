//! Parse throughput of skein's Markdown grammar (`tree-sitter-agentmd`)
//! against tree-sitter-md on every `SKILL.md` of the real corpus, loaded
//! into memory once:
//!
//! - `agentmd`: one parse gives blocks and inlines (links, code spans...);
//! - `tree-sitter-md/block`: tree-sitter-md's block grammar alone (no
//!   inline content: no links, code spans or emphasis);
//! - `tree-sitter-md/block+inline`: what tree-sitter-md's own
//!   `MarkdownParser` does to get the same information: the block tree,
//!   then the inline grammar over each `inline` and `pipe_table_cell` node
//!   with `set_included_ranges` (the node's range minus its named
//!   children), one parser switching languages.
//!
//! Throughput is bytes of `SKILL.md` per second. Run:
//! `cargo bench -p skein-benches --bench agentmd`. Without the corpus
//! (`../shared/corpus/real`, or `SKEIN_BENCH_CORPUS`) the bench says so and
//! measures nothing.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skein_benches::corpus_root;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use tree_sitter::{Language, Parser, Range, Tree};

fn skill_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() {
            skill_files(&path, out);
        } else if kind.is_file() && entry.file_name() == "SKILL.md" {
            out.push(path);
        }
    }
}

/// Every `SKILL.md` of the corpus, in path order.
fn inputs() -> Option<Vec<Vec<u8>>> {
    let root = corpus_root()?;
    let mut paths = Vec::new();
    skill_files(&root, &mut paths);
    paths.sort();
    let files: Vec<Vec<u8>> = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    eprintln!(
        "agentmd bench: {} SKILL.md files, {} bytes, from {}",
        files.len(),
        files.iter().map(Vec::len).sum::<usize>(),
        root.display()
    );
    (!files.is_empty()).then_some(files)
}

/// tree-sitter-md's `MarkdownParser::parse`: block tree, then one inline
/// tree per `inline` / `pipe_table_cell` node.
fn parse_md_block_inline(
    parser: &mut Parser,
    block: &Language,
    inline: &Language,
    text: &[u8],
) -> (Tree, Vec<Tree>) {
    parser.set_included_ranges(&[]).expect("whole document");
    parser.set_language(block).expect("block grammar");
    let block_tree = parser.parse(text, None).expect("block parse");
    parser.set_language(inline).expect("inline grammar");
    let mut inline_trees = Vec::new();
    let mut cursor = block_tree.walk();
    'outer: loop {
        let node = loop {
            let kind = cursor.node().kind();
            if kind == "inline" || kind == "pipe_table_cell" || !cursor.goto_first_child() {
                while !cursor.goto_next_sibling() {
                    if !cursor.goto_parent() {
                        break 'outer;
                    }
                }
            }
            let kind = cursor.node().kind();
            if kind == "inline" || kind == "pipe_table_cell" {
                break cursor.node();
            }
        };
        let mut range = node.range();
        let mut ranges = Vec::new();
        if cursor.goto_first_child() {
            while cursor.goto_next_sibling() {
                if !cursor.node().is_named() {
                    continue;
                }
                let child = cursor.node().range();
                ranges.push(Range {
                    start_byte: range.start_byte,
                    start_point: range.start_point,
                    end_byte: child.start_byte,
                    end_point: child.start_point,
                });
                range.start_byte = child.end_byte;
                range.start_point = child.end_point;
            }
            cursor.goto_parent();
        }
        ranges.push(range);
        parser.set_included_ranges(&ranges).expect("inline ranges");
        inline_trees.push(parser.parse(text, None).expect("inline parse"));
    }
    drop(cursor);
    (block_tree, inline_trees)
}

fn bench_agentmd(c: &mut Criterion) {
    let Some(files) = inputs() else {
        eprintln!(
            "agentmd bench: real corpus absent (../shared/corpus/real, or set SKEIN_BENCH_CORPUS): skipped"
        );
        return;
    };
    let bytes: u64 = files.iter().map(|f| f.len() as u64).sum();
    let agentmd: Language = tree_sitter_agentmd::LANGUAGE.into();
    let md_block: Language = tree_sitter_md::LANGUAGE.into();
    let md_inline: Language = tree_sitter_md::INLINE_LANGUAGE.into();

    let mut group = c.benchmark_group("skill-md");
    group.throughput(Throughput::Bytes(bytes));

    let mut parser = Parser::new();
    parser.set_language(&agentmd).expect("agentmd grammar");
    group.bench_function("agentmd", |b| {
        b.iter(|| {
            for f in &files {
                black_box(parser.parse(f, None));
            }
        })
    });

    let mut parser = Parser::new();
    parser.set_language(&md_block).expect("block grammar");
    group.bench_function("tree-sitter-md/block", |b| {
        b.iter(|| {
            for f in &files {
                black_box(parser.parse(f, None));
            }
        })
    });

    let mut parser = Parser::new();
    group.bench_function("tree-sitter-md/block+inline", |b| {
        b.iter(|| {
            for f in &files {
                black_box(parse_md_block_inline(&mut parser, &md_block, &md_inline, f));
            }
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench_agentmd
}
criterion_main!(benches);
