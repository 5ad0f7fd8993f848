//! The plan of a generated monorepo: every artifact as data, with its
//! cross-references, before any text is written. Faults are injected by
//! changing the plan (see `faults.rs`); rendering (`render.rs`) turns each
//! planned file into bytes.
//!
//! Layout (one skilldrop installation per team, as a monorepo that vendors
//! several teams' agent artifacts has):
//!
//! ```text
//! README.md
//! .claude-plugin/marketplace.json          every plugin of the repository
//! automation/<id>.loop.yaml                Loopmaster manifests (filler)
//! docs/notes/<topic>.md                    plain documentation (filler, not an artifact)
//! teams/<team>/
//!   README.md
//!   contracts/terminals.json               the team's verdict vocabulary
//!   catalogue.json                         outcomes -> pack skills no loop runs
//!   packs/<pack>/pack.json, README.md
//!   packs/<pack>/skills/<skill>/SKILL.md   (+ scripts/gate.py, references/*.md)
//!   packs/<pack>/loops/<loop>/loop.json + LOOP.md
//!   plugins/<plugin>/.claude-plugin/plugin.json, .mcp.json, agents/*.md,
//!     commands/*.md, hooks/hooks.json, scripts/*.sh, skills/<skill>/SKILL.md
//!   agents/<group>/<name>.agent.yaml       Loom agents (a2a, skills library)
//!   agents/<group>/skills/<skill>/SKILL.md the group's skills library
//!   assistants/<name>/assistant.json, mcp.json, persona.md, agents/*.md,
//!     skills/<skill>/SKILL.md (+ .claude-plugin/plugin.json for some)
//!   orchestration/<task>/contract.json     OpenCode contracts
//!   automation/<id>.loop.yaml              Loopmaster manifests
//! ```

use super::rng::Rng;
use super::text::{self, LOOM, NOUNS, QUALIFIERS, SERVERS, VERBS};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Files per team (the last team takes the rest).
const TEAM_FILES: usize = 2000;

/// One file to render: its repository-relative path and what it is.
#[derive(Debug, Clone)]
pub struct FileSpec {
    /// `/`-separated path relative to the generated root.
    pub path: String,
    /// What to render.
    pub kind: FileKind,
}

/// What a planned file is; the index points into the plan's tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Root README.
    RootReadme,
    /// `.claude-plugin/marketplace.json` listing every plugin.
    Marketplace,
    /// A team's README.
    TeamReadme(usize),
    /// A team's `contracts/terminals.json`.
    Terminals(usize),
    /// A team's `catalogue.json`.
    Catalogue(usize),
    /// `pack.json`.
    Pack(usize),
    /// A pack's README.
    PackReadme(usize),
    /// A `SKILL.md`.
    Skill(usize),
    /// A skill's `references/<n>.md` (not an artifact).
    Reference(usize),
    /// A mechanical gate's script (not an artifact).
    GateScript(usize),
    /// `loop.json`.
    LoopJson(usize),
    /// `LOOP.md`.
    LoopDoc(usize),
    /// A plugin's `.claude-plugin/plugin.json`.
    PluginJson(usize),
    /// A plugin's `.mcp.json`.
    PluginMcp(usize),
    /// A plugin's `hooks/hooks.json`.
    PluginHooks(usize),
    /// A plugin's hook script (not an artifact).
    HookScript(usize),
    /// A plugin's README.
    PluginReadme(usize),
    /// A plugin agent: (plugin, agent).
    PluginAgent(usize, usize),
    /// A plugin command: (plugin, command).
    PluginCommand(usize, usize),
    /// A Loom agent spec.
    Loom(usize),
    /// A Bailey `assistant.json`.
    Assistant(usize),
    /// A Bailey assistant's `mcp.json`.
    AssistantMcp(usize),
    /// A Bailey assistant's `persona.md` (not an artifact).
    Persona(usize),
    /// A Bailey assistant's `.claude-plugin/plugin.json`.
    AssistantPlugin(usize),
    /// An agent beside `assistant.json`: (assistant, agent).
    AssistantAgent(usize, usize),
    /// An OpenCode `contract.json`.
    Contract(usize),
    /// A Loopmaster manifest.
    Manifest(usize),
    /// A documentation note (not an artifact).
    Doc(usize),
}

/// A team: one skilldrop root and everything else it owns.
#[derive(Debug, Clone, Default)]
pub struct Team {
    /// `teams/<name>/`.
    pub prefix: String,
    /// Folder name.
    pub name: String,
    /// Next gate number (gate ids are unique per skilldrop root).
    pub next_gate: u32,
    /// Packs, `core` first.
    pub packs: Vec<usize>,
    /// Catalogue outcomes: (id, skill names).
    pub outcomes: Vec<(String, Vec<String>)>,
    /// Whether the team has a catalogue file.
    pub catalogue: bool,
    /// Loom agents of the team, in creation order (a2a targets come from here).
    pub looms: Vec<usize>,
}

/// An Agent Skill.
#[derive(Debug, Clone)]
pub struct Skill {
    /// Folder, with trailing `/`.
    pub dir: String,
    /// Name (= folder name).
    pub name: String,
    /// Verb and subject for its description.
    pub verb: &'static str,
    /// What it works on.
    pub subject: String,
    /// `allowed-tools` entries (empty: no key).
    pub tools: Vec<String>,
    /// Render `allowed-tools` as a YAML list instead of a string.
    pub tools_as_list: bool,
    /// File name of its bundled `references/<file>`, linked from the body.
    pub reference: Option<String>,
}

