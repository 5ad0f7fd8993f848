//! MCP013 `unpinned-package`.

use super::mcp_file;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, NodeId, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MCP013",
    name: "unpinned-package",
    severity: Severity::Info,
    summary: "a local MCP server is fetched from a package registry at whatever version is latest",
    doc: include_str!("unpinned_package.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// The runner's name, when `command` fetches and runs a package: npm's
/// `npx`, `bunx`, `pnpm dlx`, `yarn dlx`, Python's `uvx`, `pipx run`.
fn runner(command: &str, args: &[&str]) -> Option<(&'static str, usize)> {
    let base = command.rsplit(['/', '\\']).next().unwrap_or(command);
    let base = base.trim_end_matches(".cmd").trim_end_matches(".exe");
    match (base, args.first().copied()) {
        ("npx", _) => Some(("npm", 0)),
        ("bunx", _) => Some(("npm", 0)),
        ("pnpm" | "yarn", Some("dlx")) => Some(("npm", 1)),
        ("uvx", _) => Some(("pypi", 0)),
        ("pipx", Some("run")) => Some(("pypi", 1)),
        _ => None,
    }
}

/// Whether the package spec `spec` names a version.
fn pinned(ecosystem: &str, spec: &str) -> bool {
    match ecosystem {
        "npm" => {
            let name_end = if let Some(rest) = spec.strip_prefix('@') {
                rest.find('@').map(|i| i + 1)
            } else {
                spec.find('@')
            };
            match name_end {
                Some(i) => {
                    let v = &spec[i + 1..];
                    !v.is_empty()
                        && v != "latest"
                        && v != "next"
                        && v.starts_with(|c: char| {
                            c.is_ascii_digit() || c == '^' || c == '~' || c == '='
                        })
                }
                None => false,
            }
        }
        _ => {
            spec.contains("==")
                || spec
                    .split_once('@')
                    .is_some_and(|(_, v)| v.starts_with(|c: char| c.is_ascii_digit()))
        }
    }
}

/// The package argument: the first argument after the runner's that is
/// not a flag (and not the value of `--from`/`--package`/`-p`, which is then the package).
fn package(args: &[(NodeId, &str)], skip: usize) -> Option<(NodeId, String)> {
    let mut i = skip;
    while i < args.len() {
        let (n, a) = args[i];
        if matches!(a, "--package" | "-p" | "--from" | "--spec") {
            return args.get(i + 1).map(|&(n, a)| (n, a.to_string()));
        }
        if let Some(v) = a
            .strip_prefix("--package=")
            .or_else(|| a.strip_prefix("--from="))
        {
            return Some((n, v.to_string()));
        }
        if a.starts_with('-') {
            i += 1;
            continue;
        }
        return Some((n, a.to_string()));
    }
    None
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(f) = mcp_file(cx, a) else {
        return Vec::new();
    };
    let doc = f.doc;
    let mut out = Vec::new();
    for s in &f.servers {
        // `command` and `args`, or OpenCode's one `command` array.
        let mut words: Vec<(NodeId, &str)> = Vec::new();
        match doc.get(s.node, "command") {
            Some(c) if doc.as_str(c).is_some() => words.push((c, doc.as_str(c).unwrap_or(""))),
            Some(c) => words.extend(
                doc.items(c)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|&i| doc.as_str(i).map(|t| (i, t))),
            ),
            None => continue,
        }
        words.extend(
            doc.get(s.node, "args")
                .and_then(|x| doc.items(x))
                .unwrap_or_default()
                .iter()
                .filter_map(|&i| doc.as_str(i).map(|t| (i, t))),
        );
        let Some(&(_, command)) = words.first() else {
            continue;
        };
        let rest = &words[1..];
        let names: Vec<&str> = rest.iter().map(|&(_, t)| t).collect();
        let Some((eco, skip)) = runner(command, &names) else {
            continue;
        };
        let Some((node, spec)) = package(rest, skip) else {
            continue;
        };
        if spec.starts_with(['.', '/', '$', '{', '~']) || spec.contains("://") || pinned(eco, &spec)
        {
            continue;
        }
        let example = if eco == "npm" {
            format!("{spec}@1.2.3")
        } else {
            format!("{spec}==1.2.3")
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(node).span,
                format!(
                    "MCP server {} runs package {} at whatever version is latest",
                    quote(&s.name),
                    quote(&spec)
                ),
            )
            .with_label("no version: every start may fetch and run a new release")
            .with_help(format!("pin the version, e.g. {}", quote(&example))),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::pinned;

    #[test]
    fn versions() {
        assert!(pinned(
            "npm",
            "@modelcontextprotocol/server-github@2025.4.8"
        ));
        assert!(pinned("npm", "docs-mcp@1.2.0"));
        assert!(!pinned("npm", "@modelcontextprotocol/server-github"));
        assert!(!pinned("npm", "docs-mcp@latest"));
        assert!(pinned("pypi", "mcp-server-git==0.6.2"));
        assert!(!pinned("pypi", "mcp-server-git"));
    }
}
