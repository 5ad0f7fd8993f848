//! Rules of the syntax layer (category SYN, DESIGN.md §6).
//!
//! Each constant is the rule's metadata; its `doc` is what `skein rule CODE`
//! prints. Codes are stable and never reused.

use crate::diagnostic::{Rule, Severity};

/// SYN001: the file is not valid YAML or JSON.
pub const SYNTAX_ERROR: Rule = Rule {
    code: "SYN001",
    name: "syntax-error",
    severity: Severity::Error,
    summary: "the file is not valid YAML or JSON",
    doc: "## What it does\nReports every place where tree-sitter could not parse the file \
(an ERROR node: unexpected text; a MISSING node: a token that should be there), and \
comments in JSON files, which JSON does not allow. In JSON the finding points at the token at \
fault and says what JSON expected there (`,` or `}` before the next key, a value, `:`), not at \
the whole pair the parser set aside.\n\n## Why is this bad?\nThe agent runtime's \
parser rejects the whole file, so the artifact is never loaded.\n\n## Example\n```json\n{\"name\": \"x\",}\n```\nUse instead:\n```json\n{\"name\": \"x\"}\n```\n\nThe rest of \
the file is still analyzed where the parser recovered.\n\n## Fix\nUnsafe, for one error: a \
value that opens a YAML list or mapping and goes on after its end, as in \
`argument-hint: [pr-number] [priority]` (the form the Claude Code slash-command docs show, \
https://code.claude.com/docs/en/slash-commands), is quoted whole, so it reads as the text \
written. Unsafe because it changes what the runtime loads: a YAML parser rejects the whole \
frontmatter on this error (Claude Code logs a warning and loads the command without its \
frontmatter, so `description` and `allowed-tools` are lost), and once quoted every key \
applies, `allowed-tools` restrictions included.",
    fix: Some(crate::Applicability::Unsafe),
};

/// SYN002: a mapping has the same key twice.
pub const DUPLICATE_KEY: Rule = Rule {
    code: "SYN002",
    name: "duplicate-key",
    severity: Severity::Error,
    summary: "a mapping has the same key twice",
    doc: "## What it does\nReports a mapping (YAML) or object (JSON) that defines one key twice, \
with both places.\n\n## Why is this bad?\nParsers disagree on which value wins: serde_json and \
most YAML loaders keep the last, some keep the first, strict ones reject the file. The value \
the agent sees depends on the tool.\n\n## Example\n```yaml\nname: review\nname: review-v2\n```\nUse \
instead: one `name` key.",
    fix: None,
};

/// SYN003: a Markdown file opens YAML frontmatter with `---` and never closes it.
pub const UNTERMINATED_FRONTMATTER: Rule = Rule {
    code: "SYN003",
    name: "unterminated-frontmatter",
    severity: Severity::Error,
    summary: "frontmatter opened with `---` is never closed",
    doc: "## What it does\nReports a Markdown artifact whose first line is `---` with no later line \
`---` (or `...`) closing the frontmatter.\n\n## Why is this bad?\nLoaders either read the whole \
file as YAML (and fail) or see no frontmatter at all, so the skill has no name or description.\n\n\
## Example\n```markdown\n---\nname: review\n# Review\n```\nUse instead: close the block with a \
`---` line after the last key.",
    fix: None,
};

/// SYN004: a YAML file holds more than one document.
pub const MULTIPLE_DOCUMENTS: Rule = Rule {
    code: "SYN004",
    name: "multiple-documents",
    severity: Severity::Error,
    summary: "a YAML artifact holds more than one document",
    doc: "## What it does\nReports a second (third, ...) YAML document in an artifact file or in \
frontmatter.\n\n## Why is this bad?\nArtifact loaders read one document; the rest is silently \
dropped or rejected.\n\n## Example\n```yaml\nspec_version: \"0.1\"\n---\nid: second\n```\nUse \
instead: one document per file. Only the first document is analyzed.",
    fix: None,
};

