//! Configuration: `skein.toml` (docs/configuration.md).
//!
//! Discovery follows ruff: from each analyzed path upward to the filesystem
//! root, the nearest `skein.toml` wins; `--config PATH` names one file and
//! `--isolated` reads none. Globs in the file are relative to its folder.
//!
//! The file is deserialized with `toml`, keeping the span of every value
//! ([`Spanned`]), so an unknown key, a bad value or a rule code that does not
//! exist is an [`INVALID_CONFIG`] diagnostic pointing into `skein.toml`, which
//! becomes a source file of the report and renders like any other finding.
//! [`json_schema`] derives the JSON Schema of the file from the same types
//! (`schemas/skein.toml.schema.json`, written by `cargo xtask codegen`).

use crate::rules;
use globset::{GlobBuilder, GlobMatcher};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::{MapAccess, SeqAccess, Visitor};
use skein_model::Format;
use skein_syntax::{Diagnostic, FileId, Rule, Severity, Span, quote};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The file name looked for.
pub const CONFIG_FILE_NAME: &str = "skein.toml";

/// Placeholder file of configuration diagnostics until the config file gets
/// its id in the report's source map.
pub(crate) const CONFIG_FILE: FileId = FileId(u32::MAX);

/// SCH005: `skein.toml` has an unknown key or an invalid value.
pub const INVALID_CONFIG: Rule = Rule {
    code: "SCH005",
    name: "invalid-config",
    severity: Severity::Error,
    summary: "skein.toml has an unknown key or an invalid value",
    doc: "## What it does\nReports a key of `skein.toml` that skein does not know, a value of the \
wrong type, a rule selector that matches no rule, a glob that does not compile, a format id that \
does not exist, and an `[[ignore]]` entry without a `reason`. The diagnostic points at the key or \
value in `skein.toml`.\n\n## Why is this bad?\nA misspelt key (`ignores`, `fail_on`) or rule code \
is silently without effect: the rule you meant to silence still runs, or the one you meant to \
select does not. When the file cannot be read at all, none of it applies.\n\n## Example\n```toml\n\
ignores = [\"REF004\"]\n```\nUse instead:\n```toml\nignore = [\"REF004\"]\n```\n\nThis rule \
cannot be ignored or suppressed.",
    fix: None,
};

/// Where the configuration of a run comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ConfigSource {
    /// The nearest `skein.toml` from the analyzed path upward (default).
    #[default]
    Discover,
    /// This file (`--config PATH`).
    File(PathBuf),
    /// No configuration file (`--isolated`).
    Isolated,
}

/// A severity as written in `skein.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeverityName {
    /// Error.
    Error,
    /// Warning.
    Warning,
    /// Info.
    Info,
}

impl From<SeverityName> for Severity {
    fn from(s: SeverityName) -> Severity {
        match s {
            SeverityName::Error => Severity::Error,
            SeverityName::Warning => Severity::Warning,
            SeverityName::Info => Severity::Info,
        }
    }
}

/// The contents of `skein.toml`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(
    title = "skein.toml",
    description = "Configuration of skein, the static analyzer for AI-agent artifacts. See docs/configuration.md."
)]
pub struct ConfigFile {
    /// Rules to run, by code (`REF004`), name (`unknown-skill`) or code prefix
    /// (`FLOW`, `SCH00`). Default: every rule. When `select` and `ignore` both
    /// match a rule, the more specific selector wins (a code or name beats a
    /// prefix, a longer prefix a shorter one; on a tie `ignore` wins).
    #[serde(default)]
    #[schemars(with = "Option<Vec<RuleSelector>>")]
    pub select: Option<Vec<Spanned<String>>>,
    /// Rules not to run (selectors as in `select`), and JSON suppressions:
    /// tables `{ path, pointer, rule, reason }` (written `[[ignore]]` when the
    /// file has no rule selectors in `ignore`).
    #[serde(default)]
    #[schemars(with = "Vec<IgnoreItemSchema>")]
    pub ignore: Vec<Spanned<IgnoreItem>>,
    /// Severity overrides: rule code or name -> `error`, `warning` or `info`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, SeverityName>")]
    pub severity: BTreeMap<Spanned<String>, Spanned<SeverityName>>,
    /// Rules not run on some paths: an array of `{ path = GLOB, rules = [...] }`
    /// tables, or a table `GLOB = [selectors]`.
    #[serde(default)]
    #[schemars(with = "PerPathIgnoresSchema")]
    pub per_path_ignores: PerPathIgnores,
    /// Extra format mappings: a file matching the glob is an artifact of that
    /// format (format ids as in `skein check` output, e.g. `agent-skill`).
    /// Mappings win over skein's path conventions.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, FormatId>")]
    pub formats: BTreeMap<Spanned<String>, Spanned<String>>,
    /// Lowest severity that makes `skein check` exit with status 1
    /// (default `error`); `--fail-on` overrides it.
    #[serde(default)]
    #[schemars(with = "Option<SeverityName>")]
    pub fail_on: Option<Spanned<SeverityName>>,
    /// Exit with status 2 when skein fails internally on some input (an
    /// `SKEIN001 internal-error` finding), instead of counting the failure
    /// as an error finding (status 1); `--fail-on-internal-error` sets it too.
    #[serde(default)]
    pub fail_on_internal_error: Option<bool>,
    /// Artifact files larger than this many bytes are reported (`SYN010`)
    /// and not read (default 10 MiB); `--max-file-size` overrides it.
    #[serde(default)]
    pub max_file_size: Option<u64>,
    /// Globs of files not analyzed (relative to the folder of `skein.toml`;
    /// `legacy/**`). They still count as existing for references. Default:
    /// none (`.gitignore` is honoured separately).
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub exclude: Option<Vec<Spanned<String>>>,
    /// Globs added to `exclude` (kept when `--exclude` is given on the command line).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub extend_exclude: Vec<Spanned<String>>,
    /// The folder of `skein check`'s persistent cache, relative to the
    /// folder of `skein.toml` (default: `.skein_cache` at the project
    /// root); `--cache-dir` overrides it, `--no-cache` turns the cache off.
    #[serde(default)]
    pub cache_dir: Option<String>,
}

