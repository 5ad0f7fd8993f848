//! `skein server` over an in-memory connection (issue #16): the
//! definitions the end-to-end tests (editors/e2e, on the demo repository)
//! do not reach: marketplace `source` -> plugin manifest, agent `skills:`
//! item -> SKILL.md, Loom a2a agent -> its spec; the symbols of a
//! marketplace; a suppression in a Markdown body. And the binary over
//! real stdio: a session, and input that is not the base protocol (a
//! declared length over the limit is refused, never allocated; each error
//! is said once).

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types as lsp;
use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

struct Client {
    conn: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    next: i32,
}

impl Client {
    fn start(root: &Path) -> Client {
        Client::start_with(root, json!({}))
    }

    /// A client that declares `capabilities` in `initialize`.
    fn start_with(root: &Path, capabilities: Value) -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || {
            let options = skein::server::ServerOptions {
                debounce: Duration::ZERO,
                ..Default::default()
            };
            skein::server::serve(server, options).unwrap();
        });
        let mut c = Client {
            conn,
            server: Some(handle),
            next: 1,
        };
        let init = json!({
            "capabilities": capabilities,
            "workspaceFolders": [{"uri": skein::server::path_to_uri(root), "name": "t"}],
        });
        c.request("initialize", init);
        c.notify("initialized", json!({}));
        c
    }

    fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.into(), params);
        self.conn.sender.send(Message::Notification(n)).unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = RequestId::from(self.next);
        self.next += 1;
        let r = Request::new(id.clone(), method.into(), params);
        self.conn.sender.send(Message::Request(r)).unwrap();
        loop {
            match self
                .conn
                .receiver
                .recv_timeout(Duration::from_secs(30))
                .expect("an answer")
            {
                Message::Response(r) if r.id == id => return r.response_result.expect("no error"),
                _ => {}
            }
        }
    }

    /// Waits for the diagnostics of `path`.
    fn diagnostics(&self, path: &Path) -> Vec<lsp::Diagnostic> {
        let uri = skein::server::path_to_uri(path);
        loop {
            let m = self
                .conn
                .receiver
                .recv_timeout(Duration::from_secs(30))
                .expect("diagnostics");
            if let Message::Notification(n) = m {
                let p: lsp::PublishDiagnosticsParams = serde_json::from_value(n.params).unwrap();
                if p.uri == uri {
                    return p.diagnostics;
                }
            }
        }
    }

    fn definition(&mut self, path: &Path, line: u32, character: u32) -> Value {
        self.request(
            "textDocument/definition",
            json!({
                "textDocument": {"uri": skein::server::path_to_uri(path)},
                "position": {"line": line, "character": character},
            }),
        )
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(h) = self.server.take() {
            h.join().unwrap();
        }
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// (line, character) of the first `needle` in `text`, 0-based, plus `skip` characters.
fn at(text: &str, needle: &str, skip: u32) -> (u32, u32) {
    let i = text.find(needle).expect("needle in text");
    let line = text[..i].matches('\n').count() as u32;
    let col = (i - text[..i].rfind('\n').map_or(0, |n| n + 1)) as u32;
    (line, col + skip)
}

fn target(v: &Value) -> (String, u32) {
    (
        v["uri"].as_str().unwrap().to_string(),
        v["range"]["start"]["line"].as_u64().unwrap() as u32,
    )
}

#[test]
fn definitions_across_formats() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    let market = r#"{
  "name": "tools",
  "owner": {"name": "Platform"},
  "plugins": [
    {"name": "reviewer", "source": "./plugins/reviewer", "description": "Reviews."}
  ]
}
"#;
    write(&root, ".claude-plugin/marketplace.json", market);
    write(
        &root,
        "plugins/reviewer/.claude-plugin/plugin.json",
        "{\n  \"name\": \"reviewer\",\n  \"description\": \"Reviews diffs.\"\n}\n",
    );
    let agent = "---\nname: auditor\ndescription: Audits tests.\nskills: [audit]\n---\nAudit.\n";
    write(&root, "plugins/reviewer/agents/auditor.md", agent);
    write(
        &root,
        "plugins/reviewer/skills/audit/SKILL.md",
        "---\nname: audit\ndescription: Audits the tests of a diff.\n---\n# Audit\n",
    );
    let triage = "spec_version: 1\nname: triage\ndescription: Triage.\ninstructions: Triage.\noutput:\n  kind: type_ref\n  ref: app.models:Answer\ncapabilities:\n  - kind: a2a\n    agent: oncall\npolicies:\n  max_iterations: 5\n";
    write(&root, "agents/triage/agent.yaml", triage);
    write(
        &root,
        "agents/oncall/agent.yaml",
        "spec_version: 1\nname: oncall\ndescription: On call.\ninstructions: Page.\noutput:\n  kind: type_ref\n  ref: app.models:Answer\npolicies:\n  max_iterations: 5\n",
    );
    let mut c = Client::start(&root);
    let uri = |rel: &str| skein::server::path_to_uri(&root.join(rel)).to_string();

    // The first analysis may still run (a clean tree publishes nothing):
    // ask until there is an answer.
    let (l, ch) = at(market, "./plugins/reviewer", 3);
    let mut d = Value::Null;
    for _ in 0..600 {
        d = c.definition(&root.join(".claude-plugin/marketplace.json"), l, ch);
        if !d.is_null() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        target(&d).0,
        uri("plugins/reviewer/.claude-plugin/plugin.json")
    );

    let (l, ch) = at(agent, "audit]", 1);
    let d = c.definition(&root.join("plugins/reviewer/agents/auditor.md"), l, ch);
    assert_eq!(
        target(&d),
        (uri("plugins/reviewer/skills/audit/SKILL.md"), 1)
    );

    let (l, ch) = at(triage, "oncall", 2);
    let d = c.definition(&root.join("agents/triage/agent.yaml"), l, ch);
    assert_eq!(target(&d).0, uri("agents/oncall/agent.yaml"));

    // Hover on the agent's skill: the skill's description.
    let (l, ch) = at(agent, "audit]", 1);
    let h = c.request(
        "textDocument/hover",
        json!({
            "textDocument": {"uri": uri("plugins/reviewer/agents/auditor.md")},
            "position": {"line": l, "character": ch},
        }),
    );
    assert_eq!(
        h["contents"]["value"],
        "skill `audit` (plugins/reviewer/skills/audit/SKILL.md)\n\nAudits the tests of a diff."
    );

    // The marketplace's outline: the marketplace and its entry.
    let s = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(".claude-plugin/marketplace.json")}}),
    );
    let names: Vec<String> = s
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| {
            let mut v = vec![s["name"].as_str().unwrap().to_string()];
            for k in s["children"].as_array().into_iter().flatten() {
                v.push(format!("  {}", k["name"].as_str().unwrap()));
            }
            v
        })
        .collect();
    assert_eq!(names, ["tools", "  reviewer"]);
}

