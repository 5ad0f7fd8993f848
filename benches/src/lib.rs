//! Benchmarks for skein.
