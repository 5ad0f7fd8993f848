//! SKILL034 `misnamed-skill-file`.

use crate::{Context, FilePass, On, Reads};
use skein_model::{Artifact, Format};
use skein_syntax::{Diagnostic, Rule, Severity, Span, quote};

/// The rule.
pub const RULE: Rule = Rule {
    code: "SKILL034",
    name: "misnamed-skill-file",
    severity: Severity::Error,
    summary: "a skill's entry file named `SKILL.md` in another case (`skill.md`), which Linux never loads",
    doc: include_str!("misnamed_skill_file.md"),
    fix: None,
};

/// The pass.
pub const PASS: FilePass = FilePass {
    rule: RULE,
    check,
    reads: Reads::Local,
    on: On::Formats(&[Format::AgentSkill]),
};

/// An Agent Skill whose file name is `SKILL.md` in another case: skein
/// reads such a file as a skill when it is a [`skein_model::misnamed_skill`].
fn check(cx: &Context, a: &Artifact) -> Vec<Diagnostic> {
    if a.format != Format::AgentSkill {
        return Vec::new();
    }
    let path = cx.sources.get(a.file).path();
    let name = path.rsplit('/').next().unwrap_or(path);
    // A file `[formats]` maps to skills by another name is not this case.
    if !skein_model::misnamed_skill_name(name) {
        return Vec::new();
    }
    // At the frontmatter's opening `---`, else the start of the file.
    let span = a.frontmatter.map_or(Span::empty(0), |f| f.open);
    vec![
        Diagnostic::new(
            RULE,
            a.file,
            span,
            format!(
                "skill file is named {}, not `SKILL.md`: clients look for `SKILL.md` in exactly that case, so this skill is never loaded on Linux",
                quote(name)
            ),
        )
        .with_label("in this file")
        .with_note("macOS and Windows ignore case by default, so the skill loads there and is missing on Linux machines and CI runners")
        .with_help("rename the file to `SKILL.md` with `git mv`, which records the new case even where the file system ignores it"),
    ]
}
