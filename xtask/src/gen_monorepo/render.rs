//! Rendering: one planned file to its bytes. Structure comes from the plan;
//! prose (descriptions, bodies) from a generator derived from the seed and
//! the file's path, so each file renders the same on any thread.
//!
//! JSON is written with `serde_json`'s pretty printer (two-space indent, one
//! array item per line, keys in insertion order), YAML and Markdown by hand.

use super::plan::{FileKind, Part, Plan, Retry, Server, Skill};
use super::rng::Rng;
use super::text::{self, SERVERS};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::fmt::Write;

/// Renders file `i` of the plan.
pub fn render(plan: &Plan, seed: u64, i: usize) -> Vec<u8> {
    let spec = &plan.files[i];
    let mut rng = Rng::derive(seed, &spec.path);
    let r = &mut rng;
    let s = match spec.kind {
        FileKind::RootReadme => root_readme(plan, r),
        FileKind::Marketplace => marketplace(plan, r),
        FileKind::TeamReadme(t) => small_doc(r, &format!("Team {}", plan.teams[t].name), 1500),
        FileKind::Terminals(_) => pretty(&terminals()),
        FileKind::Catalogue(t) => catalogue(plan, r, t),
        FileKind::Pack(p) => pack(plan, r, p),
        FileKind::PackReadme(p) => {
            small_doc(r, &text::title(&plan.packs[p].name), 2500)
        }
        FileKind::Skill(s) => skill(r, &plan.skills[s]),
        FileKind::Reference(_) => reference_doc(r),
        FileKind::GateScript(_) => gate_script(r),
        FileKind::LoopJson(l) => loop_json(plan, r, l),
        FileKind::LoopDoc(l) => loop_doc(plan, r, l),
        FileKind::PluginJson(p) => plugin_json(plan, r, p),
        FileKind::PluginMcp(p) => mcp(&plan.plugins[p].servers),
        FileKind::PluginHooks(_) => hooks(r),
        FileKind::HookScript(_) => {
            "#!/usr/bin/env bash\nset -euo pipefail\n# Formats the files the agent just wrote.\nexec npx --yes prettier --write \"$@\"\n".to_string()
        }
        FileKind::PluginReadme(p) => small_doc(r, &text::title(&plan.plugins[p].name), 2500),
        FileKind::PluginAgent(p, k) => agent(r, &plan.plugins[p].agents[k]),
        FileKind::PluginCommand(p, k) => command(r, &plan.plugins[p].commands[k]),
        FileKind::Loom(a) => loom(plan, r, a),
        FileKind::Assistant(a) => assistant(plan, r, a),
        FileKind::AssistantMcp(a) => mcp(&plan.assistants[a].servers),
        FileKind::Persona(a) => small_doc(
            r,
            &format!("{} persona", text::title(&plan.assistants[a].name)),
            1200,
        ),
        FileKind::AssistantPlugin(a) => assistant_plugin(plan, r, a),
        FileKind::AssistantAgent(a, k) => agent(r, &plan.assistants[a].agents[k]),
        FileKind::Contract(c) => contract(plan, r, c),
        FileKind::Manifest(m) => manifest(plan, r, m),
        FileKind::Doc(_) => small_doc(r, "Notes", 3000),
    };
    s.into_bytes()
}

/// The 1-based line of the first occurrence of `needle` in `text` (a
/// leading `\n` of the needle is not part of the line); `None` when absent.
pub fn line_of(text: &[u8], needle: &str) -> Option<u32> {
    let n = needle.as_bytes();
    let at = text.windows(n.len()).position(|w| w == n)?;
    let lead = n.iter().take_while(|&&b| b == b'\n').count();
    let line = text[..at + lead].iter().filter(|&&b| b == b'\n').count();
    Some(line as u32 + 1)
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("JSON values serialize");
    s.push('\n');
    s
}

fn strings(v: &[String]) -> Value {
    Value::Array(v.iter().map(|s| Value::String(s.clone())).collect())
}

/// A skill's reference: a small document with a contents list below its
/// title, as a clean long reference has (SKILL028).
fn reference_doc(rng: &mut Rng) -> String {
    let doc = small_doc(rng, "Reference", 3000);
    let title_end = doc.find('\n').map_or(doc.len(), |i| i + 1);
    format!(
        "{}\n## Contents\n- Overview\n\n{}",
        &doc[..title_end],
        &doc[title_end..]
    )
}

