//! Fault injection: each fault changes the plan (or adds a few files to it)
//! so that skein must report exactly the diagnostics recorded as
//! [`Expect`]s, and nothing else.
//!
//! Kinds, in the order they are injected (round robin):
//!
//! | kind | rule | forms |
//! |---|---|---|
//! | unreachable-stage | FLOW001 (+ FLOW005 at the cutting gate) | a gate with only revise+blocked or redirect+blocked verdicts cuts every later stage |
//! | uncapped-cycle | FLOW002 | two loops of a pack run each other; a ring of Loom agents delegating (a2a) without `max_iterations`; an OpenCode contract `retry` without `max_attempts` |
//! | duplicate-gate-id | REF001 | a later loop (path order) reuses the first gate id of an earlier one in the same skilldrop root |
//! | undeclared-write-tool | PERM001, BAILEY002 | a Bailey assistant's skill grants an undeclared MCP tool; a `write_tools` entry missing from `tools` (BAILEY002); an MCP server with no `tools` entry; an agent beside `assistant.json` granting a built-in write tool |
//! | orphan-skill | REF004 | a skill no loader references, in a pack, a Loom skills library or a Bailey assistant without a plugin manifest |
//!
//! A fault never touches an artifact another fault touched, so the
//! expected diagnostics of two faults never interfere.

use super::plan::{self, Expect, Gate, Plan, Retry, Server, Stage};
use super::rng::Rng;
use super::text::{self, NOUNS, SERVERS};
use std::collections::BTreeMap;

/// The fault kinds, in injection order.
pub const KINDS: [&str; 5] = [
    "unreachable-stage",
    "uncapped-cycle",
    "duplicate-gate-id",
    "undeclared-write-tool",
    "orphan-skill",
];

/// Injects `count` faults, kinds in round robin.
pub fn inject(plan: &mut Plan, rng: &mut Rng, count: usize) {
    for k in 0..count {
        match k % KINDS.len() {
            0 => unreachable_stage(plan, rng),
            1 => uncapped_cycle(plan, rng),
            2 => duplicate_gate_id(plan, rng),
            3 => undeclared_write_tool(plan, rng),
            _ => orphan_skill(plan, rng),
        }
    }
}

/// Records an expected diagnostic of the current fault.
fn expect(
    plan: &mut Plan,
    kind: &'static str,
    form: &'static str,
    rule: &'static str,
    path: String,
    needle: String,
    companion: bool,
) {
    let fault = plan.faults;
    plan.expects.push(Expect {
        fault,
        kind,
        form,
        rule,
        path,
        needle,
        companion,
    });
}

/// The `"id": "<id>"` text of a pretty-printed JSON member.
fn json_id(id: &str) -> String {
    format!("\"id\": \"{id}\"")
}

/// Loops no fault touched, that are not wrappers.
fn free_loops(plan: &Plan) -> Vec<usize> {
    (0..plan.loops.len())
        .filter(|&l| !plan.loops[l].touched && !plan.loops[l].wrapper)
        .collect()
}

/// A new loop of `stages` stages in a random pack (stage skills from the
/// pack), for faults that find no existing loop to change.
fn fallback_loop(plan: &mut Plan, rng: &mut Rng, stages: usize, gates: bool) -> Option<usize> {
    let packs: Vec<usize> = (0..plan.packs.len())
        .filter(|&p| !plan.packs[p].skills.is_empty())
        .collect();
    if packs.is_empty() {
        return None;
    }
    let p = *rng.pick(&packs);
    let skills: Vec<Vec<String>> = (0..stages)
        .map(|_| {
            let s = *rng.pick(&plan.packs[p].skills);
            vec![plan.skills[s].name.clone()]
        })
        .collect();
    let name = plan::loop_name(plan, rng, p);
    Some(plan::new_loop(plan, rng, p, name, skills, gates, false))
}

