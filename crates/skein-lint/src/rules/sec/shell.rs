//! A small shell reader for the dangerous-command rules (SEC003–SEC007):
//! a command line split into lists (`;`, `&&`, `||`, `&`, newlines) of
//! pipelines (`|`) of simple commands, each a list of words with quotes
//! removed and the character range that spells them. Command
//! substitutions (`$(...)`, backticks) and process substitutions (`<(...)`)
//! stay inside the word that holds them, so a separator inside them does not
//! split the outer command; their text is read again by the detectors.
//!
//! The reader never runs anything and never fails: text it cannot make sense
//! of yields fewer words, so fewer findings.

use std::ops::Range;

/// One shell word: its text with quotes removed, the characters that spell
/// it, and whether it is the target of an output redirection (`>`, `>>`).
#[derive(Debug, Clone)]
pub(crate) struct Word {
    pub text: String,
    pub chars: Range<usize>,
    pub redirect: bool,
}

/// A simple command of a pipeline.
#[derive(Debug, Clone, Default)]
pub(crate) struct Stage {
    pub words: Vec<Word>,
}

impl Stage {
    /// The index of the program word: after variable assignments
    /// (`A=b cmd`) and wrappers (`sudo`, `env`, `exec`, `nohup`, `time`,
    /// `command`, `builtin`), and their flags.
    pub fn program_index(&self) -> Option<usize> {
        let mut i = 0;
        while i < self.words.len() {
            let w = &self.words[i];
            if w.redirect {
                i += 1;
                continue;
            }
            let t = w.text.as_str();
            if is_assignment(t) {
                i += 1;
                continue;
            }
            match basename(t) {
                "sudo" | "doas" | "env" | "exec" | "nohup" | "time" | "command" | "builtin"
                | "nice" | "stdbuf" => {
                    i += 1;
                    while i < self.words.len()
                        && (self.words[i].text.starts_with('-')
                            || is_assignment(&self.words[i].text))
                    {
                        i += 1;
                    }
                }
                _ => return Some(i),
            }
        }
        None
    }

    /// The program's name (its basename), if there is one.
    pub fn program(&self) -> Option<&str> {
        self.program_index().map(|i| basename(&self.words[i].text))
    }

    /// The words after the program that are not redirection targets.
    pub fn args(&self) -> Vec<&Word> {
        match self.program_index() {
            Some(i) => self.words[i + 1..].iter().filter(|w| !w.redirect).collect(),
            None => Vec::new(),
        }
    }

    /// The characters from the first word to the last.
    pub fn chars(&self) -> Option<Range<usize>> {
        Some(self.words.first()?.chars.start..self.words.last()?.chars.end)
    }
}

/// A pipeline: its stages, in order.
pub(crate) type Pipeline = Vec<Stage>;