#[test]
fn a_finding_in_a_markdown_body_is_suppressed_with_an_html_comment() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    let skill = "---\nname: review\ndescription: Reviews a diff.\n---\n# Review\n\n  See [the guide](missing.md).\n";
    write(&root, "skills/review/SKILL.md", skill);
    let path = root.join("skills/review/SKILL.md");
    let mut c = Client::start(&root);
    let diags = c.diagnostics(&path);
    let broken = diags
        .iter()
        .find(|d| d.message.contains("missing.md"))
        .expect("a broken link finding");
    let code = match &broken.code {
        Some(lsp::NumberOrString::String(s)) => s.clone(),
        other => panic!("code {other:?}"),
    };
    let actions = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": skein::server::path_to_uri(&path)},
            "range": broken.range,
            "context": {"diagnostics": []},
        }),
    );
    let a = &actions.as_array().unwrap()[0];
    assert_eq!(a["title"], format!("suppress {code} here with a reason"));
    let edit = &a["edit"]["changes"][skein::server::path_to_uri(&path).as_str()][0];
    assert_eq!(
        edit["newText"],
        format!("  <!-- skein: ignore[{code}] reason: why this finding is accepted -->\n")
    );
    assert_eq!(edit["range"]["start"], json!({"line": 6, "character": 0}));
}

