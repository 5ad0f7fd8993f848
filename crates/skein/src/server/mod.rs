//! `skein server`: the Language Server Protocol over stdio (issue #16).
//!
//! Two threads. The main thread reads the client's messages: it answers
//! requests (hover, definition, references, document symbols, code
//! actions) from the last report of the file's project, and hands every
//! change (open, edit, close and save of a buffer, a watched file, new
//! settings) to the analysis thread as a [`Job`]. The analysis thread
//! collects jobs until none has come for the debounce interval, applies
//! them to the projects' [`Workspace`]s (open buffers become overlays over
//! the disk), analyzes each project touched incrementally, and publishes
//! diagnostics for every file whose findings changed, including files other
//! than the edited one. When new jobs arrived during an analysis its
//! results are stale: they are not published, and the next run starts at
//! once.
//!
//! A project is what `skein check` would analyze: each workspace folder,
//! and the project ([`crate::locate`]) of any file opened outside them.

mod convert;
mod features;
mod stdio;
mod suppression;

pub use convert::{Encoding, path_to_uri, uri_to_path};
pub use stdio::{MAX_HEADER_LINE, MAX_MESSAGE};

use crate::incremental::Workspace;
use crate::{Options, Report};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use skein_syntax::{Diagnostic, FileId};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// How long the analysis waits for more edits before it runs (the
    /// client may override it with `initializationOptions.debounceMs`).
    pub debounce: Duration,
    /// The analysis options of every project (configuration discovery,
    /// threads, ...).
    pub analysis: Options,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            debounce: Duration::from_millis(30),
            analysis: Options::default(),
        }
    }
}

