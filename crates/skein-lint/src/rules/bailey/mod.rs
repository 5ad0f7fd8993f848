//! BAILEY: Bailey solution documents (`assistant.json`, format 0.1;
//! `shared/formats/bailey-assistant.schema.json`), the statements of the
//! schema's descriptions that JSON Schema cannot hold: members that may not
//! repeat or overlap, paths that must follow the entry's name, and the link
//! with the plugin's `plugin.json`. References to skills, files and MCP
//! servers are REF002, REF006 and PERM002.

pub mod assistant_name_mismatch;
pub mod assistant_not_named;
pub mod duplicate_knowledge_slot;
pub mod instructions_also_a_skill;
pub mod skill_path_not_name;
pub mod sold_separately_but_carried;
pub mod write_tool_not_declared;

use skein_model::{Artifact, Model, models::BaileyAssistant};
use skein_syntax::{Document, NodeId, Span};

/// The assistant's model, document and root mapping.
pub(crate) fn assistant(a: &Artifact) -> Option<(&BaileyAssistant, &Document, NodeId)> {
    // A tree repaired around a syntax error or a depth cut is not what
    // the author wrote.
    if a.damaged {
        return None;
    }
    let Model::BaileyAssistant(b) = &a.model else {
        return None;
    };
    let doc = &a.document;
    let root = doc.root()?;
    Some((b, doc, root))
}

/// The strings of array `key` in mapping `m`, with their spans.
pub(crate) fn strings<'a>(doc: &'a Document, m: NodeId, key: &str) -> Vec<(&'a str, Span)> {
    doc.get(m, key)
        .and_then(|v| doc.items(v))
        .unwrap_or_default()
        .iter()
        .filter_map(|&i| Some((doc.as_str(i)?, doc.node(i).span)))
        .collect()
}

/// The plugin manifest beside `assistant.json` (the plugin root): its path
/// among `plugin.json` and `.claude-plugin/plugin.json`, if one is an artifact.
pub(crate) fn plugin_manifest<'a>(cx: &'a crate::Context, dir: &str) -> Option<&'a Artifact> {
    ["plugin.json", ".claude-plugin/plugin.json"]
        .iter()
        .find_map(|name| {
            cx.artifact_at(&format!("{dir}{name}"))
                .filter(|a| matches!(a.model, Model::Plugin(_)))
        })
}
