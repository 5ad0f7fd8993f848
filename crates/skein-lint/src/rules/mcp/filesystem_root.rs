//! MCP014 `filesystem-root`.

use super::mcp_file;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP014",
    name: "filesystem-root",
    severity: Severity::Warning,
    summary: "a filesystem MCP server is given the whole disk or the whole home directory",
    doc: include_str!("filesystem_root.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// Whether `dir` is the filesystem root or a home directory itself.
pub(crate) fn too_broad(dir: &str) -> bool {
    let d = dir.trim_end_matches(['/', '\\']);
    if d.is_empty() {
        return dir.starts_with('/') || dir.starts_with('\\');
    }
    if matches!(
        d,
        "~" | "$HOME"
            | "${HOME}"
            | "${env:HOME}"
            | "{env:HOME}"
            | "${userHome}"
            | "%USERPROFILE%"
            | "${env:USERPROFILE}"
    ) {
        return true;
    }
    let lower = d.to_ascii_lowercase();
    if lower.len() == 2 && lower.ends_with(':') {
        return true; // `C:`
    }
    let parts: Vec<&str> = d.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        ["Users" | "home", _] if d.starts_with('/') => true,
        [drive, "Users", _] if drive.ends_with(':') => true,
        ["root"] if d.starts_with('/') => true,
        _ => false,
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    let doc = f.doc;
    let mut out = Vec::new();
    for s in &f.servers {
        let mut words = Vec::new();
        for key in ["command", "args"] {
            if let Some(n) = doc.get(s.node, key) {
                match doc.items(n) {
                    Some(items) => words.extend(items.iter().copied()),
                    None => words.push(n),
                }
            }
        }
        let Some(at) = words.iter().position(|&n| {
            doc.as_str(n)
                .is_some_and(|t| t.contains("server-filesystem") || t.contains("mcp-filesystem"))
        }) else {
            continue;
        };
        for &n in &words[at + 1..] {
            let Some(dir) = doc.as_str(n) else {
                continue;
            };
            if too_broad(dir) {
                out.push(
                    Diagnostic::new(
                        RULE,
                        a.file,
                        doc.node(n).span,
                        format!(
                            "filesystem MCP server {} may read and write all of {}",
                            quote(&s.name),
                            quote(dir)
                        ),
                    )
                    .with_label("the whole disk or home directory, with its keys and credentials")
                    .with_help("give the server only the project folders it needs"),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::too_broad;

    #[test]
    fn dirs() {
        for d in [
            "/",
            "~",
            "~/",
            "/Users/alice",
            "/home/bob/",
            "C:\\Users\\carol",
            "$HOME",
            "C:\\",
        ] {
            assert!(too_broad(d), "{d}");
        }
        for d in [
            "/Users/alice/projects/app",
            ".",
            "./data",
            "/tmp/x",
            "${workspaceFolder}",
        ] {
            assert!(!too_broad(d), "{d}");
        }
    }
}
