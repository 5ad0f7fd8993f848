//! HOOK007 `missing-hook-script`.

use super::{Home, chars_of, hooks_of, scan};
use crate::rules::refs::exists;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_model::graph::join;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK007",
    name: "missing-hook-script",
    severity: Severity::Error,
    summary: "a hook command runs a script that is not in the repository",
    doc: include_str!("missing_hook_script.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// Programs that take the script to run as their first operand.
const INTERPRETERS: &[&str] = &[
    "bash", "sh", "zsh", "dash", "ksh", "python", "python3", "node", "bun", "deno", "ruby", "perl",
    "php", "pwsh", "tsx", "ts-node", "uv", "npx", "exec",
];

fn plugin_var(text: &str) -> Option<&str> {
    ["${CLAUDE_PLUGIN_ROOT}/", "$CLAUDE_PLUGIN_ROOT/"]
        .iter()
        .find_map(|p| text.strip_prefix(p))
}

fn project_var(text: &str) -> Option<&str> {
    ["${CLAUDE_PROJECT_DIR}/", "$CLAUDE_PROJECT_DIR/"]
        .iter()
        .find_map(|p| text.strip_prefix(p))
}

/// Whether `word` is a relative path a shell runs from the working
/// directory: it has a `/`, and is neither absolute nor home-relative, a
/// URL, an npm scope (`@scope/pkg`) or an installed package's binary.
fn bare_relative(word: &str) -> bool {
    word.contains('/')
        && !word.starts_with(['/', '~', '$', '@', '-'])
        && !word.starts_with("../")
        && !word.contains("://")
        && !word.starts_with("node_modules/")
        && !word.contains(|c: char| c.is_whitespace() || ";&|<>()'\"".contains(c))
}

/// The repo-relative file a command word names, when it is a path inside
/// the repository skein can resolve: `${CLAUDE_PLUGIN_ROOT}/...` in a
/// plugin's hooks, `$CLAUDE_PROJECT_DIR/...`, `./...` and other relative
/// paths (`scripts/x.sh`) in a project's settings and in the frontmatter of
/// a project's skills and agents (commands run in the project folder).
fn resolve(home: &Home, word: &str) -> Option<String> {
    let (dir, rest) = match home {
        Home::Plugin(root) => (root, plugin_var(word)?),
        Home::Project(dir)
        | Home::Component {
            project: Some(dir), ..
        } => (
            dir,
            project_var(word)
                .or_else(|| word.strip_prefix("./"))
                .or_else(|| bare_relative(word).then_some(word))?,
        ),
        Home::Component { project: None, .. } => return None,
    };
    // Anything the shell would still expand is not a fixed path.
    if rest.is_empty() || rest.contains(['$', '`', '*', '?', '[', '{', '~']) {
        return None;
    }
    join(dir, rest)
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let Some(c) = doc.get(handler, "command") else {
            continue;
        };
        let Some(chars) = chars_of(cx, a, c) else {
            continue;
        };
        let (_, words) = scan(&chars);
        // Skip `NAME=value` assignments before the program.
        let mut rest = words.iter().skip_while(|w| {
            w.text.split_once('=').is_some_and(|(n, _)| {
                !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        });
        let mut target = rest.next();
        // `bash x.sh`, `uv run x.py`, `npx tsx x.ts`: the script follows.
        while let Some(w) = target {
            let prog = w.text.rsplit('/').next().unwrap_or("");
            if INTERPRETERS.contains(&prog) || w.text == "run" {
                target = rest.find(|w| !w.text.starts_with('-'));
            } else {
                break;
            }
        }
        let Some(w) = target else { continue };
        let Some(file) = resolve(&h.home, &w.text) else {
            continue;
        };
        if exists(cx.repo_files, &file) {
            continue;
        }
        // A component's script beside the component, where the command
        // does not look (it runs in the project folder).
        let beside = match &h.home {
            Home::Component {
                project: Some(_), ..
            } => {
                let path = cx.path(a.file);
                let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
                join(dir, w.text.strip_prefix("./").unwrap_or(&w.text))
                    .filter(|f| exists(cx.repo_files, f))
            }
            _ => None,
        };
        let mut d = Diagnostic::new(
            RULE,
            a.file,
            w.span,
            format!("hook script {} does not exist", quote(&w.text)),
        )
        .with_label(format!(
            "resolves to {}, which is not in the repository",
            quote(&file)
        ))
        .with_help("add the script, or fix the path");
        if let Some(f) = beside {
            d = d.with_note(format!(
                "{} exists, but hook commands run in the project folder; write the path from there",
                quote(&f)
            ));
        }
        out.push(d);
    }
    out
}
