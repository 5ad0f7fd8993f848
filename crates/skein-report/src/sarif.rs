//! SARIF 2.1.0 output, ready for GitHub code scanning (DESIGN.md §7).
//!
//! One log with one run (`tool.driver` = skein, every rule in `rules[]`), one
//! result per diagnostic. Written for what GitHub reads
//! (docs.github.com, "SARIF support for code scanning"):
//!
//! - `artifactLocation.uri` is the file's path relative to the repository
//!   root, percent-encoded as a URI reference, with `uriBaseId` `%SRCROOT%`.
//!   A caller that analyzed a sub-folder passes that folder as `uri_prefix`
//!   so the path is still relative to the repository root.
//! - `region` has `startLine`, `startColumn`, `endLine`, `endColumn`, all
//!   1-based, `endColumn` exclusive ("the column number of the character
//!   following the end of the region"). Columns count **UTF-16 code units**
//!   and the run says so (`columnKind: utf16CodeUnits`), as GitHub's own
//!   examples do: GitHub's consumers index lines as JavaScript strings. Lines
//!   end at `\n` (skein's line index).
//! - Secondary labels become `relatedLocations` (with their message, and an
//!   `id` the message text links to as `[label](id)`, which is how GitHub shows
//!   them).
//! - `partialFingerprints.primaryLocationLineHash` is computed as the
//!   `upload-sarif` action computes it ([`crate::fingerprint`]), from the text
//!   skein analyzed. Files skein did not read (too large, unreadable, a link)
//!   get none; the action fills it in from the checkout.
//! - GitHub's limits: a run with more than 25,000 results, or a result with
//!   more than 1,000 locations, is rejected. The log keeps the 25,000 most
//!   severe results and the first 1,000 related locations of a result, and
//!   says so in [`SarifLog::warnings`] (the CLI prints them on stderr).
//!
//! `security-severity` (GitHub's 0.1–10.0 score, which marks a rule's results
//! as security alerts) is set for the rules where a finding means an agent can
//! do more than its declarations say, or skein could be made to skip a file;
//! see [`security_severity`].

use crate::fingerprint::LineHashes;
use serde::Serialize;
use skein_syntax::{Diagnostic, Label, Rule, Severity, SourceFile, SourceMap};
use std::collections::{BTreeMap, HashMap};

/// The `$schema` of the log (what GitHub's documentation uses).
pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The SARIF version.
pub const SARIF_VERSION: &str = "2.1.0";
/// Most results GitHub accepts in one run.
pub const MAX_RESULTS_PER_RUN: usize = 25_000;
/// Most related locations kept per result (GitHub accepts 1,000 locations per result).
pub const MAX_RELATED_LOCATIONS: usize = 1_000;
/// Where the rules are documented; `helpUri` is this page with the rule's anchor.
pub const RULES_DOC_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/rules.md");

/// The SARIF log, as serialized.
#[derive(Debug, Clone, Serialize)]
pub struct SarifLog {
    /// Schema URI.
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    /// Always `2.1.0`.
    pub version: &'static str,
    /// One run.
    pub runs: Vec<Run>,
    /// What was cut to stay within GitHub's limits; not serialized.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// A `run` object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    /// The tool.
    pub tool: Tool,
    /// One result per diagnostic.
    pub results: Vec<SarifResult>,
    /// `utf16CodeUnits`.
    pub column_kind: &'static str,
}

/// A `tool` object.
#[derive(Debug, Clone, Serialize)]
pub struct Tool {
    /// skein.
    pub driver: Driver,
}

/// The driver `toolComponent`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Driver {
    /// `skein`.
    pub name: &'static str,
    /// The crate version.
    pub version: &'static str,
    /// The same, as a semantic version.
    pub semantic_version: &'static str,
    /// The repository URL.
    pub information_uri: &'static str,
    /// Every rule.
    pub rules: Vec<ReportingDescriptor>,
}

/// A plain-text message.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Message {
    /// The text.
    pub text: String,
}

