//! PERM: tool grants and write permissions (DESIGN.md §5–§6).
