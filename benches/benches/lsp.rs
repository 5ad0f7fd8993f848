//! Latency of `skein server` (issue #16): the time from a `didChange` of a
//! one-line edit to the `publishDiagnostics` it causes, in the generated
//! 10,000-file monorepo (`cargo xtask gen-monorepo --files 10000 --seed
//! 20250601 --fault-rate 0.005`, written under `target/bench-monorepo/`
//! once). The server runs in this process over an in-memory connection
//! (`lsp_server::Connection::memory`, the same message loop as stdio),
//! with no debounce: what is measured is the analysis and the publishing.
//!
//! Each iteration toggles one line of one `SKILL.md` (its `name:` made to
//! differ from its folder, then back), so each edit changes that file's
//! findings and is published. Besides criterion's estimates, the median
//! of every round trip measured is printed (`lsp latency median: ...`):
//! the figure of BENCHMARKS.md. `SKEIN_BENCH_LSP_FILES` picks another size.

use criterion::{Criterion, criterion_group, criterion_main};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

fn files() -> usize {
    std::env::var("SKEIN_BENCH_LSP_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

fn uri(p: &Path) -> lsp::Uri {
    skein::server::path_to_uri(p)
}

/// The first `SKILL.md` below `dir` (in sorted order) with a `name:` line.
fn a_skill(dir: &Path) -> (PathBuf, String) {
    let mut stack = vec![dir.to_path_buf()];
    let mut found = Vec::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable tree") {
            let e = e.expect("entry");
            let p = e.path();
            if e.file_type().expect("type").is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "SKILL.md") {
                found.push(p);
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .find_map(|p| {
            let t = std::fs::read_to_string(&p).ok()?;
            t.lines().any(|l| l.starts_with("name: ")).then_some((p, t))
        })
        .expect("a SKILL.md with a name")
}

struct Session {
    client: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    uri: lsp::Uri,
    texts: [String; 2],
    version: i32,
}

impl Session {
    fn start(root: &Path) -> Session {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || {
            let options = skein::server::ServerOptions {
                debounce: Duration::ZERO,
                ..Default::default()
            };
            skein::server::serve(server, options).expect("server runs");
        });
        let init = lsp::InitializeParams {
            workspace_folders: Some(vec![lsp::WorkspaceFolder {
                uri: uri(root),
                name: "bench".into(),
            }]),
            ..Default::default()
        };
        client
            .sender
            .send(Message::Request(Request::new(
                RequestId::from(1),
                "initialize".into(),
                init,
            )))
            .unwrap();
        loop {
            if let Message::Response(_) = client.receiver.recv().unwrap() {
                break;
            }
        }
        client
            .sender
            .send(Message::Notification(Notification::new(
                "initialized".into(),
                serde_json::json!({}),
            )))
            .unwrap();
        let (path, text) = a_skill(root);
        let broken = text.replacen("name: ", "name: renamed-", 1);
        let uri = uri(&path);
        let s = Session {
            client,
            server: Some(handle),
            uri,
            texts: [broken, text.clone()],
            version: 1,
        };
        s.notify(
            lsp::notification::DidOpenTextDocument::METHOD,
            lsp::DidOpenTextDocumentParams {
                text_document: lsp::TextDocumentItem {
                    uri: s.uri.clone(),
                    language_id: "markdown".into(),
                    version: 1,
                    text,
                },
            },
        );
        // The first analysis of the whole tree: wait until it is quiet.
        while s
            .client
            .receiver
            .recv_timeout(Duration::from_secs(3))
            .is_ok()
        {}
        s
    }

    fn notify(&self, method: &str, params: impl serde::Serialize) {
        self.client
            .sender
            .send(Message::Notification(Notification::new(
                method.into(),
                params,
            )))
            .unwrap();
    }

    /// One edit and the wait for its diagnostics.
    fn round_trip(&mut self) -> Duration {
        self.version += 1;
        let text = self.texts[(self.version % 2) as usize].clone();
        let start = Instant::now();
        self.notify(
            lsp::notification::DidChangeTextDocument::METHOD,
            lsp::DidChangeTextDocumentParams {
                text_document: lsp::VersionedTextDocumentIdentifier {
                    uri: self.uri.clone(),
                    version: self.version,
                },
                content_changes: vec![lsp::TextDocumentContentChangeEvent {
                    range: None,
                    range_length: None,
                    text,
                }],
            },
        );
        loop {
            let m = self
                .client
                .receiver
                .recv_timeout(Duration::from_secs(60))
                .expect("diagnostics published");
            if let Message::Notification(n) = m
                && n.method == lsp::notification::PublishDiagnostics::METHOD
            {
                let p: lsp::PublishDiagnosticsParams = serde_json::from_value(n.params).unwrap();
                if p.uri == self.uri && p.version == Some(self.version) {
                    return start.elapsed();
                }
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let shutdown = Request::new(RequestId::from(2), "shutdown".into(), ());
        let _ = self.client.sender.send(Message::Request(shutdown));
        let _ = self.client.receiver.recv_timeout(Duration::from_secs(10));
        self.notify("exit", ());
        if let Some(h) = self.server.take() {
            let _ = h.join();
        }
    }
}

fn bench_lsp(c: &mut Criterion) {
    let n = files();
    let root = skein_benches::generated_tree(n);
    let root = std::fs::canonicalize(root).expect("tree");
    let mut session = Session::start(&root);
    let mut all = Vec::new();
    let mut group = c.benchmark_group("lsp");
    group.bench_function(format!("did_change_to_publish/gen-{n}"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let d = session.round_trip();
                all.push(d);
                total += d;
            }
            total
        })
    });
    group.finish();
    all.sort();
    if !all.is_empty() {
        let median = all[all.len() / 2];
        eprintln!(
            "lsp latency median: {:.1} ms over {} edits (min {:.1} ms, max {:.1} ms), gen-{n}, {} rayon threads",
            median.as_secs_f64() * 1e3,
            all.len(),
            all[0].as_secs_f64() * 1e3,
            all[all.len() - 1].as_secs_f64() * 1e3,
            rayon::current_num_threads()
        );
    }
    let _ = lsp::Uri::from_str("file:///");
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(10))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_lsp
}
criterion_main!(benches);