/// A message in text and Markdown.
#[derive(Debug, Clone, Serialize)]
pub struct MultiformatMessage {
    /// Plain text.
    pub text: String,
    /// Markdown.
    pub markdown: String,
}

/// A rule (`reportingDescriptor`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportingDescriptor {
    /// The code, e.g. `FLOW001`.
    pub id: &'static str,
    /// The kebab name.
    pub name: &'static str,
    /// The one-line summary.
    pub short_description: Message,
    /// The first paragraph of the rule's doc.
    pub full_description: Message,
    /// The whole doc.
    pub help: MultiformatMessage,
    /// The rule's section of the rules page.
    pub help_uri: String,
    /// The default level.
    pub default_configuration: Configuration,
    /// Tags and security severity.
    pub properties: RuleProperties,
}

/// `defaultConfiguration`.
#[derive(Debug, Clone, Serialize)]
pub struct Configuration {
    /// `error`, `warning` or `note`.
    pub level: &'static str,
}

/// A rule's property bag.
#[derive(Debug, Clone, Serialize)]
pub struct RuleProperties {
    /// The category (`syntax`, `schema`, `flow`, `references`, `permissions`,
    /// `security`, `internal`), then `security` when the rule has a security severity.
    pub tags: Vec<&'static str>,
    /// GitHub's score, `"0.1"`..`"10.0"`.
    #[serde(rename = "security-severity", skip_serializing_if = "Option::is_none")]
    pub security_severity: Option<&'static str>,
    /// How often a finding of the rule is a true positive (`very-high`,
    /// `high`, `medium`, `low`), as code scanning reads it; security rules only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<&'static str>,
}

/// A `result` object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    /// The rule code.
    pub rule_id: &'static str,
    /// Index of the rule in `driver.rules`.
    pub rule_index: usize,
    /// `error`, `warning` or `note`.
    pub level: &'static str,
    /// Message, links to related locations, notes and help.
    pub message: Message,
    /// The primary location.
    pub locations: Vec<Location>,
    /// Secondary labels.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related_locations: Vec<Location>,
    /// `primaryLocationLineHash`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub partial_fingerprints: BTreeMap<&'static str, String>,
    /// The rule's fix, if it offers one (issue #15).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<SarifFix>,
}

/// A `fix` object: a description and the changes of one file.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifFix {
    /// The fix's message, then `(safe)` or `(unsafe)`.
    pub description: Message,
    /// One `artifactChange`: the primary location's file.
    pub artifact_changes: Vec<ArtifactChange>,
}

/// An `artifactChange` object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactChange {
    /// The file changed.
    pub artifact_location: ArtifactLocation,
    /// The edits, in order.
    pub replacements: Vec<Replacement>,
}

/// A `replacement` object: the region deleted and the text put there.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Replacement {
    /// What is replaced (empty for an insertion: `endColumn == startColumn`).
    pub deleted_region: Region,
    /// The new text.
    pub inserted_content: Message,
}

/// A `location` object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// For related locations: the number the message links with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<usize>,
    /// File and region.
    pub physical_location: PhysicalLocation,
    /// The label's message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
}

/// A `physicalLocation` object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    /// The file.
    pub artifact_location: ArtifactLocation,
    /// The span.
    pub region: Region,
}

/// An `artifactLocation` object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactLocation {
    /// Repository-relative URI reference.
    pub uri: String,
    /// `%SRCROOT%`.
    pub uri_base_id: &'static str,
}

/// A `region`: 1-based, `end_column` exclusive, columns in UTF-16 code units.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    /// First line.
    pub start_line: u32,
    /// First column.
    pub start_column: u32,
    /// Last line.
    pub end_line: u32,
    /// Column after the last character.
    pub end_column: u32,
}