fn unreachable_stage(plan: &mut Plan, rng: &mut Rng) {
    const KIND: &str = "unreachable-stage";
    let cands: Vec<usize> = free_loops(plan)
        .into_iter()
        .filter(|&l| plan.loops[l].stages.len() >= 3)
        .collect();
    let l = match cands.is_empty() {
        false => *rng.pick(&cands),
        true => match fallback_loop(plan, rng, 3, false) {
            Some(l) => l,
            None => return,
        },
    };
    plan.faults += 1;
    let n = plan.loops[l].stages.len();
    let i = rng.range(1, n - 2);
    let t = plan.loops[l].team;
    let (id, kind, script) = match &plan.loops[l].stages[i].gate {
        Some(g) => (g.id.clone(), g.kind, g.script.clone()),
        None => (plan.gate_id(t), "review", None),
    };
    let (form, verdicts, revise_to) = if rng.chance(0.5) {
        let back = plan.loops[l].stages[rng.below(i)].id.clone();
        (
            "gate can only revise or block",
            vec!["NOT READY", "BLOCKED"],
            Some(back),
        )
    } else {
        (
            "gate can only redirect or block",
            vec!["RECONSIDER", "BLOCKED"],
            None,
        )
    };
    let lp = &mut plan.loops[l];
    lp.touched = true;
    lp.stages[i].gate = Some(Gate {
        id: id.clone(),
        kind,
        script,
        verdicts,
        revise_to,
    });
    let path = plan.loop_path(l);
    expect(
        plan,
        KIND,
        form,
        "FLOW005",
        path.clone(),
        json_id(&id),
        true,
    );
    for j in i + 1..n {
        let stage = json_id(&plan.loops[l].stages[j].id);
        expect(plan, KIND, form, "FLOW001", path.clone(), stage, false);
    }
}

fn uncapped_cycle(plan: &mut Plan, rng: &mut Rng) {
    const KIND: &str = "uncapped-cycle";
    // Loops that neither run nor are run by another loop: the cycle of two
    // such loops is exactly those two.
    let mut by_pack: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for l in free_loops(plan) {
        let lp = &plan.loops[l];
        if !lp.uses_loop && !lp.used_by_loop {
            by_pack.entry(lp.pack).or_default().push(l);
        }
    }
    let pairs: Vec<Vec<usize>> = by_pack.into_values().filter(|v| v.len() >= 2).collect();
    let contracts: Vec<usize> = (0..plan.contracts.len())
        .filter(|&c| {
            !plan.contracts[c].touched && matches!(plan.contracts[c].retry, Retry::Capped(_))
        })
        .collect();
    let mut forms = vec![0];
    if !pairs.is_empty() {
        forms.push(1);
    }
    if !contracts.is_empty() {
        forms.push(2);
    }
    let teams: Vec<usize> = (0..plan.teams.len())
        .filter(|&t| !plan.teams[t].packs.is_empty() || plan.teams.len() == 1)
        .collect();
    match *rng.pick(&forms) {
        1 => {
            let group = rng.pick(&pairs).clone();
            let x = group[rng.below(group.len())];
            let mut y = group[rng.below(group.len())];
            while y == x {
                y = group[rng.below(group.len())];
            }
            plan.faults += 1;
            for (a, b) in [(x, y), (y, x)] {
                let target = plan.loops[b].name.clone();
                let la = &mut plan.loops[a];
                la.touched = true;
                la.uses_loop = true;
                la.used_by_loop = true;
                la.stages.push(Stage {
                    id: format!("run-{target}"),
                    ty: "generate",
                    skills: vec![target],
                    gate: None,
                });
            }
            let (px, py) = (plan.loop_path(x), plan.loop_path(y));
            let (path, first) = if px < py { (px, x) } else { (py, y) };
            let needle = format!("\"name\": \"{}\"", plan.loops[first].name);
            expect(
                plan,
                KIND,
                "loops run each other",
                "FLOW002",
                path,
                needle,
                false,
            );
        }
        2 => {
            let c = *rng.pick(&contracts);
            plan.faults += 1;
            plan.contracts[c].retry = Retry::Uncapped;
            plan.contracts[c].touched = true;
            let path = plan.contracts[c].path.clone();
            expect(
                plan,
                KIND,
                "contract retry without max_attempts",
                "FLOW002",
                path,
                "\"retry\": {".into(),
                false,
            );
        }
        _ => {
            let t = if teams.is_empty() {
                0
            } else {
                *rng.pick(&teams)
            };
            if plan.teams.is_empty() {
                return;
            }
            plan.faults += 1;
            let ring = plan.other_name(rng, &["escalation", "handoff", "relay", "oncall"]);
            let dir = format!("{}agents/{ring}/", plan.teams[t].prefix);
            let n = rng.range(2, 3);
            let names: Vec<String> = (0..n).map(|_| plan.other_name(rng, text::LOOM)).collect();
            let mut first: Option<(String, String)> = None;
            for (k, name) in names.iter().enumerate() {
                let i = plan.looms.len();
                let path = format!("{dir}{name}.agent.yaml");
                plan.file(path.clone(), plan::FileKind::Loom(i));
                plan.looms.push(plan::LoomAgent {
                    path: path.clone(),
                    name: name.clone(),
                    library: None,
                    a2a: vec![names[(k + 1) % n].clone()],
                    max_iterations: None,
                    mcp: Vec::new(),
                });
                if first.as_ref().is_none_or(|(p, _)| path < *p) {
                    first = Some((path, name.clone()));
                }
            }
            let (path, name) = first.expect("a ring has agents");
            expect(
                plan,
                KIND,
                "a2a delegation ring without max_iterations",
                "FLOW002",
                path,
                format!("\nname: {name}\n"),
                false,
            );
        }
    }
}

