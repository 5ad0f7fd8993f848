//! SKILL029 `interactive-skill-script`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL029",
    name: "interactive-skill-script",
    severity: Severity::Warning,
    summary: "a skill's bundled script that prompts for an answer typed at a terminal",
    doc: include_str!("interactive_skill_script.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::SkillScript]),
};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lang {
    Shell,
    Python,
    Js,
}

/// The script's language, from its extension, else its `#!` line.
fn lang(path: &str, text: &str) -> Option<Lang> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map(|(_, e)| e);
    match ext {
        Some("sh" | "bash" | "zsh") => return Some(Lang::Shell),
        Some("py") => return Some(Lang::Python),
        Some("js" | "mjs" | "cjs" | "ts") => return Some(Lang::Js),
        _ => {}
    }
    let first = text.lines().next()?.strip_prefix("#!")?;
    if first.contains("python") {
        Some(Lang::Python)
    } else if ["node", "deno", "bun", "tsx", "ts-node"]
        .iter()
        .any(|w| first.contains(w))
    {
        Some(Lang::Js)
    } else if ["sh", "bash", "zsh", "ksh"].iter().any(|w| {
        first
            .split(|c: char| c == '/' || c.is_whitespace())
            .any(|p| p == *w)
    }) {
        Some(Lang::Shell)
    } else {
        None
    }
}

/// Whether the script asks whether it runs at a terminal, and so decides
/// for itself whether to prompt.
fn guarded(lang: Lang, text: &str) -> bool {
    match lang {
        Lang::Shell => text.contains("-t 0") || text.contains("-t 1") || text.contains("tty -s"),
        Lang::Python => text.contains("isatty"),
        Lang::Js => text.contains("isTTY"),
    }
}

/// Writes `c` blanked: a newline stays, anything else becomes as many
/// spaces as its UTF-8 bytes, so every offset of the text stays.
fn blank(out: &mut String, c: char) {
    if c == '\n' {
        out.push('\n');
    } else {
        (0..c.len_utf8()).for_each(|_| out.push(' '));
    }
}

/// The code of each line with comments and string contents blanked
/// (replaced by spaces, so byte offsets stay), and heredoc bodies and Python
/// triple-quoted strings blanked whole.
fn code_lines(lang: Lang, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut heredoc: Option<String> = None;
    let mut triple: Option<&str> = None;
    let mut block = false;
    for line in text.split_inclusive('\n') {
        if let Some(end) = &heredoc {
            if line.trim() == end {
                heredoc = None;
            }
            line.chars().for_each(|c| blank(&mut out, c));
            continue;
        }
        let b: Vec<char> = line.chars().collect();
        let mut i = 0;
        let mut quote: Option<char> = None;
        while i < b.len() {
            let c = b[i];
            let rest = |p: &str| {
                p.chars()
                    .enumerate()
                    .all(|(k, pc)| b.get(i + k) == Some(&pc))
            };
            if let Some(t) = triple {
                if rest(t) {
                    triple = None;
                    out.push_str("   ");
                    i += 3;
                } else {
                    blank(&mut out, c);
                    i += 1;
                }
                continue;
            }
            if block {
                if rest("*/") {
                    block = false;
                    out.push_str("  ");
                    i += 2;
                } else {
                    blank(&mut out, c);
                    i += 1;
                }
                continue;
            }
            if let Some(q) = quote {
                if c == '\\' && i + 1 < b.len() && b[i + 1] != '\n' {
                    blank(&mut out, c);
                    blank(&mut out, b[i + 1]);
                    i += 2;
                    continue;
                }
                if c == q {
                    quote = None;
                    out.push(c);
                } else {
                    blank(&mut out, c);
                }
                i += 1;
                continue;
            }
            if lang == Lang::Python && (rest("\"\"\"") || rest("'''")) {
                triple = Some(if rest("\"\"\"") { "\"\"\"" } else { "'''" });
                out.push_str("   ");
                i += 3;
                continue;
            }
            if lang == Lang::Js && rest("/*") {
                block = true;
                out.push_str("  ");
                i += 2;
                continue;
            }
            let comment = match lang {
                Lang::Shell => c == '#' && (i == 0 || b[i - 1].is_whitespace() || b[i - 1] == ';'),
                Lang::Python => c == '#',
                Lang::Js => rest("//"),
            };
            if comment {
                b[i..].iter().for_each(|&c| blank(&mut out, c));
                break;
            }
            if c == '"' || c == '\'' || (lang == Lang::Js && c == '`') {
                quote = Some(c);
                out.push(c);
                i += 1;
                continue;
            }
            if lang == Lang::Shell && c == '<' && rest("<<") && !rest("<<<") {
                // `<<EOF`, `<<-EOF`, `<<'EOF'`, `<< "EOF"`: the body ends at a line `EOF`.
                let tail: String = b[i + 2..].iter().collect();
                let word: String = tail
                    .trim_start_matches('-')
                    .trim_start()
                    .trim_start_matches(['\'', '"'])
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !word.is_empty() {
                    heredoc = Some(word);
                }
            }
            out.push(c);
            i += 1;
        }
        // An unclosed quote of a shell or Python line does not run on.
        if lang != Lang::Js || quote != Some('`') {
            let _ = quote.take();
        }
    }
    out
}

