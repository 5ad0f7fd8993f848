//! Fuzz target: a small repository (files split at `#>> PATH` lines) through
//! `skein::check_files`, then every renderer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    skein_fuzz::check_repo(data);
});