/// The SARIF level of a severity.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The category of a rule, from its code prefix.
pub fn category(rule: &Rule) -> &'static str {
    let prefix = rule.code.trim_end_matches(|c: char| c.is_ascii_digit());
    match prefix {
        "AGENT" => "agents",
        "SYN" => "syntax",
        "SCH" => "schema",
        "FLOW" => "flow",
        "REF" => "references",
        "PERM" => "permissions",
        "PLUGIN" => "plugins",
        "MKT" => "marketplaces",
        "SEC" => "security",
        "HOOK" => "hooks",
        "SKILL" => "skills",
        "CMD" => "commands",
        "SETTINGS" => "settings",
        "MCP" => "mcp",
        "LOOM" => "loom",
        "LOOPMASTER" => "loopmaster",
        "OPENCODE" => "opencode",
        "BAILEY" => "bailey",
        "MEM" => "memory",
        "WIND" => "windsurf",
        "KIRO" => "kiro",
        "CUR" => "cursor",
        "COP" => "copilot",
        "SKEIN" => "internal",
        _ => "other",
    }
}

/// GitHub's `security-severity` for a rule, or `None` for a rule whose
/// findings are correctness problems only.
///
/// - `PERM001` undeclared-write-tool 6.5: a write-capable tool can run
///   without the declaration that makes the client ask first.
/// - `PERM002` unknown-tool-server 4.0: the declaration meant to scope a
///   server's tools applies to nothing, so that server's tools go undeclared.
/// - `PERM003` conflicting-actions 6.0: a runner may perform a forbidden
///   action unattended.
/// - `PERM004` write-without-permission 7.0: the record shows writes the
///   governance did not allow.
/// - `SYN008` alias-expansion-limit 5.0: an alias bomb, a denial of service
///   against any loader of the file.
/// - `SYN009` nesting-too-deep 3.0 and `SYN010` file-too-large 3.0: content
///   shaped to exhaust readers, and left unanalyzed by skein.
/// - `SEC` rules: the table [`SEC_RULES`] (score, precision, CWE), which
///   each rule's doc explains under "Severity and confidence"; a `SEC` rule
///   not in it by its default severity, error 7.0, warning 5.0, info 3.0.
pub fn security_severity(rule: &Rule) -> Option<&'static str> {
    if let Some(s) = sec_rule(rule) {
        return Some(s.1);
    }
    match rule.code {
        "PERM001" => Some("6.5"),
        "PERM002" => Some("4.0"),
        "PERM003" => Some("6.0"),
        "PERM004" => Some("7.0"),
        "SYN008" => Some("5.0"),
        "SYN009" | "SYN010" => Some("3.0"),
        c if c.starts_with("SEC") => Some(match rule.severity {
            Severity::Error => "7.0",
            Severity::Warning => "5.0",
            Severity::Info => "3.0",
        }),
        _ => None,
    }
}

/// The security rules: code, `security-severity`, `precision`, CWE tag.
pub const SEC_RULES: &[(&str, &str, &str, Option<&str>)] = &[
    ("SEC001", "7.5", "high", Some("external/cwe/cwe-798")),
    ("SEC002", "5.0", "high", Some("external/cwe/cwe-22")),
    ("SEC003", "8.0", "high", Some("external/cwe/cwe-494")),
    ("SEC004", "8.5", "very-high", None),
    ("SEC005", "8.0", "high", Some("external/cwe/cwe-95")),
    ("SEC006", "6.0", "very-high", Some("external/cwe/cwe-732")),
    ("SEC007", "7.0", "high", None),
    ("SEC008", "7.5", "high", Some("external/cwe/cwe-427")),
    ("SEC009", "8.0", "high", None),
    ("SEC010", "6.0", "medium", None),
    ("SEC011", "7.0", "medium", Some("external/cwe/cwe-1427")),
    ("SEC012", "5.0", "medium", None),
    ("SEC013", "3.0", "high", None),
    ("SEC014", "7.0", "very-high", Some("external/cwe/cwe-276")),
    ("SEC015", "6.0", "high", None),
    ("SEC016", "6.5", "very-high", Some("external/cwe/cwe-276")),
    ("SEC017", "6.5", "high", Some("external/cwe/cwe-276")),
    ("SEC018", "5.5", "high", None),
];

