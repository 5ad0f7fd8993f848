//! HOOK020 `millisecond-hook-timeout`.

use super::hooks_of;
use crate::{Context, FilePass, Reads};
use skein_model::Artifact;
use skein_syntax::{Diagnostic, NodeKind, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "HOOK020",
    name: "millisecond-hook-timeout",
    severity: Severity::Warning,
    summary: "a hook timeout that reads as milliseconds (`5000`): Claude Code counts it in seconds",
    doc: include_str!("millisecond_hook_timeout.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: super::ON,
};

/// The smallest timeout read as milliseconds: 1,000 seconds is over 16
/// minutes, longer than Claude Code's own default of 600.
const AT_LEAST: f64 = 1000.0;

/// A timeout in seconds as the hours, minutes and seconds it lasts.
fn duration(seconds: u64) -> String {
    let (h, m, s) = (seconds / 3600, seconds % 3600 / 60, seconds % 60);
    match (h, m, s) {
        (0, m, 0) => format!("{m} min"),
        (0, m, s) => format!("{m} min {s} s"),
        (h, 0, 0) => format!("{h} h"),
        (h, m, 0) => format!("{h} h {m} min"),
        (h, m, s) => format!("{h} h {m} min {s} s"),
    }
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some(h) = hooks_of(cx, a) else {
        return Vec::new();
    };
    let doc = h.doc;
    let mut out = Vec::new();
    for (_, handler) in h.handlers() {
        let Some(t) = doc.get(handler, "timeout") else {
            continue;
        };
        let NodeKind::Number(n) = doc.kind(t) else {
            continue;
        };
        let v = n.as_f64();
        // A round number of milliseconds (`2000`, `5000`, `30000`); a round
        // number of seconds (`1800`, `3600`) is what its author meant.
        if v < AT_LEAST || v.fract() != 0.0 || v % 500.0 != 0.0 || v > 1e12 {
            continue;
        }
        let seconds = v as u64;
        let span = doc.node(t).span;
        let written = cx.sources.get(a.file).slice(span);
        let meant = seconds / 1000;
        let meant = if seconds.is_multiple_of(1000) {
            format!("{meant}")
        } else {
            format!("{}", v / 1000.0)
        };
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!(
                    "hook `timeout` is {} seconds ({}): Claude Code reads hook timeouts in seconds, not milliseconds",
                    quote(written),
                    duration(seconds)
                ),
            )
            .with_label("a hung hook blocks this long before it is cancelled")
            .with_help(format!(
                "if {} milliseconds was meant, write `\"timeout\": {meant}`",
                quote(written)
            )),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::duration;

    #[test]
    fn durations() {
        assert_eq!(duration(2000), "33 min 20 s");
        assert_eq!(duration(30000), "8 h 20 min");
        assert_eq!(duration(7200), "2 h");
        assert_eq!(duration(1500), "25 min");
        assert_eq!(duration(3661), "1 h 1 min 1 s");
    }
}