/// Why the server stopped before `exit`. Each variant's cause is its
/// [`std::error::Error::source`], not repeated in its message: print the
/// chain (`{:#}` of `anyhow`) to see both.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The client broke the protocol (or the connection closed early).
    #[error("language server protocol error")]
    Protocol(#[from] lsp_server::ProtocolError),
    /// Reading or writing stdio failed, or the input is not the base
    /// protocol's framing (a message over [`MAX_MESSAGE`] is one).
    #[error("language server input/output")]
    Io(#[from] std::io::Error),
    /// A message could not be (de)serialized.
    #[error("language server message")]
    Json(#[from] serde_json::Error),
    /// The client closed its end before the session ended (before
    /// `initialize`, or without `exit`), with nothing wrong in what it sent.
    #[error("the client closed the connection before `exit`")]
    Closed,
}

/// Runs the server on stdin/stdout until the client says `exit`.
///
/// # Errors
/// [`ServerError`] when the connection breaks, or the client sends what
/// is not a message (a header declaring more than [`MAX_MESSAGE`] bytes is
/// one: it is refused before anything is allocated).
pub fn run(options: ServerOptions) -> Result<(), ServerError> {
    let (connection, io) = stdio::connection()?;
    match serve(connection, options) {
        Ok(()) => {
            io.join()?;
            Ok(())
        }
        // The reader thread knows why the channel closed: bad input (an
        // input/output error naming it) or the end of stdin.
        Err(ServerError::Protocol(e)) if e.channel_is_disconnected() => {
            io.join()?;
            Err(ServerError::Closed)
        }
        Err(e) => Err(e),
    }
}

/// Serves one client over `connection` (stdio, or in memory for tests and
/// benches): the initialize handshake, then messages until `exit`.
///
/// # Errors
/// [`ServerError`] when the connection breaks.
pub fn serve(connection: Connection, mut options: ServerOptions) -> Result<(), ServerError> {
    let (id, params) = connection.initialize_start()?;
    let init: lsp::InitializeParams = serde_json::from_value(params)?;
    let enc = if init
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&lsp::PositionEncodingKind::UTF8))
    {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    if let Some(ms) = init
        .initialization_options
        .as_ref()
        .and_then(|o| o.get("debounceMs"))
        .and_then(serde_json::Value::as_u64)
    {
        options.debounce = Duration::from_millis(ms);
    }
    let capabilities = lsp::ServerCapabilities {
        position_encoding: Some(match enc {
            Encoding::Utf8 => lsp::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lsp::PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::FULL),
                will_save: None,
                will_save_wait_until: None,
                save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
                work_done_progress_options: Default::default(),
                resolve_provider: None,
            },
        )),
        ..Default::default()
    };
    let result = lsp::InitializeResult {
        capabilities,
        server_info: Some(lsp::ServerInfo {
            name: "skein".to_string(),
            version: Some(crate::VERSION.to_string()),
        }),
    };
    connection.initialize_finish(id, serde_json::to_value(result)?)?;

    let mut folders: Vec<PathBuf> = init
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| uri_to_path(&f.uri))
        .collect();
    #[allow(deprecated)]
    if folders.is_empty()
        && let Some(p) = init.root_uri.as_ref().and_then(uri_to_path)
    {
        folders.push(p);
    }
    // A new skein.toml is a `create` resource operation, which a client
    // must declare it applies (LSP 3.16, `WorkspaceEditClientCapabilities`).
    let create_files = init
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.workspace_edit.as_ref())
        .is_some_and(|e| {
            e.document_changes == Some(true)
                && e.resource_operations
                    .as_ref()
                    .is_some_and(|o| o.contains(&lsp::ResourceOperationKind::Create))
        });
    let state = Arc::new(Mutex::new(State {
        projects: Vec::new(),
        enc,
        create_files,
        analysis: options.analysis.clone(),
        versions: HashMap::new(),
    }));
    let (jobs, job_rx) = crossbeam_channel::unbounded::<Job>();
    let worker = {
        let state = Arc::clone(&state);
        let out = connection.sender.clone();
        let debounce = options.debounce;
        std::thread::Builder::new()
            .name("skein-analysis".into())
            .spawn(move || analysis_loop(&state, &job_rx, &out, debounce))?
    };
    for f in folders {
        let _ = jobs.send(Job::Folder(f));
    }
    let watch = init
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|d| d.dynamic_registration)
        .unwrap_or(false);
    if watch {
        let reg = lsp::RegistrationParams {
            registrations: vec![lsp::Registration {
                id: "skein-watched-files".into(),
                method: lsp::notification::DidChangeWatchedFiles::METHOD.into(),
                register_options: Some(serde_json::to_value(
                    lsp::DidChangeWatchedFilesRegistrationOptions {
                        watchers: vec![lsp::FileSystemWatcher {
                            glob_pattern: lsp::GlobPattern::String("**/*".into()),
                            kind: None,
                        }],
                    },
                )?),
            }],
        };
        let req = Request::new(
            RequestId::from("skein-register-watch".to_string()),
            lsp::request::RegisterCapability::METHOD.into(),
            reg,
        );
        let _ = connection.sender.send(Message::Request(req));
    }

    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => {
                if connection.handle_shutdown(&req)? {
                    break;
                }
                let resp = answer(&state, req);
                let _ = connection.sender.send(Message::Response(resp));
            }
            Message::Notification(n) => notify(&state, &jobs, n),
            Message::Response(_) => {}
        }
    }
    drop(jobs);
    let _ = worker.join();
    Ok(())
}

/// A change for the analysis thread.
#[derive(Debug)]
enum Job {
    /// Analyze the project of this folder.
    Folder(PathBuf),
    /// A buffer's full text (open or edit), with its version.
    Text(PathBuf, String, Option<i32>),
    /// A buffer closed: the disk counts again.
    Close(PathBuf),
    /// A file changed, appeared or went away on disk.
    Disk(PathBuf),
    /// Configuration changed: read it and walk again, everywhere.
    Reload,
}

struct Project {
    ws: Workspace,
    /// What was last published, by project-relative path.
    published: BTreeMap<String, Vec<lsp::Diagnostic>>,
}

struct State {
    projects: Vec<Project>,
    enc: Encoding,
    /// Whether the client applies `create` resource operations in a
    /// workspace edit (the "suppress in a new skein.toml" action needs one).
    create_files: bool,
    analysis: Options,
    /// Versions of open buffers, for `publishDiagnostics`.
    versions: HashMap<PathBuf, i32>,
}

