//! FLOW: loop flow (DESIGN.md §5–§6).

pub mod uncapped_cycle;
pub mod unreachable_stage;
