//! FLOW007 `unknown-verdict`.

use crate::{Context, Pass};
use skein_model::Model;
use skein_model::graph::LoopFlow;
use skein_model::models::SkilldropTerminals;
use skein_syntax::{Diagnostic, Rule, Severity, quote};
use std::collections::BTreeSet;

/// The rule.
pub const RULE: Rule = Rule {
    code: "FLOW007",
    name: "unknown-verdict",
    severity: Severity::Error,
    summary: "a gate verdict that is not in the verdict vocabulary",
    doc: "## What it does\nChecks every verdict a skilldrop gate lists against the vocabulary of \
its loop: the `contracts/terminals.json` nearest above the loop. A word the vocabulary does not \
define is reported at the word, with the known words of each class, the closest one when it \
looks like a misspelling, and any other vocabulary in the repository that does define it (a \
loop uses only its nearest vocabulary). A loop whose gates list verdicts but which has no vocabulary at all \
is reported once, at the loop's name. In the vocabulary itself, a verdict whose `class` is not \
one of the `classes` keys is reported at that class.\n\n## Why is this bad?\nThe vocabulary is \
what gives a verdict its meaning: advance, revise, leave, stop. skilldrop's validator rejects a \
word it does not define (\"a new loop cannot invent a sixth kind of 'yes'\"), and a runner \
cannot tell where such a verdict leads, so every flow check on that gate is guesswork.\n\n\
## Example\n```json\n\"gate\": {\"id\": \"G1\", \"kind\": \"review\", \"verdicts\": [\"READY\", \
\"BLOKED\"]}\n```\nUse instead: `\"verdicts\": [\"READY\", \"BLOCKED\"]`, or define the new word in \
`contracts/terminals.json` with its class.\n\n## Fix\nUnsafe. When the label names the word meant (one edit away, such as \
`aproved` -> `approved`), the fix writes it in place of the gate's verdict, as a JSON string. The \
gate then routes that verdict to its class's exit, which changes the loop's flow: a person \
should confirm it is the word meant.",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

/// Classes in the order skilldrop lists them.
const CLASS_ORDER: [&str; 5] = ["pass", "conditional", "revise", "redirect", "blocked"];

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for a in cx.artifacts {
        if let Model::SkilldropTerminals(t) = &a.model {
            out.extend(undeclared_classes(t, a.file));
        }
    }
    for l in cx.graph.loops() {
        match l.vocabulary.and_then(|f| terminals(cx, f)) {
            Some(t) => out.extend(unknown_words(cx, l, t)),
            None => out.extend(no_vocabulary(cx, l)),
        }
    }
    out
}

fn terminals<'a>(cx: &'a Context, file: skein_syntax::FileId) -> Option<&'a SkilldropTerminals> {
    cx.artifact(file).into_iter().find_map(|a| match &a.model {
        Model::SkilldropTerminals(t) => Some(&**t),
        _ => None,
    })
}

fn undeclared_classes(t: &SkilldropTerminals, file: skein_syntax::FileId) -> Vec<Diagnostic> {
    let classes: Vec<&str> = ordered_classes(t);
    let listed: Vec<String> = classes.iter().map(|c| quote(c)).collect();
    t.verdicts
        .iter()
        .filter(|(_, d)| !t.classes.contains_key(&d.class.value))
        .map(|(word, d)| {
            let label = match closest(&d.class.value, classes.iter().copied()) {
                Some(c) => format!("not a key of `classes`; did you mean {}?", quote(c)),
                None => "not a key of `classes`".to_string(),
            };
            Diagnostic::new(
                RULE,
                file,
                d.class.span,
                format!(
                    "verdict {} has class {}, which the vocabulary does not define",
                    quote(word),
                    quote(&d.class.value)
                ),
            )
            .with_label(label)
            .with_help(format!("use one of the classes: {}", listed.join(", ")))
        })
        .collect()
}

