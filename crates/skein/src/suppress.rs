//! Inline suppressions and the configuration's filters, applied to the
//! sorted findings of a run (DESIGN.md §2, "suppressions/config").
//!
//! A YAML comment (in a YAML file or in Markdown frontmatter)
//! `# skein: ignore[CODE, name] reason`, or in a Markdown body an HTML comment
//! `<!-- skein: ignore[CODE] reason -->` outside fenced code blocks,
//! suppresses findings of the named rules whose primary span starts or ends
//! on the comment's lines, covers them, or starts on the line below the
//! comment. Codes are exact rule codes or names (no prefixes). The reason is
//! required; `ignore[*]` is refused. A suppression that suppresses nothing is
//! itself reported. `--no-ignores` turns every suppression off, for audits.

use crate::config::{CONFIG_FILE, Config, INVALID_CONFIG, JsonIgnore};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, FileId, Rule, Severity, SourceMap, Span, quote};
use std::collections::HashMap;

/// SYN013: a suppression comment is malformed, has no reason, or names no rule.
pub const INVALID_SUPPRESSION: Rule = Rule {
    code: "SYN013",
    name: "invalid-suppression",
    severity: Severity::Warning,
    summary: "a suppression comment is malformed, names no rule, or gives no reason",
    doc: "## What it does\nReports a comment starting `skein:` that is not \
`skein: ignore[CODE, ...] reason`: the list is not closed or empty, a code names no rule, or \
the reason after `]` is missing. A suppression without a reason, or one that cannot be read, is \
not applied; unknown codes are skipped and the others in the list still apply.\n\n## Why is \
this bad?\nA suppression hides a finding from every later reader; the reason is the only record \
of why the finding was accepted. A misspelt code hides nothing.\n\n## Example\n```yaml\n\
# skein: ignore[REF004]\nname: legacy-review\n```\nUse instead:\n```yaml\n\
# skein: ignore[REF004] loaded by the legacy runner, which skein does not model\n\
name: legacy-review\n```",
    fix: None,
};

/// SYN014: a suppression names `*` (every rule).
pub const BLANKET_SUPPRESSION: Rule = Rule {
    code: "SYN014",
    name: "blanket-suppression",
    severity: Severity::Warning,
    summary: "a suppression names `*` instead of a rule",
    doc: "## What it does\nReports `skein: ignore[*]` in a comment, or `rule = \"*\"` in an \
`[[ignore]]` entry of `skein.toml`, and does not apply it.\n\n## Why is this bad?\nA blanket \
suppression hides every finding on its lines, including ones that appear later and were never \
reviewed.\n\n## Example\n```yaml\nname: Review # skein: ignore[*] legacy\n```\nUse instead: \
name the rule, `# skein: ignore[SCH001] legacy name kept for old loaders`.",
    fix: None,
};

/// SYN015: a suppression suppresses nothing.
pub const UNUSED_SUPPRESSION: Rule = Rule {
    code: "SYN015",
    name: "unused-suppression",
    severity: Severity::Warning,
    summary: "a suppression matches no finding",
    doc: "## What it does\nReports a code in a `skein: ignore[...]` comment, or an `[[ignore]]` \
entry of `skein.toml`, that suppressed no finding in this run. Codes of rules that \
configuration turns off for the file are not reported.\n\n## Why is this bad?\nThe problem it \
was written for is gone (or it sits on the wrong line); left in place it would silently hide a \
new finding of the same rule there.\n\n## Example\n```yaml\n# skein: ignore[FLOW001] stage is \
entered by hand\nname: review\n```\nwhen no FLOW001 finding is on the next line: remove the \
comment.\n\n## Fix\nSafe: the fix removes the unused code from the comment's list, or the whole \
comment (its line, when nothing else is on it) when none of its codes suppressed anything. \
Comments change no value of the file, and the code suppressed nothing in this run. An \
`[[ignore]]` entry of `skein.toml` is not removed by a fix.",
    fix: Some(skein_syntax::Applicability::Safe),
};

/// The rules of this module.
pub const ALL: &[Rule] = &[INVALID_SUPPRESSION, BLANKET_SUPPRESSION, UNUSED_SUPPRESSION];