/// A skilldrop pack.
#[derive(Debug, Clone)]
pub struct Pack {
    /// Owning team.
    pub team: usize,
    /// Folder name.
    pub name: String,
    /// `requires`.
    pub requires: Vec<String>,
    /// Skills (in its `skills/` folder) that something references.
    pub skills: Vec<usize>,
    /// Skills added unreferenced (orphan-skill faults); not in the journey.
    pub orphans: Vec<usize>,
    /// Loops.
    pub loops: Vec<usize>,
}

/// A gate of a skilldrop stage.
#[derive(Debug, Clone)]
pub struct Gate {
    /// `G<n>` or `G<n>.<m>`.
    pub id: String,
    /// `mechanical`, `review` or `human`.
    pub kind: &'static str,
    /// Script of a mechanical gate (prefix-relative, as skilldrop writes it).
    pub script: Option<String>,
    /// Verdict words.
    pub verdicts: Vec<&'static str>,
    /// Stage id a revise verdict returns to.
    pub revise_to: Option<String>,
}

/// A stage of a skilldrop loop.
#[derive(Debug, Clone)]
pub struct Stage {
    /// Stage id.
    pub id: String,
    /// `generate`, `verify` or `gate`.
    pub ty: &'static str,
    /// Skill (or loop) names it runs.
    pub skills: Vec<String>,
    /// Its gate.
    pub gate: Option<Gate>,
}

/// A skilldrop loop.
#[derive(Debug, Clone)]
pub struct Loop {
    /// Owning team.
    pub team: usize,
    /// Owning pack.
    pub pack: usize,
    /// Name (= folder name).
    pub name: String,
    /// `cap` (`None`: the default 3).
    pub cap: Option<u32>,
    /// `kind: wrapper` (a `*` stage).
    pub wrapper: bool,
    /// Stages in order.
    pub stages: Vec<Stage>,
    /// Runs another loop in one of its stages.
    pub uses_loop: bool,
    /// Another loop runs it.
    pub used_by_loop: bool,
    /// A fault changed it (no second fault may touch it).
    pub touched: bool,
}

/// An MCP server of a plugin or an assistant.
#[derive(Debug, Clone)]
pub struct Server {
    /// Key in the config.
    pub name: String,
    /// Index into `text::SERVERS` (for its tools), or `usize::MAX` for a
    /// server made up by a fault.
    pub catalog: usize,
    /// Remote (`type: http`, `url`) instead of a local command.
    pub remote: bool,
}

/// A plugin agent or command.
#[derive(Debug, Clone)]
pub struct Part {
    /// File stem.
    pub name: String,
    /// `tools` / `allowed-tools` entries.
    pub tools: Vec<String>,
}

/// A Claude Code plugin.
#[derive(Debug, Clone)]
pub struct Plugin {
    /// Owning team.
    pub team: usize,
    /// Plugin root, with trailing `/`.
    pub dir: String,
    /// Name.
    pub name: String,
    /// `.mcp.json` servers (empty: no file).
    pub servers: Vec<Server>,
    /// `agents/*.md`.
    pub agents: Vec<Part>,
    /// `commands/*.md`.
    pub commands: Vec<Part>,
    /// Has `hooks/hooks.json` and its script.
    pub hooks: bool,
    /// Skills in its `skills/` folder.
    pub skills: Vec<usize>,
    /// The manifest names its `commands` folder.
    pub lists_commands: bool,
}

/// A folder of Loom agents sharing a skills library.
#[derive(Debug, Clone)]
pub struct LoomGroup {
    /// Folder, with trailing `/`.
    pub dir: String,
    /// Skills of `<dir>skills/` some agent includes.
    pub skills: Vec<usize>,
    /// Skills added there that no agent includes (orphan-skill faults).
    pub orphans: Vec<usize>,
}

/// A Loom AgentSpec v1.
#[derive(Debug, Clone)]
pub struct LoomAgent {
    /// File path.
    pub path: String,
    /// Name (unique in the repository).
    pub name: String,
    /// Its group's skills library and the skill names it includes.
    pub library: Option<Vec<String>>,
    /// Agents it delegates to (a2a).
    pub a2a: Vec<String>,
    /// `policies.max_iterations`.
    pub max_iterations: Option<u32>,
    /// MCP servers it uses (`kind: mcp`).
    pub mcp: Vec<&'static str>,
}

/// A tool declaration of a Bailey assistant for one server.
#[derive(Debug, Clone)]
pub struct Decl {
    /// Server key.
    pub server: String,
    /// `tools`.
    pub tools: Vec<String>,
    /// `write_tools`.
    pub write_tools: Vec<String>,
}

