//! REF: references across files (DESIGN.md §6).

pub mod duplicate_gate_id;
