//! Words and prose for generated artifacts: names, one-line descriptions
//! that are safe as plain YAML scalars (no `: `, no ` #`, no leading
//! indicator), and Markdown bodies of a requested size.

use super::rng::Rng;
use std::fmt::Write;

/// Verbs that start skill names and descriptions.
pub const VERBS: &[&str] = &[
    "review",
    "write",
    "triage",
    "summarize",
    "plan",
    "draft",
    "audit",
    "refactor",
    "migrate",
    "deploy",
    "monitor",
    "profile",
    "document",
    "test",
    "validate",
    "design",
    "estimate",
    "prioritize",
    "label",
    "release",
    "rollback",
    "benchmark",
    "debug",
    "analyze",
    "model",
    "forecast",
    "onboard",
    "explain",
    "translate",
    "format",
    "lint",
    "scan",
    "harden",
    "backfill",
    "reconcile",
    "archive",
    "publish",
    "schedule",
    "escalate",
    "split",
];

/// Nouns that end skill names.
pub const NOUNS: &[&str] = &[
    "diff",
    "tests",
    "issue",
    "release",
    "schema",
    "incident",
    "runbook",
    "api",
    "docs",
    "changelog",
    "dependency",
    "migration",
    "query",
    "dashboard",
    "alert",
    "contract",
    "ticket",
    "roadmap",
    "spec",
    "prd",
    "story",
    "budget",
    "invoice",
    "report",
    "survey",
    "persona",
    "journey",
    "pipeline",
    "cluster",
    "service",
    "endpoint",
    "policy",
    "backlog",
    "sprint",
    "retro",
    "postmortem",
    "metric",
    "experiment",
    "dataset",
    "notebook",
];

/// Qualifiers that make a second tier of skill names (`review-api-diff`).
pub const QUALIFIERS: &[&str] = &[
    "api", "data", "mobile", "web", "cloud", "security", "cost", "legal", "sales", "infra",
    "frontend", "backend", "growth", "ops", "billing",
];

/// Team names (folders under `teams/`).
pub const TEAMS: &[&str] = &[
    "platform",
    "payments",
    "search",
    "growth",
    "infra",
    "mobile",
    "data",
    "security",
    "support",
    "identity",
    "checkout",
    "ml",
    "devex",
    "finance",
    "legal",
    "marketing",
    "research",
    "sre",
];

/// Pack names (folders under `packs/`), besides `core`.
pub const PACKS: &[&str] = &[
    "dev-team",
    "sre-oncall",
    "product-manager",
    "solution-architect",
    "career",
    "design",
    "ai-engineering",
    "api-builder",
    "converters",
    "research",
    "trackers",
    "data-analytics",
    "grc",
    "infra-as-code",
    "stakeholder-comms",
    "experience-design",
    "skill-engineering",
    "qa",
];

/// Loop names; single words, so they never equal a skill name (skill names
/// have at least two words).
pub const LOOPS: &[&str] = &[
    "build",
    "release",
    "discover",
    "design",
    "operate",
    "apply",
    "triage",
    "onboard",
    "audit",
    "migrate",
    "launch",
    "harden",
    "investigate",
    "publish",
    "forecast",
    "reconcile",
];

/// Stage ids of skilldrop loops (unique within a loop).
pub const STAGES: &[&str] = &[
    "shape",
    "draft",
    "implement",
    "verify",
    "review",
    "decide",
    "plan",
    "research",
    "test",
    "package",
    "ship",
    "measure",
    "report",
    "approve",
    "merge",
    "handoff",
    "reproduce",
    "fix",
    "collect",
    "score",
];

/// Plugin names.
pub const PLUGINS: &[&str] = &[
    "reviewer",
    "helpdesk",
    "deploy-kit",
    "observability",
    "docs-writer",
    "test-runner",
    "security-scan",
    "db-tools",
    "release-manager",
    "code-search",
    "pr-assistant",
    "incident-bot",
    "cost-watch",
    "api-designer",
    "design-system",
    "feature-flags",
];

/// Plugin agent names (`agents/<name>.md`).
pub const AGENTS: &[&str] = &[
    "code-reviewer",
    "test-auditor",
    "doc-writer",
    "debugger",
    "architect",
    "security-auditor",
    "perf-tuner",
    "release-captain",
    "triager",
    "explainer",
    "migration-planner",
    "dependency-bot",
];

/// Command names (`commands/<name>.md`).
pub const COMMANDS: &[&str] = &[
    "review", "ship", "plan", "fix", "explain", "test", "deploy", "status", "rollback", "bench",
    "lint", "docs",
];

/// Loom agent name stems.
pub const LOOM: &[&str] = &[
    "triage",
    "oncall",
    "escalation",
    "router",
    "planner",
    "researcher",
    "summarizer",
    "reviewer",
    "scheduler",
    "analyst",
    "concierge",
    "dispatcher",
];