fn sec_rule(
    rule: &Rule,
) -> Option<&'static (
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
)> {
    SEC_RULES.iter().find(|r| r.0 == rule.code)
}

/// The anchor of a rule on the rules page (`flow001-unreachable-stage`, the
/// GitHub slug of the heading `FLOW001 unreachable-stage`).
pub fn rule_anchor(rule: &Rule) -> String {
    format!("{}-{}", rule.code.to_ascii_lowercase(), rule.name)
}

/// The first paragraph of a rule's Markdown doc that is not a heading, on one
/// line, at most 1024 characters (GitHub's limit).
pub fn first_paragraph(doc: &str) -> String {
    let mut para: Vec<&str> = Vec::new();
    for line in doc.lines() {
        let t = line.trim();
        if t.starts_with('#') || t.is_empty() {
            if para.is_empty() {
                continue;
            }
            break;
        }
        para.push(t);
    }
    truncate_chars(&para.join(" "), 1024)
}

fn truncate_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => {
            let mut t = s[..i].to_string();
            t.pop();
            t.push('…');
            t
        }
        None => s.to_string(),
    }
}

/// The rule's SARIF descriptor.
pub fn descriptor(rule: &Rule) -> ReportingDescriptor {
    let security = security_severity(rule);
    let mut tags = vec![category(rule)];
    if security.is_some() && !tags.contains(&"security") {
        tags.push("security");
    }
    let sec = sec_rule(rule);
    if let Some(&(_, _, _, Some(cwe))) = sec {
        tags.push(cwe);
    }
    ReportingDescriptor {
        id: rule.code,
        name: rule.name,
        short_description: Message {
            text: truncate_chars(rule.summary, 1024),
        },
        full_description: Message {
            text: first_paragraph(rule.doc),
        },
        help: MultiformatMessage {
            text: rule.doc.to_string(),
            markdown: rule.doc.to_string(),
        },
        help_uri: format!("{RULES_DOC_URL}#{}", rule_anchor(rule)),
        default_configuration: Configuration {
            level: level(rule.severity),
        },
        properties: RuleProperties {
            tags,
            security_severity: security,
            precision: sec.map(|s| s.2),
        },
    }
}

/// Percent-encodes a `/`-separated relative path as a URI reference: every
/// byte but ASCII letters, digits, `-._~` and `/` becomes `%XX`.
pub fn path_to_uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The 1-based UTF-16 column of byte `offset` in `file`, on its line.
fn utf16_column(file: &SourceFile, line: usize, offset: usize) -> u32 {
    let text = file.text();
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let lines = file.lines();
    let start = lines.line_starts()[line] as usize;
    // Up to the line's first non-ASCII byte a UTF-16 column is a byte
    // count: O(1) per location, not a rescan of a long line.
    let ascii = lines.ascii_until(line);
    if offset <= ascii {
        return (offset - start) as u32 + 1;
    }
    ((ascii - start) + text[ascii..offset].encode_utf16().count()) as u32 + 1
}

/// The region of a span: 1-based lines, UTF-16 columns, end exclusive. A
/// span that ends with its line's `\n` ends on that line, not at column 1 of
/// the next.
pub fn region(file: &SourceFile, label: &Label) -> Region {
    let text = file.text();
    let start = (label.span.start as usize).min(text.len());
    let mut end = (label.span.end as usize).clamp(start, text.len());
    if end > start && text.as_bytes()[end - 1] == b'\n' {
        end -= 1;
    }
    let lines = file.lines();
    let start_line = lines.line_of(start);
    let end_line = lines.line_of(end);
    Region {
        start_line: start_line as u32 + 1,
        start_column: utf16_column(file, start_line, start),
        end_line: end_line as u32 + 1,
        end_column: utf16_column(file, end_line, end),
    }
}