/// `skein server` as an editor starts it, with `input` on its standard
/// input (then closed): its exit code, standard output and standard error.
fn server_process(input: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let _bound = skein_test_support::Watchdog::start("skein server", Duration::from_secs(120));
    let mut child = Command::new(env!("CARGO_BIN_EXE_skein"))
        .arg("server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("skein runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // The server may stop reading before the end (that is the point of
    // most of these inputs): a broken pipe here is expected.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().expect("skein ends");
    (
        out.status.code(),
        out.stdout,
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    )
}

fn framed(json: &Value) -> Vec<u8> {
    let body = json.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// A whole session, framed: initialize (id 1), initialized, shutdown
/// (id 2), exit.
fn whole_session() -> Vec<u8> {
    [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
        json!({"jsonrpc": "2.0", "method": "exit"}),
    ]
    .iter()
    .flat_map(framed)
    .collect()
}

#[test]
fn a_session_over_stdio_ends_with_status_zero() {
    let input = whole_session();
    let (code, stdout, stderr) = server_process(&input);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    // Two framed responses: initialize's, then shutdown's `null`.
    let mut out = std::io::Cursor::new(stdout);
    let mut ids = Vec::new();
    while let Some(msg) = Message::read(&mut out).expect("framed output") {
        let Message::Response(r) = msg else {
            panic!("not a response: {msg:?}")
        };
        assert!(r.response_result.is_ok(), "{r:?}");
        ids.push(r.id);
    }
    assert_eq!(ids, [RequestId::from(1), RequestId::from(2)]);
}

/// The framed bodies of `out` as JSON values.
fn frames(out: &[u8]) -> Vec<Value> {
    let mut rest = out;
    let mut values = Vec::new();
    while !rest.is_empty() {
        let text = std::str::from_utf8(rest).expect("UTF-8 output");
        let (head, body) = text.split_once("\r\n\r\n").expect("a header");
        let n: usize = head
            .strip_prefix("Content-Length: ")
            .expect("Content-Length")
            .parse()
            .expect("a length");
        values.push(serde_json::from_str(&body[..n]).expect("a JSON body"));
        rest = &rest[head.len() + 4 + n..];
    }
    values
}

#[test]
fn a_body_that_is_not_a_message_is_answered_with_an_error_and_the_session_goes_on() {
    let mut input = Vec::new();
    input.extend(b"Content-Length: 9\r\n\r\n{not json");
    input.extend(b"Content-Length: 2\r\n\r\n[]");
    input.extend(whole_session());
    let (code, stdout, stderr) = server_process(&input);
    assert_eq!(
        (code, stderr.as_str()),
        (
            Some(0),
            "skein server: a message body that is not JSON: key must be a string at line 1 column 2; answered with error -32700\n\
             skein server: a message that is not JSON-RPC: data did not match any variant of untagged enum Message; answered with error -32600\n"
        )
    );
    // The errors in the order of their bodies, the responses in theirs;
    // the two streams may interleave.
    let out = frames(&stdout);
    let (errors, responses): (Vec<&Value>, Vec<&Value>) =
        out.iter().partition(|v| v["id"].is_null());
    let codes: Vec<&Value> = errors.iter().map(|v| &v["error"]["code"]).collect();
    assert_eq!(codes, [&json!(-32700), &json!(-32600)]);
    let ids: Vec<&Value> = responses.iter().map(|v| &v["id"]).collect();
    assert_eq!(ids, [&json!(1), &json!(2)]);
    assert!(responses.iter().all(|v| v.get("error").is_none()));
    assert_eq!(
        errors[0]["error"]["message"],
        "a message body that is not JSON: key must be a string at line 1 column 2"
    );
}

#[test]
fn a_content_length_over_the_limit_is_an_error_not_an_allocation() {
    let (code, stdout, stderr) = server_process(b"Content-Length: 99999999999999\r\n\r\n{}");
    assert_eq!(code, Some(2));
    assert!(stdout.is_empty());
    assert_eq!(
        stderr,
        "skein: error: language server input/output: Content-Length 99999999999999 is over the limit of 67108864 bytes (64 MiB): not read\n"
    );
    assert_eq!(skein::server::MAX_MESSAGE, 64 << 20);
    // One byte over the limit is refused; the limit itself is read (the
    // input then ends inside the message).
    let (code, _, stderr) = server_process(b"Content-Length: 67108865\r\n\r\n{}");
    assert_eq!(
        (code, stderr.as_str()),
        (
            Some(2),
            "skein: error: language server input/output: Content-Length 67108865 is over the limit of 67108864 bytes (64 MiB): not read\n"
        )
    );
    let (code, _, stderr) = server_process(b"Content-Length: 67108864\r\n\r\n{}");
    assert_eq!(
        (code, stderr.as_str()),
        (
            Some(2),
            "skein: error: language server input/output: the input ended inside a message: 2 of its 67108864 bytes\n"
        )
    );
}

#[test]
fn input_that_is_not_the_protocol_is_said_once() {
    for (input, message) in [
        (
            &b"garbage\n"[..],
            r#"malformed message header "garbage\n": each header line ends with \r\n"#,
        ),
        (
            b"Content-Length 2\r\n\r\n{}",
            r#"malformed message header "Content-Length 2": a header is `Name: value`"#,
        ),
        (
            b"Content-Length: two\r\n\r\n{}",
            r#"Content-Length "two" is not a number of bytes"#,
        ),
        (
            b"Content-Type: x\r\n\r\n{}",
            "a message header without Content-Length",
        ),
        (
            b"Content-Length: 2\r\n",
            "the input ended inside a message header",
        ),
    ] {
        let (code, _, stderr) = server_process(input);
        assert_eq!(
            (code, stderr),
            (
                Some(2),
                format!("skein: error: language server input/output: {message}\n")
            ),
            "{}",
            String::from_utf8_lossy(input)
        );
    }
    let long = format!("X-{}: y\r\n", "a".repeat(2000));
    let (code, _, stderr) = server_process(long.as_bytes());
    assert_eq!(
        (code, stderr.as_str()),
        (
            Some(2),
            "skein: error: language server input/output: a message header line is longer than 1024 bytes\n"
        )
    );
}

/// The "suppress in skein.toml" action of a finding in `.mcp.json`.
fn json_suppression(c: &mut Client, path: &Path) -> Value {
    let diags = c.diagnostics(path);
    let mcp004 = diags
        .iter()
        .find(|d| d.code == Some(lsp::NumberOrString::String("MCP004".into())))
        .expect("an MCP004 finding");
    let actions = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": skein::server::path_to_uri(path)},
            "range": mcp004.range,
            "context": {"diagnostics": []},
        }),
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(
        actions[0]["title"],
        "suppress MCP004 in skein.toml with a reason"
    );
    actions[0]["edit"].clone()
}