/// A Bailey assistant.
#[derive(Debug, Clone)]
pub struct Assistant {
    /// Owning team.
    pub team: usize,
    /// Folder, with trailing `/`.
    pub dir: String,
    /// Name (= folder name).
    pub name: String,
    /// Servers of its `mcp.json`.
    pub servers: Vec<Server>,
    /// Its `tools` declarations.
    pub decls: Vec<Decl>,
    /// The instructions skill.
    pub instructions: usize,
    /// `skills[]` entries.
    pub skills: Vec<usize>,
    /// Skills in its `skills/` folder nothing references (faults).
    pub orphans: Vec<usize>,
    /// Agents beside `assistant.json`.
    pub agents: Vec<Part>,
    /// Ships `.claude-plugin/plugin.json` (its `skills/` is then auto-loaded).
    pub plugin: bool,
    /// Declares knowledge slots.
    pub knowledge: bool,
    /// A fault changed it.
    pub touched: bool,
}

/// The retry of an OpenCode contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// No `retry` member.
    None,
    /// `retry.max_attempts`.
    Capped(u32),
    /// `retry` without `max_attempts` (an uncapped cycle).
    Uncapped,
}

/// An OpenCode orchestration contract.
#[derive(Debug, Clone)]
pub struct Contract {
    /// File path.
    pub path: String,
    /// Task slug.
    pub task: String,
    /// `governance.applicable_skills`.
    pub skills: Vec<String>,
    /// Its retry.
    pub retry: Retry,
    /// A fault changed it.
    pub touched: bool,
}

/// A Loopmaster manifest.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// File path.
    pub path: String,
    /// `id`.
    pub id: String,
}

/// One expected diagnostic of an injected fault, located by a needle: the
/// diagnostic's line is the line where `needle` first occurs in `path`
/// (after a leading `\n` of the needle, if any).
#[derive(Debug, Clone)]
pub struct Expect {
    /// Fault number (1-based); companions share their fault's number.
    pub fault: usize,
    /// Fault kind (the rule's name).
    pub kind: &'static str,
    /// How the fault was made.
    pub form: &'static str,
    /// Rule code.
    pub rule: &'static str,
    /// Path of the diagnostic's primary span.
    pub path: String,
    /// Text whose first occurrence is on the diagnostic's line.
    pub needle: String,
    /// A diagnostic that comes with the fault's own (e.g. FLOW005 beside FLOW001).
    pub companion: bool,
}

/// The whole plan.
#[derive(Debug, Default)]
pub struct Plan {
    /// Files in creation order.
    pub files: Vec<FileSpec>,
    /// Teams.
    pub teams: Vec<Team>,
    /// Skills.
    pub skills: Vec<Skill>,
    /// Packs.
    pub packs: Vec<Pack>,
    /// Loops.
    pub loops: Vec<Loop>,
    /// Plugins.
    pub plugins: Vec<Plugin>,
    /// Loom groups.
    pub groups: Vec<LoomGroup>,
    /// Loom agents.
    pub looms: Vec<LoomAgent>,
    /// Bailey assistants.
    pub assistants: Vec<Assistant>,
    /// OpenCode contracts.
    pub contracts: Vec<Contract>,
    /// Loopmaster manifests.
    pub manifests: Vec<Manifest>,
    /// Documentation notes (paths).
    pub docs: Vec<String>,
    /// Expected diagnostics of the injected faults.
    pub expects: Vec<Expect>,
    /// Faults injected so far.
    pub faults: usize,
    /// Taken skill names (unique in the repository).
    names: HashSet<String>,
    /// Taken other names (plugins, assistants, Loom agents, tasks, ids).
    other_names: HashSet<String>,
    /// Gate scripts already planned.
    scripts: BTreeSet<String>,
}

impl Plan {
    /// Adds a file.
    pub fn file(&mut self, path: String, kind: FileKind) {
        self.files.push(FileSpec { path, kind });
    }

    /// A fresh skill name (unique in the repository): `verb-noun`, then
    /// `verb-qualifier-noun`, then with a number.
    pub fn skill_name(&mut self, rng: &mut Rng) -> (String, &'static str, String) {
        for attempt in 0.. {
            let verb = *rng.pick(VERBS);
            let noun = *rng.pick(NOUNS);
            let (name, subject) = match attempt {
                0..=2 => (format!("{verb}-{noun}"), noun.to_string()),
                3..=6 => {
                    let q = rng.pick(QUALIFIERS);
                    (format!("{verb}-{q}-{noun}"), format!("{q} {noun}"))
                }
                _ => {
                    let q = rng.pick(QUALIFIERS);
                    let n = rng.range(2, 999);
                    (format!("{verb}-{q}-{noun}-{n}"), format!("{q} {noun}"))
                }
            };
            if self.names.insert(name.clone()) {
                return (name, verb, subject);
            }
        }
        unreachable!()
    }

    /// A fresh name from `stems` (unique among non-skill names), numbered
    /// when the stems run out.
    pub fn other_name(&mut self, rng: &mut Rng, stems: &[&str]) -> String {
        for attempt in 0.. {
            let stem = *rng.pick(stems);
            let name = if attempt < 3 {
                stem.to_string()
            } else {
                format!("{stem}-{}", rng.range(2, 9999))
            };
            if !self.names.contains(&name) && self.other_names.insert(name.clone()) {
                return name;
            }
        }
        unreachable!()
    }

    /// Adds a skill in folder `dir` (with trailing `/`) and its file.
    pub fn add_skill(&mut self, rng: &mut Rng, parent: &str, tools: Vec<String>) -> usize {
        let (name, verb, subject) = self.skill_name(rng);
        self.add_named_skill(rng, parent, name, verb, subject, tools)
    }