fn small_doc(rng: &mut Rng, heading: &str, median: usize) -> String {
    let size = rng.log_normal(median as f64, 0.6, 200, median * 4);
    text::markdown_body(rng, heading, size)
}

fn root_readme(plan: &Plan, rng: &mut Rng) -> String {
    let mut out = String::from(
        "# Agent monorepo\n\nSkills, loops, agents, plugins and assistants of every team.\n\n| team | packs | plugins |\n|---|---|---|\n",
    );
    for (t, team) in plan.teams.iter().enumerate() {
        let plugins = plan.plugins.iter().filter(|p| p.team == t).count();
        let _ = writeln!(
            out,
            "| `{}` | {} | {plugins} |",
            team.name,
            team.packs.len()
        );
    }
    out.push('\n');
    text::paragraph(rng, &mut out);
    out
}

fn marketplace(plan: &Plan, rng: &mut Rng) -> String {
    let plugins: Vec<Value> = plan
        .plugins
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "source": format!("./{}", p.dir.trim_end_matches('/')),
                "description": text::sentences(rng, 1),
                "version": plugin_version(&p.name),
                "category": rng.pick(&["development", "productivity", "security", "operations"]),
            })
        })
        .collect();
    pretty(&json!({
        "name": "acme-agents",
        "owner": { "name": "Acme Platform", "email": "platform@example.com" },
        "metadata": { "description": "Every plugin of the Acme agent monorepo.", "version": "1.0.0" },
        "plugins": plugins,
    }))
}

/// skilldrop's packs-era vocabulary (five classes, fourteen words).
fn terminals() -> Value {
    let words: &[(&str, &str, &str)] = &[
        ("VERIFIED", "pass", "feature-implement-loop"),
        ("READY", "pass", "pre-merge-review"),
        ("PROCEED", "pass", "council-review"),
        ("SHIP IT", "pass", "doc-critique"),
        (
            "VERIFIED WITH OPEN ITEMS",
            "conditional",
            "feature-implement-loop",
        ),
        ("PROCEED WITH CONDITIONS", "conditional", "council-review"),
        ("SHIP WITH CHANGES", "conditional", "doc-critique"),
        ("NOT READY", "revise", "pre-merge-review"),
        ("REVISE", "revise", "council-review"),
        ("MAJOR REWRITE", "revise", "doc-critique"),
        ("RECONSIDER", "redirect", "council-review"),
        ("SPLIT", "redirect", "council-review"),
        ("WRONG ARTIFACT", "redirect", "doc-critique"),
        ("BLOCKED", "blocked", "feature-implement-loop"),
    ];
    let mut verdicts = Map::new();
    for (w, class, origin) in words {
        verdicts.insert(w.to_string(), json!({ "class": class, "origin": origin }));
    }
    json!({
        "$comment": "The shared verdict vocabulary: a loop's gate declares which of these words it can emit.",
        "version": "1.0.0",
        "classes": {
            "pass": "The gate is satisfied. The loop advances to the next stage, or terminates successfully.",
            "conditional": "The gate is satisfied, but named open items travel forward with the artifact.",
            "revise": "The gate is not satisfied and the fix is known. Return to the revise_to stage, subject to the cap.",
            "redirect": "The gate is not satisfied and the work is the wrong shape. Leave the loop.",
            "blocked": "The gate cannot be evaluated. Stop and name what is needed."
        },
        "verdicts": verdicts,
        "rules": [
            "Every gate declares at least one pass verdict and at least one non-pass verdict.",
            "Every gate can emit BLOCKED.",
            "A revise verdict is subject to the loop's cap."
        ]
    })
}

fn catalogue(plan: &Plan, rng: &mut Rng, t: usize) -> String {
    let team = &plan.teams[t];
    let packs: Vec<String> = team
        .packs
        .iter()
        .map(|&p| plan.packs[p].name.clone())
        .collect();
    let mut outcomes = Map::new();
    for (key, skills) in &team.outcomes {
        outcomes.insert(
            key.clone(),
            json!({
                "for": rng.pick(&["Engineers", "Product managers", "Maintainers", "On-call engineers"]),
                "description": text::sentences(rng, 1),
                "skills": strings(skills),
            }),
        );
    }
    pretty(&json!({
        "$comment": "Pack display order and the outcome browse axis.",
        "version": "1.0.0",
        "packs": packs,
        "outcomes": outcomes,
    }))
}

