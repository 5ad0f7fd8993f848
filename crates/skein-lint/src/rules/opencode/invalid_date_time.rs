//! OPENCODE002 `invalid-date-time`.

use super::{at, contract};
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "OPENCODE002",
    name: "invalid-date-time",
    severity: Severity::Error,
    summary: "an OpenCode contract `date-time` field that is not an RFC 3339 date-time",
    doc: include_str!("invalid_date_time.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::OpenCodeContract]),
};

/// RFC 3339 `date-time` (JSON Schema's `format: date-time`):
/// `YYYY-MM-DDThh:mm:ss[.frac](Z|±hh:mm)`, `T`/`Z` in either case.
pub(crate) fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|x| x.iter().all(u8::is_ascii_digit));
    let num =
        |r: std::ops::Range<usize>| s.get(r).and_then(|x| x.parse::<u32>().ok()).unwrap_or(99);
    if b.len() < 20
        || !digits(0..4)
        || b[4] != b'-'
        || !digits(5..7)
        || b[7] != b'-'
        || !digits(8..10)
        || !matches!(b[10], b'T' | b't')
        || !digits(11..13)
        || b[13] != b':'
        || !digits(14..16)
        || b[16] != b':'
        || !digits(17..19)
    {
        return false;
    }
    let (year, month, day) = (num(0..4), num(5..7), num(8..10));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days || num(11..13) > 23 || num(14..16) > 59 || num(17..19) > 60 {
        return false;
    }
    let mut i = 19;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match &b[i..] {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => {
            [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit())
                && num(i + 1..i + 3) <= 23
                && num(i + 4..i + 6) <= 59
        }
        _ => false,
    }
}

fn check(_cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let Some((doc, root)) = contract(a) else {
        return Vec::new();
    };
    let state = doc.get(root, "state").and_then(|s| doc.as_str(s));
    let mut out = Vec::new();
    for field in ["created_at", "model_changed_at"] {
        let Some(v) = at(doc, root, &["session", field]) else {
            continue;
        };
        let Some(s) = doc.as_str(v) else { continue };
        // `model_changed_at`: "Empty if no change has occurred." An empty
        // `created_at` is a contract not started yet (INIT, or no state):
        // the session is filled in on init.
        let empty_ok = field == "model_changed_at" || matches!(state, None | Some("INIT"));
        if (s.is_empty() && empty_ok) || is_date_time(s) {
            continue;
        }
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                doc.node(v).span,
                format!(
                    "`session.{field}` is {}, not an RFC 3339 date-time",
                    quote(s)
                ),
            )
            .with_label("expected e.g. `2026-12-01T09:30:00Z`")
            .with_help(
                "write the date and time with a time zone: `YYYY-MM-DDThh:mm:ssZ` or `±hh:mm`",
            ),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::is_date_time;

    #[test]
    fn rfc3339() {
        for ok in [
            "2026-12-01T09:30:00Z",
            "2024-02-29t23:59:60.5+05:30",
            "2026-01-31T00:00:00-00:00",
        ] {
            assert!(is_date_time(ok), "{ok}");
        }
        for bad in [
            "",
            "2026-12-01",
            "2026-12-01 09:30:00Z",
            "2026-13-01T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "2026-12-01T09:30:00",
            "2026-12-01T09:30:00.Z",
            "yesterday",
        ] {
            assert!(!is_date_time(bad), "{bad}");
        }
    }
}
