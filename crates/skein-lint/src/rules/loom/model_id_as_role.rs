//! LOOM008 `model-id-as-role`.

use super::spec;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "LOOM008",
    name: "model-id-as-role",
    severity: Severity::Warning,
    summary: "a Loom `model_role` that is a vendor name or a model id",
    doc: include_str!("model_id_as_role.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::LoomAgentSpec]),
};

/// Vendor names and model families, matched as the role's first word
/// (split at `-` and `_`).
const VENDORS_AND_MODELS: &[&str] = &[
    "anthropic",
    "openai",
    "google",
    "gemini",
    "gemma",
    "claude",
    "gpt",
    "o1",
    "o3",
    "o4",
    "chatgpt",
    "llama",
    "meta",
    "mistral",
    "mixtral",
    "codestral",
    "deepseek",
    "qwen",
    "grok",
    "xai",
    "cohere",
    "command",
    "phi",
    "sonnet",
    "opus",
    "haiku",
    "bedrock",
    "azure",
    "vertex",
    "ollama",
    "groq",
];

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = spec(a) else {
        return Vec::new();
    };
    let Some(v) = doc.get(root, "model_role") else {
        return Vec::new();
    };
    let Some(role) = doc.as_str(v) else {
        return Vec::new();
    };
    let first = role.split(['-', '_']).next().unwrap_or("");
    // `gpt4`, `claude3`: the family with a version glued on.
    let family = first.trim_end_matches(|c: char| c.is_ascii_digit());
    if !VENDORS_AND_MODELS.contains(&first) && !VENDORS_AND_MODELS.contains(&family) {
        return Vec::new();
    }
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            doc.node(v).span,
            format!("model role {} names a vendor or a model", quote(role)),
        )
        .with_label("a role, not a model")
        .with_help("name what the agent needs (`default`, `fast`, `reasoning`) and bind the model in deployment configuration"),
    ]
}