/// SYN005: the file is not UTF-8.
pub const NOT_UTF8: Rule = Rule {
    code: "SYN005",
    name: "not-utf8",
    severity: Severity::Error,
    summary: "the file is not valid UTF-8",
    doc: "## What it does\nReports an artifact file whose bytes are not UTF-8 (binary data, \
UTF-16, Latin-1).\n\n## Why is this bad?\nJSON (RFC 8259) and the artifact formats require \
UTF-8; the runtime fails to load the file.\n\nThe file is not parsed further, and the summary \
line counts it among the files not analyzed. A file with NUL bytes in its first 8,000 bytes \
(git's test) is called a binary file, most often an image or archive saved under an \
artifact's name.",
    fix: None,
};

/// SYN006: a JSON file starts with a byte-order mark.
pub const BYTE_ORDER_MARK: Rule = Rule {
    code: "SYN006",
    name: "byte-order-mark",
    severity: Severity::Warning,
    summary: "a JSON file starts with a UTF-8 byte-order mark",
    doc: "## What it does\nReports a JSON artifact that begins with U+FEFF.\n\n## Why is this \
bad?\nRFC 8259 §8.1 forbids it and strict parsers (serde_json, Python's json) reject the file. \
skein analyzes the rest of the file as if the mark were absent.\n\n## Fix\nSafe: \
the fix deletes the three bytes of the mark and nothing else. Every value of the file stays \
what it was; only readers that rejected the file now read it.",
    fix: Some(crate::Applicability::Safe),
};

/// SYN007: a YAML alias names no anchor defined before it.
pub const UNDEFINED_ALIAS: Rule = Rule {
    code: "SYN007",
    name: "undefined-alias",
    severity: Severity::Error,
    summary: "a YAML alias refers to an anchor that is not defined before it",
    doc: "## What it does\nReports `*name` where no `&name` anchor precedes it in the document. \
A plain value that starts with `*` is an alias in YAML, so a glob written without quotes \
(`applyTo: **/*.py`, `paths: *.md`) is one too: when the alias looks like a glob (it starts \
with `*` or `.`, or holds a `/` or `*`), the finding says so and the help quotes it.\n\n\
## Why is this bad?\nYAML loaders reject the document.\n\n## Example\n```yaml\nbase: *defaults\n```\n\
Use instead: define `&defaults` on an earlier node. For a glob, quote it: `applyTo: \"**/*.py\"`.",
    fix: None,
};

/// SYN008: expanding YAML aliases would produce too many values (an alias bomb).
pub const ALIAS_EXPANSION: Rule = Rule {
    code: "SYN008",
    name: "alias-expansion-limit",
    severity: Severity::Error,
    summary: "expanding YAML aliases would produce too many values",
    doc: "## What it does\nReports a YAML document whose aliases, once expanded, would produce more \
values than the limit (a \"billion laughs\" alias bomb), and an alias inside the value of its own \
anchor (`meta: &meta {history: *meta}`), whose expansion never ends: YAML 1.2 allows such a \
recursive value (spec 1.2.2, \"Alias Nodes\"), but the JSON a client turns frontmatter into \
cannot hold it.\n\n## Why is this bad?\nA loader that \
expands aliases runs out of memory. skein never expands aliases in its own tree; it stops at the \
limit when converting for schema validation and skips that validation.",
    fix: None,
};

/// SYN009: the value tree nests deeper than the analyzer's limit.
pub const NESTING_TOO_DEEP: Rule = Rule {
    code: "SYN009",
    name: "nesting-too-deep",
    severity: Severity::Error,
    summary: "values nest deeper than the analyzer's limit",
    doc: "## What it does\nReports a value nested deeper than 256 levels. Deeper values are \
replaced by null for analysis.\n\n## Why is this bad?\nNo real artifact nests this deep; such \
input is malformed or hostile, and recursive loaders overflow their stack on it.",
    fix: None,
};

/// SYN010: an artifact file is larger than the configured limit.
pub const FILE_TOO_LARGE: Rule = Rule {
    code: "SYN010",
    name: "file-too-large",
    severity: Severity::Error,
    summary: "an artifact file is larger than the size limit",
    doc: "## What it does\nReports an artifact file larger than the limit (10 MiB unless \
`--max-file-size` says otherwise) and does not read it.\n\n## Why is this bad?\nNo real \
manifest or skill is that large; a file this size is generated data or an attack on the tools \
that read it.",
    fix: None,
};

