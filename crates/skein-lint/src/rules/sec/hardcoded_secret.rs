//! SEC001 `hardcoded-secret`.

use super::{plain, servers, sub_span};
use crate::rules::hooks::hooks_of;
use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Document, NodeId, Rule, Severity, quote, redacted};
use std::ops::Range;

/// The rule.
pub const RULE: Rule = Rule {
    code: "SEC001",
    name: "hardcoded-secret",
    severity: Severity::Error,
    summary: "a credential is written into an MCP server, hook, setting, manifest or agent Markdown",
    doc: include_str!("hardcoded_secret.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Any,
};

fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    let text = cx.sources.get(a.file).text();
    let doc = &a.document;
    let mut out = Vec::new();
    for server in servers(a) {
        let mut f = Finder::new(
            a,
            text,
            server.node,
            format!("of MCP server {}", quote(&server.name)),
            &mut out,
        );
        f.server();
        f.anywhere();
    }
    if let Some(h) = hooks_of(cx, a) {
        for (event, handler) in h.handlers() {
            let mut f = Finder::new(
                a,
                text,
                handler,
                format!("of a `{}` hook", plain(&event)),
                &mut out,
            );
            f.server();
            f.shell_words("`command`");
            f.anywhere();
        }
    }
    let root = doc.root();
    match a.format {
        Format::ClaudeSettings => {
            if let Some(root) = root {
                let mut f = Finder::new(a, text, root, "of the settings".into(), &mut out);
                if let Some(env) = doc.get(root, "env") {
                    f.keyed(env, "env");
                }
                for key in [
                    "apiKeyHelper",
                    "awsAuthRefresh",
                    "awsCredentialExport",
                    "gcpAuthRefresh",
                    "otelHeadersHelper",
                ] {
                    if let Some(v) = doc.get(root, key) {
                        f.node = v;
                        f.here = format!("`{key}`");
                        f.shell_words(&format!("`{key}`"));
                        f.anywhere();
                    }
                }
            }
        }
        Format::LoopmasterManifest => {
            if let Some(scopes) = root
                .and_then(|r| doc.get(r, "permissions"))
                .and_then(|p| doc.get(p, "credential_scopes"))
            {
                let mut f = Finder::new(a, text, scopes, "of the loop manifest".into(), &mut out);
                f.scopes();
            }
        }
        Format::LoomAgentSpec => {
            for (i, &c) in root
                .and_then(|r| doc.get(r, "capabilities"))
                .and_then(|c| doc.items(c))
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                if let Some(params) = doc.get(c, "params") {
                    let mut f = Finder::new(
                        a,
                        text,
                        c,
                        format!("of capability `capabilities[{i}]`"),
                        &mut out,
                    );
                    f.keyed(params, "params");
                    f.node = params;
                    f.anywhere();
                }
            }
        }
        _ => {}
    }
    if super::is_agent_markdown(cx, a) {
        body_tokens(a, text, &mut out);
    }
    out
}

/// High-confidence token shapes in a skill, agent or command body: every
/// shape but bearer and basic credentials and JSON Web Tokens, which
/// documentation shows as examples.
fn body_tokens(a: &Artifact, text: &str, out: &mut Vec<Diagnostic>) {
    let (start, end) = super::body_range(a, text);
    let mut from = start;
    // Bounded: at most 50 findings and 200 shapes looked at per file.
    let (mut found, mut looked) = (0, 0);
    while from < end && found < 50 && looked < 200 {
        looked += 1;
        let Some((range, what)) = token_shape(&text[from..end]) else {
            break;
        };
        let (s, e) = (from + range.start, from + range.end);
        from = e.max(from + 1);
        if matches!(
            what,
            "bearer token" | "basic-auth credential" | "JSON Web Token"
        ) {
            continue;
        }
        let span = skein_syntax::Span::new(s, e);
        found += 1;
        out.push(
            Diagnostic::new(
                RULE,
                a.file,
                span,
                format!("hard-coded {what} in the Markdown body: `{}`", redacted(&text[s..e])),
            )
            .with_label(format!("{} written into the repository", article(what)))
            .with_redacted(span)
            .with_help("replace it with a placeholder (`$GITHUB_TOKEN`, `<your-token>`), and rotate it: it is in the repository's history"),
        );
    }
}