/// `NAME=value` (a variable assignment before a command).
pub(crate) fn is_assignment(t: &str) -> bool {
    match t.split_once('=') {
        Some((n, _)) => {
            !n.is_empty()
                && !n.starts_with(|c: char| c.is_ascii_digit())
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        None => false,
    }
}

/// The last `/`- or `\`-separated part of a program word, lower-cased
/// `.exe` removed.
pub(crate) fn basename(t: &str) -> &str {
    let b = t.rsplit(['/', '\\']).next().unwrap_or(t);
    b.strip_suffix(".exe").unwrap_or(b)
}

/// Reads `cs` into pipelines.
pub(crate) fn parse(cs: &[char]) -> Vec<Pipeline> {
    let mut lists: Vec<Pipeline> = Vec::new();
    let mut pipeline: Pipeline = Vec::new();
    let mut stage = Stage::default();
    let mut word: Option<Word> = None;
    let mut redirect_next = false;
    let mut i = 0;
    // Ends the current word.
    fn end_word(word: &mut Option<Word>, stage: &mut Stage, redirect_next: &mut bool) {
        if let Some(mut w) = word.take() {
            if *redirect_next {
                w.redirect = true;
                *redirect_next = false;
            }
            stage.words.push(w);
        }
    }
    fn end_stage(stage: &mut Stage, pipeline: &mut Pipeline) {
        if !stage.words.is_empty() {
            pipeline.push(std::mem::take(stage));
        }
    }
    fn end_pipeline(pipeline: &mut Pipeline, lists: &mut Vec<Pipeline>) {
        if !pipeline.is_empty() {
            lists.push(std::mem::take(pipeline));
        }
    }
    let push = |word: &mut Option<Word>, c: Option<char>, at: usize, end: usize| {
        let w = word.get_or_insert(Word {
            text: String::new(),
            chars: at..end,
            redirect: false,
        });
        w.chars.end = end;
        if let Some(c) = c {
            w.text.push(c);
        }
    };
    while i < cs.len() {
        let c = cs[i];
        match c {
            '\\' => {
                let next = cs.get(i + 1).copied();
                if next == Some('\n') {
                    i += 2;
                    continue;
                }
                push(&mut word, next, i, (i + 2).min(cs.len()));
                i += 2;
            }
            '\'' => {
                let close = cs[i + 1..].iter().position(|&d| d == '\'');
                let end = close.map_or(cs.len(), |p| i + 1 + p);
                for &d in &cs[i + 1..end] {
                    push(&mut word, Some(d), i, end + 1);
                }
                push(&mut word, None, i, (end + 1).min(cs.len()));
                i = end + 1;
            }
            '"' => {
                let mut j = i + 1;
                let mut depth = 0usize;
                let mut text = String::new();
                while j < cs.len() {
                    match cs[j] {
                        '\\' if j + 1 < cs.len() => {
                            if !matches!(cs[j + 1], '"' | '\\' | '$' | '`') {
                                text.push('\\');
                            }
                            text.push(cs[j + 1]);
                            j += 2;
                            continue;
                        }
                        '"' if depth == 0 => break,
                        '(' if j > 0 && cs[j - 1] == '$' => depth += 1,
                        ')' if depth > 0 => depth -= 1,
                        _ => {}
                    }
                    text.push(cs[j]);
                    j += 1;
                }
                for d in text.chars() {
                    push(&mut word, Some(d), i, j + 1);
                }
                push(&mut word, None, i, (j + 1).min(cs.len()));
                i = j + 1;
            }
            '$' | '<' | '>' if cs.get(i + 1) == Some(&'(') => {
                // `$(...)`, `<(...)`, `>(...)`: kept in the word, nested.
                let mut depth = 0usize;
                let mut j = i + 1;
                while j < cs.len() {
                    match cs[j] {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                let end = (j + 1).min(cs.len());
                for &d in &cs[i..end] {
                    push(&mut word, Some(d), i, end);
                }
                i = end;
            }
            '`' => {
                let close = cs[i + 1..].iter().position(|&d| d == '`');
                let end = close.map_or(cs.len(), |p| i + 2 + p).min(cs.len());
                for &d in &cs[i..end] {
                    push(&mut word, Some(d), i, end);
                }
                i = end;
            }
            '#' if word.is_none() => {
                // A comment, to the end of the line.
                while i < cs.len() && cs[i] != '\n' {
                    i += 1;
                }
            }
            ' ' | '\t' => {
                end_word(&mut word, &mut stage, &mut redirect_next);
                i += 1;
            }
            '>' => {
                // `2>`, `&>`: the fd digits were read as a word of their own.
                if let Some(w) = &word
                    && w.text.chars().all(|d| d.is_ascii_digit() || d == '&')
                {
                    word = None;
                }
                end_word(&mut word, &mut stage, &mut redirect_next);
                let mut j = i + 1;
                if cs.get(j) == Some(&'>') {
                    j += 1;
                }
                if cs.get(j) == Some(&'&') {
                    // `>&2`: a descriptor, not a file.
                    j += 1;
                    while j < cs.len() && (cs[j].is_ascii_digit() || cs[j] == '-') {
                        j += 1;
                    }
                } else {
                    redirect_next = true;
                }
                i = j;
            }
            '<' => {
                end_word(&mut word, &mut stage, &mut redirect_next);
                i += 1;
                // The input file is a word of its own, not an argument: skip it.
                while i < cs.len() && cs[i] == '<' {
                    i += 1;
                }
            }
            '|' if cs.get(i + 1) != Some(&'|') => {
                end_word(&mut word, &mut stage, &mut redirect_next);
                end_stage(&mut stage, &mut pipeline);
                i += 1;
                if cs.get(i) == Some(&'&') {
                    i += 1;
                }
            }
            ';' | '&' | '|' | '\n' | '\r' | '(' | ')' | '{' | '}'
                if !(matches!(c, '{' | '}') && word.is_some()) =>
            {
                end_word(&mut word, &mut stage, &mut redirect_next);
                end_stage(&mut stage, &mut pipeline);
                end_pipeline(&mut pipeline, &mut lists);
                i += 1;
                while i < cs.len() && matches!(cs[i], '&' | '|' | ';') {
                    i += 1;
                }
            }
            _ => {
                push(&mut word, Some(c), i, i + 1);
                i += 1;
            }
        }
    }
    end_word(&mut word, &mut stage, &mut redirect_next);
    end_stage(&mut stage, &mut pipeline);
    end_pipeline(&mut pipeline, &mut lists);
    lists
}

/// Programs that fetch from the network and print what they fetched.
pub(crate) const DOWNLOADERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "http",
    "https",
    "aria2c",
    "iwr",
    "irm",
    "invoke-webrequest",
    "invoke-restmethod",
];

/// Programs that run the text they read as code.
pub(crate) const INTERPRETERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "ash",
    "fish",
    "csh",
    "tcsh",
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "php",
    "pwsh",
    "powershell",
    "iex",
    "invoke-expression",
    "source",
    ".",
];

/// Whether `stage` is a downloader that prints what it fetches (`curl`
/// without `-o`/`-O`, `wget`, `Invoke-WebRequest`...).
pub(crate) fn is_download(stage: &Stage) -> bool {
    let Some(p) = stage.program() else {
        return false;
    };
    let p = p.to_ascii_lowercase();
    DOWNLOADERS.contains(&p.as_str())
        && !(p == "curl"
            && stage
                .args()
                .iter()
                .any(|a| matches!(a.text.as_str(), "-o" | "--output" | "-O" | "--remote-name")))
}

/// Whether `stage` runs what it reads as code (a shell or interpreter that
/// reads its standard input: no script file, no `-c`).
pub(crate) fn is_interpreter(stage: &Stage) -> bool {
    let Some(p) = stage.program() else {
        return false;
    };
    let p = p.to_ascii_lowercase();
    let p = p.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let p = if p.is_empty() { "." } else { p };
    if !INTERPRETERS.contains(&p) {
        return false;
    }
    // `bash script.sh` reads a file, not the pipe; `bash -s`, `bash -`,
    // `sh` alone read the pipe.
    let args = stage.args();
    !args
        .iter()
        .any(|a| a.text == "-c" || (!a.text.starts_with('-') && !a.text.is_empty()))
        || args.iter().any(|a| a.text == "-s" || a.text == "-")
}

/// Whether `stage` decodes base64 or hex (`base64 -d`, `xxd -r`,
/// `openssl base64 -d`, `certutil -decode`).
pub(crate) fn is_decoder(stage: &Stage) -> bool {
    let Some(p) = stage.program() else {
        return false;
    };
    let args = stage.args();
    let has = |f: &[&str]| args.iter().any(|a| f.contains(&a.text.as_str()));
    match p {
        "base64" | "base32" | "gbase64" => has(&["-d", "--decode", "-D", "-di", "-id"]),
        "xxd" => has(&["-r", "-r -p", "-rp", "-pr"]),
        "openssl" => has(&["-d"]),
        "certutil" => has(&["-decode", "-decodehex"]),
        "uudecode" => true,
        _ => false,
    }
}

/// Whether a text (of a command substitution) fetches or decodes.
pub(crate) fn fetches_or_decodes(text: &str) -> Option<&'static str> {
    let cs: Vec<char> = text.chars().collect();
    for p in parse(&cs) {
        for s in &p {
            if is_download(s) {
                return Some("fetched");
            }
            if is_decoder(s) {
                return Some("decoded");
            }
        }
    }
    if text.contains("FromBase64String") {
        return Some("decoded");
    }
    None
}