/// Rules whose findings no suppression hides.
fn unsuppressible(rule: &Rule) -> bool {
    rule.code == INVALID_CONFIG.code
        || rule.code == skein_lint::INTERNAL_ERROR.code
        || ALL.iter().any(|r| r.code == rule.code)
}

/// One code of a suppression comment.
#[derive(Debug)]
struct Code {
    rule: Rule,
    span: Span,
    used: bool,
}

/// A suppression comment.
#[derive(Debug)]
struct Directive {
    /// 0-based first and last line of the comment.
    lines: (usize, usize),
    codes: Vec<Code>,
    /// The whole comment.
    span: Span,
}

/// SYN015's fix: the code `c` taken out of its list (with one comma and
/// the spaces beside it), or, when no code of the comment suppressed
/// anything, the whole comment: its line when nothing else is on it, else
/// the comment and the blanks before it.
fn unused_fix(text: &str, dir: &Directive, c: &Code) -> skein_syntax::Fix {
    use skein_syntax::{Edit, Fix};
    let blank = |s: &str| s.chars().all(|ch| ch == ' ' || ch == '\t');
    if dir.codes.iter().all(|k| !k.used) {
        let (s, e) = (dir.span.start as usize, dir.span.end as usize);
        let line_start = text[..s].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[e..].find('\n').map_or(text.len(), |i| e + i + 1);
        let before = &text[line_start..s];
        let after = text[e..line_end].trim_end_matches(['\n', '\r']);
        let span = if blank(before) && blank(after) {
            Span::new(line_start, line_end)
        } else {
            let lead = before.len() - before.trim_end_matches([' ', '\t']).len();
            Span::new(s - lead, e)
        };
        return Fix::safe("remove the suppression comment", vec![Edit::delete(span)]);
    }
    let (s, e) = (c.span.start as usize, c.span.end as usize);
    let rest = &text[e..];
    let trimmed = rest.trim_start_matches([' ', '\t']);
    let span = if let Some(after_comma) = trimmed.strip_prefix(',') {
        let gap = after_comma.len() - after_comma.trim_start_matches([' ', '\t']).len();
        Span::new(s, e + (rest.len() - after_comma.len()) + gap)
    } else {
        let before = text[..s].trim_end_matches([' ', '\t']);
        match before.strip_suffix(',') {
            Some(b) => Span::new(b.len(), e),
            None => Span::new(s, e),
        }
    };
    Fix::safe(
        format!("remove {} from the suppression", c.rule.code),
        vec![Edit::delete(span)],
    )
}