/// Looks through one definition (an MCP server, a hook handler, a
/// settings file, a capability).
struct Finder<'a> {
    a: &'a Artifact,
    doc: &'a Document,
    text: &'a str,
    /// The node looked through.
    node: NodeId,
    /// Whose it is, for messages: `of MCP server `github``.
    owner: String,
    /// What the looked-through node itself is called in messages.
    here: String,
    out: &'a mut Vec<Diagnostic>,
    /// Values already reported (each is reported once).
    seen: std::collections::HashSet<NodeId>,
}

impl<'a> Finder<'a> {
    fn new(
        a: &'a Artifact,
        text: &'a str,
        node: NodeId,
        owner: String,
        out: &'a mut Vec<Diagnostic>,
    ) -> Self {
        Finder {
            a,
            doc: &a.document,
            text,
            node,
            owner,
            here: "`value`".into(),
            out,
            seen: std::collections::HashSet::new(),
        }
    }

    /// Every string value of mapping `map` (at any depth) judged by its key:
    /// `env.API_KEY`, `params.auth.token`.
    fn keyed(&mut self, map: NodeId, prefix: &str) {
        let doc = self.doc;
        let mut stack = vec![(map, prefix.to_string())];
        while let Some((m, path)) = stack.pop() {
            for e in doc.entries(m).unwrap_or_default().iter().rev() {
                let Some(name) = doc.as_str(e.key) else {
                    continue;
                };
                let at = format!("{path}.{}", plain(name));
                if doc.entries(e.value).is_some() {
                    stack.push((e.value, at));
                    continue;
                }
                let Some(value) = doc.as_str(e.value) else {
                    continue;
                };
                if let Some((range, what, why)) = credential(name, value) {
                    self.report(
                        e.value,
                        value,
                        range,
                        what,
                        &format!("`{at}`"),
                        why,
                        Some(name),
                    );
                }
            }
        }
    }

    /// Loopmaster `credential_scopes`: names of scopes only. A token shape,
    /// a `NAME=value` with a secret-like name, or a random-looking value with
    /// none of a scope's separators is a credential.
    fn scopes(&mut self) {
        let doc = self.doc;
        for (i, &item) in doc.items(self.node).unwrap_or_default().iter().enumerate() {
            let Some(value) = doc.as_str(item) else {
                continue;
            };
            let at = format!("`permissions.credential_scopes[{i}]`");
            if let Some((range, what)) = token_shape(value) {
                self.report(item, value, range, what, &at, None, None);
            } else if let Some((name, v)) = value.split_once(['=', ':'])
                && let Some((range, what, why)) = credential(name.trim(), v)
            {
                let off = name.len() + 1;
                self.report(
                    item,
                    value,
                    range.start + off..range.end + off,
                    what,
                    &at,
                    why,
                    Some(name.trim()),
                );
            } else if !value.contains([':', '.', ' ', '/'])
                && looks_random(value, 24)
                && !is_placeholder(value)
            {
                let why = Some(format!(
                    "a scope is a name (`repo:read`); this value looks random ({:.1} bits of entropy per character)",
                    entropy(value)
                ));
                self.report(item, value, 0..value.len(), "secret", &at, why, None);
            }
        }
    }

    /// The words of a shell command string: `NAME=value` assignments and
    /// `--flag value` / `--flag=value` arguments with secret-like names.
    fn shell_words(&mut self, at: &str) {
        let doc = self.doc;
        let node = doc.get(self.node, "command").unwrap_or(self.node);
        let Some(value) = doc.as_str(node) else {
            return;
        };
        if self.seen.contains(&node) {
            return;
        }
        let mut previous: Option<&str> = None;
        let mut pos = 0;
        for w in value.split([' ', '\t', '\n']) {
            let start = pos;
            pos += w.len() + 1;
            let word = w.trim_matches(['"', '\'']);
            let inner = start + (w.len() - w.trim_start_matches(['"', '\'']).len());
            let found = if let Some((name, v)) = word.split_once('=')
                && crate::rules::sec::shell::is_assignment(word)
            {
                credential(name, v).map(|c| (c, name, inner + name.len() + 1))
            } else {
                flag_value(word, previous)
                    .and_then(|(name, v, off)| credential(name, v).map(|c| (c, name, inner + off)))
            };
            if let Some(((range, what, why), name, off)) = found {
                self.report(
                    node,
                    value,
                    range.start + off..range.end + off,
                    what,
                    at,
                    why,
                    Some(name),
                );
                return;
            }
            previous = Some(word);
        }
    }

