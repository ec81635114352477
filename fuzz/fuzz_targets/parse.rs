//! Fuzz target: the lexer and parser must never panic, whatever the input.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let (prog, diags) = blazar_syntax::parse(text, blazar_diagnostics::FileId(0));
        let _ = blazar_syntax::printer::print_program(&prog);
        let mut map = blazar_diagnostics::SourceMap::new();
        map.add("fuzz.q", text);
        let _ = blazar_diagnostics::render_all(&diags, &map);
    }
});