    /// Adds a skill of a given name.
    pub fn add_named_skill(
        &mut self,
        rng: &mut Rng,
        parent: &str,
        name: String,
        verb: &'static str,
        subject: String,
        tools: Vec<String>,
    ) -> usize {
        let dir = format!("{parent}{name}/");
        self.names.insert(name.clone());
        let i = self.skills.len();
        self.file(format!("{dir}SKILL.md"), FileKind::Skill(i));
        self.skills.push(Skill {
            dir,
            name,
            verb,
            subject,
            tools,
            tools_as_list: rng.chance(0.15),
            reference: None,
        });
        i
    }

    /// The next gate id of team `t`.
    pub fn gate_id(&mut self, t: usize) -> String {
        self.teams[t].next_gate += 1;
        format!("G{}", self.teams[t].next_gate)
    }

    /// Path of a loop's `loop.json`.
    pub fn loop_path(&self, l: usize) -> String {
        let lp = &self.loops[l];
        format!(
            "{}packs/{}/loops/{}/loop.json",
            self.teams[lp.team].prefix, self.packs[lp.pack].name, lp.name
        )
    }

    /// Registers a mechanical gate script file (once per path).
    fn gate_script(&mut self, path: String) {
        if self.scripts.insert(path.clone()) {
            let i = self.docs.len();
            self.docs.push(path.clone());
            self.file(path, FileKind::GateScript(i));
        }
    }
}

/// Tools a pack or plugin skill pre-approves (anything goes outside Bailey).
fn free_tools(rng: &mut Rng) -> Vec<String> {
    match rng.below(5) {
        0 => Vec::new(),
        1 => vec!["Read".into(), "Grep".into(), "Glob".into()],
        2 => vec![
            "Read".into(),
            "Grep".into(),
            "Bash(git diff:*)".into(),
            "Bash(git log:*)".into(),
        ],
        3 => vec![
            "Read".into(),
            "Edit".into(),
            "Write".into(),
            "Bash(npm run *)".into(),
        ],
        _ => vec!["Read".into(), "WebFetch".into()],
    }
}

/// Plans the background (fault-free) repository with about `budget` files.
pub fn background(plan: &mut Plan, rng: &mut Rng, budget: usize) {
    // Root files.
    plan.file("README.md".into(), FileKind::RootReadme);
    plan.file(
        ".claude-plugin/marketplace.json".into(),
        FileKind::Marketplace,
    );
    let teams = budget.div_ceil(TEAM_FILES).max(1);
    let mut names: Vec<&str> = text::TEAMS.to_vec();
    rng.shuffle(&mut names);
    for t in 0..teams {
        let name = if t < names.len() {
            names[t].to_string()
        } else {
            format!("{}-{}", names[t % names.len()], t / names.len() + 1)
        };
        let end = if t + 1 == teams {
            budget
        } else {
            (plan.files.len() + TEAM_FILES).min(budget)
        };
        team(plan, rng, name, end);
    }
}

/// Upper bounds of the number of files each unit adds.
const MAX_PACK: usize = 2 + 16 * 3 + 4 * 2;
const MAX_PLUGIN: usize = 3 + 4 + 4 + 2 + 3 * 2;
const MAX_LOOM: usize = 5 + 6;
const MAX_ASSISTANT: usize = 5 + 4 + 2;

fn team(plan: &mut Plan, rng: &mut Rng, name: String, end: usize) {
    let t = plan.teams.len();
    let prefix = format!("teams/{name}/");
    plan.teams.push(Team {
        prefix: prefix.clone(),
        name,
        ..Team::default()
    });
    let fixed = 3; // README, terminals, catalogue
    if plan.files.len() + fixed + 12 > end {
        return;
    }
    plan.file(format!("{prefix}README.md"), FileKind::TeamReadme(t));
    plan.file(
        format!("{prefix}contracts/terminals.json"),
        FileKind::Terminals(t),
    );
    // One of each kind first (so a small repository has every format), then
    // a weighted mix.
    let order = [0usize, 0, 1, 2, 3, 4, 5];
    let mut k = 0;
    loop {
        let unit = if k < order.len() {
            order[k]
        } else {
            match rng.below(100) {
                0..=39 => 0,
                40..=69 => 1,
                70..=79 => 2,
                80..=87 => 3,
                88..=94 => 4,
                _ => 5,
            }
        };
        k += 1;
        let room = end.saturating_sub(plan.files.len() + 1);
        let need = [MAX_PACK, MAX_PLUGIN, MAX_LOOM, MAX_ASSISTANT, 1, 1][unit];
        if room < need {
            if room < MAX_ASSISTANT || k > order.len() + 50 {
                break;
            }
            continue;
        }
        match unit {
            0 => {
                pack(plan, rng, t);
            }
            1 => plugin(plan, rng, t),
            2 => loom_group(plan, rng, t),
            3 => {
                assistant(plan, rng, t, 1, 3);
            }
            4 => contract(plan, rng, t),
            _ => manifest(plan, rng, &format!("{prefix}automation/")),
        }
    }
    catalogue(plan, rng, t);
}

