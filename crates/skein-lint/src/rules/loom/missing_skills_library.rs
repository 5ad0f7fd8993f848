//! LOOM006 `missing-skills-library`.

use super::spec;
use crate::rules::refs::{dir_of, exists};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOM006",
    name: "missing-skills-library",
    severity: Severity::Error,
    summary: "a Loom `skills` capability whose `./` library is not beside the spec",
    doc: include_str!("missing_skills_library.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::LoomAgentSpec]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = spec(a) else {
        return Vec::new();
    };
    let dir = dir_of(cx.path(a.file));
    let mut out = Vec::new();
    for &c in doc
        .get(root, "capabilities")
        .and_then(|c| doc.items(c))
        .unwrap_or_default()
    {
        if doc.get(c, "kind").and_then(|k| doc.as_str(k)) != Some("skills") {
            continue;
        }
        let Some(v) = doc.get(c, "library") else {
            continue;
        };
        let Some(lib) = doc.as_str(v) else { continue };
        // A bare name resolves against `ai.skills_root`, outside the repository's view.
        let Some(rel) = lib.strip_prefix("./") else {
            continue;
        };
        if rel.is_empty() || rel.contains('/') || rel == ".." || rel == "." {
            continue; // the schema's pattern reports it
        }
        let folder = format!("{dir}{rel}");
        if exists(cx.repo_files, &folder) {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(v).span,
                format!("skill library {} does not exist beside the spec", quote(lib)),
            )
            .with_label(format!("no folder `{folder}/`"))
            .with_help(format!(
                "add the library folder `{folder}/` (one `<skill>/SKILL.md` per skill), or write the bare name {} to resolve it against `ai.skills_root`",
                quote(rel)
            )),
        );
    }
    out
}