fn pack(plan: &Plan, rng: &mut Rng, p: usize) -> String {
    let pk = &plan.packs[p];
    let title = text::title(&pk.name);
    let steps: Vec<Value> = pk
        .skills
        .iter()
        .take(rng.range(2, 4))
        .map(|&s| {
            json!({
                "skill": plan.skills[s].name,
                "you_do": format!("Ask to {} the {}", plan.skills[s].verb, plan.skills[s].subject),
                "you_get": text::sentences(rng, 1),
            })
        })
        .collect();
    let mut v = json!({
        "$comment": format!("The {} pack.", pk.name),
        "description": text::sentences(rng, 2),
        "display_name": title,
        "keywords": [rng.pick(text::NOUNS), rng.pick(text::NOUNS), rng.pick(text::VERBS)],
        "links": {
            "repository": "https://github.com/example/agent-monorepo",
            "documentation": format!("https://example.github.io/agents/packs/{}/", pk.name),
        },
        "maintainers": [{ "name": format!("{}-team", plan.teams[pk.team].name) }],
        "first-value": {
            "audience-posture": rng.pick(&["technical", "non-technical"]),
            "prerequisites": [text::sentences(rng, 1)],
            "starter-task": text::sentences(rng, 1),
            "starter-prompt": text::sentences(rng, 1),
            "verification": text::sentences(rng, 1),
            "recovery": text::sentences(rng, 1),
        },
        "journey": {
            "when": text::sentences(rng, 1),
            "you_bring": [text::sentences(rng, 1)],
            "time": format!("{}-{} minutes", rng.range(5, 15), rng.range(20, 45)),
            "steps": steps,
            "you_end_with": text::sentences(rng, 1),
        },
    });
    if !pk.requires.is_empty() {
        v["requires"] = strings(&pk.requires);
    }
    pretty(&v)
}