/// The region of exactly the bytes `span`: unlike [`region`], a span that
/// ends with a line break ends at column 1 of the next line (a fix's
/// deleted region must say which bytes go).
pub fn exact_region(file: &SourceFile, span: skein_syntax::Span) -> Region {
    let text = file.text();
    let start = (span.start as usize).min(text.len());
    let end = (span.end as usize).clamp(start, text.len());
    let lines = file.lines();
    let (sl, el) = (lines.line_of(start), lines.line_of(end));
    Region {
        start_line: sl as u32 + 1,
        start_column: utf16_column(file, sl, start),
        end_line: el as u32 + 1,
        end_column: utf16_column(file, el, end),
    }
}

/// Escapes `[` and `]` so they are not read as an embedded link.
fn escape_text(s: &str) -> String {
    s.replace('[', "\\[").replace(']', "\\]")
}

/// Rules whose findings are about files skein never read.
fn file_not_read(d: &Diagnostic, file: &SourceFile) -> bool {
    matches!(d.rule.code, "SYN010" | "SYN011" | "SYN012")
        || (file.text().is_empty() && d.primary.span.is_empty() && d.secondary.is_empty())
}

/// Builds one SARIF log from the reports of one or more roots.
#[derive(Debug)]
pub struct SarifBuilder {
    rules: Vec<Rule>,
    index: HashMap<&'static str, usize>,
    results: Vec<(Severity, SarifResult)>,
    warnings: Vec<String>,
}

impl SarifBuilder {
    /// A builder whose `rules[]` are `rules` (in that order); a diagnostic of
    /// a rule not in the list adds it at the end.
    pub fn new(rules: &[Rule]) -> Self {
        let mut b = SarifBuilder {
            rules: Vec::new(),
            index: HashMap::new(),
            results: Vec::new(),
            warnings: Vec::new(),
        };
        for r in rules {
            b.rule_index(r);
        }
        b
    }

    fn rule_index(&mut self, rule: &Rule) -> usize {
        if let Some(&i) = self.index.get(rule.code) {
            return i;
        }
        self.rules.push(*rule);
        self.index.insert(rule.code, self.rules.len() - 1);
        self.rules.len() - 1
    }