/// Adds a pack (the team's `core` first, others require it) with its skills
/// and loops; returns its index.
pub fn pack(plan: &mut Plan, rng: &mut Rng, t: usize) -> usize {
    let p = plan.packs.len();
    let prefix = plan.teams[t].prefix.clone();
    let core = plan.teams[t].packs.first().copied();
    let name = match core {
        None => "core".to_string(),
        Some(_) => {
            let taken: BTreeSet<String> = plan.teams[t]
                .packs
                .iter()
                .map(|&q| plan.packs[q].name.clone())
                .collect();
            let mut n = rng.pick(text::PACKS).to_string();
            let mut i = 2;
            while taken.contains(&n) {
                n = format!("{}-{i}", rng.pick(text::PACKS));
                i += 1;
            }
            n
        }
    };
    let dir = format!("{prefix}packs/{name}/");
    plan.teams[t].packs.push(p);
    plan.packs.push(Pack {
        team: t,
        name: name.clone(),
        requires: if core.is_some() {
            vec!["core".into()]
        } else {
            Vec::new()
        },
        skills: Vec::new(),
        orphans: Vec::new(),
        loops: Vec::new(),
    });
    plan.file(format!("{dir}pack.json"), FileKind::Pack(p));
    if rng.chance(0.6) {
        plan.file(format!("{dir}README.md"), FileKind::PackReadme(p));
    }
    let n_skills = if core.is_none() {
        rng.range(5, 10)
    } else {
        rng.range(4, 16)
    };
    for _ in 0..n_skills {
        let tools = free_tools(rng);
        let s = plan.add_skill(rng, &format!("{dir}skills/"), tools);
        if rng.chance(0.25) {
            let i = plan.docs.len();
            let file = format!("{}.md", rng.pick(NOUNS));
            let path = format!("{}references/{file}", plan.skills[s].dir);
            plan.skills[s].reference = Some(file);
            plan.docs.push(path.clone());
            plan.file(path, FileKind::Reference(i));
        }
        plan.packs[p].skills.push(s);
    }
    // Loops cover most skills of the pack; the rest go to the catalogue.
    let n_loops = n_skills.div_ceil(6).min(3);
    let mut pool: Vec<String> = plan.packs[p]
        .skills
        .iter()
        .map(|&s| plan.skills[s].name.clone())
        .collect();
    rng.shuffle(&mut pool);
    let core_skills: Vec<String> = core
        .map(|c| {
            plan.packs[c]
                .skills
                .iter()
                .map(|&s| plan.skills[s].name.clone())
                .collect()
        })
        .unwrap_or_default();
    for _ in 0..n_loops {
        let name = loop_name(plan, rng, p);
        let stages = rng.range(3, 6);
        let mut skills_for = Vec::new();
        for _ in 0..stages {
            let mut v = Vec::new();
            for _ in 0..rng.range(1, 2) {
                let skill = match pool.pop() {
                    Some(s) => s,
                    None if !core_skills.is_empty() && rng.chance(0.5) => {
                        rng.pick(&core_skills).clone()
                    }
                    None => {
                        let s = plan.packs[p].skills[rng.below(n_skills)];
                        plan.skills[s].name.clone()
                    }
                };
                if !v.contains(&skill) {
                    v.push(skill);
                }
            }
            skills_for.push(v);
        }
        new_loop(plan, rng, p, name, skills_for, true, true);
    }
    p
}

/// A loop name not used in pack `p`.
pub fn loop_name(plan: &Plan, rng: &mut Rng, p: usize) -> String {
    let taken: BTreeSet<&str> = plan.packs[p]
        .loops
        .iter()
        .map(|&l| plan.loops[l].name.as_str())
        .collect();
    let mut name = rng.pick(text::LOOPS).to_string();
    while taken.contains(name.as_str()) {
        name = format!("{}-{}", rng.pick(text::LOOPS), rng.range(2, 99));
    }
    name
}

/// Verdict sets of clean gates (every one has a pass and a blocked verdict;
/// those with a revise verdict get a `revise_to`).
const GATES: &[(&[&str], bool)] = &[
    (&["READY", "NOT READY", "BLOCKED"], true),
    (
        &[
            "PROCEED",
            "PROCEED WITH CONDITIONS",
            "REVISE",
            "RECONSIDER",
            "SPLIT",
            "BLOCKED",
        ],
        true,
    ),
    (&["VERIFIED", "VERIFIED WITH OPEN ITEMS", "BLOCKED"], false),
    (
        &[
            "SHIP IT",
            "SHIP WITH CHANGES",
            "MAJOR REWRITE",
            "WRONG ARTIFACT",
            "BLOCKED",
        ],
        true,
    ),
];

