//! OPENCODE: OpenCode orchestration contracts (`contract.json`,
//! `*contract*.json`; `shared/formats/opencode-contract.schema.json`), the
//! statements of the schema's descriptions and formats that the embedded
//! schema does not check: counters bounded by their caps, `date-time` and
//! semantic-version values, lists that may not share an entry, tools both
//! required and blocked, and the model-change record. Skills are REF002,
//! writes against permissions PERM004, the retry cycle FLOW002.

pub mod in_both_lists;
pub mod invalid_contract_version;
pub mod invalid_date_time;
pub mod model_change_inconsistent;
pub mod parallel_not_eligible;
pub mod retry_attempt_over_cap;
pub mod tool_required_and_blocked;

use skein_model::{Artifact, Format};
use skein_syntax::{Document, NodeId, NodeKind};

/// The contract's document and root mapping.
pub(crate) fn contract(a: &Artifact) -> Option<(&Document, NodeId)> {
    // A tree repaired around a syntax error or a depth cut is not what
    // the author wrote.
    if a.damaged {
        return None;
    }
    if a.format != Format::OpenCodeContract {
        return None;
    }
    let doc = &a.document;
    let root = doc.root()?;
    doc.entries(root)?;
    Some((doc, root))
}

/// The value at a path of keys from `m`.
pub(crate) fn at(doc: &Document, m: NodeId, keys: &[&str]) -> Option<NodeId> {
    keys.iter().try_fold(m, |n, k| doc.get(n, k))
}

/// The value of an integer node.
pub(crate) fn int(doc: &Document, n: NodeId) -> Option<i64> {
    match doc.kind(n) {
        NodeKind::Number(x) => x.as_i64(),
        _ => None,
    }
}
