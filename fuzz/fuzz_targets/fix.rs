//! Fuzz target: a small repository (files split at `#>> PATH` lines), every
//! fix offered applied (issue #15): no file that parsed stops parsing.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    skein_fuzz::check_fixes(data);
});
