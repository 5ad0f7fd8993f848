//! SEC019 `sandbox-socket-escape`.

use crate::rules::settings::settings_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Document, NodeId, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC019",
    name: "sandbox-socket-escape",
    severity: Severity::Warning,
    summary: "committed project settings let sandboxed commands reach the Docker daemon's socket, or every Unix socket",
    doc: include_str!("sandbox_socket_escape.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::ClaudeSettings]),
};

/// Whether a socket path is a container engine's control socket: whoever
/// talks to it starts containers that mount the host.
fn is_engine_socket(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(
        name,
        "docker.sock" | "podman.sock" | "containerd.sock" | "crio.sock" | "buildkitd.sock"
    )
}

fn network(doc: &Document, root: NodeId) -> Option<NodeId> {
    doc.get(root, "sandbox")
        .and_then(|s| doc.get(s, "network"))
        .filter(|&n| matches!(doc.kind(n), NodeKind::Mapping(_)))
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    // `settings.local.json` is the user's own, never committed.
    if cx.path(a.file).ends_with("settings.local.json") {
        return Vec::new();
    }
    let Some((doc, root)) = settings_of(a) else {
        return Vec::new();
    };
    let Some(net) = network(doc, root) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(all) = doc.get(net, "allowAllUnixSockets")
        && matches!(doc.kind(all), NodeKind::Bool(true))
    {
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(all).span,
                "project settings let sandboxed commands connect to every Unix socket",
            )
            .with_label("includes the Docker daemon's socket, where it runs")
            .with_note("a command that can reach `/var/run/docker.sock` starts a container that mounts the host: the sandbox no longer confines it")
            .with_help("list only the sockets a tool needs in `sandbox.network.allowUnixSockets`, in your user settings"),
        );
    }
    for &item in doc
        .get(net, "allowUnixSockets")
        .and_then(|l| doc.items(l))
        .unwrap_or_default()
    {
        let Some(path) = doc.as_str(item) else {
            continue;
        };
        if !is_engine_socket(path) {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(item).span,
                format!(
                    "project settings let sandboxed commands connect to {}, a container engine's control socket",
                    quote(path)
                ),
            )
            .with_label("controls the container daemon")
            .with_note("a sandboxed command can ask the daemon for a container that mounts `/` of the host, outside every sandbox rule")
            .with_help("remove it from the committed settings; a user who needs it can allow it in `~/.claude/settings.json`"),
        );
    }
    out
}