impl State {
    /// The project holding `path` (the deepest root above it) and the
    /// path relative to that root.
    fn project_of(&self, path: &Path) -> Option<(usize, String)> {
        self.projects
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let rel = path.strip_prefix(p.ws.root()).ok()?;
                Some((i, p.ws.root().components().count(), rel))
            })
            .max_by_key(|(_, depth, _)| *depth)
            .map(|(i, _, rel)| {
                let parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                (i, parts.join("/"))
            })
    }

    /// [`State::project_of`], opening the file's project when none holds it.
    fn project_for(&mut self, path: &Path) -> Option<(usize, String)> {
        if let Some(found) = self.project_of(path) {
            return Some(found);
        }
        let at = crate::locate_new(path).ok()?;
        self.open_project(&at.root)?;
        self.project_of(path)
    }

    fn open_project(&mut self, root: &Path) -> Option<usize> {
        if let Some(i) = self.projects.iter().position(|p| p.ws.root() == root) {
            return Some(i);
        }
        let ws = Workspace::open(root, &self.analysis).ok()?;
        self.projects.push(Project {
            ws,
            published: BTreeMap::new(),
        });
        Some(self.projects.len() - 1)
    }
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|e| e.into_inner())
}

fn analysis_loop(
    state: &Mutex<State>,
    rx: &Receiver<Job>,
    out: &Sender<Message>,
    debounce: Duration,
) {
    let mut dirty: BTreeSet<usize> = BTreeSet::new();
    loop {
        let mut batch = Vec::new();
        if dirty.is_empty() {
            match rx.recv() {
                Ok(j) => batch.push(j),
                Err(_) => return,
            }
        }
        // Debounce: take every job that comes within the interval.
        loop {
            let next = if debounce.is_zero() {
                rx.try_recv().map_err(|e| {
                    if e.is_disconnected() {
                        RecvTimeoutError::Disconnected
                    } else {
                        RecvTimeoutError::Timeout
                    }
                })
            } else {
                rx.recv_timeout(debounce)
            };
            match next {
                Ok(j) => batch.push(j),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        let mut st = lock(state);
        for job in batch {
            apply(&mut st, job, &mut dirty);
        }
        let enc = st.enc;
        while let Some(&i) = dirty.iter().next() {
            if !rx.is_empty() {
                // Newer edits are waiting: this state is already stale.
                break;
            }
            dirty.remove(&i);
            let p = &mut st.projects[i];
            // Edits that come during the run stop it at its next step; what
            // it finished is kept for the next run.
            let overtaken = || !rx.is_empty();
            if p.ws.analyze_cancellable(&overtaken).is_none() || overtaken() {
                dirty.insert(i);
                break;
            }
            let fresh = published_form(p, enc);
            let root = p.ws.root().to_path_buf();
            let mut changed = Vec::new();
            let keys: BTreeSet<String> = p.published.keys().chain(fresh.keys()).cloned().collect();
            for k in keys {
                let now = fresh.get(&k).cloned().unwrap_or_default();
                if p.published.get(&k) != Some(&now) {
                    changed.push((k, now));
                }
            }
            p.published = fresh;
            for (rel, diagnostics) in changed {
                let path = root.join(&rel);
                let version = st.versions.get(&path).copied();
                let params = lsp::PublishDiagnosticsParams {
                    uri: path_to_uri(&path),
                    diagnostics,
                    version,
                };
                let n =
                    Notification::new(lsp::notification::PublishDiagnostics::METHOD.into(), params);
                if out.send(Message::Notification(n)).is_err() {
                    return;
                }
            }
        }
    }
}

fn apply(st: &mut State, job: Job, dirty: &mut BTreeSet<usize>) {
    match job {
        Job::Folder(f) => {
            let root = crate::locate(&f).map(|l| l.root).unwrap_or(f);
            if let Some(i) = st.open_project(&root) {
                dirty.insert(i);
            }
        }
        Job::Text(path, text, version) => {
            if let Some(v) = version {
                st.versions.insert(path.clone(), v);
            }
            if let Some((i, rel)) = st.project_for(&path) {
                if rel == crate::config::CONFIG_FILE_NAME {
                    // The configuration is read from disk, on save.
                    return;
                }
                if st.projects[i].ws.set_overlay(&rel, text.into_bytes()) {
                    dirty.insert(i);
                }
            }
        }
        Job::Close(path) => {
            st.versions.remove(&path);
            if let Some((i, rel)) = st.project_of(&path) {
                st.projects[i].ws.close_overlay(&rel);
                dirty.insert(i);
            }
        }
        Job::Disk(path) => {
            if let Some((i, rel)) = st.project_of(&path) {
                let p = &mut st.projects[i];
                if rel == crate::config::CONFIG_FILE_NAME {
                    let _ = p.ws.reload();
                } else {
                    p.ws.refresh(&rel);
                }
                dirty.insert(i);
            }
        }
        Job::Reload => {
            for (i, p) in st.projects.iter_mut().enumerate() {
                let _ = p.ws.reload();
                dirty.insert(i);
            }
        }
    }
}

/// The diagnostics of the project's last report in the protocol's form, by
/// project-relative path (files with none left out).
fn published_form(p: &Project, enc: Encoding) -> BTreeMap<String, Vec<lsp::Diagnostic>> {
    let mut out: BTreeMap<String, Vec<lsp::Diagnostic>> = BTreeMap::new();
    let Some(report) = p.ws.report() else {
        return out;
    };
    let sources = report.sources();
    let secrets = skein_report::redact::Secrets::new(report.diagnostics(), sources);
    let scrubbed = secrets.diagnostics(report.diagnostics());
    for d in scrubbed.iter() {
        let rel = sources.get(d.primary.file).path();
        if rel == "." {
            // The stand-in of a repository-wide internal error: no file.
            continue;
        }
        out.entry(rel.to_string())
            .or_default()
            .push(convert::diagnostic(d, sources, p.ws.root(), enc));
    }
    out
}

fn notify(state: &Mutex<State>, jobs: &Sender<Job>, n: Notification) {
    use lsp::notification as N;
    let path_of = |uri: &lsp::Uri| uri_to_path(uri);
    let send = |j: Job| {
        let _ = jobs.send(j);
    };
    match n.method.as_str() {
        N::DidOpenTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(n.params)
                && let Some(path) = path_of(&p.text_document.uri)
            {
                send(Job::Text(
                    path,
                    p.text_document.text,
                    Some(p.text_document.version),
                ));
            }
        }
        N::DidChangeTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(n.params)
                && let Some(path) = path_of(&p.text_document.uri)
                && let Some(last) = p.content_changes.into_iter().last()
            {
                send(Job::Text(path, last.text, Some(p.text_document.version)));
            }
        }
        N::DidSaveTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp::DidSaveTextDocumentParams>(n.params)
                && let Some(path) = path_of(&p.text_document.uri)
            {
                if path
                    .file_name()
                    .is_some_and(|f| f == crate::config::CONFIG_FILE_NAME)
                {
                    send(Job::Disk(path));
                } else if let Some(text) = p.text {
                    send(Job::Text(path, text, None));
                }
            }
        }
        N::DidCloseTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(n.params)
                && let Some(path) = path_of(&p.text_document.uri)
            {
                send(Job::Close(path));
            }
        }
        N::DidChangeWatchedFiles::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp::DidChangeWatchedFilesParams>(n.params) {
                for c in p.changes {
                    if let Some(path) = path_of(&c.uri) {
                        send(Job::Disk(path));
                    }
                }
            }
        }
        N::DidChangeConfiguration::METHOD => send(Job::Reload),
        N::DidChangeWorkspaceFolders::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp::DidChangeWorkspaceFoldersParams>(n.params)
            {
                for f in p.event.added {
                    if let Some(path) = path_of(&f.uri) {
                        send(Job::Folder(path));
                    }
                }
            }
        }
        _ => {
            let _ = state;
        }
    }
}