/// Wraps `s` into lines of at most about `width` characters.
fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for w in s.split(' ') {
        if !cur.is_empty() && cur.len() + 1 + w.len() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// `key: value` for a prose value: plain, folded (`>-`) or double-quoted.
fn yaml_prose(out: &mut String, rng: &mut Rng, key: &str, value: &str) {
    match rng.below(20) {
        0..=11 => {
            let _ = writeln!(out, "{key}: {value}");
        }
        12..=16 => {
            let _ = writeln!(out, "{key}: >-");
            for line in wrap(value, 78) {
                let _ = writeln!(out, "  {line}");
            }
        }
        _ => {
            let _ = writeln!(out, "{key}: \"{}\"", value.replace('"', "\\\""));
        }
    }
}

fn skill(rng: &mut Rng, s: &Skill) -> String {
    let mut out = String::from("---\n");
    let _ = writeln!(out, "name: {}", s.name);
    let d = text::description(rng, s.verb, &s.subject);
    yaml_prose(&mut out, rng, "description", &d);
    if rng.chance(0.3) {
        let _ = writeln!(out, "license: {}", rng.pick(&["MIT", "Apache-2.0"]));
    }
    if !s.tools.is_empty() {
        if s.tools_as_list {
            out.push_str("allowed-tools:\n");
            for t in &s.tools {
                let _ = writeln!(out, "  - {t}");
            }
        } else {
            let sep = if rng.chance(0.5) { " " } else { ", " };
            let _ = writeln!(out, "allowed-tools: {}", s.tools.join(sep));
        }
    }
    // A skill named for a deploy or a release is started by hand only, as
    // Claude Code advises (SKILL023).
    let words: Vec<&str> = s.name.split('-').collect();
    let side_effect = ["deploy", "publish", "ship", "rollback", "release"];
    if [words.first(), words.last()]
        .into_iter()
        .flatten()
        .any(|w| side_effect.contains(w))
    {
        out.push_str("disable-model-invocation: true\n");
    }
    if rng.chance(0.3) {
        let _ = writeln!(
            out,
            "metadata:\n  author: {}\n  version: \"{}.{}.0\"",
            rng.pick(&["platform-team", "devex", "qa-guild", "sre"]),
            rng.range(0, 3),
            rng.below(10)
        );
    }
    out.push_str("---\n\n");
    // Under the Agent Skills spec's 5,000 recommended tokens (SKILL021).
    let size = rng.log_normal(3000.0, 0.8, 600, 17_000);
    let body = text::markdown_body(rng, &text::title(&s.name), size);
    match &s.reference {
        // The bundled reference, linked after the first paragraph.
        Some(file) => {
            let cut = body.find("\n\n## ").map_or(body.len(), |i| i + 1);
            out.push_str(&body[..cut]);
            let _ = writeln!(
                out,
                "Read [the {} reference](references/{file}) before the first step.\n",
                file.trim_end_matches(".md")
            );
            out.push_str(&body[cut..]);
        }
        None => out.push_str(&body),
    }
    // Some skills are saved with Windows line endings.
    if rng.chance(0.02) {
        out = out.replace('\n', "\r\n");
    }
    out
}

fn gate_script(rng: &mut Rng) -> String {
    format!(
        "#!/usr/bin/env python3\n\"\"\"Mechanical gate: exit 0 = READY, 1 = NOT READY, 2 = BLOCKED.\"\"\"\nimport subprocess, sys\n\nTHRESHOLD = {}\n\ndef main() -> int:\n    r = subprocess.run([\"make\", \"check\"], capture_output=True)\n    return 0 if r.returncode == 0 else 1\n\nif __name__ == \"__main__\":\n    sys.exit(main())\n",
        rng.range(50, 95)
    )
}

fn loop_json(plan: &Plan, rng: &mut Rng, l: usize) -> String {
    let lp = &plan.loops[l];
    let stages: Vec<Value> = lp
        .stages
        .iter()
        .map(|st| {
            let mut v = json!({
                "id": st.id,
                "type": st.ty,
                "intent": text::sentences(rng, 1),
                "skills": strings(&st.skills),
            });
            if let Some(g) = &st.gate {
                let mut gate = json!({ "id": g.id, "kind": g.kind });
                if let Some(s) = &g.script {
                    gate["script"] = json!(s);
                }
                gate["verdicts"] = json!(g.verdicts);
                if let Some(r) = &g.revise_to {
                    gate["revise_to"] = json!(r);
                }
                v["gate"] = gate;
            }
            v
        })
        .collect();
    let mut v = Map::new();
    if rng.chance(0.5) {
        v.insert("$comment".into(), json!(text::sentences(rng, 1)));
    }
    v.insert("name".into(), json!(lp.name));
    v.insert(
        "version".into(),
        json!(format!("0.{}.{}", rng.below(5), rng.below(10))),
    );
    v.insert("description".into(), json!(text::sentences(rng, 2)));
    v.insert("entrypoint".into(), json!("LOOP.md"));
    v.insert(
        "kind".into(),
        json!(if lp.wrapper { "wrapper" } else { "loop" }),
    );
    if let Some(c) = lp.cap {
        v.insert("cap".into(), json!(c));
    }
    v.insert("stages".into(), Value::Array(stages));
    pretty(&Value::Object(v))
}

fn loop_doc(plan: &Plan, rng: &mut Rng, l: usize) -> String {
    let lp = &plan.loops[l];
    let mut out = String::from("---\n");
    let _ = writeln!(out, "name: {}", lp.name);
    let d = text::sentences(rng, 2);
    yaml_prose(&mut out, rng, "description", &d);
    let _ = write!(out, "---\n\n# {}\n\n", lp.name);
    text::paragraph(rng, &mut out);
    out.push_str("## Stages\n\n| # | Stage | Type | Skills | Gate |\n|---|---|---|---|---|\n");
    // Where each stage skill lives: this pack, a required pack (`core`), or
    // a loop of this pack (a loop run as a stage).
    let pack = &plan.packs[lp.pack];
    let own: BTreeSet<&str> = pack
        .skills
        .iter()
        .map(|&k| plan.skills[k].name.as_str())
        .collect();
    for (i, st) in lp.stages.iter().enumerate() {
        let skills: Vec<String> = st
            .skills
            .iter()
            .map(|s| {
                if s == "*" {
                    "`*` (any generator)".to_string()
                } else if own.contains(s.as_str()) {
                    format!("[`{s}`](../../skills/{s}/SKILL.md)")
                } else if let Some(req) = pack.requires.iter().find(|r| {
                    plan.teams[lp.team].packs.iter().any(|&q| {
                        plan.packs[q].name == **r
                            && plan.packs[q]
                                .skills
                                .iter()
                                .any(|&k| plan.skills[k].name == *s)
                    })
                }) {
                    format!("[`{s}`](../../../{req}/skills/{s}/SKILL.md)")
                } else {
                    format!("`{s}` (loop, [LOOP.md](../{s}/LOOP.md))")
                }
            })
            .collect();
        let gate = st
            .gate
            .as_ref()
            .map(|g| format!("**{}** {}", g.id, g.kind))
            .unwrap_or_else(|| "—".into());
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {gate} |",
            i + 1,
            st.id,
            st.ty,
            skills.join(", ")
        );
    }
    out.push_str("\n## How to run this loop\n\n");
    for (i, st) in lp.stages.iter().enumerate() {
        let _ = write!(out, "{}. **{}.** ", i + 1, text::capitalize(&st.id));
        text::sentence(rng, &mut out);
        out.push(' ');
        text::sentence(rng, &mut out);
        out.push('\n');
    }
    out.push_str("\n## Verdicts\n\nDefined in `contracts/terminals.json`. ");
    text::paragraph(rng, &mut out);
    // The two sections skilldrop's validator requires of a loop document.
    out.push_str("## Quality bar\n\n");
    for _ in 0..rng.range(2, 4) {
        out.push_str("- ");
        text::sentence(rng, &mut out);
        out.push('\n');
    }
    out.push_str("\n## Anti-patterns to avoid\n\n");
    for _ in 0..rng.range(2, 4) {
        out.push_str("- ");
        text::sentence(rng, &mut out);
        out.push('\n');
    }
    out.push('\n');
    let size = rng.log_normal(2000.0, 0.5, 200, 8000);
    if out.len() < size {
        out.push_str(&text::markdown_body(rng, "Notes", size - out.len()));
    }
    out
}

