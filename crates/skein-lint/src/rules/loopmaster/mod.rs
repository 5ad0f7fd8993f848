//! LOOPMASTER: Loopmaster loop manifests (`loop.yaml`, `<id>.loop.yaml`;
//! `shared/formats/loopmaster-loop-spec-v0.1.md`), the statements of the
//! v0.1 specification its schema cannot hold: the file name, the id and its
//! folder, the human gate, the trigger's fields. A family per format of
//! skein's own (LOOPMASTER, LOOM, OPENCODE, BAILEY) keeps each document's
//! rules together, so `select`/`ignore` can take a whole format; checks
//! shared by several formats stay in REF, FLOW and PERM.

pub mod id_not_folder;
pub mod manifest_file_name;
pub mod no_human_gate;
pub mod trigger_field_mismatch;

use skein_model::{Artifact, Format};
use skein_syntax::{Document, NodeId};

/// The manifest's document and root mapping, for a Loopmaster manifest.
pub(crate) fn manifest(a: &Artifact) -> Option<(&Document, NodeId)> {
    // A tree repaired around a syntax error or a depth cut is not what
    // the author wrote.
    if a.damaged {
        return None;
    }
    if a.format != Format::LoopmasterManifest {
        return None;
    }
    let doc = &a.document;
    let root = doc.root()?;
    doc.entries(root)?;
    Some((doc, root))
}

/// The string value of `key` in mapping `m`, with its node.
pub(crate) fn str_of<'a>(doc: &'a Document, m: NodeId, key: &str) -> Option<(NodeId, &'a str)> {
    let v = doc.get(m, key)?;
    Some((v, doc.as_str(v)?))
}