/// The inside of each `$(...)`, `<(...)` and backtick substitution of `t`.
pub(crate) fn substitutions(t: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if (b[i] == b'$' || b[i] == b'<') && b.get(i + 1) == Some(&b'(') {
            let mut depth = 0usize;
            let mut j = i + 1;
            while j < b.len() {
                match b[j] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            out.push(&t[i + 2..j.min(b.len())]);
            i = j + 1;
        } else if b[i] == b'`' {
            let end = t[i + 1..].find('`').map_or(t.len(), |p| i + 1 + p);
            out.push(&t[i + 1..end]);
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// The shell rc and profile files a login or interactive shell runs.
const RC_FILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".kshrc",
    ".mkshrc",
    ".cshrc",
    ".tcshrc",
];

/// Whether `path` is a shell startup file.
pub(crate) fn is_rc_file(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    RC_FILES.contains(&base)
        || path.ends_with(".config/fish/config.fish")
        || matches!(
            path,
            "/etc/profile" | "/etc/bash.bashrc" | "/etc/bashrc" | "/etc/zshrc" | "/etc/zsh/zshrc"
        )
        || path.starts_with("/etc/profile.d/")
}

/// One dangerous construct found in a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    /// Characters of the command it covers.
    pub chars: Range<usize>,
    /// The words as the message quotes them.
    pub shown: String,
    /// A detail for the message (the target, the mode, the file).
    pub detail: String,
}

fn shown(cs: &[char], r: &Range<usize>) -> String {
    cs[r.start.min(cs.len())..r.end.min(cs.len())]
        .iter()
        .collect()
}

/// SEC003: a download piped into an interpreter, or fed to one through a
/// substitution (`bash <(curl ...)`, `sh -c "$(curl ...)"`).
pub(crate) fn pipe_to_shell(cs: &[char]) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in parse(cs) {
        if let Some(d) = p.iter().position(is_download)
            && let Some(k) = p[d + 1..].iter().position(is_interpreter)
        {
            let (Some(a), Some(b)) = (p[d].chars(), p[d + 1 + k].chars()) else {
                continue;
            };
            let r = a.start..b.end;
            out.push(Finding {
                shown: shown(cs, &r),
                detail: p[d + 1 + k].program().unwrap_or("sh").to_string(),
                chars: r,
            });
            continue;
        }
        for s in &p {
            let Some(prog) = s.program() else { continue };
            let lower = prog.to_ascii_lowercase();
            if !INTERPRETERS.contains(&lower.as_str()) || lower == "iex" {
                continue;
            }
            if s.args().iter().any(|a| {
                substitutions(&a.text)
                    .iter()
                    .any(|t| fetches_or_decodes(t) == Some("fetched"))
            }) && let Some(r) = s.chars()
            {
                out.push(Finding {
                    shown: shown(cs, &r),
                    detail: prog.to_string(),
                    chars: r,
                });
            }
        }
    }
    out
}