    fn server(&mut self) {
        let doc = self.doc;
        for e in doc.entries(self.node).unwrap_or_default() {
            let Some(key) = doc.as_str(e.key) else {
                continue;
            };
            match key {
                "env" | "environment" | "headers" => {
                    for v in doc.entries(e.value).unwrap_or_default() {
                        let (Some(name), Some(value)) = (doc.as_str(v.key), doc.as_str(v.value))
                        else {
                            continue;
                        };
                        let at = format!("`{key}.{}`", plain(name));
                        match credential(name, value) {
                            Some((range, what, why)) => {
                                self.report(v.value, value, range, what, &at, why, Some(name))
                            }
                            None => continue,
                        }
                    }
                }
                "url" | "serverUrl" | "httpUrl" | "endpoint" => {
                    if let Some(url) = doc.as_str(e.value) {
                        self.url(e.value, url, key);
                    }
                }
                "args" | "command" => {
                    let items: Vec<NodeId> = match doc.items(e.value) {
                        Some(items) => items.to_vec(),
                        None => vec![e.value],
                    };
                    let mut previous: Option<&str> = None;
                    for (i, &item) in items.iter().enumerate() {
                        let Some(value) = doc.as_str(item) else {
                            previous = None;
                            continue;
                        };
                        let at = if doc.items(e.value).is_some() {
                            format!("`{key}[{i}]`")
                        } else {
                            format!("`{key}`")
                        };
                        if let Some((range, what)) = token_shape(value) {
                            self.report(item, value, range, what, &at, None, None);
                        } else if let Some((name, v, start)) = flag_value(value, previous)
                            && let Some((range, what, why)) = credential(name, v)
                        {
                            let range = range.start + start..range.end + start;
                            self.report(item, value, range, what, &at, why, Some(name));
                        }
                        previous = Some(value);
                    }
                }
                _ => {}
            }
        }
    }

    /// A URL: token shapes anywhere, the userinfo password, query parameters
    /// with secret-like names.
    fn url(&mut self, node: NodeId, url: &str, key: &str) {
        if let Some((range, what)) = token_shape(url) {
            let at = format!("`{key}`");
            self.report(node, url, range, what, &at, None, None);
            return;
        }
        let Some(scheme_end) = url.find("://") else {
            return;
        };
        let after = scheme_end + 3;
        let authority_end = url[after..]
            .find(['/', '?', '#'])
            .map_or(url.len(), |i| after + i);
        if let Some(at_sign) = url[after..authority_end].rfind('@') {
            let userinfo = &url[after..after + at_sign];
            if let Some(colon) = userinfo.find(':') {
                let password = &userinfo[colon + 1..];
                if !password.is_empty() && !is_placeholder(password) {
                    let start = after + colon + 1;
                    let at = format!("the user information of `{key}`");
                    self.report(
                        node,
                        url,
                        start..start + password.len(),
                        "password",
                        &at,
                        None,
                        None,
                    );
                }
            }
        }
        let Some(q) = url.find('?') else { return };
        let end = url[q..].find('#').map_or(url.len(), |i| q + i);
        let mut pos = q + 1;
        for pair in url[q + 1..end].split('&') {
            let start = pos;
            pos += pair.len() + 1;
            let Some((name, value)) = pair.split_once('=') else {
                continue;
            };
            if let Some((range, what, why)) = credential(name, value) {
                let offset = start + name.len() + 1;
                let at = format!("the query parameter `{}` of `{key}`", plain(name));
                self.report(
                    node,
                    url,
                    range.start + offset..range.end + offset,
                    what,
                    &at,
                    why,
                    Some(name),
                );
            }
        }
    }

