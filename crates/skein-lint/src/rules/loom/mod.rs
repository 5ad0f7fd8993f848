//! LOOM: Loom AgentSpec v1 (`*.agent.yaml`, `agent.yaml`;
//! `shared/formats/loom-agent-spec-v1.schema-emitter.py.txt`), the
//! statements of the schema's descriptions that JSON Schema cannot hold:
//! fields that exclude each other, templates that may name only declared
//! state, use-case keys that may not also be granted, inert policies, model
//! roles, skill libraries and unique names. Delegation (`a2a`) is REF003 and
//! FLOW002.

pub mod deps_type_and_schema;
pub mod duplicate_loom_agent;
pub mod literal_braces;
pub mod missing_skills_library;
pub mod model_id_as_role;
pub mod undeclared_template_name;
pub mod unpriced_spend_without_cap;
pub mod usecase_hook_granted;

use skein_model::{Artifact, Format};
use skein_syntax::{Document, NodeId};

/// The spec's document and root mapping, for a Loom AgentSpec.
pub(crate) fn spec(a: &Artifact) -> Option<(&Document, NodeId)> {
    // A tree repaired around a syntax error or a depth cut is not what
    // the author wrote.
    if a.damaged {
        return None;
    }
    if a.format != Format::LoomAgentSpec {
        return None;
    }
    let doc = &a.document;
    let root = doc.root()?;
    doc.entries(root)?;
    Some((doc, root))
}

/// The instruction blocks: (text node, template given?), for the string
/// form (one literal block) and the list form.
pub(crate) fn blocks(doc: &Document, root: NodeId) -> Vec<(NodeId, bool)> {
    let Some(instr) = doc.get(root, "instructions") else {
        return Vec::new();
    };
    if doc.as_str(instr).is_some() {
        return vec![(instr, false)];
    }
    doc.items(instr)
        .unwrap_or_default()
        .iter()
        .filter_map(|&b| {
            let text = doc.get(b, "text")?;
            doc.as_str(text)?;
            Some((text, doc.get(b, "template").is_some()))
        })
        .collect()
}