/// A call that prompts, found in blanked code: its start, end and what it is.
fn prompts(lang: Lang, code: &str, text: &str) -> Vec<(usize, usize)> {
    let bytes = code.as_bytes();
    let ident =
        |i: usize| i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_');
    let before_ok = |i: usize, allow_dot: bool| {
        i == 0 || !(ident(i - 1) || (!allow_dot && bytes[i - 1] == b'.') || bytes[i - 1] == b'$')
    };
    // The end of a call starting at `open` (the `(`): its `)` on the same line.
    let call_end = |open: usize| {
        let mut depth = 0usize;
        for (k, &c) in bytes[open..].iter().enumerate() {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return open + k + 1;
                    }
                }
                b'\n' => return open + k,
                _ => {}
            }
        }
        bytes.len()
    };
    let mut out = Vec::new();
    match lang {
        Lang::Shell => {
            for (at, _) in code.match_indices("read") {
                let sep =
                    |c: u8| matches!(c, b' ' | b'\t' | b';' | b'(' | b'{' | b'&' | b'|' | b'\n');
                if !(at == 0 || sep(bytes[at - 1]))
                    || !matches!(bytes.get(at + 4), Some(b' ' | b'\t'))
                {
                    continue;
                }
                // The command runs to a separator; its words are `read`'s options.
                let end = code[at..]
                    .find(['\n', ';', '|', '&', ')'])
                    .map_or(code.len(), |k| at + k);
                let args = &code[at + 4..end];
                let prompt = args
                    .split_whitespace()
                    .any(|w| w.starts_with('-') && !w.starts_with("--") && w[1..].contains('p'));
                if prompt || text[at..end].contains("/dev/tty") {
                    out.push((at, at + text[at..end].trim_end().len()));
                }
            }
            for (at, _) in code.match_indices("select") {
                let line_start = code[..at].rfind('\n').map_or(0, |k| k + 1);
                if code[line_start..at].trim().is_empty()
                    && code[at + 6..].starts_with(' ')
                    && code[at..]
                        .split('\n')
                        .next()
                        .is_some_and(|l| l.contains(" in "))
                {
                    let end = code[at..].find(['\n', ';']).map_or(code.len(), |k| at + k);
                    out.push((at, end));
                }
            }
        }
        Lang::Python => {
            for name in ["input(", "raw_input(", "getpass("] {
                for (at, _) in code.match_indices(name) {
                    if before_ok(at, name == "getpass(") {
                        out.push((at, call_end(at + name.len() - 1)));
                    }
                }
            }
            for name in [
                "click.prompt(",
                "click.confirm(",
                "typer.prompt(",
                "typer.confirm(",
                "Prompt.ask(",
                "Confirm.ask(",
                "inquirer.prompt(",
            ] {
                for (at, _) in code.match_indices(name) {
                    if before_ok(at, false) {
                        out.push((at, call_end(at + name.len() - 1)));
                    }
                }
            }
        }
        Lang::Js => {
            let readline = text.contains("readline");
            let prompt_sync = text.contains("prompt-sync");
            for (name, when) in [
                (".question(", readline),
                (".keyInYN(", readline),
                ("inquirer.prompt(", true),
                ("prompt(", prompt_sync),
            ] {
                if !when {
                    continue;
                }
                for (at, _) in code.match_indices(name) {
                    if name == "prompt(" && !before_ok(at, false) {
                        continue;
                    }
                    if name == "inquirer.prompt(" && !before_ok(at, false) {
                        continue;
                    }
                    // From the receiver (`rl.question(`), when there is one.
                    let start = if name.starts_with('.') {
                        let mut s = at;
                        while s > 0 && ident(s - 1) {
                            s -= 1;
                        }
                        s
                    } else {
                        at
                    };
                    out.push((start, call_end(at + name.len() - 1)));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::SkillScript {
        return Vec::new();
    }
    let src = cx.sources.get(a.file);
    let text = src.text();
    let Some(lang) = lang(src.path(), text) else {
        return Vec::new();
    };
    // Cheap first: a script that holds none of the prompting words.
    const WORDS: &[&str] = &[
        "read",
        "select",
        "input(",
        "getpass",
        "prompt",
        "confirm",
        "ask(",
        "question(",
        "keyInYN",
    ];
    if guarded(lang, text) || !WORDS.iter().any(|w| text.contains(w)) {
        return Vec::new();
    }
    let code = code_lines(lang, text);
    debug_assert_eq!(code.len(), text.len());
    report(a, text, prompts(lang, &code, text))
}

fn report(a: &Artifact, text: &str, found: Vec<(usize, usize)>) -> Vec<Diagnostic> {
    found
        .into_iter()
        .map(|(s, e)| {
            let call = &text[s..e];
            Diagnostic::new(
                RULE,
                a.file,
                Span::new(s, e),
                format!(
                    "the script prompts for input with {}, which blocks in an agent's non-interactive shell",
                    quote(call)
                ),
            )
            .with_label("waits for an answer typed at a terminal")
            .with_note("agents run a skill's scripts without a terminal: nobody types the answer")
            .with_help("take the answer from an argument, an environment variable or stdin, with a flag such as `--yes` for confirmations")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(lang: Lang, text: &str) -> Vec<&str> {
        let code = code_lines(lang, text);
        assert_eq!(code.len(), text.len());
        prompts(lang, &code, text)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .collect()
    }

    #[test]
    fn shell_prompts_outside_comments_and_heredocs() {
        let t = "#!/bin/sh\n# read -p x\nread -rp 'Name? ' n; echo \"$n\"\nwhile read -r l; do :; done < f\ncat <<-'EOF'\nread -p no\nEOF\nread -r x < /dev/tty\necho 'read -p é'\nselect o in a b; do break; done\n";
        assert_eq!(
            found(Lang::Shell, t),
            [
                "read -rp 'Name? ' n",
                "read -r x < /dev/tty",
                "select o in a b"
            ]
        );
    }

    #[test]
    fn python_calls_not_strings_or_names() {
        let t = "s = \"é input(\"\n'''\ninput()\n'''\nx = input('a')  # input(\nmy_input(1)\nobj.input(2)\np = getpass.getpass()\nclick.confirm('ok?')\n";
        assert_eq!(
            found(Lang::Python, t),
            ["input('a')", "getpass()", "click.confirm('ok?')"]
        );
    }

    #[test]
    fn javascript_readline_question() {
        let t =
            "const readline = require('readline');\n/* rl.question( */\nrl.question('Go? ', cb);\n";
        assert_eq!(found(Lang::Js, t), ["rl.question('Go? ', cb)"]);
    }

    #[test]
    fn language_from_shebang() {
        assert_eq!(
            lang("scripts/run", "#!/usr/bin/env bash\n"),
            Some(Lang::Shell)
        );
        assert_eq!(
            lang("scripts/run", "#!/usr/bin/env python3\n"),
            Some(Lang::Python)
        );
        assert_eq!(lang("scripts/run", "#!/usr/bin/env node\n"), Some(Lang::Js));
        assert_eq!(lang("scripts/run", "#!/usr/bin/perl\n"), None);
    }
}