    /// Every other string under the server, at any depth and in any shape
    /// (`env` written as one string, `headers` as a list, a value nested in
    /// an object): known token shapes anywhere in it, and `NAME=value` with
    /// a secret-like name. Explicit stack: no recursion on input depth.
    fn anywhere(&mut self) {
        let doc = self.doc;
        let mut stack = vec![self.node];
        while let Some(n) = stack.pop() {
            if let Some(entries) = doc.entries(n) {
                stack.extend(entries.iter().rev().map(|e| e.value));
                continue;
            }
            if let Some(items) = doc.items(n) {
                stack.extend(items.iter().rev().copied());
                continue;
            }
            if self.seen.contains(&n) {
                continue;
            }
            let Some(value) = doc.as_str(n) else {
                continue;
            };
            let at = match self.path_of(n) {
                p if p == "value" => self.here.clone(),
                p => format!("`{p}`"),
            };
            if let Some((range, what)) = token_shape(value) {
                self.report(n, value, range, what, &at, None, None);
            } else if let Some((name, v)) = value.split_once('=')
                && !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
                && let Some((range, what, why)) = credential(name, v)
            {
                let start = name.len() + 1;
                let range = range.start + start..range.end + start;
                self.report(n, value, range, what, &at, why, Some(name));
            }
        }
    }

    /// Where `node` is, as written in the artifact (`env`, `headers[0]`),
    /// relative to the server; `value` when it cannot be told.
    fn path_of(&self, node: NodeId) -> String {
        let doc = self.doc;
        let mut stack = vec![(self.node, String::new())];
        while let Some((n, path)) = stack.pop() {
            if n == node {
                return if path.is_empty() {
                    "value".into()
                } else {
                    path
                };
            }
            if let Some(entries) = doc.entries(n) {
                for e in entries {
                    let key = doc.as_str(e.key).unwrap_or("?");
                    let p = if path.is_empty() {
                        plain(key)
                    } else {
                        format!("{path}.{}", plain(key))
                    };
                    stack.push((e.value, p));
                }
            } else if let Some(items) = doc.items(n) {
                for (i, &it) in items.iter().enumerate() {
                    stack.push((it, format!("{path}[{i}]")));
                }
            }
        }
        "value".into()
    }

    #[allow(clippy::too_many_arguments)]
    fn report(
        &mut self,
        node: NodeId,
        value: &str,
        range: Range<usize>,
        what: &str,
        at: &str,
        why: Option<String>,
        name: Option<&str>,
    ) {
        // Once per value; a URL may hold several secrets, each reported.
        let secret = &value[range.clone()];
        let span = sub_span(self.doc, node, self.text, range);
        if self.seen.contains(&node) && self.out.iter().any(|d| d.primary.span == span) {
            return;
        }
        self.seen.insert(node);
        let mut d = Diagnostic::new(
            RULE,
            self.a.file,
            span,
            format!(
                "hard-coded {what} in {at} {}: `{}`",
                self.owner,
                redacted(secret)
            ),
        )
        .with_label(format!("{} written into the repository", article(what)))
        .with_redacted(span);
        if let Some(why) = why {
            d = d.with_note(why);
        }
        let var = name
            .filter(|n| {
                !n.is_empty()
                    && n.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            })
            .map(|n| n.to_ascii_uppercase().replace('-', "_"))
            .unwrap_or_else(|| "SECRET".into());
        d = d.with_help(format!(
            "read it from the environment instead (`${{{var}}}`), and rotate it: it is in the repository's history"
        ));
        self.out.push(d);
    }
}

/// `a GitHub token`, `an AWS access key id`.
fn article(what: &str) -> String {
    let vowel = what
        .chars()
        .next()
        .is_some_and(|c| "AEIOUaeiou".contains(c));
    format!("{} {what}", if vowel { "an" } else { "a" })
}

/// For an argument `--api-key=VALUE`, or `VALUE` after an argument
/// `--api-key`: the flag's name, the value, and the value's offset in `arg`.
fn flag_value<'v>(arg: &'v str, previous: Option<&'v str>) -> Option<(&'v str, &'v str, usize)> {
    if let Some(rest) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'))
        && let Some((name, value)) = rest.split_once('=')
    {
        return Some((name, value, arg.len() - value.len()));
    }
    let flag = previous?
        .strip_prefix("--")
        .or_else(|| previous?.strip_prefix('-'))?;
    (!flag.contains('=') && !arg.starts_with('-')).then_some((flag, arg, 0))
}

