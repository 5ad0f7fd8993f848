//! Fuzz target: the markdown front (parse, Document, decode + schema, render).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    skein_fuzz::check_front(skein_fuzz::Front::Markdown, data);
});
