//! Rules of the decode layer (category SCH, DESIGN.md §6).

use skein_syntax::{Rule, Severity};

/// SCH001: an artifact violates its format's schema.
pub const SCHEMA_VIOLATION: Rule = Rule {
    code: "SCH001",
    name: "schema-violation",
    severity: Severity::Error,
    summary: "an artifact violates its format's schema",
    doc: "## What it does\nValidates every recognised artifact against the JSON Schema of its \
format (embedded in skein; see `crates/skein-model/schemas/SOURCES.md`) and reports each \
violation at the offending value: the bad value for a wrong type, enum or pattern, the \
unknown key for an unexpected property, the object's opening for a missing one.\n\n## Why is \
this bad?\nThe runtime that loads the artifact rejects it or, worse, loads it with the field \
ignored.\n\n## Example\n```json\n{\"governance\": {\"mode\": \"\"}}\n```\nUse instead: one of \
`autonomous`, `supervised`, `interactive`.",
    fix: None,
};

/// SCH002: an Agent Skill, agent or command has no frontmatter.
pub const MISSING_FRONTMATTER: Rule = Rule {
    code: "SCH002",
    name: "missing-frontmatter",
    severity: Severity::Error,
    summary: "a Markdown artifact has no YAML frontmatter",
    doc: "## What it does\nReports a `SKILL.md` whose first line is not `---`.\n\n## Why is this \
bad?\nAgents discover skills by the `name` and `description` in the frontmatter; a skill without \
one is never loaded.\n\n## Example\n```markdown\n# CI/CD\nUse this skill when...\n```\nUse \
instead:\n```markdown\n---\nname: ci-cd\ndescription: Use this skill when...\n---\n```",
    fix: None,
};

/// SCH003: a file named like an artifact has a shape skein does not know.
pub const UNRECOGNISED_FORMAT: Rule = Rule {
    code: "SCH003",
    name: "unrecognised-format",
    severity: Severity::Info,
    summary: "a file named like an artifact has a shape skein does not know",
    doc: "## What it does\nReports, once per file, an artifact-named file (`loop.yaml`, \
`contract.json`, `hooks/hooks.json`, ...) whose content matches none of the formats skein \
knows, instead of flooding it with schema errors.\n\n## Why is this bad?\nIt may be another \
tool's format (fine) or a manifest that lost its version key (not fine). skein says it is \
unsure rather than guessing.",
    fix: None,
};

/// SCH004: a validated artifact could not be decoded into its typed model.
pub const DECODE_ERROR: Rule = Rule {
    code: "SCH004",
    name: "decode-error",
    severity: Severity::Error,
    summary: "an artifact could not be read into its typed model",
    doc: "## What it does\nReports a value that the format's typed model cannot hold (a value the \
schema leaves open but the runtime reads with a fixed type).\n\n## Why is this bad?\nThe graph \
passes cannot use the artifact; the runtime likely fails the same way.",
    fix: None,
};

/// Every rule of this crate, in code order.
pub const ALL: &[Rule] = &[
    SCHEMA_VIOLATION,
    MISSING_FRONTMATTER,
    UNRECOGNISED_FORMAT,
    DECODE_ERROR,
];