/// Adds a loop to pack `p` whose stages run `skills_for` (one list per
/// stage); `gates`: give it clean gates (at least one when it has two
/// stages or more); `variety`: sometimes make it a wrapper or let it run an
/// earlier loop of its pack. Returns its index.
pub fn new_loop(
    plan: &mut Plan,
    rng: &mut Rng,
    p: usize,
    name: String,
    skills_for: Vec<Vec<String>>,
    gates: bool,
    variety: bool,
) -> usize {
    let t = plan.packs[p].team;
    let l = plan.loops.len();
    let mut ids: Vec<&str> = text::STAGES.to_vec();
    rng.shuffle(&mut ids);
    let n = skills_for.len();
    let wrapper = variety && n >= 3 && rng.chance(0.04);
    let mut stages: Vec<Stage> = skills_for
        .into_iter()
        .enumerate()
        .map(|(i, skills)| Stage {
            id: ids[i].to_string(),
            ty: if i == 0 { "generate" } else { "verify" },
            skills,
            gate: None,
        })
        .collect();
    if wrapper {
        stages[1].skills = vec!["*".into()];
    }
    if gates {
        let mut gated = false;
        for i in 1..n {
            if !(rng.chance(0.45) || (i + 1 == n && !gated)) {
                continue;
            }
            gated = true;
            let (verdicts, revise) = *rng.pick(GATES);
            let kind = *rng.pick(&["mechanical", "review", "review", "human"]);
            let script = if kind == "mechanical" {
                // The script of the stage's first skill of this pack.
                let own = stages[i].skills.iter().find_map(|s| {
                    plan.packs[p]
                        .skills
                        .iter()
                        .find(|&&k| plan.skills[k].name == *s)
                        .copied()
                });
                own.map(|k| plan.skills[k].dir.clone())
            } else {
                None
            };
            let (kind, script) = match script {
                Some(dir) => {
                    let path = format!("{dir}scripts/gate.py");
                    plan.gate_script(path.clone());
                    let rel = path
                        .strip_prefix(&plan.teams[t].prefix)
                        .unwrap_or(&path)
                        .to_string();
                    ("mechanical", Some(rel))
                }
                None if kind == "mechanical" => ("review", None),
                None => (kind, None),
            };
            let id = plan.gate_id(t);
            let revise_to = revise.then(|| stages[rng.below(i)].id.clone());
            stages[i].ty = if kind == "human" { "gate" } else { "verify" };
            stages[i].gate = Some(Gate {
                id,
                kind,
                script,
                verdicts: verdicts.to_vec(),
                revise_to,
            });
        }
    }
    plan.loops.push(Loop {
        team: t,
        pack: p,
        name,
        cap: rng.chance(0.7).then(|| rng.range(1, 5) as u32),
        wrapper,
        stages,
        uses_loop: false,
        used_by_loop: false,
        touched: false,
    });
    plan.packs[p].loops.push(l);
    let path = plan.loop_path(l);
    let doc = path.replace("loop.json", "LOOP.md");
    plan.file(path, FileKind::LoopJson(l));
    plan.file(doc, FileKind::LoopDoc(l));
    // Sometimes run an earlier loop of the same pack (never a cycle).
    let earlier: Vec<usize> = plan.packs[p]
        .loops
        .iter()
        .copied()
        .filter(|&e| e != l && !plan.loops[e].wrapper)
        .collect();
    if variety && !wrapper && !earlier.is_empty() && rng.chance(0.15) {
        let e = *rng.pick(&earlier);
        let target = plan.loops[e].name.clone();
        let lp = &mut plan.loops[l];
        let at = 1 + rng.below(lp.stages.len() - 1);
        if !lp.stages[at].skills.contains(&target) {
            lp.stages[at].skills.push(target);
            lp.uses_loop = true;
            plan.loops[e].used_by_loop = true;
        }
    }
    l
}

/// Adds a Claude Code plugin.
fn plugin(plan: &mut Plan, rng: &mut Rng, t: usize) {
    let i = plan.plugins.len();
    let name = plan.other_name(rng, text::PLUGINS);
    let dir = format!("{}plugins/{name}/", plan.teams[t].prefix);
    plan.file(
        format!("{dir}.claude-plugin/plugin.json"),
        FileKind::PluginJson(i),
    );
    let mut servers = Vec::new();
    if rng.chance(0.6) {
        let mut idx: Vec<usize> = (0..SERVERS.len()).collect();
        rng.shuffle(&mut idx);
        for &c in idx.iter().take(rng.range(1, 3)) {
            servers.push(Server {
                name: SERVERS[c].0.to_string(),
                catalog: c,
                remote: rng.chance(0.3),
            });
        }
        plan.file(format!("{dir}.mcp.json"), FileKind::PluginMcp(i));
    }
    let parts = |stems: &[&str], n: usize, rng: &mut Rng| -> Vec<Part> {
        let mut v: Vec<&str> = stems.to_vec();
        rng.shuffle(&mut v);
        v.into_iter()
            .take(n)
            .map(|s| Part {
                name: s.to_string(),
                tools: free_tools(rng),
            })
            .collect()
    };
    let n_agents = rng.range(0, 4);
    let agents = parts(text::AGENTS, n_agents, rng);
    let n_commands = rng.range(if agents.is_empty() { 1 } else { 0 }, 4);
    let commands = parts(text::COMMANDS, n_commands, rng);
    for (k, a) in agents.iter().enumerate() {
        plan.file(
            format!("{dir}agents/{}.md", a.name),
            FileKind::PluginAgent(i, k),
        );
    }
    for (k, c) in commands.iter().enumerate() {
        plan.file(
            format!("{dir}commands/{}.md", c.name),
            FileKind::PluginCommand(i, k),
        );
    }
    let hooks = rng.chance(0.35);
    if hooks {
        plan.file(format!("{dir}hooks/hooks.json"), FileKind::PluginHooks(i));
        plan.file(format!("{dir}scripts/check.sh"), FileKind::HookScript(i));
    }
    if rng.chance(0.5) {
        plan.file(format!("{dir}README.md"), FileKind::PluginReadme(i));
    }
    let mut skills = Vec::new();
    for _ in 0..rng.range(0, 3) {
        let tools = free_tools(rng);
        skills.push(plan.add_skill(rng, &format!("{dir}skills/"), tools));
    }
    let lists_commands = !commands.is_empty() && rng.chance(0.3);
    plan.plugins.push(Plugin {
        team: t,
        dir,
        name,
        servers,
        agents,
        commands,
        hooks,
        skills,
        lists_commands,
    });
}

