//! FLOW: loop flow (DESIGN.md §5–§6).

pub mod duplicate_stage_id;
pub mod gate_without_blocked;
pub mod mechanical_gate_script;
pub mod one_sided_gate;
pub mod revise_to_not_earlier;
pub mod revise_without_target;
pub mod uncapped_cycle;
pub mod unknown_verdict;
pub mod unreachable_stage;
pub mod wildcard_outside_wrapper;