/// The answer to one request, from the last report of the file's project.
fn answer(state: &Mutex<State>, req: Request) -> Response {
    use lsp::request as R;
    let id = req.id.clone();
    let st = lock(state);
    let result = match req.method.as_str() {
        R::HoverRequest::METHOD => parse::<lsp::HoverParams>(req).map(|p| {
            let tdp = p.text_document_position_params;
            at(&st, &tdp.text_document.uri, tdp.position, |cx| {
                let (span, text) = features::hover(cx.report, cx.file, cx.offset)?;
                Some(lsp::Hover {
                    contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                        kind: lsp::MarkupKind::Markdown,
                        value: text,
                    }),
                    range: Some(convert::range(cx.source(), span, cx.enc)),
                })
            })
            .map_or(serde_json::Value::Null, to_json)
        }),
        R::GotoDefinition::METHOD => parse::<lsp::GotoDefinitionParams>(req).map(|p| {
            let tdp = p.text_document_position_params;
            at(&st, &tdp.text_document.uri, tdp.position, |cx| {
                let (_, to) = features::definition(cx.report, cx.file, cx.offset)?;
                Some(lsp::GotoDefinitionResponse::Scalar(cx.location(to)))
            })
            .map_or(serde_json::Value::Null, to_json)
        }),
        R::References::METHOD => parse::<lsp::ReferenceParams>(req).map(|p| {
            let tdp = p.text_document_position;
            let decl = p.context.include_declaration;
            at(&st, &tdp.text_document.uri, tdp.position, |cx| {
                let places = features::references(cx.report, cx.file, cx.offset, decl);
                Some(
                    places
                        .into_iter()
                        .map(|pl| cx.location(pl))
                        .collect::<Vec<_>>(),
                )
            })
            .map_or(serde_json::Value::Null, to_json)
        }),
        R::DocumentSymbolRequest::METHOD => parse::<lsp::DocumentSymbolParams>(req).map(|p| {
            at(&st, &p.text_document.uri, lsp::Position::new(0, 0), |cx| {
                Some(lsp::DocumentSymbolResponse::Nested(features::symbols(
                    cx.report,
                    cx.file,
                    cx.source(),
                    cx.enc,
                )))
            })
            .map_or(serde_json::Value::Null, to_json)
        }),
        R::CodeActionRequest::METHOD => parse::<lsp::CodeActionParams>(req).map(|p| {
            let range = p.range;
            let create_files = st.create_files;
            at(&st, &p.text_document.uri, range.start, |cx| {
                let end = convert::offset(cx.source(), range.end, cx.enc);
                let sources = cx.report.sources();
                let secrets = skein_report::redact::Secrets::new(cx.report.diagnostics(), sources);
                let all = secrets.diagnostics(cx.report.diagnostics());
                let mine: Vec<(&Diagnostic, lsp::Diagnostic)> = all
                    .iter()
                    .filter(|d| {
                        d.primary.file == cx.file
                            && (d.primary.span.start as usize) <= end
                            && cx.offset <= d.primary.span.end as usize
                    })
                    .map(|d| (d, convert::diagnostic(d, sources, cx.root, cx.enc)))
                    .collect();
                Some(features::code_actions(
                    cx.report,
                    &mine,
                    cx.source(),
                    cx.config,
                    cx.root,
                    cx.enc,
                    create_files,
                ))
            })
            .map_or(serde_json::Value::Null, to_json)
        }),
        _ => {
            return Response::new_err(
                id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("skein server does not handle `{}`", req.method),
            );
        }
    };
    match result {
        Ok(v) => Response::new_ok(id, v),
        Err(e) => Response::new_err(
            id,
            lsp_server::ErrorCode::InvalidParams as i32,
            format!("invalid parameters: {e}"),
        ),
    }
}

