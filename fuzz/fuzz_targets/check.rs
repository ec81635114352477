//! Fuzz target: parsing and name resolution (`blazar check`) must never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let loaded = blazar_interp::check("fuzz.q", text, None);
        let _ = blazar_diagnostics::render_all(&loaded.diagnostics, &loaded.sources);
    }
});