/// Whether `value`, under the name `name`, is a credential: the range of
/// the secret in `value`, what it is, and (for a value judged by its name) why.
fn credential(name: &str, value: &str) -> Option<(Range<usize>, &'static str, Option<String>)> {
    if let Some((range, what)) = token_shape(value) {
        return Some((range, what, None));
    }
    let words = words(name);
    let has = |w: &str| words.iter().any(|x| x == w);
    if has("AUTHORIZATION") || has("PROXY-AUTHORIZATION") {
        // `Bearer <token>`, `Basic <base64>`, `token <token>` or the token alone.
        let cred_start = value.find(' ').map_or(0, |i| i + 1);
        let cred = value[cred_start..].trim_end();
        if cred.len() >= 8 && !is_placeholder(cred) && (cred.len() >= 16 || looks_random(cred, 8)) {
            return Some((
                cred_start..cred_start + cred.len(),
                "credential",
                Some(format!(
                    "the `{}` header carries a literal credential",
                    plain(name)
                )),
            ));
        }
        return None;
    }
    if !secret_like(&words) {
        return None;
    }
    let trimmed = value.trim();
    if trimmed.is_empty() || is_placeholder(trimmed) || is_not_a_secret_value(trimmed) {
        return None;
    }
    let password = has("PASSWORD") || has("PASSWD") || has("PWD") || has("PASS");
    let min = if password { 8 } else { 16 };
    if !looks_random(trimmed, min) {
        return None;
    }
    let start = value.len() - value.trim_start().len();
    Some((
        start..start + trimmed.len(),
        if password { "password" } else { "secret" },
        Some(format!(
            "`{}` names a secret and the value looks random ({:.1} bits of entropy per character)",
            plain(name),
            entropy(trimmed)
        )),
    ))
}

/// The words of a name, upper-cased: split at `_`, `-`, `.`, spaces and
/// lower-to-upper case changes (`apiKey` -> `API`, `KEY`); `X-API-Key` ->
/// `X`, `API`, `KEY`.
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_uppercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    // `Proxy-Authorization` is one header.
    if out.len() == 2 && out[0] == "PROXY" && out[1] == "AUTHORIZATION" {
        return vec!["PROXY-AUTHORIZATION".into()];
    }
    out
}

/// A name that says its value is a secret: a word TOKEN, SECRET, PASSWORD,
/// PASSWD, PWD, PASS, APIKEY, CREDENTIAL(S), PAT, PRIVATE, or KEY (an API
/// key) — unless a word says it is about the secret rather than the secret
/// (`_FILE`, `_PATH`, `_URL`, `_ID`, `_NAME`, `PUBLIC`, ...).
fn secret_like(words: &[String]) -> bool {
    const SECRET: &[&str] = &[
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "PWD",
        "PASS",
        "APIKEY",
        "CREDENTIAL",
        "CREDENTIALS",
        "PAT",
        "PRIVATE",
        "KEY",
        "AUTH",
    ];
    const ABOUT: &[&str] = &[
        "FILE", "PATH", "DIR", "URL", "URI", "ENDPOINT", "HOST", "PORT", "NAME", "ID", "TYPE",
        "HEADER", "ENV", "VAR", "MODE", "ENABLED", "COUNT", "LIMIT", "TIMEOUT", "PUBLIC", "EXPIRY",
        "EXPIRES", "TTL", "LENGTH", "SIZE", "FORMAT", "KIND", "METHOD", "PROVIDER", "SCOPE",
        "SCOPES", "REGION", "USER", "USERNAME", "EMAIL", "ACCOUNT", "VERSION", "HINT",
    ];
    words.iter().any(|w| SECRET.contains(&w.as_str()))
        && !words.iter().any(|w| ABOUT.contains(&w.as_str()))
}

/// Values that are references or switches, never secrets: URLs, paths,
/// booleans.
fn is_not_a_secret_value(v: &str) -> bool {
    v.contains("://")
        || v.starts_with(['/', '.', '~'])
        || matches!(
            v.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "none" | "null"
        )
}

