//! REF002 `unknown-skill`.

use super::{closest, dir_of};
use crate::{Context, Pass};
use rayon::prelude::*;
use skein_model::graph::Unresolved;
use skein_syntax::{Diagnostic, Rule, Severity, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "REF002",
    name: "unknown-skill",
    severity: Severity::Error,
    summary: "a reference to a skill that does not exist",
    doc: "## What it does\nReports a reference to a skill that names no `SKILL.md` where the \
referencing format looks for it: a skilldrop stage's `skills` (its own pack, then the packs of \
`pack.json` `requires`; a loop of that name also counts), a skilldrop catalogue outcome (any pack \
beside `catalogue.json`), a Bailey assistant's `instructions` and `skills[].path` (a path relative \
to `assistant.json`), an OpenCode contract's `applicable_skills`, an agent's `skills` (in \
`agents/*.md` frontmatter, a list or a comma-separated string, each name reported at its own \
item or piece; or `opencode.json` `agent.<name>.skills`). A note says where skein looked; the help names the closest existing skill when one is within two edits.\n\n\
## Why is this bad?\nThe runtime cannot load a skill that is not there: the stage or agent runs \
without the instructions it was written for, usually silently. The cause is most often a typo, a \
renamed skill, or a pack missing from `requires`.\n\n## Example\n```json\n// packs/core/loops/review/loop.json\n\
{\"id\": \"draft\", \"skills\": [\"drfat\"]}\n```\nUse instead:\n```json\n{\"id\": \"draft\", \
\"skills\": [\"draft\"]}\n```",
    fix: None,
};

/// The pass.
pub const PASS: Pass = Pass {
    rule: RULE,
    check,
    reads_graph: true,
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let g = cx.graph;
    let skills: Vec<(&str, &str)> = g
        .skills()
        .iter()
        .map(|&s| (g.node(s).name.as_str(), cx.path(g.node(s).file)))
        .collect();
    // Each name once, sorted: the closest name is looked up among these
    // (many skills share a name: the real corpus holds copies of the same
    // skills), an exact one by bisection.
    let mut names: Vec<&str> = skills.iter().map(|&(n, _)| n).collect();
    names.sort_unstable();
    names.dedup();
    // Each reference on its own (a did-you-mean compares it with every
    // name), in the order of the unresolved list.
    g.unresolved()
        .par_iter()
        .filter(|u| u.expected == "skill")
        .map(|u| diagnostic(cx, u, &skills, &names))
        .collect()
}

/// The finding of the unresolved skill reference `u`; `skills` are every
/// skill's (name, path), `names` their names sorted, each once.
fn diagnostic(cx: &Context, u: &Unresolved, skills: &[(&str, &str)], names: &[&str]) -> Diagnostic {
    // A path (`skills/x/SKILL.md`) is matched by its folder name.
    let is_path = u.name.contains('/') || u.name.ends_with(".md");
    let key = if is_path {
        u.name
            .trim_end_matches('/')
            .trim_end_matches("SKILL.md")
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or("")
    } else {
        u.name.as_str()
    };
    let message = if is_path {
        format!("no skill at {}", quote(&u.name))
    } else {
        format!("unknown skill {}", quote(&u.name))
    };
    let d = Diagnostic::new(RULE, u.file, u.span, message)
        .with_label("no such skill")
        .with_note(format!("skein looked for {}", u.searched));
    let closest = match names.binary_search(&key) {
        Ok(i) => Some((names[i], 0)),
        Err(_) => closest(key, names.iter().copied()),
    };
    match closest {
        Some((name, 0)) => {
            // The one nearest the reference: longest common folder prefix.
            let from = cx.path(u.file);
            let at = skills
                .iter()
                .filter(|&&(n, _)| n == name)
                .map(|&(_, p)| dir_of(p))
                .max_by_key(|p| (common_prefix(p, from), std::cmp::Reverse(*p)))
                .unwrap_or_default();
            d.with_help(format!(
                "a skill named {} exists in `{at}`, outside the places searched",
                quote(name)
            ))
        }
        Some((name, _)) => d.with_help(format!("did you mean {}?", quote(name))),
        None => d,
    }
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}
