//! Safety (issue #7, DESIGN.md §2 invariants and §6 SEC): skein never runs
//! anything from the analyzed repository, never opens a network connection,
//! never prints a secret (in any output format, baselines included) and
//! never prints a path outside the analyzed root.

mod common;

use common::{skein, stdout, write};
use std::path::Path;

const FORMATS: &[&str] = &["human", "json", "sarif", "github", "concise"];

/// Every output of `skein check` on `dir` (each format, a written baseline)
/// and of `skein graph`, concatenated.
fn all_outputs(dir: &Path) -> String {
    let mut out = String::new();
    for f in FORMATS {
        let o = skein(&["check", "--format", f, "--color", "always"], dir);
        out.push_str(&stdout(&o));
        out.push_str(&String::from_utf8_lossy(&o.stderr));
    }
    let baseline = dir.join("baseline.json");
    let o = skein(&["check", "--write-baseline", "baseline.json"], dir);
    out.push_str(&String::from_utf8_lossy(&o.stderr));
    out.push_str(&std::fs::read_to_string(&baseline).expect("baseline written"));
    std::fs::remove_file(&baseline).expect("remove baseline");
    for f in ["dot", "mermaid"] {
        let o = skein(&["graph", ".", "--format", f], dir);
        out.push_str(&stdout(&o));
    }
    out
}

#[test]
fn nothing_from_the_repository_is_executed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let marks = tempfile::tempdir().expect("tempdir");
    let mark = |n: &str| marks.path().join(n).display().to_string();
    write(
        dir.path(),
        "packs/core/loops/ship/loop.json",
        "{\"name\": \"ship\", \"stages\": [{\"id\": \"build\", \"gate\": {\"id\": \"G1\", \"kind\": \"mechanical\", \"script\": \"scripts/gate.sh\", \"verdicts\": [\"PASS\", \"BLOCKED\"]}}]}\n",
    );
    write(
        dir.path(),
        "scripts/gate.sh",
        &format!("#!/bin/sh\ntouch {}\n", mark("gate")),
    );
    write(
        dir.path(),
        "plugin/hooks/hooks.json",
        &format!(
            "{{\"hooks\": {{\"SessionStart\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"touch {}\"}}]}}]}}}}\n",
            mark("hook")
        ),
    );
    write(
        dir.path(),
        ".mcp.json",
        &format!(
            "{{\"mcpServers\": {{\"x\": {{\"command\": \"sh\", \"args\": [\"-c\", \"touch {}\"]}}}}}}\n",
            mark("mcp")
        ),
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let gate = dir.path().join("scripts/gate.sh");
        std::fs::set_permissions(&gate, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let out = all_outputs(dir.path());
    assert!(out.contains("checked 3 files"), "{out}");
    for m in ["gate", "hook", "mcp"] {
        assert!(
            !marks.path().join(m).exists(),
            "the {m} command of the repository was run"
        );
    }
}

#[test]
fn no_network_connection_is_opened() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.set_nonblocking(true).expect("nonblocking");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        ".mcp.json",
        &format!(
            "{{\"$schema\": \"{url}/mcp.schema.json\", \"mcpServers\": {{\"remote\": {{\"type\": \"http\", \"url\": \"{url}/mcp\"}}}}}}\n"
        ),
    );
    write(
        dir.path(),
        "plugin/.claude-plugin/plugin.json",
        &format!("{{\"$schema\": \"{url}/plugin.schema.json\", \"name\": \"plugin\"}}\n"),
    );
    write(
        dir.path(),
        "opencode.json",
        &format!(
            "{{\"$schema\": \"{url}/config.json\", \"mcp\": {{\"r\": {{\"type\": \"remote\", \"url\": \"{url}/r\"}}}}}}\n"
        ),
    );
    write(
        dir.path(),
        "packs/core/loops/ship/loop.json",
        &format!(
            "{{\"$schema\": \"{url}/loop.schema.json\", \"$ref\": \"{url}/other.json\", \"name\": \"ship\", \"stages\": [{{\"$ref\": \"{url}/stage.json#/x\", \"id\": \"a\"}}]}}\n"
        ),
    );
    write(
        dir.path(),
        "agents/remote.agent.yaml",
        &format!(
            "spec_version: 1\nname: remote\n$ref: {url}/agent.json\ncapabilities:\n  - kind: mcp\n    url: {url}/k\n"
        ),
    );
    let out = all_outputs(dir.path());
    assert!(out.contains("checked 5 files"), "{out}");
    match listener.accept() {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        Ok((_, peer)) => panic!("skein connected to {url} (from {peer})"),
        Err(e) => panic!("accept failed: {e}"),
    }
}