/// A placeholder, not a secret: `${VAR}`, `${env:VAR}`, `$VAR`, `%VAR%`,
/// `{{var}}`, OpenCode's `{env:VAR}` and `{file:path}`, `$(cmd)`, `<your-token>`, a value that says it is an example
/// (`your-api-key-here`, `changeme`, `xxxx`, `...`), one character repeated,
/// or very few distinct characters.
pub(crate) fn is_placeholder(v: &str) -> bool {
    let t = v.trim();
    if t.is_empty() {
        return true;
    }
    if t.contains("${")
        || t.contains("{env:")
        || t.contains("{file:")
        || t.contains("{{")
        || t.contains("$(")
        || (t.contains('<') && t.contains('>'))
    {
        return true;
    }
    if let Some(rest) = t.strip_prefix('$')
        && rest
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '{')
    {
        return true;
    }
    if t.starts_with('%') && t.ends_with('%') && t.len() > 2 {
        return true;
    }
    let lower = t.to_ascii_lowercase();
    const WORDS: &[&str] = &[
        "your",
        "example",
        "placeholder",
        "changeme",
        "change-me",
        "change_me",
        "replace",
        "dummy",
        "redacted",
        "insert",
        "xxxx",
        "****",
        "...",
        "…",
        "todo",
        "fixme",
        "here",
        "sample",
        "fake",
        "secret-value",
        "my-token",
        "my_token",
        "mytoken",
        "token-here",
        "api-key",
        "api_key",
        "apikey",
        "<",
        "0000",
        "1234",
        "abcd",
    ];
    if WORDS.iter().any(|w| lower.contains(w)) {
        return true;
    }
    // A run of five equal characters (`sk-aaaaa...`), or few distinct ones.
    let chars: Vec<char> = t.chars().collect();
    if chars.windows(5).any(|w| w.iter().all(|&c| c == w[0])) {
        return true;
    }
    let mut distinct: Vec<char> = chars.clone();
    distinct.sort_unstable();
    distinct.dedup();
    distinct.len() < 6
}