/// SEC005: `eval` (or PowerShell's `Invoke-Expression`) of fetched or
/// decoded text, and decoded text piped into an interpreter.
pub(crate) fn eval_untrusted(cs: &[char]) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in parse(cs) {
        if let Some(d) = p.iter().position(is_decoder)
            && let Some(k) = p[d + 1..].iter().position(is_interpreter)
        {
            let (Some(a), Some(b)) = (p[d].chars(), p[d + 1 + k].chars()) else {
                continue;
            };
            let r = a.start..b.end;
            out.push(Finding {
                shown: shown(cs, &r),
                detail: "decoded".into(),
                chars: r,
            });
            continue;
        }
        for s in &p {
            let Some(prog) = s.program() else { continue };
            let lower = prog.to_ascii_lowercase();
            if !matches!(lower.as_str(), "eval" | "iex" | "invoke-expression") {
                continue;
            }
            let how = s.args().iter().find_map(|a| {
                substitutions(&a.text)
                    .iter()
                    .find_map(|t| fetches_or_decodes(t))
                    .or_else(|| {
                        a.text
                            .contains("FromBase64String")
                            .then_some("decoded")
                            .or_else(|| {
                                let l = a.text.to_ascii_lowercase();
                                (l.contains("downloadstring") || l.contains("invoke-webrequest"))
                                    .then_some("fetched")
                            })
                    })
            });
            if let Some(how) = how
                && let Some(r) = s.chars()
            {
                out.push(Finding {
                    shown: shown(cs, &r),
                    detail: how.into(),
                    chars: r,
                });
            }
        }
    }
    out
}