fn parse<P: serde::de::DeserializeOwned>(req: Request) -> Result<P, serde_json::Error> {
    serde_json::from_value(req.params)
}

fn to_json<T: serde::Serialize>(v: T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

/// A request's place: the report, the file in it and the byte offset.
struct Cx<'a> {
    report: &'a Report,
    file: FileId,
    offset: usize,
    root: &'a Path,
    config: &'a crate::config::Config,
    enc: Encoding,
}

impl Cx<'_> {
    fn source(&self) -> &skein_syntax::SourceFile {
        self.report.sources().get(self.file)
    }

    fn location(&self, p: features::Place) -> lsp::Location {
        let f = self.report.sources().get(p.file);
        lsp::Location::new(
            path_to_uri(&self.root.join(f.path())),
            convert::range(f, p.span, self.enc),
        )
    }
}

fn at<T>(
    st: &State,
    uri: &lsp::Uri,
    pos: lsp::Position,
    f: impl FnOnce(&Cx<'_>) -> Option<T>,
) -> Option<T> {
    let path = uri_to_path(uri)?;
    let (i, rel) = st.project_of(&path)?;
    let p = &st.projects[i];
    let report = p.ws.report()?;
    let file = convert::file_id(report.sources(), report.summary().files_read, &rel)?;
    let offset = convert::offset(report.sources().get(file), pos, st.enc);
    f(&Cx {
        report,
        file,
        offset,
        root: p.ws.root(),
        config: p.ws.config(),
        enc: st.enc,
    })
}
