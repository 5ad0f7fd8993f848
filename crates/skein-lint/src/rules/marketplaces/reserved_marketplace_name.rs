//! MKT006 `reserved-marketplace-name`.

use crate::{Context, Pass};
use skein_syntax::{Diagnostic, Document, NodeId, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "MKT006",
    name: "reserved-marketplace-name",
    severity: Severity::Error,
    summary: "a Claude Code marketplace named with a name reserved for official Anthropic marketplaces",
    doc: include_str!("reserved_marketplace_name.md"),
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

/// The names the marketplace documentation reserves.
const RESERVED: &[&str] = &[
    "claude-code-marketplace",
    "claude-code-plugins",
    "claude-plugins-official",
    "claude-plugins-community",
    "claude-community",
    "anthropic-marketplace",
    "anthropic-plugins",
    "agent-skills",
    "anthropic-agent-skills",
    "knowledge-work-plugins",
    "life-sciences",
    "claude-for-legal",
    "claude-for-financial-services",
    "financial-services-plugins",
    "first-party-plugins",
    "healthcare",
];

/// Whether the marketplace says Anthropic maintains it (`owner.name`
/// `Anthropic`, or an `@anthropic.com` owner email): the official
/// marketplaces carry these names by right.
fn is_anthropic(doc: &Document, root: NodeId) -> bool {
    let Some(owner) = doc.get(root, "owner") else {
        return false;
    };
    let field = |k: &str| doc.get(owner, k).and_then(|v| doc.as_str(v)).unwrap_or("");
    field("name").eq_ignore_ascii_case("anthropic")
        || field("email")
            .to_ascii_lowercase()
            .ends_with("@anthropic.com")
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (m, a, root) in super::claude_marketplaces(cx) {
        let doc = &a.document;
        let Some(root) = root else {
            continue;
        };
        let Some(n) = doc.get(root, "name") else {
            continue;
        };
        let Some(name) = doc.as_str(n) else { continue };
        if !RESERVED.contains(&name) || is_anthropic(doc, root) {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                m.file,
                doc.node(n).span,
                format!(
                    "marketplace name {} is reserved for official Anthropic marketplaces",
                    quote(name)
                ),
            )
            .with_label("Claude Code refuses to load a third-party marketplace of this name")
            .with_help(
                "name the marketplace after your organisation or project, e.g. `acme-tools`",
            ),
        );
    }
    out
}
