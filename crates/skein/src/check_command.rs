//! `skein check`: runs the analysis of each named path's project and
//! prints the report in the chosen format (issue #14: projects, views,
//! paths from the current folder, rule-selection flags, statistics).

use crate::{print, progress};
use anyhow::Context;
use skein::cli::{CheckArgs, Color, OutputFormat};
use skein::{Options, rules};
use skein_report::{HumanOptions, JsonReport, render_human};
use skein_report::{SarifBuilder, render_concise_with, render_github};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

pub(crate) fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start worker threads")?;
    // Everything runs on the pool, the report's writers included: rayon's
    // global pool has a thread per CPU, so work done outside this one would
    // not honour `--threads`.
    pool.install(|| check_on_pool(args, threads))
}

/// [`check`] on the pool of `threads` workers it made.
fn check_on_pool(args: CheckArgs, threads: usize) -> anyhow::Result<ExitCode> {
    let overrides = overrides(&args)?;
    if args.statistics && matches!(args.format, OutputFormat::Sarif | OutputFormat::Github) {
        anyhow::bail!(
            "--statistics prints a table (human, concise) or JSON: not --format sarif or github"
        );
    }
    if (args.show_settings || args.show_files)
        && matches!(
            args.format,
            OutputFormat::Json | OutputFormat::Sarif | OutputFormat::Github
        )
    {
        anyhow::bail!(
            "--show-settings and --show-files print text (human, concise): not --format json, sarif or github"
        );
    }
    // `skein check - --stdin-filename PATH` (or `--stdin-filename` alone):
    // standard input is that file of its project.
    let stdin_path = match (
        &args.stdin_filename,
        args.paths.iter().any(|p| p == Path::new("-")),
    ) {
        (None, true) => anyhow::bail!(
            "reading standard input (`-`) needs --stdin-filename PATH: the file of the project it stands for"
        ),
        // `-` alone, or no path at all: another path beside `-` (even
        // `.`) would be dropped in silence, so it is refused.
        (Some(p), _) if args.paths.is_empty() || args.paths == [Path::new("-")] => Some(p.clone()),
        (Some(_), _) => {
            anyhow::bail!("--stdin-filename reads standard input: name no other path than `-`")
        }
        _ => None,
    };
    let paths = match &stdin_path {
        Some(p) => vec![p.clone()],
        None if args.paths.is_empty() => vec![PathBuf::from(".")],
        None => args.paths.clone(),
    };
    let mut overlay = None;
    if let Some(p) = &stdin_path {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .context("cannot read standard input")?;
        let located = skein::locate_new(p)?;
        overlay = Some(skein::InputFile::new(located.view, bytes));
    }
    let options = Options {
        overrides,
        overlay,
        max_file_size: args.max_file_size,
        threads,
        config: match (&args.config, args.isolated) {
            (Some(p), _) => skein::ConfigSource::File(p.clone()),
            (None, true) => skein::ConfigSource::Isolated,
            (None, false) => skein::ConfigSource::Discover,
        },
        no_ignores: args.no_ignores,
        no_ignore_files: args.no_ignore_files,
        progress: show_progress(&args).then(|| Arc::new(skein::Progress::default())),
        cache: (!args.no_cache).then(|| skein::cache::CacheSettings {
            dir: args.cache_dir.clone(),
            replay: true,
            ..Default::default()
        }),
        // Only what the findings need is kept (issue #17): the report is
        // rendered and dropped.
        retention: skein::Retention::Lean,
        ..Options::default()
    };
    let baseline = match &args.baseline {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read baseline {}", file.display()))?;
            let b = skein::baseline::Baseline::from_json(&text)
                .map_err(|e| anyhow::anyhow!("invalid baseline {}: {e}", file.display()))?;
            Some(b)
        }
        None => None,
    };
    let mut matches = skein::baseline::Matches::default();
    let mut written = skein::baseline::Baseline::new();
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            args.output.is_none()
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let runs = projects(&paths, args.no_project, stdin_path.is_some())?;
    let fixing = args.fix || args.fix_only || args.diff;
    if fixing && stdin_path.is_some() {
        anyhow::bail!(
            "--fix, --fix-only and --diff change files on disk: not standard input (`-`)"
        );
    }
    if args.unsafe_fixes && !fixing {
        anyhow::bail!("--unsafe-fixes goes with --fix, --fix-only or --diff");
    }
    let mut fixed = Fixed::default();
    if fixing && !args.show_settings && !args.show_files {
        let fix_options = skein::fix::FixOptions {
            unsafe_fixes: args.unsafe_fixes,
            ..Default::default()
        };
        for run in &runs {
            let r = skein::fix::fix_project(&run.root, &options, &run.view, &fix_options)?;
            fixed.add(run, r, args.diff)?;
        }
        if args.diff || args.fix_only {
            return fixed.finish(&args);
        }
    }
    if args.show_settings || args.show_files {
        let mut out = String::new();
        for run in &runs {
            out.push_str(&if args.show_settings {
                settings(run, &options)?
            } else {
                files(run, &options)?
            });
        }
        print(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut statistics: std::collections::BTreeMap<(&'static str, &'static str), usize> =
        std::collections::BTreeMap::new();
    let multiple = runs.len() > 1;
    let mut any_error = false;
    let mut internal_failure = false;
    let mut files_read = 0;
    let mut json_runs = Vec::new();
    let mut json_text = Vec::new();
    let mut output = String::new();
    let mut sarif = SarifBuilder::new(&rules::all());
    let last = runs.len().saturating_sub(1);
    let cwd = std::env::current_dir().and_then(std::fs::canonicalize).ok();
    let views: Vec<String> = runs.iter().flat_map(|r| r.view.iter().cloned()).collect();
    for (i, run) in runs.iter().enumerate() {
        let watch = options
            .progress
            .clone()
            .map(|p| progress::Watch::start(p, run.label.clone()));
        if !args.silent
            && let Some(why) = skein::cache::refusal(&run.root, &options)
        {
            eprintln!(
                "skein: warning: {why}: this run keeps no cache (`--cache-dir` names another folder)"
            );
        }
        let mut report = skein::check(&run.root, &options)?;
        if let Some(w) = watch {
            w.finish();
        }
        for (named, rel) in &run.files {
            if report.read_file(rel) || args.silent {
                continue;
            }
            let candidate = skein::skein_model::classify_path(rel);
            if candidate
                .is_some_and(|c| c.format == skein::skein_model::Format::ClaudePluginSettings)
            {
                eprintln!(
                    "skein: warning: {} was not analyzed: skein reads a `settings.json` in `.claude/`, in `.gemini/`, or at a plugin root (beside `.claude-plugin/plugin.json`), and this one is in none of them",
                    named.display()
                );
            } else if candidate.is_some() {
                // A kind skein reads, left out by the walk's filters.
                eprintln!(
                    "skein: warning: {} was not analyzed: `.gitignore` (or `.ignore`), an `exclude` glob, or its place below a plugin skill's folder leaves it out (`--no-ignore-files` reads ignored files)",
                    named.display()
                );
            } else {
                eprintln!(
                    "skein: warning: {} is not a kind of file skein reads (README, \"What it recognises\"); nothing in it was analyzed",
                    named.display()
                );
            }
        }
        report.restrict(&run.view);
        files_read += report.summary().files_read;
        if args.write_baseline.is_some() {
            written.add(report.diagnostics(), report.sources());
        }
        if let Some(b) = &baseline {
            report.apply_baseline(b, &mut matches);
        }
        // Paths from the current folder in every format (issue #14).
        if let (Some(cwd), Ok(root)) = (&cwd, run.base()) {
            report.relocate(&root, cwd);
        }
        let fail_on = args
            .fail_on
            .map(Into::into)
            .or(report.fail_on())
            .unwrap_or(skein_syntax::Severity::Error);
        any_error |= report.has_at_least(fail_on);
        internal_failure |= report.has_internal_error()
            && (args.fail_on_internal_error || report.fail_on_internal_error());
        for d in report.diagnostics() {
            *statistics.entry((d.rule.code, d.rule.name)).or_default() += 1;
        }
        let summary = !args.quiet && !args.statistics;
        report.index_lines();
        match args.format {
            OutputFormat::Human => {
                let mut out = render_human(
                    report.diagnostics(),
                    report.sources(),
                    HumanOptions {
                        unsafe_fixes: args.unsafe_fixes,
                        color,
                        // Hyperlinks only where a person reads a terminal.
                        links: color && args.output.is_none() && std::io::stdout().is_terminal(),
                    },
                );
                if summary {
                    if multiple {
                        out.push_str(&format!("{}: ", run.label));
                    }
                    out.push_str(&report.summary().line());
                    out.push('\n');
                    out.push_str(&fix_summary(report.diagnostics(), &fixed, &args));
                }
                output.push_str(&out);
            }
            OutputFormat::Concise => {
                output.push_str(&render_concise_with(
                    report.diagnostics(),
                    report.sources(),
                    args.unsafe_fixes,
                ));
                if summary {
                    if multiple {
                        output.push_str(&format!("{}: ", run.label));
                    }
                    output.push_str(&report.summary().line());
                    output.push('\n');
                    output.push_str(&fix_summary(report.diagnostics(), &fixed, &args));
                }
            }
            OutputFormat::Github => {
                output.push_str(&render_github(report.diagnostics(), report.sources(), ""))
            }
            OutputFormat::Sarif => {
                sarif.add(report.diagnostics(), report.sources(), "");
            }
            OutputFormat::Json => {
                let doc = JsonReport {
                    diagnostics: report.diagnostics(),
                    sources: report.sources(),
                    summary: report.summary(),
                    root: Some(&run.label),
                };
                // One run is written as it is serialized; several are
                // gathered under `runs`.
                if runs.len() != 1 {
                    json_runs.push(serde_json::to_value(&doc)?);
                } else {
                    // About a kilobyte per finding: one buffer, no regrowth.
                    json_text = Vec::with_capacity(4096 + 1024 * doc.diagnostics.len());
                    doc.write_pretty(&mut json_text)?;
                }
            }
        }
        // Freeing a large report is a measurable share of a run, all on one
        // thread; after the last path the process exits, which frees it.
        if i == last {
            std::mem::forget(report);
        }
    }
    if let OutputFormat::Json = args.format {
        if runs.len() != 1 {
            json_text = serde_json::to_vec_pretty(&serde_json::json!({ "runs": json_runs }))?;
        }
        json_text.push(b'\n');
        let json_text = String::from_utf8(json_text)?;
        if output.is_empty() {
            output = json_text;
        } else {
            output.push_str(&json_text);
        }
    }
    if let OutputFormat::Sarif = args.format {
        let log = sarif.finish();
        for w in &log.warnings {
            eprintln!("skein: warning: {w}");
        }
        output.push_str(&(serde_json::to_string_pretty(&log)? + "\n"));
    }
    if args.statistics {
        output = statistics_output(&statistics, matches!(args.format, OutputFormat::Json))?;
    }
    match &args.output {
        Some(file) => std::fs::write(file, &output)
            .with_context(|| format!("cannot write {}", file.display()))?,
        None if args.silent => {}
        None => print(&output)?,
    }
    let notes = !args.quiet && !args.silent;
    if let Some(b) = baseline.as_ref().filter(|_| notes) {
        eprintln!(
            "skein: baseline: {} known finding(s) not reported, {} fixed since the baseline was written",
            matches.matched(),
            matches.fixed_within(b, &views)
        );
    }
    if let Some(file) = &args.write_baseline {
        std::fs::write(file, written.to_json())
            .with_context(|| format!("cannot write baseline {}", file.display()))?;
        if notes {
            eprintln!(
                "skein: wrote {} finding(s) to baseline {}",
                written.len(),
                file.display()
            );
        }
    }
    if internal_failure {
        eprintln!(
            "skein: error: skein failed internally on some input (SKEIN001 in the output); its findings there are missing"
        );
        return Ok(ExitCode::from(2));
    }
    if args.write_baseline.is_some() {
        return Ok(ExitCode::SUCCESS);
    }
    if any_error && !args.exit_zero {
        return Ok(ExitCode::from(1));
    }
    if files_read == 0 {
        let named: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        if !args.silent {
            eprintln!(
                "skein: warning: no file skein reads was found in {}: nothing was analyzed (exit status {NOTHING_ANALYZED})",
                named.join(", ")
            );
        }
        return Ok(ExitCode::from(NOTHING_ANALYZED));
    }
    Ok(ExitCode::SUCCESS)
}

/// What the fix phase did over all runs.
#[derive(Default)]
struct Fixed {
    /// (file as shown, code, name) of each fix applied (or that `--diff` would apply).
    applied: Vec<(String, &'static str, &'static str)>,
    dropped: Vec<String>,
    diff: String,
    files: usize,
    unconverged: bool,
}

impl Fixed {
    /// Records one run's fixes; writes them unless `diff`.
    fn add(&mut self, run: &Run, r: skein::fix::FixRun, diff: bool) -> anyhow::Result<()> {
        let cwd = std::env::current_dir().and_then(std::fs::canonicalize).ok();
        let base = run.base().ok();
        let shown = |rel: &str| match (&base, &cwd) {
            (Some(b), Some(c)) => skein::relative_to(b, rel, c),
            _ => rel.to_string(),
        };
        if diff {
            let sources = r.report.sources();
            let secrets = |path: &str| {
                sources
                    .iter()
                    .find(|(_, f)| f.path() == path)
                    .map(|(_, f)| {
                        f.secrets()
                            .iter()
                            .map(|s| f.slice(*s).to_string())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            self.diff
                .push_str(&skein::fix::unified_diff(&r.changes, &secrets));
        } else {
            let root = base.clone().unwrap_or_else(|| run.root.clone());
            let errors = skein::fix::write_changes(&root, &r.changes);
            if !errors.is_empty() {
                let all: Vec<String> = errors.iter().map(ToString::to_string).collect();
                anyhow::bail!("{}", all.join("; "));
            }
        }
        self.files += r.changes.len();
        self.unconverged |= r.unconverged;
        self.applied
            .extend(r.applied.iter().map(|a| (shown(&a.path), a.code, a.name)));
        self.dropped.extend(r.dropped.iter().map(|d| {
            format!(
                "skein: warning: fix of {} in {} not applied ({}): {}",
                d.code,
                shown(&d.path),
                d.message,
                d.reason
            )
        }));
        Ok(())
    }

    /// `--diff` and `--fix-only`: prints the diff or the count and ends the command.
    fn finish(&self, args: &CheckArgs) -> anyhow::Result<ExitCode> {
        let notes = !args.quiet && !args.silent;
        if notes {
            for d in &self.dropped {
                eprintln!("{d}");
            }
        }
        let n = self.applied.len();
        let mut out = String::new();
        if args.diff {
            out.push_str(&self.diff);
        }
        if args.show_fixes || args.fix_only {
            out.push_str(&self.listing(args));
        }
        match &args.output {
            Some(file) => std::fs::write(file, &out)
                .with_context(|| format!("cannot write {}", file.display()))?,
            None if args.silent => {}
            None => print(&out)?,
        }
        if args.diff {
            if notes {
                eprintln!(
                    "skein: would fix {n} finding{} in {} file{}",
                    plural(n),
                    self.files,
                    plural(self.files)
                );
            }
            return Ok(ExitCode::from(u8::from(n > 0)));
        }
        Ok(ExitCode::SUCCESS)
    }

    /// `Fixed 3 findings:` then, per file, `- path:` and `    2 × CODE (name)`;
    /// or `No findings fixed`.
    fn listing(&self, args: &CheckArgs) -> String {
        if args.quiet || args.silent {
            return String::new();
        }
        let verb = if args.diff { "Would fix" } else { "Fixed" };
        if self.applied.is_empty() {
            return format!(
                "No findings {}\n",
                if args.diff { "would be fixed" } else { "fixed" }
            );
        }
        let mut out = format!(
            "{verb} {} finding{}:\n",
            self.applied.len(),
            plural(self.applied.len())
        );
        let mut per: std::collections::BTreeMap<
            &str,
            std::collections::BTreeMap<(&str, &str), usize>,
        > = Default::default();
        for (p, c, n) in &self.applied {
            *per.entry(p).or_default().entry((c, n)).or_default() += 1;
        }
        for (p, rules) in per {
            out.push_str(&format!("- {p}:\n"));
            for ((c, n), k) in rules {
                out.push_str(&format!("    {k} × {c} ({n})\n"));
            }
        }
        if self.unconverged {
            out.push_str("(the fixes did not settle within 10 rounds: run again)\n");
        }
        out
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The lines after the summary: how many findings were fixed (`--fix`),
/// how many remaining ones `--fix` would fix, how many more
/// `--unsafe-fixes` would; and with `--show-fixes`, the list of fixes.
fn fix_summary(
    diagnostics: &[skein_syntax::Diagnostic],
    fixed: &Fixed,
    args: &CheckArgs,
) -> String {
    use skein_syntax::Applicability;
    let mut out = String::new();
    if args.fix {
        for d in &fixed.dropped {
            out.push_str(d);
            out.push('\n');
        }
        out.push_str(&format!(
            "fixed {} finding{}, {} remaining\n",
            fixed.applied.len(),
            plural(fixed.applied.len()),
            diagnostics.len()
        ));
        if args.show_fixes {
            out.push_str(&fixed.listing(args));
        }
    }
    let count = |a: Applicability| {
        diagnostics
            .iter()
            .filter(|d| {
                d.fix
                    .as_ref()
                    .is_some_and(|f| f.applicability == a && !f.edits.is_empty())
            })
            .count()
    };
    let (safe, unsafe_) = (count(Applicability::Safe), count(Applicability::Unsafe));
    let now = if args.unsafe_fixes {
        safe + unsafe_
    } else {
        safe
    };
    let more = if args.unsafe_fixes { 0 } else { unsafe_ };
    let flags = if args.unsafe_fixes {
        "--fix --unsafe-fixes"
    } else {
        "--fix"
    };
    match (now, more) {
        (0, 0) => {}
        (0, m) => out.push_str(&format!("[*] {m} fixable with `--fix --unsafe-fixes`\n")),
        (n, 0) => out.push_str(&format!("[*] {n} fixable with `{flags}`\n")),
        (n, m) => out.push_str(&format!(
            "[*] {n} fixable with `--fix` ({m} more with `--unsafe-fixes`)\n"
        )),
    }
    out
}

/// The exit status of a run that found no file to analyze.
const NOTHING_ANALYZED: u8 = 3;

/// One analysis: a project root and the part of it reported.
struct Run {
    /// The folder analyzed (a project root, or a named path with `--no-project`).
    root: PathBuf,
    /// How the run is named in output: the path given, or the paths given
    /// joined by `, ` when several share one project.
    label: String,
    /// The reported part, project-relative (`""`: all of it).
    view: Vec<String>,
    /// Each named file with its project-relative path.
    files: Vec<(PathBuf, String)>,
}

impl Run {
    /// The folder the report's paths are relative to: the root, or its
    /// folder when a file is read alone (`--no-project`).
    fn base(&self) -> std::io::Result<PathBuf> {
        let abs = std::fs::canonicalize(&self.root)?;
        Ok(if abs.is_dir() {
            abs
        } else {
            abs.parent().map(Path::to_path_buf).unwrap_or(abs)
        })
    }
}

/// Groups the named paths by project (issue #14), in the order given; with
/// `no_project` each path is its own run, read alone.
fn projects(paths: &[PathBuf], no_project: bool, stdin: bool) -> anyhow::Result<Vec<Run>> {
    let mut runs: Vec<Run> = Vec::new();
    for path in paths {
        if stdin {
            // The file need not exist: its folder places it in its project.
            let skein::Located { root, view, .. } = skein::locate_new(path)?;
            runs.push(Run {
                root,
                label: path.display().to_string(),
                view: vec![view],
                files: Vec::new(),
            });
            continue;
        }
        if no_project {
            runs.push(Run {
                root: path.clone(),
                label: path.display().to_string(),
                view: vec![String::new()],
                files: Vec::new(),
            });
            continue;
        }
        let skein::Located {
            root,
            view: rel,
            is_dir,
        } = skein::locate(path)?;
        let file = (!is_dir).then(|| (path.clone(), rel.clone()));
        match runs.iter_mut().find(|r| r.root == root) {
            Some(r) => {
                r.label = format!("{}, {}", r.label, path.display());
                r.view.push(rel);
                r.files.extend(file);
            }
            None => runs.push(Run {
                root,
                label: path.display().to_string(),
                view: vec![rel],
                files: file.into_iter().collect(),
            }),
        }
    }
    Ok(runs)
}

/// A progress bar only for a person watching: stderr is a terminal, the
/// output format is the human one (never json, sarif, github, concise), and
/// neither `--no-progress`, `--quiet` nor `--silent` was given.
fn show_progress(args: &CheckArgs) -> bool {
    !args.no_progress
        && !args.quiet
        && !args.silent
        && matches!(args.format, OutputFormat::Human)
        && std::io::stderr().is_terminal()
}

/// The command line's settings for the library, validated.
fn overrides(args: &CheckArgs) -> anyhow::Result<skein::Overrides> {
    let mut per_file_ignores = Vec::new();
    for item in &args.per_file_ignores {
        let Some((glob, rules)) = item.rsplit_once(':') else {
            anyhow::bail!(
                "--per-file-ignores takes GLOB:RULES (e.g. `legacy/**:SKILL006,REF`), not `{item}`"
            );
        };
        let rules: Vec<String> = rules
            .split(',')
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string)
            .collect();
        if rules.is_empty() {
            anyhow::bail!("--per-file-ignores `{item}` names no rule after the `:`");
        }
        per_file_ignores.push((glob.to_string(), rules));
    }
    let o = skein::Overrides {
        select: args.select.clone(),
        extend_select: args.extend_select.clone(),
        ignore: args.ignore.clone(),
        per_file_ignores,
        exclude: args.exclude.clone(),
    };
    o.validate().map_err(|e| anyhow::anyhow!(e))?;
    Ok(o)
}

/// `--statistics`: one line per rule with findings, most findings first,
/// then by code: `  12  SKILL006  unknown-skill-field`; or, with `--format
/// json`, an array of `{code, name, count}` in the same order.
fn statistics_output(
    counts: &std::collections::BTreeMap<(&'static str, &'static str), usize>,
    json: bool,
) -> anyhow::Result<String> {
    let mut rows: Vec<(&str, &str, usize)> = counts.iter().map(|(&(c, n), &k)| (c, n, k)).collect();
    rows.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
    if json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|(c, n, k)| serde_json::json!({"code": c, "name": n, "count": k}))
            .collect();
        return Ok(serde_json::to_string_pretty(&v)? + "\n");
    }
    let count_w = rows
        .iter()
        .map(|r| r.2.to_string().len())
        .max()
        .unwrap_or(1);
    let code_w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    Ok(rows
        .iter()
        .map(|(c, n, k)| format!("{k:>count_w$}  {c:<code_w$}  {n}\n"))
        .collect())
}

/// `--show-settings`: the project, the configuration file and what is in
/// effect.
fn settings(run: &Run, options: &Options) -> anyhow::Result<String> {
    let config = skein::resolved_config(&run.root, options)?;
    let on = config.active_rules(options.no_ignores);
    let mut out = format!("project root: {}\n", run.root.display());
    out.push_str(&format!(
        "configuration: {}\n",
        match &options.config {
            skein::ConfigSource::Isolated => "none (--isolated)".to_string(),
            _ => match &config.source {
                None => "none (defaults)".to_string(),
                Some((p, _)) if config.unread => format!(
                    "{p} (not applied: {} problem{} in it, shown by `skein check`; the defaults below apply)",
                    config.diagnostics.len(),
                    if config.diagnostics.len() == 1 { "" } else { "s" }
                ),
                Some((p, _)) => p.clone(),
            },
        }
    ));
    out.push_str(&format!(
        "fail-on: {}\n",
        config
            .fail_on
            .unwrap_or(skein_syntax::Severity::Error)
            .as_str()
    ));
    out.push_str(&format!(
        "fail-on-internal-error: {}\n",
        config.fail_on_internal_error
    ));
    out.push_str(&format!(
        "max-file-size: {}\n",
        options
            .max_file_size
            .or(config.max_file_size)
            .unwrap_or(skein::DEFAULT_MAX_FILE_SIZE)
    ));
    out.push_str(&format!(
        "rules on: {} of {}\n",
        on.len(),
        rules::all().len()
    ));
    for r in on {
        let sev = config.severity_of(&r).unwrap_or(r.severity);
        out.push_str(&format!("  {} {} {}\n", r.code, r.name, sev.as_str()));
    }
    Ok(out)
}

/// `--show-files`: each file that would be analyzed, with its format, from
/// the current folder, sorted.
fn files(run: &Run, options: &Options) -> anyhow::Result<String> {
    let listed = skein::list_files(&run.root, options)?;
    let cwd = std::env::current_dir().and_then(std::fs::canonicalize).ok();
    let base = run.base().ok();
    let mut out = String::new();
    for skein::ListedFile {
        path: rel,
        format,
        not_read,
    } in listed
    {
        if !run.view.iter().any(|v| {
            v.is_empty()
                || rel
                    .strip_prefix(v.as_str())
                    .is_some_and(|r| r.is_empty() || r.starts_with('/'))
        }) {
            continue;
        }
        let shown = match (&base, &cwd) {
            (Some(b), Some(c)) => skein::relative_to(b, &rel, c),
            _ => rel.clone(),
        };
        match not_read {
            Some(why) => out.push_str(&format!("{shown} {format} ({why})\n")),
            None => out.push_str(&format!("{shown} {format}\n")),
        }
    }
    Ok(out)
}
