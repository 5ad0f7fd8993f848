//! Loopmaster manifests (`shared/formats/loopmaster-loop-spec-v0.1.md`,
//! Loopmaster loop.yaml Specification v0.1): a node per manifest and its
//! lifecycle.

use super::{EdgeKind, GEdge, NodeKind, RepoGraph};
use crate::decode::Artifact;
use crate::models;
use serde_json::Value;

/// The lifecycle of a Loopmaster manifest (spec v0.1 §10): a run retried on
/// failure up to `failure_policy.retry` times (a required integer, so always
/// capped).
pub(super) fn lifecycle(g: &mut RepoGraph, a: &Artifact, m: &models::LoopmasterManifest) {
    let n = g.add(
        NodeKind::LoopManifest,
        m.id.value.clone(),
        a.file,
        m.id.span,
    );
    let cap = m
        .failure_policy
        .as_ref()
        .and_then(|f| f.get("retry"))
        .and_then(Value::as_u64);
    if let Some(cap) = cap {
        g.graph.add_edge(
            n,
            n,
            GEdge::new(
                EdgeKind::Revise,
                a.file,
                m.id.span,
                Some("retry".into()),
                Some(cap),
            ),
        );
    }
}