fn duplicate_gate_id(plan: &mut Plan, rng: &mut Rng) {
    const KIND: &str = "duplicate-gate-id";
    let first_gate =
        |plan: &Plan, l: usize| plan.loops[l].stages.iter().position(|s| s.gate.is_some());
    let mut by_team: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for l in free_loops(plan) {
        if first_gate(plan, l).is_some() {
            by_team.entry(plan.loops[l].team).or_default().push(l);
        }
    }
    let groups: Vec<Vec<usize>> = by_team.into_values().filter(|v| v.len() >= 2).collect();
    let (x, y) = if groups.is_empty() {
        let Some(a) = fallback_loop(plan, rng, 3, true) else {
            return;
        };
        let p = plan.loops[a].pack;
        let skills: Vec<Vec<String>> = plan.loops[a]
            .stages
            .iter()
            .map(|s| s.skills.clone())
            .collect();
        let name = plan::loop_name(plan, rng, p);
        let b = plan::new_loop(plan, rng, p, name, skills, true, false);
        (a, b)
    } else {
        let group = rng.pick(&groups).clone();
        let x = group[rng.below(group.len())];
        let mut y = group[rng.below(group.len())];
        while y == x {
            y = group[rng.below(group.len())];
        }
        (x, y)
    };
    plan.faults += 1;
    let (a, b) = if plan.loop_path(x) < plan.loop_path(y) {
        (x, y)
    } else {
        (y, x)
    };
    let ga = first_gate(plan, a).expect("gated");
    let gb = first_gate(plan, b).expect("gated");
    let id = plan.loops[a].stages[ga]
        .gate
        .as_ref()
        .expect("gate")
        .id
        .clone();
    plan.loops[b].stages[gb].gate.as_mut().expect("gate").id = id.clone();
    plan.loops[a].touched = true;
    plan.loops[b].touched = true;
    let path = plan.loop_path(b);
    expect(
        plan,
        KIND,
        "later loop reuses a gate id",
        "REF001",
        path,
        json_id(&id),
        false,
    );
}