/// Settings given on the command line (issue #14), applied over the
/// configuration file as ruff applies its flags: `select` replaces the file's
/// `select`, `extend_select` adds to it, `ignore` adds to its `ignore`,
/// `per_file_ignores` adds to its `per-path-ignores`, `exclude` adds to its
/// `exclude`. Selectors are as in the file (code, name or code prefix); globs
/// are relative to the project root.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `--select`: the rules to run, replacing `select` of the file.
    pub select: Option<Vec<String>>,
    /// `--extend-select`: rules added to the selection.
    pub extend_select: Vec<String>,
    /// `--ignore`: rules not to run, added to `ignore` of the file.
    pub ignore: Vec<String>,
    /// `--per-file-ignores GLOB:SELECTOR[,SELECTOR...]`.
    pub per_file_ignores: Vec<(String, Vec<String>)>,
    /// `--exclude GLOB`: files not analyzed.
    pub exclude: Vec<String>,
}

impl Overrides {
    /// Checks every selector and glob.
    ///
    /// # Errors
    /// A message naming the first selector that matches no rule (with the
    /// nearest rule code or name) or the first glob that does not compile.
    pub fn validate(&self) -> Result<(), String> {
        let all = rules::all();
        let selectors = self
            .select
            .iter()
            .flatten()
            .chain(&self.extend_select)
            .chain(&self.ignore)
            .chain(self.per_file_ignores.iter().flat_map(|(_, r)| r));
        for s in selectors {
            if !all.iter().any(|r| specificity(s, r).is_some()) {
                return Err(format!(
                    "no rule has the code, name or code prefix {}; `skein rules` lists them",
                    quote(s)
                ));
            }
        }
        for g in self
            .exclude
            .iter()
            .chain(self.per_file_ignores.iter().map(|(g, _)| g))
        {
            compile(g).map_err(|e| format!("invalid glob {}: {e}", quote(g)))?;
        }
        Ok(())
    }
}

/// A glob as skein reads them: `/`-separated, `*` within one segment.
fn compile(pattern: &str) -> Result<GlobMatcher, globset::Error> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
}

/// An element of `ignore`: a rule selector or a JSON suppression.
#[derive(Debug)]
pub enum IgnoreItem {
    /// A rule selector.
    Rule(String),
    /// A suppression of one rule at one place of one file.
    At(IgnoreAt),
}

/// A suppression of one rule at a JSON pointer of the files matching `path`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IgnoreAt {
    /// Glob of the files (relative to the folder of `skein.toml`).
    #[schemars(with = "String")]
    pub path: Spanned<String>,
    /// JSON pointer (RFC 6901) of the node, e.g. `/stages/2/gate`; findings
    /// whose primary span lies inside that node are suppressed. Default: the
    /// whole file.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub pointer: Option<Spanned<String>>,
    /// Rule code or name (`*` is refused).
    #[schemars(with = "String")]
    pub rule: Spanned<String>,
    /// Why the finding is accepted. Required.
    #[schemars(with = "String")]
    pub reason: Option<Spanned<String>>,
}

impl<'de> Deserialize<'de> for IgnoreItem {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = IgnoreItem;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a rule selector or a table { path, pointer, rule, reason }")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<IgnoreItem, E> {
                Ok(IgnoreItem::Rule(v.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<IgnoreItem, A::Error> {
                IgnoreAt::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(IgnoreItem::At)
            }
        }
        d.deserialize_any(V)
    }
}

/// One `[[per-path-ignores]]` entry.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PerPathIgnore {
    /// Glob of the files (relative to the folder of `skein.toml`).
    #[schemars(with = "String")]
    pub path: Spanned<String>,
    /// Rule selectors not run on those files.
    #[schemars(with = "Vec<RuleSelector>")]
    pub rules: Vec<Spanned<String>>,
}

/// `per-path-ignores` in either of its two shapes.
#[derive(Debug, Default)]
pub struct PerPathIgnores(pub Vec<PerPathIgnore>);