/// A GitHub-shaped token built at run time (no secret in the source).
fn token() -> String {
    let body: String = "Q7vX2mK9pL4wR8tZ3nB6yH1cF5jD0sGaTu"
        .chars()
        .cycle()
        .take(36)
        .collect();
    format!("ghp_{body}")
}

#[test]
fn secrets_are_redacted_in_every_output() {
    let secret = token();
    let other = "Zr8Kq2Wm5Tn7Xc4Vb9Ld1Hs";
    let dir = tempfile::tempdir().expect("tempdir");
    // The same line holds the secret and a duplicate key: the SYN002
    // snippet shows the line, and must mask it too.
    write(
        dir.path(),
        ".mcp.json",
        &format!(
            "{{\"mcpServers\": {{\"gh\": {{\"command\": \"gh\", \"env\": {{\"GITHUB_TOKEN\": \"{secret}\", \"GITHUB_TOKEN\": \"{secret}\"}}}},\n  \"db\": {{\"command\": \"db\", \"env\": {{\"DB_API_KEY\": \"{other}\"}}}}}}}}\n"
        ),
    );
    let out = all_outputs(dir.path());
    assert!(!out.contains(&secret), "the token leaked");
    assert!(!out.contains(&secret[..20]), "a prefix of the token leaked");
    assert!(!out.contains(other), "the key leaked");
    assert!(!out.contains(&other[5..]), "a part of the key leaked");
    // What is shown instead.
    let o = skein(&["check", "--format", "concise"], dir.path());
    assert_eq!(
        stdout(&o),
        ".mcp.json:1:66: error[SEC001] hard-coded GitHub token in `env.GITHUB_TOKEN` of MCP server `gh`: `ghp_…(40 chars)` [hardcoded-secret]\n\
         .mcp.json:1:109: error[SYN002] duplicate key `GITHUB_TOKEN` [duplicate-key]\n\
         .mcp.json:1:126: error[SEC001] hard-coded GitHub token in `env.GITHUB_TOKEN` of MCP server `gh`: `ghp_…(40 chars)` [hardcoded-secret]\n\
         .mcp.json:2:50: error[SEC001] hard-coded secret in `env.DB_API_KEY` of MCP server `db`: `Zr8K…(23 chars)` [hardcoded-secret]\n\
         checked 1 file (mcp-config 1): 4 errors, 0 warnings, 0 infos\n"
    );
    let o = skein(&["check", "--color", "never"], dir.path());
    let human = stdout(&o);
    let masked = format!("ghp_{}", "*".repeat(36));
    assert!(
        human.contains(&format!(
            "\"GITHUB_TOKEN\": \"{masked}\", \"GITHUB_TOKEN\": \"{masked}\""
        )),
        "{human}"
    );
    assert!(
        human.contains(&format!("\"DB_API_KEY\": \"Zr8K{}\"", "*".repeat(19))),
        "{human}"
    );
    // Suppressed, the finding's secret is still masked in other snippets.
    write(dir.path(), "skein.toml", "ignore = [\"SEC001\"]\n");
    let o = skein(&["check", "--color", "never"], dir.path());
    let human = stdout(&o);
    assert!(
        human.contains("error[SYN002]: duplicate key `GITHUB_TOKEN`"),
        "{human}"
    );
    assert!(human.contains(&masked), "{human}");
    assert!(!human.contains(&secret), "{human}");
    let out = all_outputs(dir.path());
    assert!(!out.contains(&secret) && !out.contains(other));
}