/// Reads the `skein:` directives of a file's comments. Returns the valid
/// directives and diagnostics about the others.
fn directives(
    file: FileId,
    text: &str,
    comments: &[Span],
    lines: &skein_syntax::LineIndex,
) -> (Vec<Directive>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for &c in comments {
        let raw = &text[c.range()];
        // Body of the comment and its offset in the file.
        let (body, at) = if let Some(b) = raw.strip_prefix('#') {
            (b, c.start as usize + 1)
        } else if let Some(b) = raw.strip_prefix("<!--") {
            (b.strip_suffix("-->").unwrap_or(b), c.start as usize + 4)
        } else {
            continue;
        };
        let lead = body.len() - body.trim_start().len();
        let Some(rest) = body[lead..].strip_prefix("skein:") else {
            continue;
        };
        let mut pos = at + lead + "skein:".len();
        let invalid = |msg: String, label: &str| {
            Diagnostic::new(INVALID_SUPPRESSION, file, c, msg)
                .with_label(label.to_string())
                .with_help("write `skein: ignore[CODE] reason`, e.g. `# skein: ignore[REF004] loaded by the legacy runner`")
        };
        let r = rest.trim_start();
        pos += rest.len() - r.len();
        let Some(list) = r.strip_prefix("ignore[") else {
            diags.push(invalid(
                "a `skein:` comment that is not `skein: ignore[CODE] reason`; it is not applied"
                    .into(),
                "not a suppression",
            ));
            continue;
        };
        pos += "ignore[".len();
        let Some(close) = list.find(']') else {
            diags.push(invalid(
                "the code list of this suppression is not closed with `]`; it is not applied"
                    .into(),
                "no `]`",
            ));
            continue;
        };
        let reason = list[close + 1..].trim();
        let mut codes = Vec::new();
        let mut blanket = None;
        let mut empty = true;
        let mut off = pos;
        for part in list[..close].split(',') {
            let lead = part.len() - part.trim_start().len();
            let name = part.trim();
            let s = Span::new(off + lead, off + lead + name.len());
            off += part.len() + 1;
            if name.is_empty() {
                continue;
            }
            empty = false;
            if name == "*" {
                blanket = Some(s);
                continue;
            }
            match crate::rules::find(name) {
                Some(rule) => codes.push(Code {
                    rule,
                    span: s,
                    used: false,
                }),
                None => diags.push(
                    Diagnostic::new(
                        INVALID_SUPPRESSION,
                        file,
                        s,
                        format!("no rule has the code or name {}", quote(name)),
                    )
                    .with_label("unknown rule")
                    .with_help("`skein rules` lists the codes"),
                ),
            }
        }
        if let Some(s) = blanket {
            diags.push(
                Diagnostic::new(
                    BLANKET_SUPPRESSION,
                    file,
                    s,
                    "`ignore[*]` would suppress every rule here; this suppression is not applied",
                )
                .with_label("name the rules")
                .with_help("name the rules of the findings, e.g. `ignore[SCH001]`"),
            );
            continue;
        }
        if empty {
            diags.push(invalid(
                "this suppression names no rule; it is not applied".into(),
                "empty `ignore[]`",
            ));
            continue;
        }
        if reason.is_empty() {
            diags.push(
                Diagnostic::new(
                    INVALID_SUPPRESSION,
                    file,
                    c,
                    "this suppression gives no reason; it is not applied",
                )
                .with_label("no reason after `]`")
                .with_help("say why the finding is accepted: `skein: ignore[CODE] reason`"),
            );
            continue;
        }
        if codes.is_empty() {
            continue;
        }
        let first = lines.line_of(c.start as usize);
        let last = lines.line_of((c.end as usize).saturating_sub(1).max(c.start as usize));
        out.push(Directive {
            lines: (first, last),
            codes,
            span: c,
        });
    }
    (out, diags)
}

/// What [`finish`] needs about a run.
pub(crate) struct Run<'a> {
    pub config: &'a Config,
    pub config_file: Option<FileId>,
    pub no_ignores: bool,
    pub sources: &'a SourceMap,
    pub artifacts: &'a [Artifact],
    /// Comments of each file, by file id.
    pub comments: &'a [(FileId, Vec<Span>)],
}