impl<'de> Deserialize<'de> for PerPathIgnores {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PerPathIgnores;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of { path, rules } tables or a table of GLOB = [rules]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut v = Vec::new();
                while let Some(e) = seq.next_element::<PerPathIgnore>()? {
                    v.push(e);
                }
                Ok(PerPathIgnores(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut v = Vec::new();
                while let Some(path) = map.next_key::<Spanned<String>>()? {
                    let rules = map.next_value::<Vec<Spanned<String>>>()?;
                    v.push(PerPathIgnore { path, rules });
                }
                Ok(PerPathIgnores(v))
            }
        }
        d.deserialize_any(V)
    }
}

// Types that only describe the schema of the shapes deserialized by hand.

/// A rule code (`REF004`), kebab name (`unknown-skill`) or code prefix (`FLOW`).
#[derive(JsonSchema)]
#[schemars(transparent)]
#[allow(dead_code)]
struct RuleSelector(String);

#[derive(JsonSchema)]
#[schemars(untagged)]
#[allow(dead_code)]
enum IgnoreItemSchema {
    /// A rule selector.
    Rule(RuleSelector),
    /// A JSON suppression.
    At(IgnoreAt),
}

#[derive(JsonSchema)]
#[schemars(untagged)]
#[allow(dead_code)]
enum PerPathIgnoresSchema {
    /// `[[per-path-ignores]]` tables.
    List(Vec<PerPathIgnore>),
    /// `GLOB = [selectors]`.
    Table(BTreeMap<String, Vec<RuleSelector>>),
}

/// A format id.
struct FormatId;

impl JsonSchema for FormatId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "FormatId".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let ids: Vec<&str> = Format::ALL.iter().map(|f| f.id()).collect();
        schemars::json_schema!({
            "description": "An artifact format id.",
            "type": "string",
            "enum": ids,
        })
    }
}

/// The JSON Schema of `skein.toml`, pretty-printed with a final newline
/// (the committed `schemas/skein.toml.schema.json`).
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(ConfigFile);
    serde_json::to_string_pretty(&schema).expect("a schema serializes") + "\n"
}

/// A JSON suppression, resolved.
#[derive(Debug)]
pub struct JsonIgnore {
    /// Files it applies to.
    pub glob: GlobMatcher,
    /// The node, if not the whole file.
    pub pointer: Option<String>,
    /// The rule suppressed.
    pub rule: Rule,
    /// The entry's span in `skein.toml`.
    pub span: Span,
}