    /// Adds the diagnostics of one analyzed root. `uri_prefix` is that root's
    /// path from the repository root, `/`-separated and ending in `/`, or empty.
    pub fn add(&mut self, diagnostics: &[Diagnostic], sources: &SourceMap, uri_prefix: &str) {
        let secrets = crate::Secrets::new(diagnostics, sources);
        let diagnostics = &*secrets.diagnostics(diagnostics);
        let mut line_hashes: HashMap<skein_syntax::FileId, LineHashes> = HashMap::new();
        for d in diagnostics {
            let rule_index = self.rule_index(&d.rule);
            let file = sources.get(d.primary.file);
            let location = |l: &Label, id: Option<usize>| {
                let f = sources.get(l.file);
                Location {
                    id,
                    physical_location: PhysicalLocation {
                        artifact_location: ArtifactLocation {
                            uri: path_to_uri(&format!("{uri_prefix}{}", f.path())),
                            uri_base_id: "%SRCROOT%",
                        },
                        region: region(f, l),
                    },
                    message: (!l.message.is_empty()).then(|| Message {
                        text: l.message.clone(),
                    }),
                }
            };
            let primary = location(&d.primary, None);
            let mut secondary = d.secondary.as_slice();
            if secondary.len() > MAX_RELATED_LOCATIONS {
                self.warnings.push(format!(
                    "{}{}: {} result has {} related locations; kept the first {MAX_RELATED_LOCATIONS} (GitHub's limit)",
                    uri_prefix,
                    file.path(),
                    d.rule.code,
                    secondary.len()
                ));
                secondary = &secondary[..MAX_RELATED_LOCATIONS];
            }
            let related: Vec<Location> = secondary
                .iter()
                .enumerate()
                .map(|(i, l)| location(l, Some(i + 1)))
                .collect();
            let mut text = escape_text(&d.message);
            for (i, l) in secondary.iter().enumerate() {
                let f = sources.get(l.file);
                let what = if l.message.is_empty() {
                    format!(
                        "{uri_prefix}{}:{}",
                        f.path(),
                        f.line_col(l.span.start as usize).line
                    )
                } else {
                    l.message.clone()
                };
                text.push_str(&format!("\n- [{}]({})", escape_text(&what), i + 1));
            }
            for n in &d.notes {
                text.push_str(&format!("\nnote: {}", escape_text(n)));
            }
            if let Some(h) = &d.help {
                text.push_str(&format!("\nhelp: {}", escape_text(h)));
            }
            let mut partial_fingerprints = BTreeMap::new();
            if !file_not_read(d, file) {
                let hashes = line_hashes
                    .entry(d.primary.file)
                    .or_insert_with(|| LineHashes::new(&secrets.text(d.primary.file, file.text())));
                let line = primary.physical_location.region.start_line;
                if let Some(h) = hashes.line(line) {
                    partial_fingerprints.insert("primaryLocationLineHash", h.to_string());
                }
            }
            let fixes = d
                .fix
                .iter()
                .map(|f| SarifFix {
                    description: Message {
                        text: format!(
                            "{} ({})",
                            f.message,
                            match f.applicability {
                                skein_syntax::Applicability::Safe => "safe",
                                skein_syntax::Applicability::Unsafe => "unsafe",
                            }
                        ),
                    },
                    artifact_changes: vec![ArtifactChange {
                        artifact_location: primary.physical_location.artifact_location.clone(),
                        replacements: f
                            .edits
                            .iter()
                            .map(|e| Replacement {
                                deleted_region: exact_region(file, e.span),
                                inserted_content: Message {
                                    text: e.replacement.clone(),
                                },
                            })
                            .collect(),
                    }],
                })
                .collect();
            self.results.push((
                d.severity,
                SarifResult {
                    fixes,
                    rule_id: d.rule.code,
                    rule_index,
                    level: level(d.severity),
                    message: Message { text },
                    locations: vec![primary],
                    related_locations: related,
                    partial_fingerprints,
                },
            ));
        }
    }

    /// The log. Past [`MAX_RESULTS_PER_RUN`] results, keeps the most severe
    /// ones (in their order) and records a warning.
    pub fn finish(self) -> SarifLog {
        let SarifBuilder {
            rules,
            mut results,
            mut warnings,
            ..
        } = self;
        if results.len() > MAX_RESULTS_PER_RUN {
            let total = results.len();
            let mut order: Vec<usize> = (0..total).collect();
            order.sort_by_key(|&i| (std::cmp::Reverse(results[i].0), i));
            let mut keep = vec![false; total];
            for &i in &order[..MAX_RESULTS_PER_RUN] {
                keep[i] = true;
            }
            let mut k = keep.into_iter();
            results.retain(|_| k.next().unwrap_or(false));
            warnings.push(format!(
                "{total} results are more than GitHub accepts in one SARIF run; kept the {MAX_RESULTS_PER_RUN} most severe"
            ));
        }
        let version = env!("CARGO_PKG_VERSION");
        SarifLog {
            schema: SARIF_SCHEMA,
            version: SARIF_VERSION,
            runs: vec![Run {
                tool: Tool {
                    driver: Driver {
                        name: "skein",
                        version,
                        semantic_version: version,
                        information_uri: env!("CARGO_PKG_REPOSITORY"),
                        rules: rules.iter().map(descriptor).collect(),
                    },
                },
                results: results.into_iter().map(|(_, r)| r).collect(),
                column_kind: "utf16CodeUnits",
            }],
            warnings,
        }
    }
}