/// SYN011: an artifact file could not be read.
pub const UNREADABLE_FILE: Rule = Rule {
    code: "SYN011",
    name: "unreadable-file",
    severity: Severity::Error,
    summary: "an artifact file could not be read",
    doc: "## What it does\nReports an artifact file that exists but could not be read (permission \
denied, removed during the run, not a regular file), with the operating system's reason.\n\n\
## Why is this bad?\nskein cannot vouch for a file it could not read; neither can the agent \
runtime.",
    fix: None,
};

/// SYN012: an artifact path, or a folder, is a symbolic link, which skein
/// does not follow.
pub const SYMLINK_NOT_FOLLOWED: Rule = Rule {
    code: "SYN012",
    name: "symlink-not-followed",
    severity: Severity::Info,
    summary: "an artifact path or a folder is a symbolic link, which is not followed",
    doc: "## What it does\nReports a file named like an artifact (`SKILL.md`, `loop.json`, ...) that \
is a symbolic link, and every symbolic link to a folder (whatever it holds: skein does not look \
through it). skein never follows links, so a link cannot make it read outside the analyzed \
folder; the link's target is analyzed only if it is itself inside the folder.\n\n## \
Why is this bad?\nIt is not, necessarily: linking a shared skill into several plugins is common. \
The note says that this path was not analyzed under this name.\n\n## Example\n\
`plugins/a/skills/review -> ../../../shared/review`: analyze `shared/review/SKILL.md` directly.",
    fix: None,
};

/// SYN017: YAML longer than the YAML parser reads correctly.
pub const YAML_TOO_LONG: Rule = Rule {
    code: "SYN017",
    name: "yaml-too-long",
    severity: Severity::Error,
    summary: "YAML longer than the 32,767 lines the YAML parser reads correctly",
    doc: "## What it does\nReports a YAML file, or the YAML frontmatter of a Markdown file, of more \
than 32,767 lines, at the first line past the limit, and does not analyze that YAML. The \
tree-sitter YAML grammar skein parses with keeps line numbers in 16-bit integers \
(tree-sitter-yaml 0.7, `src/scanner.c`), so past line 32,767 it can misread keys: a skill's \
`name` reported as a syntax error, a list item taken for the `name`. Analysis of a misread tree \
would report what the author never wrote, and a fix could change the wrong line.\n\n\
## Why is this bad?\nNo real manifest, loop or frontmatter is this long: such YAML is generated \
data, which belongs in a file the agent does not load as an artifact.\n\n## Example\n\
A `SKILL.md` whose frontmatter lists 40,000 `metadata` entries. Use instead: keep the data in a \
file beside the skill (`reference/data.yaml`) and name it in the body.",
    fix: None,
};

/// Whether a finding of `rule` means its file was not analyzed (not UTF-8,
/// too large, unreadable, a link not followed): the summary counts such
/// files apart from the artifacts.
pub fn leaves_file_unanalyzed(rule: &Rule) -> bool {
    [
        NOT_UTF8,
        FILE_TOO_LARGE,
        UNREADABLE_FILE,
        SYMLINK_NOT_FOLLOWED,
    ]
    .iter()
    .any(|r| r.code == rule.code)
}

/// Every rule of this crate, in code order.
pub const ALL: &[Rule] = &[
    SYNTAX_ERROR,
    DUPLICATE_KEY,
    UNTERMINATED_FRONTMATTER,
    MULTIPLE_DOCUMENTS,
    NOT_UTF8,
    BYTE_ORDER_MARK,
    UNDEFINED_ALIAS,
    ALIAS_EXPANSION,
    NESTING_TOO_DEEP,
    FILE_TOO_LARGE,
    UNREADABLE_FILE,
    SYMLINK_NOT_FOLLOWED,
    YAML_TOO_LONG,
];