/// SEC004: `rm` with a recursive flag on `/`, `~` or `$HOME`.
pub(crate) fn rm_root(cs: &[char]) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in parse(cs) {
        for s in &p {
            if s.program() != Some("rm") {
                continue;
            }
            let mut recursive = false;
            let mut options = true;
            let mut target = None;
            for a in s.args() {
                let t = a.text.as_str();
                if options && t == "--" {
                    options = false;
                } else if options && t.starts_with("--") {
                    recursive |= t == "--recursive";
                } else if options && t.starts_with('-') && t.len() > 1 {
                    recursive |= t.contains(['r', 'R']);
                } else if target.is_none() && is_root_or_home(t) {
                    target = Some(t.to_string());
                }
            }
            if recursive
                && let Some(t) = target
                && let Some(r) = s.chars()
            {
                out.push(Finding {
                    shown: shown(cs, &r),
                    detail: t,
                    chars: r,
                });
            }
        }
    }
    out
}

/// `/`, `/*`, `/.`, `~`, `~/`, `~/*`, `$HOME`, `${HOME}` and their `/`,
/// `/*`, `/.` forms.
fn is_root_or_home(t: &str) -> bool {
    let mut s = t;
    while let Some(r) = s
        .strip_suffix("/*")
        .or_else(|| s.strip_suffix("/."))
        .or_else(|| s.strip_suffix('/'))
    {
        s = r;
    }
    (s.is_empty() && t.starts_with('/')) || matches!(s, "~" | "$HOME" | "${HOME}")
}

/// SEC006: `chmod` with a mode that lets every user write (`777`, `666`,
/// `o+w`, `a+rwx`).
pub(crate) fn world_writable(cs: &[char]) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in parse(cs) {
        for s in &p {
            if s.program() != Some("chmod") {
                continue;
            }
            let args = s.args();
            let Some(mode) = args
                .iter()
                .find(|a| !a.text.starts_with('-') || symbolic_others_write(&a.text))
            else {
                continue;
            };
            if (octal_others_write(&mode.text) || symbolic_others_write(&mode.text))
                && let Some(r) = s.chars()
            {
                out.push(Finding {
                    shown: shown(cs, &r),
                    detail: mode.text.clone(),
                    chars: r,
                });
            }
        }
    }
    out
}

fn octal_others_write(m: &str) -> bool {
    (3..=4).contains(&m.len())
        && m.bytes().all(|b| (b'0'..=b'7').contains(&b))
        && matches!(m.as_bytes()[m.len() - 1], b'2' | b'3' | b'6' | b'7')
}

fn symbolic_others_write(m: &str) -> bool {
    m.split(',').any(|clause| {
        let who_end = clause
            .find(['+', '='])
            .filter(|&i| clause[..i].chars().all(|c| "ugoa".contains(c)));
        match who_end {
            Some(i) => {
                let who = &clause[..i];
                (who.contains('o') || who.contains('a')) && clause[i + 1..].contains('w')
            }
            None => false,
        }
    })
}