/// A configuration, resolved and validated.
#[derive(Debug, Default)]
pub struct Config {
    /// The configuration file as shown in the report (path relative to the
    /// analyzed root where possible) and its text.
    pub source: Option<(String, String)>,
    /// Prefix of repo-relative paths to make them relative to the config's folder.
    prefix: String,
    /// `select` and `ignore` selectors as resolved so far (file, then command line).
    select_list: Option<Vec<String>>,
    ignore_list: Vec<String>,
    /// `exclude` + `extend-exclude` (matched on config-relative paths) and
    /// `--exclude` (matched on project-relative paths).
    exclude: Vec<GlobMatcher>,
    cli_exclude: Vec<GlobMatcher>,
    /// `--per-file-ignores` (matched on project-relative paths).
    cli_per_path: Vec<(GlobMatcher, Vec<Rule>)>,
    /// Codes of the rules `select` enables.
    selected: Option<HashSet<&'static str>>,
    /// Codes of the rules `select` enables and `ignore` does not disable.
    active: Option<HashSet<&'static str>>,
    severity: Vec<(&'static str, Severity)>,
    per_path: Vec<(GlobMatcher, Vec<Rule>)>,
    formats: Vec<(GlobMatcher, Format)>,
    /// Component files that Claude Code plugin manifests name by path
    /// (`hooks`, `mcpServers`, `lspServers`), by project-relative path: read
    /// as that format, after the `[formats]` mappings ([`Config::declare`]).
    declared: BTreeMap<String, Format>,
    /// `fail-on`.
    pub fail_on: Option<Severity>,
    /// `fail-on-internal-error` (false when absent).
    pub fail_on_internal_error: bool,
    /// `max-file-size`.
    pub max_file_size: Option<u64>,
    /// `[[ignore]]` JSON suppressions.
    pub json_ignores: Vec<JsonIgnore>,
    /// `cache-dir`: as written by [`Config::parse`], relative to the
    /// configuration file's folder once [`load`] has read it from disk.
    pub cache_dir: Option<PathBuf>,
    /// Problems of the file (in [`CONFIG_FILE`] until the report gives it an id).
    pub diagnostics: Vec<Diagnostic>,
    /// Whether none of the file's settings apply: it is not UTF-8, not
    /// TOML, or has a key of the wrong name or type (see `diagnostics`).
    pub unread: bool,
}

/// Finds the `skein.toml` that applies to `path`: in its folder (its own
/// folder when it is a folder) or the nearest ancestor.
pub fn discover(path: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(path).ok()?;
    let start = if abs.is_file() { abs.parent()? } else { &abs };
    start
        .ancestors()
        .map(|d| d.join(CONFIG_FILE_NAME))
        .find(|c| c.is_file())
}

/// Reads the configuration for an analysis of `root`.
pub fn load(source: &ConfigSource, root: &Path) -> Result<Config, crate::Error> {
    let (file, display) = match source {
        ConfigSource::Isolated => return Ok(Config::default()),
        ConfigSource::File(p) => (p.clone(), p.display().to_string()),
        ConfigSource::Discover => match discover(root) {
            Some(p) => {
                let display = display_path(root, &p);
                (p, display)
            }
            None => return Ok(Config::default()),
        },
    };
    let bytes = std::fs::read(&file).map_err(|source| crate::Error::Config {
        path: file.clone(),
        source,
    })?;
    let prefix = prefix_of(root, &file);
    let mut config = match String::from_utf8(bytes) {
        Ok(text) => Config::parse(display, text, prefix),
        Err(e) => Config::not_utf8(display, &e, prefix),
    };
    if let Some(dir) = config.cache_dir.take() {
        let base = file.parent().unwrap_or(Path::new(""));
        config.cache_dir = Some(base.join(dir));
    }
    Ok(config)
}

/// How the report names a discovered config file: relative to the analyzed
/// root (`skein.toml`, `../../skein.toml`).
fn display_path(root: &Path, config: &Path) -> String {
    let Ok(abs) = std::path::absolute(root) else {
        return config.display().to_string();
    };
    let dir = if abs.is_file() {
        abs.parent().map(Path::to_path_buf).unwrap_or(abs)
    } else {
        abs
    };
    let cfg_dir = config.parent().unwrap_or(Path::new(""));
    match dir.strip_prefix(cfg_dir) {
        Ok(rest) => {
            let ups = rest.components().count();
            format!("{}{CONFIG_FILE_NAME}", "../".repeat(ups))
        }
        Err(_) => config.display().to_string(),
    }
}

/// The path of the analyzed root relative to the config's folder, with a
/// trailing `/` (empty when they are the same folder or unrelated).
fn prefix_of(root: &Path, config: &Path) -> String {
    let (Ok(root), Ok(config)) = (root.canonicalize(), config.canonicalize()) else {
        return String::new();
    };
    let root = if root.is_file() {
        root.parent().map(Path::to_path_buf).unwrap_or(root)
    } else {
        root
    };
    let Some(dir) = config.parent() else {
        return String::new();
    };
    match root.strip_prefix(dir) {
        Ok(rest) if rest.as_os_str().is_empty() => String::new(),
        Ok(rest) => crate::walk::rel_path(dir, &dir.join(rest)).unwrap_or_default() + "/",
        Err(_) => String::new(),
    }
}

fn span(r: std::ops::Range<usize>) -> Span {
    Span::new(r.start, r.end)
}

/// The most problems [`file_errors`] reports in one skein.toml.
const MAX_FILE_ERRORS: usize = 32;

/// `SCH005` findings for a skein.toml that `toml` does not read as a
/// [`ConfigFile`], `first` being its error: a TOML syntax error alone (the
/// rest of the file cannot be read), else every key of the wrong name or
/// type, found by blanking the entry of each error in turn (its line, or
/// a whole `[table]` when the error is on its header) and reading again,
/// as long as the text left is valid TOML (at most [`MAX_FILE_ERRORS`]),
/// in source order.
fn file_errors(text: &str, first: toml::de::Error) -> Vec<Diagnostic> {
    let diagnostic = |e: &toml::de::Error| {
        let s = e.span().map(span).unwrap_or(Span::empty(0));
        let msg = e.message().trim_end().trim_end_matches('.').to_string();
        let mut d = Diagnostic::new(
            INVALID_CONFIG,
            CONFIG_FILE,
            s,
            format!("invalid skein.toml: {msg}"),
        )
        .with_note("no setting of this file applies until it is fixed");
        if msg.starts_with("unknown field") {
            d = d.with_label("unknown key");
        }
        d
    };
    let mut out = vec![diagnostic(&first)];
    let mut bytes = text.as_bytes().to_vec();
    let mut at = first.span();
    while out.len() < MAX_FILE_ERRORS
        && let Some(range) = at.clone()
    {
        blank_entry(&mut bytes, range.start);
        let Ok(left) = std::str::from_utf8(&bytes) else {
            break;
        };
        if left.parse::<toml::Table>().is_err() {
            break;
        }
        match toml::from_str::<ConfigFile>(left) {
            Ok(_) => break,
            Err(e) if e.span() == at => break,
            Err(e) => {
                out.push(diagnostic(&e));
                at = e.span();
            }
        }
    }
    // In the file's order (serde finds them in its own).
    out.sort_by_key(|d| d.primary.span);
    out
}

/// Replaces with spaces (offsets kept) the line of `bytes` holding `at`,
/// or, when that line is a `[table]` header, the table down to the next
/// header.
fn blank_entry(bytes: &mut [u8], at: usize) {
    let at = at.min(bytes.len());
    let start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line_end = |from: usize| {
        bytes[from..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| from + i)
    };
    let mut end = line_end(start);
    if bytes[start..end].trim_ascii_start().starts_with(b"[") {
        while end < bytes.len() {
            let next = end + 1;
            if bytes[next..line_end(next)]
                .trim_ascii_start()
                .starts_with(b"[")
            {
                break;
            }
            end = line_end(next);
        }
    }
    for b in &mut bytes[start..end] {
        if *b != b'\n' {
            *b = b' ';
        }
    }
}

/// The specificity with which `selector` matches `rule`: a code or name
/// matches most specifically, a code prefix by its length.
fn specificity(selector: &str, rule: &Rule) -> Option<usize> {
    if selector.eq_ignore_ascii_case(rule.code) || selector == rule.name {
        Some(usize::MAX)
    } else if !selector.is_empty()
        && rule.code.len() > selector.len()
        && rule.code[..selector.len()].eq_ignore_ascii_case(selector)
    {
        Some(selector.len())
    } else {
        None
    }
}

/// Rules a configuration may not turn off.
fn always_on(rule: &Rule) -> bool {
    rule.code == INVALID_CONFIG.code
}

impl Config {
    /// The configuration of a skein.toml that is not UTF-8 (TOML files are,
    /// by the TOML 1.0 specification): none of its settings, and one
    /// `SCH005` finding at its first byte that is not UTF-8.
    pub fn not_utf8(path: String, e: &std::string::FromUtf8Error, prefix: String) -> Config {
        let at = e.utf8_error().valid_up_to();
        let byte = e.as_bytes()[at];
        let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
        // The text shown has U+FFFD (3 bytes) in place of the bad byte.
        let shown = text[at..].chars().next().map_or(0, char::len_utf8);
        let d = Diagnostic::new(
            INVALID_CONFIG,
            CONFIG_FILE,
            Span::new(at, at + shown),
            format!(
                "invalid skein.toml: byte 0x{byte:02x} is not UTF-8 (a TOML file is UTF-8 text)"
            ),
        )
        .with_label("not UTF-8")
        .with_note("no setting of this file applies until it is fixed");
        Config {
            prefix,
            diagnostics: vec![d],
            source: Some((path, text)),
            unread: true,
            ..Config::default()
        }
    }

