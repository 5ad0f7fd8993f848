//! Project automation for skein, shared by the `cargo xtask` binary and by
//! tests and benches: the synthetic monorepo generator ([`gen_monorepo`])
//! and the benchmark report ([`bench_report`]).

pub mod bench_report;
pub mod gen_monorepo;