/// SEC007: output redirected into, or a file copied, moved, linked, edited
/// in place or `tee`d onto, a shell startup file.
pub(crate) fn rc_write(cs: &[char]) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in parse(cs) {
        for s in &p {
            let prog = s.program().unwrap_or("");
            let args = s.args();
            let mut target = s
                .words
                .iter()
                .find(|w| w.redirect && is_rc_file(&w.text))
                .map(|w| w.text.clone());
            if target.is_none() {
                let files: Vec<&&Word> = args.iter().filter(|a| !a.text.starts_with('-')).collect();
                target = match prog {
                    "tee" => files.iter().find(|a| is_rc_file(&a.text)),
                    "cp" | "mv" | "ln" | "install" | "rsync" => files
                        .last()
                        .filter(|a| files.len() >= 2 && is_rc_file(&a.text)),
                    "sed" | "perl"
                        if args.iter().any(|a| {
                            a.text.starts_with("-i")
                                || a.text.starts_with("-pi")
                                || a.text == "--in-place"
                        }) =>
                    {
                        files.iter().find(|a| is_rc_file(&a.text))
                    }
                    _ => None,
                }
                .map(|a| a.text.clone());
            }
            if let Some(t) = target
                && let Some(r) = s.chars()
            {
                out.push(Finding {
                    shown: shown(cs, &r),
                    detail: t,
                    chars: r,
                });
            }
        }
    }
    out
}