    /// Parses and validates a configuration. `path` is how the report names
    /// it; `prefix` is prepended to repo-relative paths before matching globs.
    pub fn parse(path: String, text: String, prefix: String) -> Config {
        let mut cfg = Config {
            prefix,
            ..Config::default()
        };
        let all = rules::all();
        let err = |cfg: &mut Config, s: Span, msg: String, label: &str| {
            cfg.diagnostics.push(
                Diagnostic::new(INVALID_CONFIG, CONFIG_FILE, s, msg).with_label(label.to_string()),
            );
        };
        let file: ConfigFile = match toml::from_str(&text) {
            Ok(f) => f,
            Err(e) => {
                cfg.diagnostics.extend(file_errors(&text, e));
                cfg.source = Some((path, text));
                cfg.unread = true;
                return cfg;
            }
        };
        let selectors = |cfg: &mut Config, list: &[Spanned<String>]| -> Vec<String> {
            let mut out = Vec::new();
            for s in list {
                let v = s.get_ref();
                if all.iter().any(|r| specificity(v, r).is_some()) {
                    out.push(v.clone());
                } else {
                    err(
                        cfg,
                        span(s.span()),
                        format!("no rule has the code, name or code prefix {}", quote(v)),
                        "unknown rule selector",
                    );
                }
            }
            out
        };
        let select = file.select.as_ref().map(|l| selectors(&mut cfg, l));
        let mut ignore_list = Vec::new();
        for item in &file.ignore {
            match item.get_ref() {
                IgnoreItem::Rule(r) => {
                    ignore_list.push(Spanned::new(item.span(), r.clone()));
                }
                IgnoreItem::At(at) => {
                    if let Some(j) = cfg.json_ignore(at, span(item.span()), &all) {
                        cfg.json_ignores.push(j);
                    }
                }
            }
        }
        let ignore = selectors(&mut cfg, &ignore_list);
        cfg.select_list = select;
        cfg.ignore_list = ignore;
        cfg.resolve();
        for g in file.exclude.iter().flatten().chain(&file.extend_exclude) {
            if let Some(m) = cfg.glob(g) {
                cfg.exclude.push(m);
            }
        }
        for (k, v) in &file.severity {
            match all
                .iter()
                .find(|r| specificity(k.get_ref(), r) == Some(usize::MAX))
            {
                Some(r) => cfg.severity.push((r.code, (*v.get_ref()).into())),
                None => err(
                    &mut cfg,
                    span(k.span()),
                    format!("no rule has the code or name {}", quote(k.get_ref())),
                    "unknown rule",
                ),
            }
        }
        for e in &file.per_path_ignores.0 {
            let Some(glob) = cfg.glob(&e.path) else {
                continue;
            };
            let rules = selectors(&mut cfg, &e.rules);
            let rules = all
                .iter()
                .filter(|r| !always_on(r) && rules.iter().any(|s| specificity(s, r).is_some()))
                .copied()
                .collect();
            cfg.per_path.push((glob, rules));
        }
        for (k, v) in &file.formats {
            let Some(glob) = cfg.glob(k) else {
                continue;
            };
            match Format::ALL.iter().find(|f| f.id() == v.get_ref()) {
                Some(f) => cfg.formats.push((glob, *f)),
                None => {
                    let ids: Vec<&str> = Format::ALL.iter().map(|f| f.id()).collect();
                    cfg.diagnostics.push(
                        Diagnostic::new(
                            INVALID_CONFIG,
                            CONFIG_FILE,
                            span(v.span()),
                            format!("no format has the id {}", quote(v.get_ref())),
                        )
                        .with_label("unknown format")
                        .with_note(format!("format ids: {}", ids.join(", "))),
                    );
                }
            }
        }
        cfg.fail_on = file.fail_on.map(|s| (*s.get_ref()).into());
        cfg.fail_on_internal_error = file.fail_on_internal_error.unwrap_or(false);
        cfg.max_file_size = file.max_file_size;
        cfg.cache_dir = file.cache_dir.map(PathBuf::from);
        cfg.source = Some((path, text));
        cfg
    }