fn plugin_json(plan: &Plan, rng: &mut Rng, p: usize) -> String {
    let pl = &plan.plugins[p];
    let mut v = json!({
        "name": pl.name,
        "version": plugin_version(&pl.name),
        "description": text::sentences(rng, 1),
        "author": { "name": format!("{} team", text::capitalize(&plan.teams[pl.team].name)), "email": "agents@example.com" },
        "homepage": format!("https://example.github.io/agents/plugins/{}/", pl.name),
        "repository": "https://github.com/example/agent-monorepo",
        "license": rng.pick(&["MIT", "Apache-2.0"]),
        "keywords": [rng.pick(text::NOUNS), rng.pick(text::VERBS)],
    });
    if pl.lists_commands {
        v["commands"] = json!("./commands/");
    }
    pretty(&v)
}

/// A plugin's version, the same in its manifest and in the marketplace.
fn plugin_version(name: &str) -> String {
    let mut r = Rng::derive(0, name);
    format!("{}.{}.{}", r.below(3), r.below(10), r.below(20))
}

fn mcp(servers: &[Server]) -> String {
    let mut map = Map::new();
    for s in servers {
        let v = if s.remote {
            json!({ "type": "http", "url": format!("https://mcp.example.com/{}", s.name) })
        } else {
            let var = format!("{}_TOKEN", s.name.to_uppercase().replace('-', "_"));
            json!({
                "command": "npx",
                "args": ["-y", format!("@acme/{}-mcp@{}", s.name, plugin_version(&s.name))],
                "env": { var.clone(): format!("${{{var}}}") },
            })
        };
        map.insert(s.name.clone(), v);
    }
    pretty(&json!({ "mcpServers": map }))
}

fn hooks(rng: &mut Rng) -> String {
    pretty(&json!({
        "description": text::sentences(rng, 1),
        "hooks": {
            "PostToolUse": [{
                "matcher": "Write|Edit",
                "hooks": [{
                    "type": "command",
                    "command": "bash \"${CLAUDE_PLUGIN_ROOT}/scripts/check.sh\"",
                    "timeout": 30
                }]
            }],
            "SessionStart": [{
                "hooks": [{ "type": "command", "command": "echo \"session started\"" }]
            }]
        }
    }))
}