/// Assistant name stems (Bailey).
pub const ASSISTANTS: &[&str] = &[
    "shop-support",
    "it-helpdesk",
    "hr-concierge",
    "sales-desk",
    "travel-desk",
    "legal-intake",
    "facilities",
    "finance-desk",
    "onboarding-buddy",
    "customer-care",
];

/// MCP servers with their read and write tools, as assistants declare them.
pub const SERVERS: &[(&str, &[&str], &[&str])] = &[
    (
        "gmail",
        &["search_threads", "get_thread"],
        &["send_email", "create_draft"],
    ),
    (
        "crm",
        &["lookup_customer", "list_orders"],
        &["update_customer"],
    ),
    (
        "calendar",
        &["list_events", "find_free_time"],
        &["create_event"],
    ),
    ("drive", &["search_files", "read_file"], &["upload_file"]),
    (
        "jira",
        &["search_issues", "get_issue"],
        &["create_issue", "add_comment"],
    ),
    (
        "slack",
        &["search_messages", "read_channel"],
        &["post_message"],
    ),
    (
        "github",
        &["get_pull_request", "list_commits"],
        &["create_review"],
    ),
    (
        "sentry",
        &["get_event", "search_errors"],
        &["resolve_issue"],
    ),
    (
        "postgres",
        &["run_select", "describe_table"],
        &["run_migration"],
    ),
    ("notion", &["search_pages", "read_page"], &["create_page"]),
    (
        "zendesk",
        &["search_tickets", "get_ticket"],
        &["reply_ticket"],
    ),
    (
        "stripe",
        &["list_charges", "get_customer"],
        &["issue_refund"],
    ),
];

const ADJECTIVES: &[&str] = &[
    "small",
    "risky",
    "urgent",
    "stale",
    "flaky",
    "public",
    "internal",
    "shared",
    "legacy",
    "new",
    "failing",
    "slow",
    "critical",
    "optional",
    "generated",
];

const OBJECTS: &[&str] = &[
    "pull request",
    "test suite",
    "release branch",
    "service owner",
    "error budget",
    "runbook",
    "changelog entry",
    "schema migration",
    "feature flag",
    "dashboard",
    "on-call rotation",
    "dependency update",
    "acceptance criterion",
    "design document",
    "customer ticket",
    "rollback plan",
    "cost report",
    "API endpoint",
    "data contract",
    "staging environment",
];

const PEOPLE: &[&str] = &[
    "the reviewer",
    "the on-call engineer",
    "the product manager",
    "the release captain",
    "the author",
    "the service owner",
    "a new teammate",
    "the security lead",
    "the customer",
    "the maintainer",
];

const SENTENCES: &[&str] = &[
    "Read the {o} before changing anything, and note what {p} already decided.",
    "When the {o} is {a}, stop and ask {p} which outcome matters most.",
    "List every {o} the change touches, then group them by owner.",
    "Prefer one {a} change per {o} over a large one that mixes concerns.",
    "Record what was tried, what failed, and what {p} should look at first.",
    "Never edit the {o} to make a check pass; fix the cause instead.",
    "If the {o} cannot be found, say so and name the missing input.",
    "Compare the {o} with the last known good version and explain the difference.",
    "Keep the summary short enough that {p} can read it in one minute.",
    "A {a} {o} is the most common reason this step takes longer than planned.",
    "Link each finding to the {o} it comes from, so it can be checked later.",
    "Ask before running anything that changes a {o} outside this repository.",
    "Write the result in plain language, then add the details for {p}.",
    "Check that every {o} has an owner and a date, and flag the ones without.",
    "Split the work when the {o} grows beyond what one review can hold.",
    "Escalate to {p} when two {o}s disagree and neither is clearly wrong.",
    "Repeat the check after each fix, never only at the end.",
    "Treat a {a} {o} as a finding of its own, not as noise.",
    "Quote the exact line of the {o} you mean instead of paraphrasing it.",
    "Stop after three rounds and report what did not converge.",
    "The output is a list sorted by severity, most severe first.",
    "Use the project's own conventions for the {o}, even when they differ from yours.",
    "Measure before and after, and keep the numbers with the {o}.",
    "Say which parts of the {o} you did not read, so nobody assumes you did.",
];

const COMMANDS_SH: &[&str] = &[
    "git diff --stat origin/main...HEAD",
    "git log --oneline -20",
    "cargo test --workspace",
    "npm run lint",
    "pytest -q tests/",
    "make check",
    "kubectl get pods -n production",
    "terraform plan -out plan.bin",
    "gh pr view --json files",
    "jq '.items | length' report.json",
    "rg --files-with-matches TODO src/",
    "docker compose up -d db",
];