/// Applies severity overrides, `select`/`ignore`, `per-path-ignores`,
/// `[[ignore]]` entries and inline suppressions to `diagnostics`, and adds the
/// diagnostics about the configuration and the suppressions themselves.
pub(crate) fn finish(run: Run<'_>, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let cfg = run.config;
    let path_of = |f: FileId| -> &str {
        if Some(f) == run.config_file || f == CONFIG_FILE {
            ""
        } else {
            run.sources.get(f).path()
        }
    };
    let active = |d: &Diagnostic| -> bool {
        cfg.enabled(&d.rule, run.no_ignores)
            && (run.no_ignores || !cfg.ignored_at(&d.rule, path_of(d.primary.file)))
    };
    // Directives of every file with comments.
    let mut per_file: HashMap<FileId, Vec<Directive>> = HashMap::new();
    let mut meta = Vec::new();
    for (file, comments) in run.comments {
        if comments.is_empty() {
            continue;
        }
        let src = run.sources.get(*file);
        let (ds, diags) = directives(*file, src.text(), comments, src.lines());
        meta.extend(diags);
        if !ds.is_empty() {
            per_file.insert(*file, ds);
        }
    }
    let docs: HashMap<FileId, &Artifact> = run.artifacts.iter().map(|a| (a.file, a)).collect();
    let mut json_used = vec![false; cfg.json_ignores.len()];
    let mut kept = Vec::with_capacity(diagnostics.len());
    for mut d in diagnostics {
        if let Some(s) = cfg.severity_of(&d.rule) {
            d.severity = s;
        }
        if !active(&d) {
            continue;
        }
        if run.no_ignores || unsuppressible(&d.rule) {
            kept.push(d);
            continue;
        }
        let file = d.primary.file;
        // `[[ignore]]` entries of the configuration.
        let mut hit = false;
        for (i, j) in cfg.json_ignores.iter().enumerate() {
            if j.rule.code == d.rule.code && json_matches(j, cfg, path_of(file), &d, &docs) {
                json_used[i] = true;
                hit = true;
            }
        }
        // Comments on the finding's lines or the line above.
        if let Some(ds) = per_file.get_mut(&file) {
            let lines = run.sources.get(file).lines();
            let span = d.primary.span;
            let a = lines.line_of(span.start as usize);
            let b = lines.line_of(
                (span.end as usize)
                    .saturating_sub(1)
                    .max(span.start as usize),
            );
            for dir in ds.iter_mut() {
                let (cs, ce) = dir.lines;
                if !(ce + 1 == a || (cs <= b && ce >= a)) {
                    continue;
                }
                for c in dir.codes.iter_mut() {
                    if c.rule.code == d.rule.code {
                        c.used = true;
                        hit = true;
                    }
                }
            }
        }
        if !hit {
            kept.push(d);
        }
    }
    if !run.no_ignores {
        for (file, ds) in &per_file {
            for dir in ds {
                for c in dir.codes.iter().filter(|c| !c.used) {
                    let on = cfg.enabled(&c.rule, false)
                        && !cfg.ignored_at(&c.rule, path_of(*file))
                        && !unsuppressible(&c.rule);
                    if on {
                        meta.push(
                            Diagnostic::new(
                                UNUSED_SUPPRESSION,
                                *file,
                                c.span,
                                format!(
                                    "suppression of {} ({}) matches no finding",
                                    c.rule.code, c.rule.name
                                ),
                            )
                            .with_label("nothing to suppress on this line or the next")
                            .with_help("remove it, or move it onto the line of the finding or the line above")
                            .with_fix(unused_fix(run.sources.get(*file).text(), dir, c)),
                        );
                    }
                }
            }
        }
        for (j, used) in cfg.json_ignores.iter().zip(&json_used) {
            if !used && cfg.enabled(&j.rule, false) {
                meta.push(
                    Diagnostic::new(
                        UNUSED_SUPPRESSION,
                        CONFIG_FILE,
                        j.span,
                        format!(
                            "`[[ignore]]` entry for {} ({}) matches no finding",
                            j.rule.code, j.rule.name
                        ),
                    )
                    .with_label("nothing to suppress")
                    .with_help("remove the entry, or check its `path` and `pointer`"),
                );
            }
        }
    }
    meta.extend(cfg.diagnostics.iter().cloned());
    for mut d in meta {
        if let Some(s) = cfg.severity_of(&d.rule) {
            d.severity = s;
        }
        if d.primary.file == CONFIG_FILE {
            let Some(id) = run.config_file else {
                continue;
            };
            d.primary.file = id;
        }
        if active(&d) {
            kept.push(d);
        }
    }
    kept
}

fn json_matches(
    j: &JsonIgnore,
    cfg: &Config,
    rel: &str,
    d: &Diagnostic,
    docs: &HashMap<FileId, &Artifact>,
) -> bool {
    if !j.glob.is_match(cfg.glob_path(rel)) {
        return false;
    }
    let Some(pointer) = j.pointer.as_deref().filter(|p| !p.is_empty()) else {
        return true;
    };
    let Some(a) = docs.get(&d.primary.file) else {
        return false;
    };
    match a.document.pointer(pointer) {
        Some((node, true)) => {
            let mut s = a.document.node(node).span;
            // A mapping value's key belongs to it too.
            if let Some(k) = a.document.key_of(node) {
                let ks = a.document.node(k).span;
                s = Span::new(ks.start.min(s.start) as usize, s.end as usize);
            }
            let p = d.primary.span;
            s.start <= p.start && p.end <= s.end
        }
        _ => false,
    }
}