/// Adds a folder of Loom agents with a shared skills library. Delegation
/// (a2a) only goes to agents created earlier in the team, so it never
/// forms a cycle.
fn loom_group(plan: &mut Plan, rng: &mut Rng, t: usize) {
    let gname = plan.other_name(rng, &["support", "ops", "intake", "research", "sales"]);
    let dir = format!("{}agents/{gname}/", plan.teams[t].prefix);
    let mut skills = Vec::new();
    for _ in 0..rng.range(2, 6) {
        skills.push(plan.add_skill(rng, &format!("{dir}skills/"), Vec::new()));
    }
    let names: Vec<String> = skills
        .iter()
        .map(|&s| plan.skills[s].name.clone())
        .collect();
    let n_agents = rng.range(2, 5);
    // Every library skill is included by some agent.
    let mut includes: Vec<Vec<String>> = vec![Vec::new(); n_agents];
    for (k, s) in names.iter().enumerate() {
        includes[k % n_agents].push(s.clone());
    }
    for inc in includes.iter_mut() {
        if inc.is_empty() || rng.chance(0.3) {
            let extra = rng.pick(&names).clone();
            if !inc.contains(&extra) {
                inc.push(extra);
            }
        }
    }
    for inc in includes {
        let name = plan.other_name(rng, LOOM);
        let earlier = plan.teams[t].looms.clone();
        let mut a2a = Vec::new();
        for _ in 0..rng.range(0, 2) {
            if earlier.is_empty() {
                break;
            }
            let to = plan.looms[*rng.pick(&earlier)].name.clone();
            if !a2a.contains(&to) {
                a2a.push(to);
            }
        }
        let i = plan.looms.len();
        let path = format!("{dir}{name}.agent.yaml");
        plan.file(path.clone(), FileKind::Loom(i));
        let mcp = if rng.chance(0.4) {
            vec![SERVERS[rng.below(SERVERS.len())].0]
        } else {
            Vec::new()
        };
        let max_iterations = rng.chance(0.8).then(|| rng.range(4, 20) as u32);
        // Sometimes a capped cycle: an earlier agent with `max_iterations`
        // delegates back to this one (skein must not report it).
        if max_iterations.is_some() && rng.chance(0.15) {
            let capped: Vec<usize> = earlier
                .iter()
                .copied()
                .filter(|&e| plan.looms[e].max_iterations.is_some())
                .collect();
            if !capped.is_empty() {
                let e = *rng.pick(&capped);
                if !a2a.contains(&plan.looms[e].name) {
                    a2a.push(plan.looms[e].name.clone());
                }
                plan.looms[e].a2a.push(name.clone());
            }
        }
        plan.looms.push(LoomAgent {
            path,
            name,
            library: Some(inc),
            a2a,
            max_iterations,
            mcp,
        });
        plan.teams[t].looms.push(i);
    }
    plan.groups.push(LoomGroup {
        dir,
        skills,
        orphans: Vec::new(),
    });
}

/// Adds a Bailey assistant with `lo..=hi` extra skills; returns its index.
pub fn assistant(plan: &mut Plan, rng: &mut Rng, t: usize, lo: usize, hi: usize) -> usize {
    let i = plan.assistants.len();
    let name = plan.other_name(rng, text::ASSISTANTS);
    let dir = format!("{}assistants/{name}/", plan.teams[t].prefix);
    plan.file(format!("{dir}assistant.json"), FileKind::Assistant(i));
    plan.file(format!("{dir}mcp.json"), FileKind::AssistantMcp(i));
    plan.file(format!("{dir}persona.md"), FileKind::Persona(i));
    let plugin = rng.chance(0.5);
    if plugin {
        plan.file(
            format!("{dir}.claude-plugin/plugin.json"),
            FileKind::AssistantPlugin(i),
        );
    }
    let mut idx: Vec<usize> = (0..SERVERS.len()).collect();
    rng.shuffle(&mut idx);
    let mut servers = Vec::new();
    let mut decls = Vec::new();
    for &c in idx.iter().take(rng.range(1, 3)) {
        let (server, reads, writes) = SERVERS[c];
        servers.push(Server {
            name: server.to_string(),
            catalog: c,
            remote: rng.chance(0.3),
        });
        let mut tools: Vec<String> = reads.iter().map(|s| s.to_string()).collect();
        let write_tools: Vec<String> = writes
            .iter()
            .filter(|_| rng.chance(0.7))
            .map(|s| s.to_string())
            .collect();
        tools.extend(write_tools.iter().cloned());
        decls.push(Decl {
            server: server.to_string(),
            tools,
            write_tools,
        });
    }
    // Skills grant only declared tools (and read-only built-ins).
    let grant = |rng: &mut Rng, decls: &[Decl]| -> Vec<String> {
        let mut v = vec!["Read".to_string()];
        if rng.chance(0.5) {
            v.push("Grep".into());
        }
        for d in decls {
            for tool in &d.tools {
                if rng.chance(0.5) {
                    v.push(format!("mcp__{}__{tool}", d.server));
                }
            }
        }
        v
    };
    let skills_dir = format!("{dir}skills/");
    let tools = grant(rng, &decls);
    let verb = *rng.pick(VERBS);
    let instructions = plan.add_named_skill(
        rng,
        &skills_dir,
        name.clone(),
        verb,
        "requests of the assistant".into(),
        tools,
    );
    let mut skills = Vec::new();
    for _ in 0..rng.range(lo, hi) {
        let tools = grant(rng, &decls);
        skills.push(plan.add_skill(rng, &skills_dir, tools));
    }
    let mut agents = Vec::new();
    let mut stems: Vec<&str> = text::AGENTS.to_vec();
    rng.shuffle(&mut stems);
    for stem in stems.into_iter().take(rng.range(0, 2)) {
        let tools = grant(rng, &decls);
        let k = agents.len();
        plan.file(
            format!("{dir}agents/{stem}.md"),
            FileKind::AssistantAgent(i, k),
        );
        agents.push(Part {
            name: stem.to_string(),
            tools,
        });
    }
    plan.assistants.push(Assistant {
        team: t,
        dir,
        name,
        servers,
        decls,
        instructions,
        skills,
        orphans: Vec::new(),
        agents,
        plugin,
        knowledge: rng.chance(0.4),
        touched: false,
    });
    i
}