fn agent(rng: &mut Rng, a: &Part) -> String {
    let mut out = String::from("---\n");
    let _ = writeln!(out, "name: {}", a.name);
    let n = rng.range(1, 2);
    let d = format!(
        "{} Use proactively after code changes.",
        text::sentences(rng, n)
    );
    yaml_prose(&mut out, rng, "description", &d);
    if !a.tools.is_empty() {
        let _ = writeln!(out, "tools: {}", a.tools.join(", "));
    }
    let _ = writeln!(
        out,
        "model: {}",
        rng.pick(&["sonnet", "haiku", "opus", "inherit"])
    );
    out.push_str("---\n\n");
    let size = rng.log_normal(5500.0, 0.6, 1200, 24_000);
    out.push_str(&text::markdown_body(rng, &text::title(&a.name), size));
    out
}

fn command(rng: &mut Rng, c: &Part) -> String {
    let mut out = String::from("---\n");
    let d = text::sentences(rng, 1);
    yaml_prose(&mut out, rng, "description", &d);
    let _ = writeln!(
        out,
        "argument-hint: \"[{}]\"",
        rng.pick(&["base-branch", "target", "service", "file"])
    );
    if !c.tools.is_empty() {
        let _ = writeln!(out, "allowed-tools: {}", c.tools.join(", "));
    }
    out.push_str("---\n\n");
    let size = rng.log_normal(5000.0, 0.7, 800, 30_000);
    out.push_str(&text::markdown_body(rng, &format!("/{}", c.name), size));
    // The hint names an argument, so the body uses it (CMD002).
    out.push_str("\nRun it on: $ARGUMENTS\n");
    out
}

fn block(out: &mut String, indent: &str, text: &str) {
    for line in wrap(text, 76) {
        let _ = writeln!(out, "{indent}{line}");
    }
}

fn loom(plan: &Plan, rng: &mut Rng, a: usize) -> String {
    let ag = &plan.looms[a];
    let mut out = String::new();
    let _ = writeln!(out, "spec_version: 1\nname: {}", ag.name);
    let d = text::sentences(rng, 1);
    let _ = writeln!(out, "description: {d}");
    if rng.chance(0.3) {
        out.push_str("instructions: |\n");
        block(&mut out, "  ", &text::sentences(rng, 3));
    } else {
        out.push_str("instructions:\n");
        for name in ["role", "steps", "escalation"].iter().take(rng.range(1, 3)) {
            let _ = writeln!(out, "  - name: {name}\n    text: |");
            let n = rng.range(2, 4);
            block(&mut out, "      ", &text::sentences(rng, n));
        }
    }
    let _ = writeln!(
        out,
        "model_role: {}",
        rng.pick(&["fast", "default", "deep"])
    );
    if rng.chance(0.5) {
        out.push_str("output:\n  kind: type_ref\n  ref: app.models:Answer\n");
    } else {
        out.push_str(
            "output:\n  kind: json_schema\n  schema:\n    type: object\n    required: [summary]\n    properties:\n      summary: { type: string }\n      confidence: { type: number }\n",
        );
    }
    let mut caps = String::new();
    if let Some(include) = &ag.library {
        let _ = writeln!(
            caps,
            "  - kind: skills\n    library: ./skills\n    include: [{}]",
            include.join(", ")
        );
    }
    for to in &ag.a2a {
        let _ = writeln!(caps, "  - kind: a2a\n    agent: {to}");
    }
    for &server in &ag.mcp {
        let reads = SERVERS
            .iter()
            .find(|s| s.0 == server)
            .map(|s| s.1.join(", "))
            .unwrap_or_default();
        let _ = writeln!(
            caps,
            "  - kind: mcp\n    server: {server}\n    include: [{reads}]"
        );
    }
    if rng.chance(0.2) {
        caps.push_str("  - kind: native\n    tool: web_search\n");
    }
    if !caps.is_empty() {
        out.push_str("capabilities:\n");
        out.push_str(&caps);
    }
    match ag.max_iterations {
        Some(m) => {
            let _ = writeln!(
                out,
                "policies:\n  retries: {}\n  max_iterations: {m}\n  run_timeout_ms: {}",
                rng.range(0, 3),
                rng.range(30, 300) * 1000
            );
        }
        None if rng.chance(0.5) => {
            let _ = writeln!(out, "policies:\n  retries: {}", rng.range(0, 3));
        }
        None => {}
    }
    let _ = writeln!(
        out,
        "metadata:\n  owner: {}",
        rng.pick(&["support", "platform", "ops"])
    );
    out
}

