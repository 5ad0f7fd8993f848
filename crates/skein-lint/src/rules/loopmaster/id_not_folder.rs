//! LOOPMASTER002 `id-not-folder`.

use super::{manifest, str_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOPMASTER002",
    name: "id-not-folder",
    severity: Severity::Warning,
    summary: "a template `loop.yaml` whose `id` differs from its folder name",
    doc: include_str!("id_not_folder.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::LoopmasterManifest]),
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = manifest(a) else {
        return Vec::new();
    };
    let path = cx.path(a.file);
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or("");
    let Some(folder) = parts.next() else {
        return Vec::new(); // at the repository root: no template folder
    };
    let Some((v, id)) = str_of(doc, root, "id") else {
        return Vec::new();
    };
    if name != "loop.yaml" || id == folder {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(v).span,
            format!(
                "loop id {} does not match its template folder {}",
                quote(id),
                quote(folder)
            ),
        )
        .with_label(format!("the folder is {}", quote(folder)))
        .with_help(format!(
            "set `id: {folder}` or rename the folder to {}",
            quote(id)
        )),
    ]
}
