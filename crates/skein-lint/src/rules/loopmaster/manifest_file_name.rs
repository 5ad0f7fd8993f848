//! LOOPMASTER001 `manifest-file-name`.

use super::{manifest, str_of};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOPMASTER001",
    name: "manifest-file-name",
    severity: Severity::Error,
    summary: "a Loopmaster manifest not named `loop.yaml` or `<id>.loop.yaml`",
    doc: include_str!("manifest_file_name.md"),
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
    let name = path.rsplit('/').next().unwrap_or(path);
    let id = str_of(doc, root, "id");
    let text = cx.sources.get(a.file).text();
    let first_line = Span::new(0, text.find('\n').unwrap_or(text.len()));
    let (span, message, help) = if name == "loop.yml" {
        (
            first_line,
            format!("manifest file {} is not named `loop.yaml`", quote(name)),
            "rename it to `loop.yaml`".to_string(),
        )
    } else if let Some(stem) = name.strip_suffix(".loop.yml") {
        (
            first_line,
            format!("manifest file {} does not end in `.loop.yaml`", quote(name)),
            format!("rename it to `{stem}.loop.yaml`"),
        )
    } else if let (Some(stem), Some((v, id))) = (name.strip_suffix(".loop.yaml"), id) {
        if stem == id {
            return Vec::new();
        }
        (
            doc.node(v).span,
            format!(
                "manifest file {} is not named after its id {}",
                quote(name),
                quote(id)
            ),
            format!("rename the file to `{id}.loop.yaml`, or set `id: {stem}`"),
        )
    } else if name.ends_with(".loop.yaml") || name == "loop.yaml" {
        return Vec::new();
    } else {
        let stem = id.map_or("<id>", |(_, id)| id);
        (
            first_line,
            format!(
                "manifest file {} is neither `loop.yaml` nor `<id>.loop.yaml`",
                quote(name)
            ),
            format!(
                "rename it to `loop.yaml` (a template) or `{stem}.loop.yaml` (a maintenance loop)"
            ),
        )
    };
    vec![
        Diagnostic::new(RULE, a.file, span, message)
            .with_label("Loopmaster looks for `loop.yaml` or `<id>.loop.yaml`")
            .with_help(help),
    ]
}