/// Shannon entropy of the characters of `v`, in bits per character.
fn entropy(v: &str) -> f64 {
    let mut counts: std::collections::HashMap<char, usize> = std::collections::HashMap::new();
    let mut n = 0usize;
    for c in v.chars() {
        *counts.entry(c).or_default() += 1;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    counts
        .values()
        .map(|&k| {
            let p = k as f64 / n as f64;
            -p * p.log2()
        })
        .sum()
}

/// A value that looks machine-generated: at least `min` characters, no
/// white space, two or more kinds of characters (lower, upper, digits,
/// symbols), and over 3 bits of entropy per character (a word or a
/// sentence has fewer distinct letters; a key has more).
fn looks_random(v: &str, min: usize) -> bool {
    if v.chars().count() < min || v.chars().any(char::is_whitespace) {
        return false;
    }
    let classes = [
        v.chars().any(|c| c.is_ascii_lowercase()),
        v.chars().any(|c| c.is_ascii_uppercase()),
        v.chars().any(|c| c.is_ascii_digit()),
        v.chars().any(|c| !c.is_ascii_alphanumeric()),
    ]
    .iter()
    .filter(|&&b| b)
    .count();
    classes >= 2 && entropy(v) > 3.0
}

/// The first substring of `v` shaped like a known token, and what it is.
pub(crate) fn token_shape(v: &str) -> Option<(Range<usize>, &'static str)> {
    let b = v.as_bytes();
    let boundary = |i: usize| i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    let run =
        |from: usize, ok: &dyn Fn(u8) -> bool| b[from..].iter().take_while(|&&c| ok(c)).count();
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let dashed = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    let b64url = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    let accept = |start: usize, len: usize, what: &'static str| {
        let token = &v[start..start + len];
        (!is_placeholder(token)).then_some((start..start + len, what))
    };
    // PEM private keys (the searcher built once, not per call).
    static PEM: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"-----BEGIN "));
    if let Some(i) = PEM.find(b) {
        let header_end = v[i..]
            .find("-----\n")
            .or_else(|| v[i + 5..].find("-----").map(|j| j + 5));
        if let Some(h) = header_end
            && v[i..i + h].ends_with("PRIVATE KEY")
        {
            let end = v[i..]
                .find("-----END ")
                .and_then(|j| v[i + j + 9..].find("-----").map(|k| i + j + 9 + k + 5))
                .unwrap_or(v.len());
            return Some((i..end, "private key"));
        }
    }
    // Every shape below starts with one of these prefixes: an Aho-Corasick
    // scan (SIMD-prefiltered) finds the positions where one starts, and only
    // those are looked at; most of a body is skipped without a comparison.
    static STARTS: std::sync::LazyLock<aho_corasick::AhoCorasick> =
        std::sync::LazyLock::new(|| {
            // Leftmost-first semantics let the automaton use its packed
            // (SIMD) prefilter; only the start positions matter here.
            aho_corasick::AhoCorasick::builder()
                .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                .build([
                    "ghp_",
                    "gho_",
                    "ghu_",
                    "ghs_",
                    "ghr_",
                    "github_pat_",
                    "sk-",
                    "sk_live_",
                    "rk_live_",
                    "xox",
                    "xapp-",
                    "AKIA",
                    "ASIA",
                    "AIza",
                    "eyJ",
                    "Bearer ",
                    "Basic ",
                ])
                .expect("the prefixes build an automaton")
        });
    // Non-overlapping matches are enough: no prefix holds the start of
    // another inside it (and at one start every prefix is tried below), so
    // the SIMD prefilter's search finds every position, in order.
    for i in STARTS.find_iter(v).map(|m| m.start()) {
        if !boundary(i) {
            continue;
        }
        let rest = &v[i..];
        for p in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] {
            if rest.starts_with(p) {
                let n = run(i + 4, &alnum);
                if n >= 36
                    && let Some(f) = accept(i, 4 + n, "GitHub token")
                {
                    return Some(f);
                }
            }
        }
        if rest.starts_with("github_pat_") {
            let n = run(i + 11, &word);
            if n >= 30
                && let Some(f) = accept(i, 11 + n, "GitHub token")
            {
                return Some(f);
            }
        }
        if rest.starts_with("sk-ant-") {
            let n = run(i + 7, &dashed);
            if n >= 20
                && let Some(f) = accept(i, 7 + n, "Anthropic API key")
            {
                return Some(f);
            }
        } else if rest.starts_with("sk-") {
            let n = run(i + 3, &dashed);
            if n >= 20
                && looks_random(&v[i + 3..i + 3 + n], 20)
                && let Some(f) = accept(i, 3 + n, "API key")
            {
                return Some(f);
            }
        }
        for p in ["sk_live_", "rk_live_"] {
            if rest.starts_with(p) {
                let n = run(i + 8, &alnum);
                if n >= 16
                    && let Some(f) = accept(i, 8 + n, "Stripe secret key")
                {
                    return Some(f);
                }
            }
        }
        for p in ["xoxb-", "xoxp-", "xoxa-", "xoxs-", "xoxe-", "xapp-"] {
            if rest.starts_with(p) {
                let n = run(i + 5, &dashed);
                if n >= 10
                    && let Some(f) = accept(i, 5 + n, "Slack token")
                {
                    return Some(f);
                }
            }
        }
        for p in ["AKIA", "ASIA"] {
            if rest.starts_with(p) {
                let n = run(i + 4, &|c: u8| c.is_ascii_uppercase() || c.is_ascii_digit());
                if n == 16
                    && !b.get(i + 20).is_some_and(|&c| c.is_ascii_alphanumeric())
                    && let Some(f) = accept(i, 20, "AWS access key id")
                {
                    return Some(f);
                }
            }
        }
        if rest.starts_with("AIza") {
            let n = run(i + 4, &b64url);
            if n >= 35
                && let Some(f) = accept(i, 4 + n, "Google API key")
            {
                return Some(f);
            }
        }
        if rest.starts_with("eyJ") {
            let a = run(i, &b64url);
            if a >= 10 && b.get(i + a) == Some(&b'.') {
                let p2 = i + a + 1;
                let c2 = run(p2, &b64url);
                if c2 >= 10 && b.get(p2 + c2) == Some(&b'.') {
                    let p3 = p2 + c2 + 1;
                    let c3 = run(p3, &b64url);
                    if c3 >= 16
                        && let Some(f) = accept(i, p3 + c3 - i, "JSON Web Token")
                    {
                        return Some(f);
                    }
                }
            }
        }
        for (p, what) in [
            ("Bearer ", "bearer token"),
            ("Basic ", "basic-auth credential"),
        ] {
            if rest.starts_with(p) {
                let from = i + p.len();
                let n = run(from, &|c: u8| {
                    c.is_ascii_alphanumeric() || b"._~+/=-".contains(&c)
                });
                let min = if what == "bearer token" { 20 } else { 12 };
                if n >= min
                    && looks_random(&v[from..from + n], min)
                    && let Some(f) = accept(from, n, what)
                {
                    return Some(f);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tokens are built at run time so the source holds none.
    fn fake(prefix: &str, body: &str, n: usize) -> String {
        let mut s = prefix.to_string();
        while s.len() < prefix.len() + n {
            s.push_str(body);
        }
        s.truncate(prefix.len() + n);
        s
    }

    #[test]
    fn known_shapes() {
        let body = "Q7vX2mK9pL4wR8tZ3nB6yH1cF5jD0sGa";
        for (v, what) in [
            (fake("ghp_", body, 36), "GitHub token"),
            (fake("github_pat_", body, 40), "GitHub token"),
            (fake("sk-ant-api03-", body, 30), "Anthropic API key"),
            (fake("sk-proj-", body, 30), "API key"),
            (fake("xoxb-", body, 20), "Slack token"),
            (fake("AKIA", "Q7VX2MK9PL4WR8TZ", 16), "AWS access key id"),
            (fake("AIza", body, 35), "Google API key"),
        ] {
            assert_eq!(token_shape(&v), Some((0..v.len(), what)), "{v}");
            let wrapped = format!("x {v} y");
            assert_eq!(token_shape(&wrapped), Some((2..2 + v.len(), what)));
        }
        let jwt = format!(
            "{}.{}.{}",
            fake("eyJ", body, 20),
            fake("eyJ", body, 20),
            fake("", body, 30)
        );
        assert_eq!(token_shape(&jwt), Some((0..jwt.len(), "JSON Web Token")));
        let bearer = format!("Bearer {}", fake("", body, 32));
        assert_eq!(token_shape(&bearer), Some((7..39, "bearer token")));
    }

    #[test]
    fn placeholders_are_not_secrets() {
        for v in [
            "${GITHUB_TOKEN}",
            "${env:API_KEY}",
            "$API_KEY",
            "%API_KEY%",
            "{{ api_key }}",
            "<your-token>",
            "your-api-key-here",
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "sk-...",
            "changeme",
            "",
            "   ",
            "Bearer ${API_TOKEN}",
        ] {
            assert_eq!(token_shape(v), None, "{v}");
            assert_eq!(credential("API_TOKEN", v), None, "{v}");
            assert_eq!(credential("Authorization", v), None, "{v}");
        }
    }

    #[test]
    fn names_and_random_values() {
        assert_eq!(
            words("X-API-Key"),
            ["X", "API", "KEY"].map(String::from).to_vec()
        );
        assert_eq!(words("apiKey"), ["API", "KEY"].map(String::from).to_vec());
        let v = "Zr8Kq2Wm5Tn7Xc4Vb9Ld";
        let (range, what, why) = credential("MY_SERVICE_TOKEN", v).expect("a secret");
        assert_eq!((range, what), (0..20, "secret"));
        assert!(
            why.expect("why")
                .starts_with("`MY_SERVICE_TOKEN` names a secret")
        );
        // The name says it is not the secret itself, or the value is no key.
        assert_eq!(credential("TOKEN_FILE", v), None);
        assert_eq!(credential("API_KEY_URL", v), None);
        assert_eq!(credential("LOG_LEVEL", v), None);
        assert_eq!(credential("API_TOKEN", "https://example.com/token"), None);
        assert_eq!(credential("API_TOKEN", "production"), None);
        assert_eq!(
            credential("DB_PASSWORD", "s3cr3t-Pw!").map(|c| c.1),
            Some("password")
        );
    }
}