/// SEC018: git commands that throw away work or history: `git reset
/// --hard`, `git clean -f` with `-d` or `-x`, `git checkout -- .` /
/// `git checkout .`, `git restore .`, `git push --force` (not
/// `--force-with-lease`).
pub(crate) fn destructive_git(cs: &[char]) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in parse(cs) {
        for s in &p {
            if s.program() != Some("git") {
                continue;
            }
            let args: Vec<&str> = s.args().iter().map(|a| a.text.as_str()).collect();
            // Skip global options (`-C dir`, `-c k=v`) to the subcommand.
            let mut i = 0;
            while i < args.len() && args[i].starts_with('-') {
                i += if matches!(args[i], "-C" | "-c") { 2 } else { 1 };
            }
            let Some(&sub) = args.get(i) else { continue };
            let rest = &args[(i + 1).min(args.len())..];
            let has = |f: &str| rest.contains(&f);
            let short = |c: char| {
                rest.iter()
                    .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(c))
            };
            let what = match sub {
                "reset" if has("--hard") => Some("discards every uncommitted change"),
                "clean" if (short('f') || has("--force")) && (short('d') || short('x')) => {
                    Some("deletes untracked files and folders")
                }
                "checkout" | "restore" if rest.last() == Some(&".") => {
                    Some("discards the uncommitted changes of every file")
                }
                "push" if has("--force") || has("-f") => {
                    Some("rewrites the remote branch's history")
                }
                _ => None,
            };
            if let Some(what) = what
                && let Some(r) = s.chars()
            {
                out.push(Finding {
                    shown: shown(cs, &r),
                    detail: what.into(),
                    chars: r,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn words(s: &str) -> Vec<Vec<Vec<String>>> {
        parse(&cs(s))
            .into_iter()
            .map(|p| {
                p.into_iter()
                    .map(|st| st.words.into_iter().map(|w| w.text).collect())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn reads_lists_and_pipelines() {
        assert_eq!(
            words(r#"curl -fsSL "https://x/a b" | sudo bash -s -- --y; echo 'a|b' && ls"#),
            vec![
                vec![
                    vec!["curl", "-fsSL", "https://x/a b"],
                    vec!["sudo", "bash", "-s", "--", "--y"]
                ],
                vec![vec!["echo", "a|b"]],
                vec![vec!["ls"]],
            ]
        );
        assert_eq!(
            words("x=$(a | b; c) d"),
            vec![vec![vec!["x=$(a | b; c)", "d"]]]
        );
    }

    #[test]
    fn dangers() {
        let n = |f: fn(&[char]) -> Vec<Finding>, s: &str| f(&cs(s)).len();
        assert_eq!(
            n(pipe_to_shell, "curl https://example.com/install.sh | sh"),
            1
        );
        assert_eq!(n(pipe_to_shell, "wget -qO- https://x | sudo bash"), 1);
        assert_eq!(n(pipe_to_shell, "bash <(curl -s https://x)"), 1);
        assert_eq!(n(pipe_to_shell, r#"sh -c "$(curl -fsSL https://x)""#), 1);
        assert_eq!(n(pipe_to_shell, "irm https://x | iex"), 1);
        assert_eq!(n(pipe_to_shell, "curl -s https://x | jq .name"), 0);
        assert_eq!(n(pipe_to_shell, "curl -s https://x > a.sh && bash a.sh"), 0);
        assert_eq!(n(pipe_to_shell, "echo $TOOL_INPUT | jq .command"), 0);
        assert_eq!(
            n(pipe_to_shell, "curl -s https://x | python -m json.tool"),
            0
        );
        assert_eq!(
            n(pipe_to_shell, r#"echo "curl https://x | sh" > notes.txt"#),
            0
        );
        assert_eq!(n(pipe_to_shell, "curl -s https://x | bash -s -- --yes"), 1);
        assert_eq!(n(eval_untrusted, r#"eval "$(curl -s https://x)""#), 1);
        assert_eq!(n(eval_untrusted, r#"eval "$(echo aGk= | base64 -d)""#), 1);
        assert_eq!(n(eval_untrusted, "echo 6375 | xxd -r -p | sh"), 1);
        assert_eq!(n(eval_untrusted, r#"eval "$(ssh-agent -s)""#), 0);
        assert_eq!(n(rm_root, "rm -rf /"), 1);
        assert_eq!(n(rm_root, "rm -fr ~/"), 1);
        assert_eq!(n(rm_root, r#"rm -r -f "$HOME""#), 1);
        assert_eq!(n(rm_root, "sudo rm -rf --no-preserve-root /*"), 1);
        assert_eq!(n(rm_root, "rm -rf /tmp/build"), 0);
        assert_eq!(n(rm_root, "rm -rf ./dist"), 0);
        assert_eq!(n(rm_root, "rm -f /"), 0);
        assert_eq!(n(rm_root, "rm -rf ~/.cache/x"), 0);
        assert_eq!(n(world_writable, "chmod 777 /var/www"), 1);
        assert_eq!(n(world_writable, "chmod -R 0777 ."), 1);
        assert_eq!(n(world_writable, "chmod a+rwx x"), 1);
        assert_eq!(n(world_writable, "chmod o+w x"), 1);
        assert_eq!(n(world_writable, "chmod 755 x"), 0);
        assert_eq!(n(world_writable, "chmod 1777 /tmp/shared"), 1);
        assert_eq!(n(world_writable, "chmod +x x"), 0);
        assert_eq!(n(world_writable, "chmod u+w,go-w x"), 0);
        assert_eq!(n(rc_write, "echo 'alias ls=rm' >> ~/.bashrc"), 1);
        assert_eq!(n(rc_write, "echo x | tee -a $HOME/.zshrc"), 1);
        assert_eq!(n(rc_write, "cp evil ~/.profile"), 1);
        assert_eq!(n(rc_write, "source ~/.bashrc"), 0);
        assert_eq!(n(rc_write, "cat ~/.bashrc > backup.txt"), 0);
        assert_eq!(n(rc_write, "echo hi 2>&1 >> log.txt"), 0);
        assert_eq!(n(destructive_git, "git reset --hard HEAD"), 1);
        assert_eq!(n(destructive_git, "git -C repo clean -fdx"), 1);
        assert_eq!(n(destructive_git, "git push --force origin main"), 1);
        assert_eq!(n(destructive_git, "git checkout -- ."), 1);
        assert_eq!(n(destructive_git, "git push --force-with-lease"), 0);
        assert_eq!(n(destructive_git, "git reset --soft HEAD~1"), 0);
        assert_eq!(n(destructive_git, "git clean -n"), 0);
        assert_eq!(n(destructive_git, "git checkout main"), 0);
    }
}