    /// Feeds everything this configuration decides into `h`, for the keys
    /// of the persistent cache ([`crate::cache`]): the file's path and text
    /// and every setting resolved from it and from the command line (sets
    /// in sorted order, so the same configuration always hashes the same).
    pub(crate) fn fingerprint(&self, h: &mut impl std::hash::Hasher) {
        let sorted = |s: &Option<HashSet<&'static str>>| {
            s.as_ref().map(|s| {
                let mut v: Vec<&str> = s.iter().copied().collect();
                v.sort_unstable();
                v
            })
        };
        let text = format!(
            "{:?}",
            (
                (&self.source, &self.prefix, &self.select_list),
                (&self.ignore_list, &self.exclude, &self.cli_exclude),
                (
                    &self.cli_per_path,
                    sorted(&self.selected),
                    sorted(&self.active)
                ),
                (
                    &self.severity,
                    &self.per_path,
                    &self.formats,
                    &self.declared
                ),
                (
                    self.fail_on,
                    self.fail_on_internal_error,
                    self.max_file_size
                ),
                (&self.json_ignores, &self.cache_dir, &self.diagnostics),
            )
        );
        h.write(text.as_bytes());
    }

    /// Computes the rules that run from `select_list` and `ignore_list`.
    fn resolve(&mut self) {
        let best = |list: &[String], r: &Rule| list.iter().filter_map(|s| specificity(s, r)).max();
        let mut selected = HashSet::new();
        let mut active = HashSet::new();
        for r in &rules::all() {
            let s = match &self.select_list {
                Some(list) => best(list, r),
                None => Some(0),
            };
            let Some(s) = s.or(always_on(r).then_some(usize::MAX)) else {
                continue;
            };
            selected.insert(r.code);
            if always_on(r) || best(&self.ignore_list, r).is_none_or(|i| s > i) {
                active.insert(r.code);
            }
        }
        self.selected = Some(selected);
        self.active = Some(active);
    }

    /// Applies the command line's settings ([`Overrides`], validated with
    /// [`Overrides::validate`]; an invalid glob or selector is skipped here).
    pub fn apply(&mut self, o: &Overrides) {
        if o.select.is_some() || !o.extend_select.is_empty() || !o.ignore.is_empty() {
            if let Some(select) = &o.select {
                self.select_list = Some(select.clone());
            }
            if let Some(list) = &mut self.select_list {
                list.extend(o.extend_select.iter().cloned());
            }
            self.ignore_list.extend(o.ignore.iter().cloned());
            self.resolve();
        }
        let all = rules::all();
        for (glob, selectors) in &o.per_file_ignores {
            let Ok(m) = compile(glob) else { continue };
            let rules = all
                .iter()
                .filter(|r| !always_on(r) && selectors.iter().any(|s| specificity(s, r).is_some()))
                .copied()
                .collect();
            self.cli_per_path.push((m, rules));
        }
        self.cli_exclude
            .extend(o.exclude.iter().filter_map(|g| compile(g).ok()));
    }

    /// Whether `exclude`, `extend-exclude` or `--exclude` leaves the
    /// project-relative `rel` out of the analysis.
    pub fn excluded(&self, rel: &str) -> bool {
        (!self.exclude.is_empty() && {
            let p = self.glob_path(rel);
            self.exclude.iter().any(|g| g.is_match(&p))
        }) || self.cli_exclude.iter().any(|g| g.is_match(rel))
    }

    /// The rules that run, in code order (for `--show-settings`).
    pub fn active_rules(&self, no_ignores: bool) -> Vec<Rule> {
        rules::all()
            .into_iter()
            .filter(|r| self.enabled(r, no_ignores))
            .collect()
    }

    fn glob(&mut self, pattern: &Spanned<String>) -> Option<GlobMatcher> {
        match GlobBuilder::new(pattern.get_ref())
            .literal_separator(true)
            .build()
        {
            Ok(g) => Some(g.compile_matcher()),
            Err(e) => {
                self.diagnostics.push(
                    Diagnostic::new(
                        INVALID_CONFIG,
                        CONFIG_FILE,
                        span(pattern.span()),
                        format!("invalid glob {}: {}", quote(pattern.get_ref()), e.kind()),
                    )
                    .with_label("not a glob"),
                );
                None
            }
        }
    }