/// A uniformly chosen word of `list`.
fn word(rng: &mut Rng, list: &[&'static str]) -> &'static str {
    list[rng.below(list.len())]
}

fn fill(template: &str, rng: &mut Rng, out: &mut String) {
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let key = &rest[i + 1..i + 2];
        match key {
            "o" => out.push_str(word(rng, OBJECTS)),
            "a" => out.push_str(word(rng, ADJECTIVES)),
            "p" => out.push_str(word(rng, PEOPLE)),
            _ => out.push_str(key),
        }
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
}

/// One sentence of prose (no `:` and no `#`, so also safe in plain YAML).
pub fn sentence(rng: &mut Rng, out: &mut String) {
    let t = *rng.pick(SENTENCES);
    fill(t, rng, out);
}

/// `n` sentences separated by spaces.
pub fn sentences(rng: &mut Rng, n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        if i > 0 {
            out.push(' ');
        }
        sentence(rng, &mut out);
    }
    out
}

/// A description for an artifact about `subject`: what it does, then when to
/// use it (the Agent Skills convention), between about 100 and 700
/// characters; plain-YAML safe.
pub fn description(rng: &mut Rng, verb: &str, subject: &str) -> String {
    let mut out = String::new();
    let v = capitalize(verb);
    let _ = write!(
        out,
        "{v}s the {subject} for {}. Use when the user asks to {verb} a {subject}, or when a loop stage names this skill.",
        rng.pick(PEOPLE)
    );
    let extra = rng.below(5);
    for _ in 0..extra {
        out.push(' ');
        sentence(rng, &mut out);
    }
    out
}

/// The first letter in upper case.
pub fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A title from a kebab-case name (`review-diff` -> `Review diff`).
pub fn title(name: &str) -> String {
    capitalize(&name.replace('-', " "))
}

/// A Markdown body of about `target` bytes (at least one section): headings,
/// paragraphs, numbered steps, a fenced shell block and a table, as real
/// skill, agent and command bodies have.
pub fn markdown_body(rng: &mut Rng, heading: &str, target: usize) -> String {
    let mut out = String::with_capacity(target + 512);
    let _ = writeln!(out, "# {heading}\n");
    paragraph(rng, &mut out);
    const SECTIONS: &[&str] = &[
        "When to use",
        "Inputs",
        "Steps",
        "Example",
        "Output",
        "Pitfalls",
        "Verification",
        "Escalation",
        "Notes",
    ];
    let mut k = rng.below(SECTIONS.len());
    while out.len() < target {
        let section = SECTIONS[k % SECTIONS.len()];
        k += 1;
        let _ = writeln!(out, "## {section}\n");
        match rng.below(5) {
            0 => {
                for i in 1..=rng.range(3, 7) {
                    let _ = write!(out, "{i}. ");
                    sentence(rng, &mut out);
                    out.push('\n');
                }
                out.push('\n');
            }
            1 => {
                out.push_str("```bash\n");
                for _ in 0..rng.range(2, 5) {
                    out.push_str(word(rng, COMMANDS_SH));
                    out.push('\n');
                }
                out.push_str("```\n\n");
                paragraph(rng, &mut out);
            }
            2 => {
                out.push_str("| Field | Meaning |\n|---|---|\n");
                for _ in 0..rng.range(3, 6) {
                    let _ = writeln!(
                        out,
                        "| `{}` | The {} of the {}. |",
                        rng.pick(NOUNS),
                        rng.pick(ADJECTIVES),
                        rng.pick(OBJECTS)
                    );
                }
                out.push('\n');
            }
            3 => {
                for _ in 0..rng.range(3, 6) {
                    out.push_str("- ");
                    sentence(rng, &mut out);
                    out.push('\n');
                }
                out.push('\n');
            }
            _ => {
                paragraph(rng, &mut out);
                paragraph(rng, &mut out);
            }
        }
    }
    out
}

/// One paragraph (3 to 6 sentences) and a blank line.
pub fn paragraph(rng: &mut Rng, out: &mut String) {
    for i in 0..rng.range(3, 6) {
        if i > 0 {
            out.push(' ');
        }
        sentence(rng, out);
    }
    out.push_str("\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_is_plain_yaml_safe() {
        let mut rng = Rng::new(1);
        for _ in 0..200 {
            let d = description(&mut rng, "review", "diff");
            assert!(!d.contains(": ") && !d.contains('#'), "{d}");
            assert!(d.len() <= 1024);
        }
    }

    #[test]
    fn bodies_reach_their_target() {
        let mut rng = Rng::new(2);
        let b = markdown_body(&mut rng, "Review diff", 4000);
        assert!(b.len() >= 4000 && b.len() < 4000 + 1500, "{}", b.len());
        assert!(b.starts_with("# Review diff\n\n"));
    }
}