fn unknown_words(cx: &Context, l: &LoopFlow, t: &SkilldropTerminals) -> Vec<Diagnostic> {
    let vocab_path = l.vocabulary.map(|f| cx.path(f)).unwrap_or_default();
    let known: Vec<String> = ordered_classes(t)
        .into_iter()
        .filter_map(|class| {
            let words: Vec<String> = t
                .verdicts
                .iter()
                .filter(|(_, d)| d.class.value == class)
                .map(|(w, _)| quote(w))
                .collect();
            (!words.is_empty()).then(|| format!("{class}: {}", words.join(", ")))
        })
        .collect();
    let mut out = Vec::new();
    for gate in l.gates.iter().flatten() {
        for (v, _) in &gate.verdicts {
            if t.verdicts.contains_key(&v.value) {
                continue;
            }
            let suggestion = closest(&v.value, t.verdicts.keys().map(String::as_str));
            let label = match suggestion {
                Some(w) => format!("not in {}; did you mean {}?", code(vocab_path), quote(w)),
                None => format!("not in {}", code(vocab_path)),
            };
            let text = cx.sources.get(l.file).text();
            let fix = suggestion
                .filter(|w| crate::fix::near(&v.value, w))
                .and_then(|w| {
                    let raw = text.get(v.span.range())?;
                    let literal = crate::fix::literal_like(raw, w)?;
                    // Only a verdict written as a plain string literal.
                    (serde_json::from_str::<String>(raw).ok().as_deref() == Some(v.value.as_str())
                        || raw == v.value)
                        .then(|| {
                            skein_syntax::Fix::unsafe_(
                                format!("replace with `{w}`"),
                                vec![skein_syntax::Edit::replace(v.span, literal)],
                            )
                        })
                });
            let help = if known.is_empty() {
                format!("the vocabulary {} defines no verdicts", code(vocab_path))
            } else {
                format!("known verdicts: {}", known.join("; "))
            };
            let mut d = Diagnostic::new(
                RULE,
                l.file,
                v.span,
                format!(
                    "verdict {} of gate {} is not in the verdict vocabulary",
                    quote(&v.value),
                    quote(&gate.id.value)
                ),
            )
            .with_label(label)
            .with_help(help)
            .with_fix_opt(fix);
            // Defined by another vocabulary that this loop does not use?
            if let Some(other) = cx.artifacts.iter().find(|a| {
                Some(a.file) != l.vocabulary
                    && matches!(&a.model, Model::SkilldropTerminals(o) if o.verdicts.contains_key(&v.value))
            }) {
                d = d.with_note(format!(
                    "{} defines it, but loop {} uses the nearest vocabulary above it, {}",
                    code(cx.path(other.file)),
                    quote(&l.name),
                    code(vocab_path)
                ));
            }
            out.push(d);
        }
    }
    out
}

fn no_vocabulary(cx: &Context, l: &LoopFlow) -> Option<Diagnostic> {
    let words: BTreeSet<&str> = l
        .gates
        .iter()
        .flatten()
        .flat_map(|g| g.verdicts.iter().map(|(v, _)| v.value.as_str()))
        .collect();
    if words.is_empty() {
        return None;
    }
    let path = cx.path(l.file);
    let root = match path.find("/packs/") {
        Some(i) => &path[..=i],
        None => "",
    };
    let name = cx.graph.node(l.node);
    let listed: Vec<String> = words.iter().map(|w| quote(w)).collect();
    Some(
        Diagnostic::new(
            RULE,
            l.file,
            name.span,
            format!(
                "loop {} has gate verdicts but no verdict vocabulary to define them",
                quote(&l.name)
            ),
        )
        .with_label("no `contracts/terminals.json` in this loop's folder or any folder above")
        .with_note(format!("its gates emit {}", listed.join(", ")))
        .with_help(format!(
            "add {} with `classes` and the `verdicts` the gates emit",
            code(&format!("{root}contracts/terminals.json"))
        )),
    )
}

/// The vocabulary's classes: skilldrop's five in their order, then others.
fn ordered_classes(t: &SkilldropTerminals) -> Vec<&str> {
    let mut out: Vec<&str> = CLASS_ORDER
        .iter()
        .copied()
        .filter(|c| t.classes.contains_key(*c))
        .collect();
    out.extend(
        t.classes
            .keys()
            .map(String::as_str)
            .filter(|c| !CLASS_ORDER.contains(c)),
    );
    out
}

/// The candidate closest to `word` when it looks like a misspelling of it.
fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let w = word.to_uppercase();
    candidates
        .filter_map(|c| Some((crate::similar::within(&w, &c.to_uppercase(), 2)?, c)))
        .filter(|&(d, c)| d * 3 <= c.chars().count().max(w.chars().count()))
        .min_by_key(|&(d, c)| (d, c))
        .map(|(_, c)| c)
}

/// A repository path in backticks, never shortened (unlike `quote`: a path
/// cut in the middle cannot be looked up).
fn code(path: &str) -> String {
    format!("`{path}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings() {
        assert_eq!(crate::similar::edit_distance("BLOKED", "BLOCKED"), 1);
        let words = ["BLOCKED", "READY", "NOT READY"];
        assert_eq!(closest("BLOKED", words.iter().copied()), Some("BLOCKED"));
        assert_eq!(closest("ready", words.iter().copied()), Some("READY"));
        assert_eq!(closest("SHIP", words.iter().copied()), None);
    }
}