/// Secrets in shapes the schema rejects (env as one string, headers as a
/// list, a value nested in an object, `-e NAME=value` arguments) and several
/// in one URL: each is found, and none is printed (a fresh user's trial
/// found the first four quoted whole by SCH001 messages).
#[test]
fn secrets_in_odd_shapes_are_found_and_redacted() {
    let g = token();
    let q = "MyR0CAAJLZHQwQchzpkEddhW";
    let dir = tempfile::tempdir().expect("tempdir");
    write(
        dir.path(),
        "a/.mcp.json",
        &format!(r#"{{"mcpServers":{{"a":{{"command":"x","env":"GITHUB_TOKEN={g}"}}}}}}"#),
    );
    write(
        dir.path(),
        "b/.mcp.json",
        &format!(
            r#"{{"mcpServers":{{"a":{{"url":"https://u:pw{q}@mcp.example.com/sse?api_key=K{q}&token=T{q}"}}}}}}"#
        ),
    );
    write(
        dir.path(),
        "c/.mcp.json",
        &format!(
            r#"{{"mcpServers":{{"a":{{"command":"x","headers":["Authorization: Bearer {q}{q}"],"env":{{"GITHUB_TOKEN":["{g}"],"X":{{"value":"{g}"}}}}}}}}}}"#
        ),
    );
    write(
        dir.path(),
        "d/.mcp.json",
        r#"{"mcpServers":{"a":{"command":"docker","args":["run","-e","API_KEY=hX9kQ2mZpL7vR4tW8yB3nC6d"]}}}"#,
    );
    let out = all_outputs(dir.path());
    for leak in [g.as_str(), &g[..20], q, "hX9kQ2mZpL7vR4tW8yB3nC6d"] {
        assert!(!out.contains(leak), "{leak} leaked");
    }
    let o = skein(&["check", "--format", "concise"], dir.path());
    let sec: Vec<String> = stdout(&o)
        .lines()
        .filter(|l| l.contains("[SEC001]"))
        .map(|l| l.split(": error").next().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        sec,
        [
            "a/.mcp.json:1:55",
            "b/.mcp.json:1:38",
            "b/.mcp.json:1:93",
            "b/.mcp.json:1:125",
            "c/.mcp.json:1:69",
            "c/.mcp.json:1:144",
            "c/.mcp.json:1:201",
            "d/.mcp.json:1:68",
        ]
    );
}

#[cfg(unix)]
#[test]
fn no_outside_path_in_any_output() {
    let outer = tempfile::tempdir().expect("tempdir");
    let dir = outer.path().join("work/repo");
    let outside = outer.path().join("outside");
    write(
        &outside,
        "SKILL.md",
        "---\nname: outside\ndescription: Outside.\n---\n",
    );
    write(
        &outside,
        "skills/x/SKILL.md",
        "---\nname: x\ndescription: X.\n---\n",
    );
    write(
        &dir,
        "plugins/p/.claude-plugin/plugin.json",
        "{\"name\": \"p\", \"skills\": [\"../../../../outside/skills\"]}\n",
    );
    write(
        &dir,
        "plugins/p/.mcp.json",
        "{\"mcpServers\": {\"s\": {\"command\": \"../../../../outside/bin/server\"}}}\n",
    );
    std::fs::create_dir_all(dir.join("skills/linked")).expect("mkdir");
    std::os::unix::fs::symlink("/etc/ssl", dir.join("skills/etc")).expect("symlink");
    std::os::unix::fs::symlink("/etc/passwd", dir.join("skills/linked/SKILL.md")).expect("symlink");
    std::os::unix::fs::symlink(outside.join("SKILL.md"), dir.join("skills/out.agent.yaml"))
        .expect("symlink");
    let out = all_outputs(&dir);
    assert!(out.contains("SEC002"), "{out}");
    assert!(out.contains("`../../../../outside/skills`"), "{out}");
    let outside_abs = outside.display().to_string();
    let outer_abs = outer.path().display().to_string();
    assert!(!out.contains(&outside_abs), "{out}");
    assert!(!out.contains(&outer_abs), "{out}");
    assert!(
        !out.contains("/etc/ssl") && !out.contains("/etc/passwd"),
        "{out}"
    );
    assert!(!out.contains("root:x:0"), "{out}");
}