    fn json_ignore(&mut self, at: &IgnoreAt, entry: Span, all: &[Rule]) -> Option<JsonIgnore> {
        let glob = self.glob(&at.path);
        let rule_text = at.rule.get_ref();
        let rule = all
            .iter()
            .find(|r| specificity(rule_text, r) == Some(usize::MAX));
        let mut ok = glob.is_some();
        if rule_text == "*" {
            ok = false;
            self.diagnostics.push(
                Diagnostic::new(
                    crate::suppress::BLANKET_SUPPRESSION,
                    CONFIG_FILE,
                    span(at.rule.span()),
                    "`*` would suppress every rule here; this entry is not applied",
                )
                .with_label("name one rule")
                .with_help("name the rule the finding is of, e.g. `rule = \"REF004\"`"),
            );
        } else if rule.is_none() {
            ok = false;
            self.diagnostics.push(
                Diagnostic::new(
                    INVALID_CONFIG,
                    CONFIG_FILE,
                    span(at.rule.span()),
                    format!("no rule has the code or name {}", quote(rule_text)),
                )
                .with_label("unknown rule"),
            );
        }
        if at
            .reason
            .as_ref()
            .is_none_or(|r| r.get_ref().trim().is_empty())
        {
            ok = false;
            self.diagnostics.push(
                Diagnostic::new(
                    INVALID_CONFIG,
                    CONFIG_FILE,
                    at.reason.as_ref().map_or(entry, |r| span(r.span())),
                    "an `[[ignore]]` entry needs a `reason`; this entry is not applied",
                )
                .with_label("no reason")
                .with_help("add `reason = \"...\"`: why this finding is accepted"),
            );
        }
        if let Some(p) = &at.pointer
            && !(p.get_ref().is_empty() || p.get_ref().starts_with('/'))
        {
            ok = false;
            self.diagnostics.push(
                Diagnostic::new(
                    INVALID_CONFIG,
                    CONFIG_FILE,
                    span(p.span()),
                    format!(
                        "{} is not a JSON pointer (a pointer starts with `/`, or is empty for the whole file)",
                        quote(p.get_ref())
                    ),
                )
                .with_label("not a JSON pointer"),
            );
        }
        if !ok {
            return None;
        }
        Some(JsonIgnore {
            glob: glob?,
            pointer: at.pointer.as_ref().map(|p| p.get_ref().clone()),
            rule: *rule?,
            span: span(at.rule.span()),
        })
    }

    /// The path as the config's globs see it.
    pub fn glob_path(&self, rel: &str) -> String {
        format!("{}{rel}", self.prefix)
    }

    /// The format `[formats]` maps a repo-relative path to (the first
    /// matching glob, in key order).
    pub fn format_for(&self, rel: &str) -> Option<Format> {
        if !self.formats.is_empty() {
            let p = self.glob_path(rel);
            if let Some((_, f)) = self.formats.iter().find(|(g, _)| g.is_match(&p)) {
                return Some(*f);
            }
        }
        if self.declared.is_empty() {
            return None;
        }
        self.declared.get(rel).copied()
    }

    /// Reads the file at `rel` (project-relative) as `format` when no
    /// `[formats]` mapping says otherwise: a component file a plugin
    /// manifest names by a path skein's conventions do not know. The first
    /// declaration of a path wins.
    pub fn declare(&mut self, rel: String, format: Format) {
        self.declared.entry(rel).or_insert(format);
    }

    /// Whether `select` (and, unless `no_ignores`, `ignore`) leaves `rule` on.
    pub fn enabled(&self, rule: &Rule, no_ignores: bool) -> bool {
        let set = if no_ignores {
            &self.selected
        } else {
            &self.active
        };
        set.as_ref().is_none_or(|s| s.contains(rule.code))
    }

    /// Whether `per-path-ignores` (or `--per-file-ignores`) turns `rule` off
    /// for the repo-relative `rel`.
    pub fn ignored_at(&self, rule: &Rule, rel: &str) -> bool {
        if self
            .cli_per_path
            .iter()
            .any(|(g, rules)| rules.iter().any(|r| r.code == rule.code) && g.is_match(rel))
        {
            return true;
        }
        if self.per_path.is_empty() {
            return false;
        }
        let p = self.glob_path(rel);
        self.per_path
            .iter()
            .any(|(g, rules)| rules.iter().any(|r| r.code == rule.code) && g.is_match(&p))
    }

