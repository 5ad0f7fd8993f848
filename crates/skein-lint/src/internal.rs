//! Fault isolation (issue #7): a panic in one pass, or in one file's decoding,
//! is caught at a `catch_unwind` boundary and becomes one [`INTERNAL_ERROR`]
//! diagnostic naming the rule (or step) and the file, while every other
//! result is still produced.
//!
//! [`catch`] is the boundary. While it runs its closure, the panic hook of
//! the process is told (through a thread-local flag) to record the panic's
//! location instead of printing the message and a backtrace on stderr; a
//! panic anywhere else still goes to the hook the host installed. The hook
//! is installed once, wrapping the one in place at that moment.

use skein_syntax::{Diagnostic, FileId, Rule, Severity, Span};
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

/// SKEIN001: skein itself failed (a panic) on some input.
pub const INTERNAL_ERROR: Rule = Rule {
    code: "SKEIN001",
    name: "internal-error",
    severity: Severity::Error,
    summary: "skein failed internally on this file; some findings are missing",
    doc: "## What it does\nReports that a rule (or the reading of a file) failed inside skein: a \
bug in skein, which it caught. The message names the rule or step, and the panic message with \
its place in skein's source. Every other rule and file is still analyzed; only the findings of \
that rule on that file (or, for a repository-wide pass, of that rule) are missing.\n\n## Why is \
this bad?\nskein cannot vouch for what it could not check. Please report the message and, if you \
can, the file that triggers it.\n\nBy default the finding counts as an error (exit status 1). With \
`--fail-on-internal-error` (or `fail-on-internal-error = true` in `skein.toml`) a run that has \
one exits with status 2 instead, like any other failure of the tool. This rule cannot be ignored \
or suppressed.",
    fix: None,
};

thread_local! {
    /// Set while [`catch`] runs its closure on this thread.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// Where the last quiet panic on this thread happened.
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

fn install_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                LOCATION.with(|l| *l.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`; a panic in it is caught and returned as its message followed
/// by ` (at FILE:LINE:COL)` when the location is known. Nothing is printed.
///
/// `f` must leave no shared state half-updated when it panics (passes and
/// decoding share none): it is run as if unwind safe.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    let was = QUIET.with(|q| q.replace(true));
    LOCATION.with(|l| l.borrow_mut().take());
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    result.map_err(|payload| {
        let message = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "a panic with a non-text payload".to_string()
        };
        match LOCATION.with(|l| l.borrow_mut().take()) {
            Some(at) => format!("{message} (at {at})"),
            None => message,
        }
    })
}

/// A pass or step that panicked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InternalError {
    /// What failed: a rule's code and name (`FLOW002 uncapped-cycle`) or a
    /// step (`reading`).
    pub what: String,
    /// The file it was working on; `None` for a pass over the whole repository.
    pub file: Option<FileId>,
    /// The panic message and location (see [`catch`]).
    pub message: String,
}

impl InternalError {
    /// The panic of rule `rule`, on `file` when it ran per file.
    pub fn in_rule(rule: &Rule, file: Option<FileId>, message: String) -> Self {
        InternalError {
            what: format!("rule {} `{}`", rule.code, rule.name),
            file,
            message,
        }
    }

    /// The [`INTERNAL_ERROR`] diagnostic, anchored at the start of its file,
    /// or of `repository` (the report's stand-in for the whole repository)
    /// when it has none.
    pub fn diagnostic(&self, repository: FileId) -> Diagnostic {
        let (file, scope) = match self.file {
            Some(f) => (f, "on this file"),
            None => (repository, "on the repository"),
        };
        Diagnostic::new(
            INTERNAL_ERROR,
            file,
            Span::empty(0),
            format!(
                "internal error in {} {scope}: {}",
                self.what,
                one_line(&self.message)
            ),
        )
        .with_note(match self.file {
            Some(_) => {
                "the findings of this step on this file are missing; every other result is complete"
            }
            None => "the findings of this rule are missing; every other result is complete",
        })
        .with_help("this is a bug in skein: please report it with this message")
    }
}

/// A panic message on one line: line breaks as `\n`, other controls as `?`,
/// at most 500 characters.
fn one_line(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == 500 {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out
}
