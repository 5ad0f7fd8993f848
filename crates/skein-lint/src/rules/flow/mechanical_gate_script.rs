//! FLOW009 `mechanical-gate-script`.

use crate::{Context, Pass};
use skein_model::graph::join;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "FLOW009",
    name: "mechanical-gate-script",
    severity: Severity::Error,
    summary: "a mechanical gate without a script, a script on another gate, or a missing script",
    doc: "## What it does\nChecks the `script` of skilldrop gates: a gate of kind `mechanical` \
must name one, a gate of any other kind must not, and the script must exist in the repository. \
skilldrop script paths are repository-relative, the repository being the folder that holds \
`packs/` and `contracts/`; when that folder is itself inside the analyzed tree (a skilldrop \
repository vendored in a subfolder), the path is looked up relative to it first, then relative \
to the analyzed root, and it is missing only when neither exists.\n\n## Why is this bad?\nA \
mechanical gate is decided by a script's exit code. Without a script (or with a path that does \
not exist) the gate cannot be decided and the loop stops at it, or an agent decides in the \
script's place, which is exactly what a mechanical gate exists to prevent. A script on a review \
or human gate says the opposite of its `kind`: nobody knows whether the script or the reviewer \
decides (skilldrop: \"Required when kind is mechanical, forbidden otherwise\").\n\n## Example\n\
```json\n\"gate\": {\"id\": \"G2\", \"kind\": \"mechanical\", \"verdicts\": [\"READY\", \"NOT READY\", \
\"BLOCKED\"], \"revise_to\": \"implement\"}\n```\nUse instead: `\"script\": \
\"packs/dev-team/skills/pre-merge-review/scripts/gate.py\"`, a file that exists.\n\n\
## Known problems\nA script that the walk does not see (ignored by `.gitignore`, or generated \
at build time) is reported as missing. Paths that climb out of the repository with `..` are \
never found.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for l in cx.graph.loops() {
        let path = cx.path(l.file);
        // The skilldrop repository: the folder that holds `packs/`.
        let prefix = if path.starts_with("packs/") {
            Some("")
        } else {
            path.find("/packs/").map(|i| &path[..=i])
        };
        for gate in l.gates.iter().flatten() {
            let Some(kind) = &gate.kind else { continue };
            let mechanical = kind.value == "mechanical";
            match (&gate.script, mechanical) {
                (None, true) => out.push(
                    Diagnostic::new(
                        RULE,
                        l.file,
                        kind.span,
                        format!("mechanical gate {} has no `script`", quote(&gate.id.value)),
                    )
                    .with_label("a mechanical gate is decided by a script")
                    .with_help(
                        "add `script`: the repository-relative path of the script whose exit \
                         code decides the gate; or use kind `review` or `human`",
                    ),
                ),
                (Some(script), false) => out.push(
                    Diagnostic::new(
                        RULE,
                        l.file,
                        script.span,
                        format!(
                            "gate {} of kind {} has a `script`; only mechanical gates have one",
                            quote(&gate.id.value),
                            quote(&kind.value)
                        ),
                    )
                    .with_label("a script on a gate that a script does not decide")
                    .with_secondary(l.file, kind.span, "the gate's kind")
                    .with_help("remove `script`, or make the gate `\"kind\": \"mechanical\"`"),
                ),
                (Some(script), true) => {
                    let mut tried: Vec<String> = Vec::new();
                    if let Some(p) = prefix.filter(|p| !p.is_empty()) {
                        tried.extend(join(p, &script.value));
                    }
                    tried.extend(join("", &script.value));
                    tried.dedup();
                    if tried.iter().any(|t| cx.repo_files.contains(t)) {
                        continue;
                    }
                    let looked: Vec<String> = tried.iter().map(|t| code(t)).collect();
                    let mut d = Diagnostic::new(
                        RULE,
                        l.file,
                        script.span,
                        format!(
                            "script {} of mechanical gate {} does not exist",
                            quote(&script.value),
                            quote(&gate.id.value)
                        ),
                    )
                    .with_label("no such file in the repository");
                    d = if looked.is_empty() {
                        d.with_note("the path climbs out of the repository")
                    } else {
                        d.with_note(format!("looked for {}", looked.join(" and ")))
                    };
                    // A file of that path under a deeper folder (a layout move)?
                    let tail = join("", &script.value).map(|t| format!("/{t}"));
                    let base = prefix.unwrap_or("");
                    let moved = tail.as_ref().and_then(|tail| {
                        cx.repo_files
                            .iter()
                            .filter(|f| f.starts_with(base) && f.ends_with(tail.as_str()))
                            .map(|f| &f[base.len()..])
                            .next()
                    });
                    out.push(match moved {
                        Some(m) => d.with_help(format!(
                            "script paths are relative to the folder that holds `packs/`; \
                             did you mean {}?",
                            code(m)
                        )),
                        None => d.with_help(
                            "script paths are relative to the folder that holds `packs/`; \
                             fix the path or add the script",
                        ),
                    });
                }
                (None, false) => {}
            }
        }
    }
    out
}

/// A repository path in backticks, never shortened (unlike `quote`: a path
/// cut in the middle cannot be looked up).
fn code(path: &str) -> String {
    format!("`{path}`")
}