    /// The severity `[severity]` gives `rule`, if any.
    pub fn severity_of(&self, rule: &Rule) -> Option<Severity> {
        self.severity
            .iter()
            .find(|(c, _)| *c == rule.code)
            .map(|(_, s)| *s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Config {
        Config::parse("skein.toml".into(), text.into(), String::new())
    }

    #[test]
    fn unknown_key_points_at_the_key() {
        let text = "select = [\"FLOW\"]\nignores = [\"REF004\"]\n";
        let c = parse(text);
        assert_eq!(c.diagnostics.len(), 1, "{:?}", c.diagnostics);
        let d = &c.diagnostics[0];
        assert_eq!(&text[d.primary.span.range()], "ignores");
        assert!(
            d.message.contains("unknown field `ignores`"),
            "{}",
            d.message
        );
    }

    #[test]
    fn every_key_of_the_wrong_name_or_type_is_reported_once() {
        let text = "select = 3\nignore = [\n  \"x\",\n  4,\n]\nfoo = 1\n[bar]\nx = 1\n\n[per-path-ignores]\n\"a/**\" = [\"REF\"]\n";
        let c = parse(text);
        let got: Vec<(&str, &str)> = c
            .diagnostics
            .iter()
            .map(|d| (&text[d.primary.span.range()], d.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "3",
                    "invalid skein.toml: invalid type: integer `3`, expected a sequence"
                ),
                (
                    "4",
                    "invalid skein.toml: invalid type: integer `4`, expected a rule selector or a table { path, pointer, rule, reason }"
                ),
                (
                    "foo",
                    "invalid skein.toml: unknown field `foo`, expected one of `select`, `ignore`, `severity`, `per-path-ignores`, `formats`, `fail-on`, `fail-on-internal-error`, `max-file-size`, `exclude`, `extend-exclude`, `cache-dir`"
                ),
                (
                    "bar",
                    "invalid skein.toml: unknown field `bar`, expected one of `select`, `ignore`, `severity`, `per-path-ignores`, `formats`, `fail-on`, `fail-on-internal-error`, `max-file-size`, `exclude`, `extend-exclude`, `cache-dir`"
                ),
            ]
        );
        // A TOML syntax error: that one alone.
        let text = "select = [\nfoo = 1\n";
        assert_eq!(parse(text).diagnostics.len(), 1);
    }

    #[test]
    fn a_file_that_is_not_utf8_is_one_finding_at_its_first_bad_byte() {
        let bytes = b"select = [\"FLOW\"]\n# caf\xe9\n".to_vec();
        let e = String::from_utf8(bytes).unwrap_err();
        let c = Config::not_utf8("skein.toml".into(), &e, String::new());
        let d: Vec<(Span, &str)> = c
            .diagnostics
            .iter()
            .map(|d| (d.primary.span, d.message.as_str()))
            .collect();
        assert_eq!(
            d,
            [(
                Span::new(23, 26),
                "invalid skein.toml: byte 0xe9 is not UTF-8 (a TOML file is UTF-8 text)"
            )]
        );
        assert_eq!(c.select_list, None, "no setting applies");
    }

    #[test]
    fn selectors_severity_and_both_shapes() {
        let text = r#"
select = ["FLOW", "REF"]
ignore = ["FLOW002", "unknown-skill", { path = "a/loop.json", pointer = "/stages/0", rule = "FLOW001", reason = "vendored" }]
fail-on = "warning"
[severity]
REF004 = "info"
[per-path-ignores]
"legacy/**" = ["REF"]
[formats]
"custom/*.json" = "skilldrop-loop"
"#;
        let c = parse(text);
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        let r = |code| rules::find(code).unwrap();
        assert!(c.enabled(&r("FLOW001"), false));
        assert!(!c.enabled(&r("FLOW002"), false));
        assert!(c.enabled(&r("FLOW002"), true));
        assert!(!c.enabled(&r("unknown-skill"), false), "ignored by name");
        assert!(
            c.enabled(&r("REF001"), false),
            "selected by category, not ignored"
        );
        assert!(!c.enabled(&r("SYN001"), false));
        assert!(c.enabled(&INVALID_CONFIG, false));
        assert_eq!(c.severity_of(&r("REF004")), Some(Severity::Info));
        assert!(c.ignored_at(&r("REF004"), "legacy/x/SKILL.md"));
        assert!(!c.ignored_at(&r("REF004"), "x/SKILL.md"));
        assert_eq!(c.format_for("custom/a.json"), Some(Format::SkilldropLoop));
        assert_eq!(c.format_for("custom/b/a.json"), None);
        assert_eq!(c.fail_on, Some(Severity::Warning));
        assert_eq!(c.json_ignores.len(), 1);
        let c = parse("[[per-path-ignores]]\npath = \"x/**\"\nrules = [\"SCH\"]\n");
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
        assert!(c.ignored_at(&r("SCH001"), "x/y/SKILL.md"));
    }

    #[test]
    fn invalid_values_point_at_the_value() {
        let text = "select = [\"NOPE\"]\nfail-on = \"fatal\"\n";
        let c = parse(text);
        assert_eq!(c.diagnostics.len(), 1, "{:?}", c.diagnostics);
        assert_eq!(&text[c.diagnostics[0].primary.span.range()], "\"fatal\"");
        let text = "select = [\"NOPE\"]\n[formats]\n\"x/*.json\" = \"yaml\"\n[[ignore]]\npath = \"a.json\"\nrule = \"REF004\"\n";
        let c = parse(text);
        let spans: Vec<&str> = c
            .diagnostics
            .iter()
            .map(|d| &text[d.primary.span.range()])
            .collect();
        assert_eq!(spans.len(), 3, "{:?}", c.diagnostics);
        assert!(spans.contains(&"\"NOPE\""));
        assert!(spans.contains(&"\"yaml\""));
    }
}