/// The SARIF log for one analyzed root: `rules` is every rule
/// (`skein::rules::all()`), `uri_prefix` as in [`SarifBuilder::add`].
pub fn sarif_log(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    rules: &[Rule],
    uri_prefix: &str,
) -> SarifLog {
    let mut b = SarifBuilder::new(rules);
    b.add(diagnostics, sources, uri_prefix);
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use skein_syntax::{FileId, Span};

    const RULE: Rule = Rule {
        code: "REF001",
        name: "duplicate-gate-id",
        severity: Severity::Error,
        summary: "a gate id used twice in the repository",
        doc: "## What it does\nReports a gate id\nused twice.\n\n## Why is this bad?\nBecause.",
        fix: None,
    };

    #[test]
    fn descriptor_fields() {
        let d = descriptor(&RULE);
        assert_eq!(d.full_description.text, "Reports a gate id used twice.");
        assert!(
            d.help_uri
                .ends_with("docs/rules.md#ref001-duplicate-gate-id")
        );
        assert_eq!(d.properties.tags, ["references"]);
        assert_eq!(d.default_configuration.level, "error");
        let perm = Rule {
            code: "PERM004",
            ..RULE
        };
        assert_eq!(
            descriptor(&perm).properties.tags,
            ["permissions", "security"]
        );
        assert_eq!(security_severity(&perm), Some("7.0"));
        assert_eq!(descriptor(&perm).properties.precision, None);
        let sec = Rule {
            code: "SEC003",
            ..RULE
        };
        let d = descriptor(&sec);
        assert_eq!(d.properties.tags, ["security", "external/cwe/cwe-494"]);
        assert_eq!(d.properties.security_severity, Some("8.0"));
        assert_eq!(d.properties.precision, Some("high"));
        // Every SEC rule of the table is a real rule, once.
        let mut codes: Vec<&str> = SEC_RULES.iter().map(|r| r.0).collect();
        codes.dedup();
        assert_eq!(codes.len(), SEC_RULES.len());
    }

    #[test]
    fn regions_count_utf16_units_and_end_exclusive() {
        let mut sources = SourceMap::new();
        let text = "a: \"🚀é\"\nb: x\n";
        let id = sources.add(SourceFile::new("dir/a b.yaml", text));
        let f = sources.get(id);
        // `x` on line 2.
        let x = text.find('x').unwrap();
        let r = region(f, &Label::new(id, Span::new(x, x + 1), ""));
        assert_eq!(
            r,
            Region {
                start_line: 2,
                start_column: 4,
                end_line: 2,
                end_column: 5
            }
        );
        // The quoted value: the rocket is 2 units, `é` 1.
        let q = text.find('"').unwrap();
        let r = region(f, &Label::new(id, Span::new(q, q + "\"🚀é\"".len()), ""));
        assert_eq!((r.start_column, r.end_column), (4, 9));
        // A span ending with the line's `\n` stays on that line.
        let r = region(f, &Label::new(id, Span::new(0, x - 3), ""));
        assert_eq!((r.start_line, r.end_line, r.end_column), (1, 1, 9));
        assert_eq!(path_to_uri("dir/a b.yaml"), "dir/a%20b.yaml");
        assert_eq!(path_to_uri("é:x"), "%C3%A9%3Ax");
        let _ = FileId(0);
    }

    #[test]
    fn results_over_the_limit_keep_the_most_severe() {
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new("a.json", "{}\n"));
        let warn = Rule {
            severity: Severity::Warning,
            code: "REF004",
            ..RULE
        };
        let mut diags = Vec::new();
        for i in 0..MAX_RESULTS_PER_RUN {
            diags.push(Diagnostic::new(warn, id, Span::new(0, 1), format!("w{i}")));
        }
        diags.push(Diagnostic::new(RULE, id, Span::new(0, 1), "the error"));
        let log = sarif_log(&diags, &sources, &[RULE], "");
        let results = &log.runs[0].results;
        assert_eq!(results.len(), MAX_RESULTS_PER_RUN);
        assert_eq!(results.last().unwrap().message.text, "the error");
        assert_eq!(results[0].message.text, "w0");
        assert_eq!(log.warnings.len(), 1);
        assert_eq!(log.runs[0].tool.driver.rules.len(), 2);
    }
}
