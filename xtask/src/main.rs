//! Project automation, run as `cargo xtask <task>` (the alias is in
//! `.cargo/config.toml`). One module per task; this file only dispatches.

mod analyze;
mod bless;
mod codegen;
mod fix_report;
mod grammar;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <task> [args]

tasks:
  analyze [PATH]   analyze a repository (default: .) as `skein check` does;
                   exit 0 when clean, 1 on error diagnostics, 2 on usage error
  bless [RULE...]  rewrite corpus/rules/*/*/expected.out (and expected.fixed)
                   from current output
                   (all rules, or the named ones); review the diff after
  codegen [--check]
                   write generated files (schemas/skein.toml.schema.json);
                   with --check, write nothing and exit 1 when one is stale
  gen-monorepo --files N --seed S --out DIR [--fault-rate R]
                   write a deterministic synthetic monorepo with injected
                   faults and DIR/faults.json, the diagnostics they must give
  bench-report [--sizes 1000,10000,100000] [--threads 1,2] [--runs 3]
               [--out BENCHMARKS.md] [--corpus DIR] [--install-peers] [--no-peer]
                   build the release binaries, measure skein end to end against
                   the read+parse floor and a peer linter (agnix; installed
                   with --install-peers), write BENCHMARKS.md
  fix-report [PATH]
                   on a temporary copy of PATH (default: ../shared/corpus/real),
                   count per rule the fixes offered and applied by --fix and
                   --fix --unsafe-fixes, and the findings before and after
  grammar [--write]
                   check that crates/tree-sitter-agentmd/src is what
                   `tree-sitter generate` makes of grammar.js (exit 1 when
                   stale, 2 without the CLI); --write regenerates it
  help             print this message
";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    let result = match task.as_deref() {
        Some("analyze") => analyze::run(&rest),
        Some("bless") => bless::run(&rest),
        Some("codegen") => codegen::run(&rest),
        Some("grammar") => grammar::run(&rest),
        Some("fix-report") => fix_report::run(&rest),
        Some("gen-monorepo") => xtask::gen_monorepo::run(&rest),
        Some("bench-report") => xtask::bench_report::run(&rest),
        Some("help" | "-h" | "--help") => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some(other) => {
            eprintln!("xtask: unknown task `{other}`\n\n{USAGE}");
            return ExitCode::from(2);
        }
        None => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
