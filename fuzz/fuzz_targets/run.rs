//! Fuzz target: running any program that checks cleanly must end in success or a
//! located error, never a panic. Host loops, calls and kernel positions are bounded by
//! a step budget; loops inside kernels are not, so programs that launch kernels and
//! contain a loop keyword are skipped (a mutated kernel loop can run for hours).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if text.contains("_do") && ["while", "repeat", "for"].iter().any(|w| text.contains(w)) {
        return;
    }
    let loaded = blazar_interp::check("fuzz.q", text, None);
    if loaded.has_errors() {
        return;
    }
    let ctx = blazar_runtime::builtins::Ctx::new(
        blazar_runtime::Prec::Single,
        Box::new(std::io::sink()),
        std::env::temp_dir().join("blazar-fuzz-nonexistent"),
        "fuzz".into(),
    );
    let opts = blazar_interp::Options { max_depth: 200, max_steps: 100_000, backend: Some(blazar_interp::BackendRef::new(blazar_native::CpuBackend::default())), ..blazar_interp::Options::default() };
    let _ = blazar_interp::run(&loaded, ctx, opts);
});