fn undeclared_write_tool(plan: &mut Plan, rng: &mut Rng) {
    const KIND: &str = "undeclared-write-tool";
    let cands: Vec<usize> = (0..plan.assistants.len())
        .filter(|&a| !plan.assistants[a].touched)
        .collect();
    let a = if cands.is_empty() {
        if plan.teams.is_empty() {
            return;
        }
        let t = rng.below(plan.teams.len());
        plan::assistant(plan, rng, t, 0, 1)
    } else {
        *rng.pick(&cands)
    };
    plan.faults += 1;
    plan.assistants[a].touched = true;
    let dir = plan.assistants[a].dir.clone();
    let fresh_tool = |rng: &mut Rng, plan: &Plan| loop {
        let t = format!(
            "{}_{}",
            rng.pick(&["delete", "purge", "bulk_update", "export", "archive"]),
            rng.pick(NOUNS)
        );
        if !plan.assistants[a]
            .decls
            .iter()
            .any(|d| d.tools.contains(&t) || d.write_tools.contains(&t))
        {
            break t;
        }
    };
    let mut forms = vec![0, 1, 2];
    if !plan.assistants[a].agents.is_empty() {
        forms.push(3);
    }
    match *rng.pick(&forms) {
        0 => {
            let asst = &plan.assistants[a];
            let d = rng.below(asst.decls.len());
            let server = asst.decls[d].server.clone();
            let mut loaded = vec![asst.instructions];
            loaded.extend(asst.skills.iter().copied());
            let s = *rng.pick(&loaded);
            let tool = fresh_tool(rng, plan);
            let token = format!("mcp__{server}__{tool}");
            plan.skills[s].tools.push(token.clone());
            let path = format!("{}SKILL.md", plan.skills[s].dir);
            expect(
                plan,
                KIND,
                "skill grants an undeclared MCP tool",
                "PERM001",
                path,
                token,
                false,
            );
        }
        1 => {
            let d = rng.below(plan.assistants[a].decls.len());
            let tool = fresh_tool(rng, plan);
            plan.assistants[a].decls[d].write_tools.push(tool.clone());
            expect(
                plan,
                KIND,
                "write_tools entry missing from tools",
                "BAILEY002",
                format!("{dir}assistant.json"),
                format!("\"{tool}\""),
                false,
            );
        }
        2 => {
            let used: Vec<String> = plan.assistants[a]
                .servers
                .iter()
                .map(|s| s.name.clone())
                .collect();
            let free: Vec<usize> = (0..SERVERS.len())
                .filter(|&c| !used.iter().any(|u| u == SERVERS[c].0))
                .collect();
            let c = *rng.pick(&free);
            let name = SERVERS[c].0.to_string();
            plan.assistants[a].servers.push(Server {
                name: name.clone(),
                catalog: c,
                remote: false,
            });
            expect(
                plan,
                KIND,
                "MCP server with no tools entry",
                "PERM001",
                format!("{dir}mcp.json"),
                format!("\"{name}\": {{"),
                false,
            );
        }
        _ => {
            let k = rng.below(plan.assistants[a].agents.len());
            let tool = *rng.pick(&["Edit", "Write", "Bash"]);
            let agent = &mut plan.assistants[a].agents[k];
            agent.tools.push(tool.to_string());
            let path = format!("{dir}agents/{}.md", agent.name);
            expect(
                plan,
                KIND,
                "agent beside the assistant grants a built-in write tool",
                "PERM001",
                path,
                "\ntools: ".into(),
                false,
            );
        }
    }
}

fn orphan_skill(plan: &mut Plan, rng: &mut Rng) {
    const KIND: &str = "orphan-skill";
    let packs: Vec<usize> = (0..plan.packs.len())
        .filter(|&p| !plan.packs[p].loops.is_empty())
        .collect();
    let groups: Vec<usize> = (0..plan.groups.len()).collect();
    let assistants: Vec<usize> = (0..plan.assistants.len())
        .filter(|&a| !plan.assistants[a].plugin)
        .collect();
    let mut forms = Vec::new();
    for (f, v) in [&packs, &groups, &assistants].into_iter().enumerate() {
        if !v.is_empty() {
            forms.push(f);
        }
    }
    if forms.is_empty() {
        return;
    }
    plan.faults += 1;
    let read_only = vec!["Read".to_string(), "Grep".to_string()];
    let (s, form) = match *rng.pick(&forms) {
        0 => {
            let p = *rng.pick(&packs);
            let dir = format!(
                "{}packs/{}/skills/",
                plan.teams[plan.packs[p].team].prefix, plan.packs[p].name
            );
            let s = plan.add_skill(rng, &dir, read_only);
            plan.packs[p].orphans.push(s);
            (s, "pack skill no loop or outcome runs")
        }
        1 => {
            let g = *rng.pick(&groups);
            let dir = format!("{}skills/", plan.groups[g].dir);
            let s = plan.add_skill(rng, &dir, Vec::new());
            plan.groups[g].orphans.push(s);
            (s, "library skill no Loom agent includes")
        }
        _ => {
            let a = *rng.pick(&assistants);
            let dir = format!("{}skills/", plan.assistants[a].dir);
            let s = plan.add_skill(rng, &dir, read_only);
            plan.assistants[a].orphans.push(s);
            (s, "assistant skill not listed in its skills")
        }
    };
    let path = format!("{}SKILL.md", plan.skills[s].dir);
    // No trailing `\n`: some skills are written with CRLF line endings.
    let needle = format!("\nname: {}", plan.skills[s].name);
    expect(plan, KIND, form, "REF004", path, needle, false);
}