fn assistant(plan: &Plan, rng: &mut Rng, a: usize) -> String {
    let asst = &plan.assistants[a];
    let skill_path = |s: usize| format!("skills/{}/SKILL.md", plan.skills[s].name);
    let mut v = Map::new();
    v.insert("format_version".into(), json!("0.1"));
    v.insert("name".into(), json!(asst.name));
    v.insert("title".into(), json!(text::title(&asst.name)));
    v.insert("description".into(), json!(text::sentences(rng, 1)));
    v.insert("instructions".into(), json!(skill_path(asst.instructions)));
    v.insert("persona".into(), json!("persona.md"));
    v.insert(
        "starters".into(),
        json!([text::sentences(rng, 1), text::sentences(rng, 1)]),
    );
    if !asst.skills.is_empty() {
        let skills: Vec<Value> = asst
            .skills
            .iter()
            .map(|&s| json!({ "name": plan.skills[s].name, "path": skill_path(s) }))
            .collect();
        v.insert("skills".into(), Value::Array(skills));
    }
    v.insert("mcp".into(), json!("mcp.json"));
    let mut tools = Map::new();
    for d in &asst.decls {
        let mut e = json!({ "tools": strings(&d.tools) });
        if !d.write_tools.is_empty() {
            e["write_tools"] = strings(&d.write_tools);
        }
        tools.insert(d.server.clone(), e);
    }
    v.insert("tools".into(), Value::Object(tools));
    v.insert(
        "examples".into(),
        json!([{ "input": text::sentences(rng, 1), "output": text::sentences(rng, 1) }]),
    );
    if asst.knowledge {
        v.insert(
            "knowledge".into(),
            json!([{
                "name": "reference_guide",
                "description": text::sentences(rng, 1),
                "accepts": ["pdf", "md"],
                "required": false
            }]),
        );
    }
    pretty(&Value::Object(v))
}

fn assistant_plugin(plan: &Plan, rng: &mut Rng, a: usize) -> String {
    let asst = &plan.assistants[a];
    pretty(&json!({
        "name": asst.name,
        "version": format!("0.{}.{}", rng.below(9), rng.below(9)),
        "description": text::sentences(rng, 1),
        "extensions": { "org.sigrix": { "assistant": "assistant.json" } },
    }))
}