/// Adds an OpenCode contract that applies some pack skills of team `t`.
pub fn contract(plan: &mut Plan, rng: &mut Rng, t: usize) {
    let task = plan.other_name(
        rng,
        &["export", "billing", "search", "auth", "import", "sync"],
    );
    let path = format!("{}orchestration/{task}/contract.json", plan.teams[t].prefix);
    let pack_skills: Vec<usize> = plan.teams[t]
        .packs
        .iter()
        .flat_map(|&p| plan.packs[p].skills.iter().copied())
        .collect();
    let mut skills = Vec::new();
    for _ in 0..rng.range(1, 4) {
        if pack_skills.is_empty() {
            break;
        }
        let s = plan.skills[*rng.pick(&pack_skills)].name.clone();
        if !skills.contains(&s) {
            skills.push(s);
        }
    }
    let retry = if rng.chance(0.8) {
        Retry::Capped(rng.range(1, 5) as u32)
    } else {
        Retry::None
    };
    let i = plan.contracts.len();
    plan.file(path.clone(), FileKind::Contract(i));
    plan.contracts.push(Contract {
        path,
        task,
        skills,
        retry,
        touched: false,
    });
}

/// Adds a Loopmaster manifest in folder `dir` (with trailing `/`).
pub fn manifest(plan: &mut Plan, rng: &mut Rng, dir: &str) {
    let id = plan.other_name(
        rng,
        &[
            "nightly-sweep",
            "dependency-bump",
            "weekly-digest",
            "stale-issues",
            "release-notes",
            "cost-report",
            "flaky-tests",
            "docs-freshness",
        ],
    );
    let path = format!("{dir}{id}.loop.yaml");
    let i = plan.manifests.len();
    plan.file(path.clone(), FileKind::Manifest(i));
    plan.manifests.push(Manifest { path, id });
}

/// Adds a documentation note (not an artifact) under `docs/notes/`.
pub fn doc(plan: &mut Plan, rng: &mut Rng) {
    let i = plan.docs.len();
    let path = format!("docs/notes/{}-{}-{i}.md", rng.pick(VERBS), rng.pick(NOUNS));
    plan.docs.push(path.clone());
    plan.file(path, FileKind::Doc(i));
}

/// The team's catalogue: every pack skill no loop stage runs is listed in an
/// outcome (so nothing in the packs is an orphan), plus a few that loops run.
fn catalogue(plan: &mut Plan, rng: &mut Rng, t: usize) {
    if plan.teams[t].packs.is_empty() {
        return;
    }
    let mut run: HashSet<&str> = HashSet::new();
    for &p in &plan.teams[t].packs {
        for &l in &plan.packs[p].loops {
            for s in &plan.loops[l].stages {
                run.extend(s.skills.iter().map(String::as_str));
            }
        }
    }
    let mut listed: Vec<String> = Vec::new();
    let mut extra: Vec<String> = Vec::new();
    for &p in &plan.teams[t].packs {
        for &s in &plan.packs[p].skills {
            let name = &plan.skills[s].name;
            if !run.contains(name.as_str()) {
                listed.push(name.clone());
            } else if rng.chance(0.05) {
                extra.push(name.clone());
            }
        }
    }
    listed.extend(extra);
    let mut outcomes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for chunk in listed.chunks(12) {
        let key = format!(
            "{}-the-{}-{}",
            rng.pick(VERBS),
            rng.pick(NOUNS),
            outcomes.len() + 1
        );
        outcomes.insert(key, chunk.to_vec());
    }
    let prefix = plan.teams[t].prefix.clone();
    plan.teams[t].outcomes = outcomes.into_iter().collect();
    plan.teams[t].catalogue = true;
    plan.file(format!("{prefix}catalogue.json"), FileKind::Catalogue(t));
}