const MCP: &str = "{\n  \"mcpServers\": {\n    \"ok\": {\"command\": \"npx\"},\n    \"local\": {\"type\": \"stdio\", \"args\": [\"server.js\"]}\n  }\n}\n";

/// The capabilities of a client that applies `create` resource operations.
static CREATES_FILES: std::sync::LazyLock<Value> = std::sync::LazyLock::new(
    || json!({"workspace": {"workspaceEdit": {"documentChanges": true, "resourceOperations": ["create"]}}}),
);

#[test]
fn a_json_finding_without_a_config_is_suppressed_in_a_new_skein_toml() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(&root, ".mcp.json", MCP);
    let path = root.join(".mcp.json");
    let mut c = Client::start_with(&root, CREATES_FILES.clone());
    let edit = json_suppression(&mut c, &path);
    let config = skein::server::path_to_uri(&root.join("skein.toml"));
    assert_eq!(
        edit,
        json!({"documentChanges": [
            {"kind": "create", "uri": config.as_str(), "options": {"overwrite": false, "ignoreIfExists": true}},
            {"textDocument": {"uri": config.as_str(), "version": null}, "edits": [{
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "newText": "[[ignore]]\npath = \".mcp.json\"\npointer = \"/mcpServers/local\"\nrule = \"MCP004\"\nreason = \"reason: why this finding is accepted\"\n",
            }]},
        ]})
    );
}

#[test]
fn a_json_finding_is_suppressed_in_the_inline_ignore_array_and_the_entry_applies() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    let config_text =
        "fail-on = \"warning\"\nignore = [\"SKILL006\"]\n\n[severity]\nREF004 = \"error\"\n";
    write(&root, "skein.toml", config_text);
    write(&root, "tools/[id]/.mcp.json", MCP);
    let path = root.join("tools/[id]/.mcp.json");
    let mut c = Client::start(&root);
    let edit = json_suppression(&mut c, &path);
    let config = root.join("skein.toml");
    let uri = skein::server::path_to_uri(&config);
    let entry = "{ path = \"tools/[[]id[]]/.mcp.json\", pointer = \"/mcpServers/local\", rule = \"MCP004\", reason = \"reason: why this finding is accepted\" }, ";
    assert_eq!(
        edit,
        json!({"changes": {uri.as_str(): [{
            "range": {"start": {"line": 1, "character": 10}, "end": {"line": 1, "character": 10}},
            "newText": entry,
        }]}})
    );
    // Applied and saved, the entry suppresses the finding.
    let applied = config_text.replacen("ignore = [", &format!("ignore = [{entry}"), 1);
    std::fs::write(&config, applied).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri.as_str(), "type": 2}]}),
    );
    assert_eq!(c.diagnostics(&path), []);
}

#[test]
fn without_create_support_no_action_offers_a_new_skein_toml() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(&root, ".mcp.json", MCP);
    let path = root.join(".mcp.json");
    // No `resourceOperations` at all, or without `create`, or no
    // `documentChanges`: a `create` operation is not sent.
    for capabilities in [
        json!({}),
        json!({"workspace": {"workspaceEdit": {"documentChanges": true, "resourceOperations": ["rename"]}}}),
        json!({"workspace": {"workspaceEdit": {"resourceOperations": ["create"]}}}),
    ] {
        let mut c = Client::start_with(&root, capabilities.clone());
        let diags = c.diagnostics(&path);
        let mcp004 = diags
            .iter()
            .find(|d| d.code == Some(lsp::NumberOrString::String("MCP004".into())))
            .expect("an MCP004 finding");
        let actions = c.request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": skein::server::path_to_uri(&path)},
                "range": mcp004.range,
                "context": {"diagnostics": []},
            }),
        );
        assert_eq!(actions, json!([]), "{capabilities}");
    }
}