fn contract(plan: &Plan, rng: &mut Rng, c: usize) -> String {
    let ct = &plan.contracts[c];
    let mut v = Map::new();
    v.insert(
        "state".into(),
        json!(rng.pick(&["PLAN", "EXECUTE", "REVIEW", "PLAN_SCORED"])),
    );
    v.insert("contract_version".into(), json!("0.6.13"));
    v.insert(
        "session".into(),
        json!({
            "task_id": format!("TASK-{}", rng.range(100, 9999)),
            "branch": format!("feat/{}", ct.task),
            "created_at": format!("2025-0{}-1{}T09:30:00Z", rng.range(1, 9), rng.range(0, 9)),
            "model": "gpt-5",
            "model_change_count": 0,
        }),
    );
    v.insert(
        "scope".into(),
        json!({
            "included": [format!("src/{}/", ct.task)],
            "excluded": ["vendor/"],
            "boundary": "subdirectory",
            "parallel_eligible": false,
            "max_parallel_agents": 1,
        }),
    );
    v.insert(
        "requirements".into(),
        json!({
            "goal": text::sentences(rng, 1),
            "success_criteria": [text::sentences(rng, 1), text::sentences(rng, 1)],
            "acceptance_criteria": [text::sentences(rng, 1)],
            "constraints": { "no_new_dependencies": true },
        }),
    );
    v.insert(
        "decisions".into(),
        json!({
            "approved_architecture": format!("docs/adr/{:04}.md", rng.range(1, 40)),
            "coding_standard": ["AGENTS.md §3"],
            "rejected_approaches": [text::sentences(rng, 1)],
            "adr_log": [{ "id": "ADR-7", "title": text::sentences(rng, 1), "status": "accepted", "date": "2025-03-10" }],
        }),
    );
    v.insert(
        "governance".into(),
        json!({
            "active_agent": rng.pick(&["build", "plan", "review"]),
            "mode": rng.pick(&["autonomous", "supervised", "interactive"]),
            "applicable_skills": strings(&ct.skills),
            "rules_references": [{ "source": "AGENTS.md", "sections": ["§3 - Non-Negotiable Rules", "§5 - Writing Order"] }],
            "permissions": {
                "do": [text::sentences(rng, 1)],
                "dont": ["push to main branch", "modify CI configuration"],
                "allowed_execution": ["read", "write", "execute"],
            },
            "timeout": { "max_session_minutes": 60, "max_retries": 2, "escalation_on_timeout": "handoff" },
        }),
    );
    v.insert(
        "validation".into(),
        json!({ "block_on": { "max_test_failures": 0, "max_score_drop": 10, "max_compile_errors": 0 } }),
    );
    match ct.retry {
        Retry::Capped(n) => {
            v.insert(
                "retry".into(),
                json!({ "attempt": 0, "max_attempts": n, "score_threshold": 70 }),
            );
        }
        Retry::Uncapped => {
            v.insert(
                "retry".into(),
                json!({ "attempt": 0, "score_threshold": 70 }),
            );
        }
        Retry::None => {}
    }
    v.insert(
        "outputs".into(),
        json!({
            "code_changes": [{
                "file": format!("src/{}/mod.rs", ct.task),
                "change_type": "modify",
                "summary": text::sentences(rng, 1),
            }],
            "test_results": null,
        }),
    );
    v.insert(
        "metrics".into(),
        json!({ "cost_tokens": rng.range(1000, 90_000), "elapsed_ms": rng.range(1000, 900_000), "agents_used": ["plan", "build"], "phases_completed": ["PLAN"] }),
    );
    pretty(&Value::Object(v))
}

fn manifest(plan: &Plan, rng: &mut Rng, m: usize) -> String {
    let mf = &plan.manifests[m];
    let hour = rng.below(24);
    format!(
        "spec_version: \"0.1\"\nid: {id}\nname: {name}\npurpose: {purpose}\naudience: [team, agent]\ntrigger:\n  type: schedule\n  default: nightly\n  schedule: \"0 {hour} * * *\"\ninputs:\n  sources:\n    - type: github_repo\n      name: example/agent-monorepo\n  environment_variables: [GITHUB_TOKEN]\ncapabilities: [git, github_api]\npermissions:\n  allowed_actions: [read_repository, open_pull_request, comment_on_pull_request]\n  forbidden_actions: [merge_pull_request, push_to_default_branch]\n  credential_scopes: [contents:read, pull_requests:write]\nstate:\n  paths: [.loopmaster/{id}/state.json]\n  retention: 30 days\noutputs:\n  artifacts: [pull requests, .loopmaster/{id}/report.md]\n  notifications: [\"#agents-bots\"]\nverification:\n  required:\n    - {check}\n  commands:\n    - name: tests\n      run: {cmd}\n      expected: exit code 0\nhuman_gates:\n  required_for: [merge_pull_request]\n  approver: platform-team\nfailure_policy:\n  retry: {retry}\n  escalate_after: 2 failed runs\nmaintenance:\n  freshness_cadence: quarterly\n  owner: platform-team\nbackends:\n  github_actions:\n    workflow: .github/workflows/{id}.yml\n    schedule: \"0 {hour} * * *\"\n",
        id = mf.id,
        name = text::title(&mf.id),
        purpose = text::sentences(rng, 1),
        check = text::sentences(rng, 1),
        cmd = rng.pick(&[
            "make test",
            "cargo test --workspace",
            "npm test",
            "pytest -q"
        ]),
        retry = rng.range(0, 3),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_needles() {
        let t = b"---\nname: a\n---\nname: b\n";
        assert_eq!(line_of(t, "\nname: a\n"), Some(2));
        assert_eq!(line_of(t, "name: b"), Some(4));
        assert_eq!(line_of(t, "---"), Some(1));
        assert_eq!(line_of(t, "nope"), None);
    }

    #[test]
    fn wrapping() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
    }
}
