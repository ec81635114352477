//! A tool for reading what the GPU would run, without a GPU: the CUDA source and the
//! PTX (NVRTC, `-arch=sm_90`) of every kernel a program launches, with the options a
//! large launch gets. Ignored by default; run as
//! `BZ_DUMP_Q=prog.q BZ_DUMP_OUT=dir BZ_DUMP_BLOCK=256,1,1 BZ_DUMP_COARSEN=8
//!  cargo test -p blazar-cuda --test ptx_dump -- --ignored`
//! (the program runs on the CPU to find its kernels: give it small sizes).

use blazar_codegen_c::cuda::{generate, CodegenOptions, NVRTC_OPTIONS};
use blazar_interp::{load, Options};
use blazar_runtime::builtins::Ctx;
use blazar_runtime::Prec;
use std::path::PathBuf;

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

#[test]
#[ignore]
fn dump_sources_and_ptx() {
    let Ok(q) = std::env::var("BZ_DUMP_Q") else {
        return;
    };
    let out = PathBuf::from(env_or("BZ_DUMP_OUT", "/tmp/bz_dump"));
    std::fs::create_dir_all(&out).expect("output folder");
    let q = PathBuf::from(q);
    let loaded = load(&q).expect("program");
    let dir = q.parent().map(PathBuf::from).unwrap_or_default();
    let ctx = Ctx::new(Prec::Single, Box::new(std::io::sink()), dir, "dump".into());
    let opts = Options {
        backend: Some(blazar_interp::BackendRef::new(
            blazar_native::CpuBackend::default(),
        )),
        ..Options::default()
    };
    let (_, kernels) = blazar_interp::run_collect(&loaded, ctx, opts);
    let block: Vec<u32> = env_or("BZ_DUMP_BLOCK", "256,1,1")
        .split(',')
        .map(|s| s.trim().parse().expect("block"))
        .collect();
    let coarsen: u32 = env_or("BZ_DUMP_COARSEN", "1").parse().expect("coarsen");
    for k in kernels {
        let o = CodegenOptions {
            file_name: "k.q".into(),
            line_directives: false,
            block: Some([block[0], block[1], block[2]]),
            coarsen,
            noalias: true,
            guard: false,
            same_extents: env_or("BZ_DUMP_SAME", "1") == "1",
            mirror: !k.outputs.is_empty(),
        };
        let g = generate(&k, &o);
        let base = out.join(&g.entry);
        std::fs::write(base.with_extension("cu"), &g.source).expect("write");
        let mut options: Vec<String> = NVRTC_OPTIONS.iter().map(|s| s.to_string()).collect();
        options.push("-lineinfo".into());
        // Extra NVRTC options, space-separated (`BZ_DUMP_NVRTC=-maxrregcount=32`).
        options.extend(
            env_or("BZ_DUMP_NVRTC", "")
                .split_whitespace()
                .map(String::from),
        );
        let copts = cudarc::nvrtc::CompileOptions {
            arch: Some("sm_90"),
            options,
            name: Some(format!("{}.cu", g.entry)),
            ..Default::default()
        };
        match cudarc::nvrtc::compile_ptx_with_opts(&g.source, copts) {
            Ok(ptx) => std::fs::write(base.with_extension("ptx"), ptx.to_src()).expect("write"),
            Err(e) => eprintln!("{}: {e:?}", g.entry),
        }
        eprintln!("dumped {}", base.display());
    }
}
