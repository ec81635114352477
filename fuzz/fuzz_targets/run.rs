//! Fuzz target: running any program that checks cleanly must end in success or a
//! located error, never a panic. Host loops and calls are bounded by a step budget;
//! programs that launch kernels are skipped, since kernel work has no budget (a
//! mutated launch can legitimately run for hours).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if text.contains("_do") {
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
    let opts = blazar_interp::Options { max_depth: 200, max_steps: 100_000, ..blazar_interp::Options::default() };
    let _ = blazar_interp::run(&loaded, ctx, opts);
});
