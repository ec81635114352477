//! Every kernel of the golden suite (`tests/programs/kernels/*.q`) through the CUDA
//! code generator, and through NVRTC (`-arch=sm_90`) when libnvrtc can be loaded.
//!
//! Without libnvrtc the compile check prints `SKIP nvrtc: libnvrtc not found` and
//! passes; the generator checks (non-empty, deterministic output) always run.

#[path = "../../blazar-kir/tests/common/mod.rs"]
mod common;
mod exhaustive;

use blazar_codegen_c::cuda::{generate, CodegenOptions, Generated, NVRTC_OPTIONS};
use blazar_interp::{load, Options};
use blazar_kir::Kernel;
use blazar_runtime::builtins::Ctx;
use blazar_runtime::Prec;
use std::path::{Path, PathBuf};

/// `(file, kernel)` for every kernel specialisation the golden kernel programs launch.
fn golden_kernels() -> Vec<(PathBuf, Kernel)> {
    kernels_under("tests/programs/kernels")
}

/// `(file, kernel)` for every kernel specialisation the programs in `sub` (a folder of
/// the repository) launch.
fn kernels_under(sub: &str) -> Vec<(PathBuf, Kernel)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("golden kernel directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "q"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let Ok(loaded) = load(&f) else { continue };
        if loaded.has_errors() {
            continue;
        }
        let ctx = Ctx::new(
            Prec::Single,
            Box::new(std::io::sink()),
            dir.clone(),
            "golden".into(),
        );
        let (_, kernels) = blazar_interp::run_collect(&loaded, ctx, cpu());
        out.extend(kernels.into_iter().map(|k| (f.clone(), k)));
    }
    out
}

/// The kernel for any block shape, coarsened by 4 with `__restrict__` pointers, a
/// ragged-grid guard where the kernel allows it and outputs handed over through mapped
/// memory: the golden suite's `nvrtc` backend compiles the shapes its
/// (small) launches choose, this test the large-launch variants of every kernel.
fn gen(file: &Path, k: &Kernel) -> Generated {
    let opts = CodegenOptions {
        file_name: file
            .file_name()
            .map_or("kernel.q".into(), |n| n.to_string_lossy().into_owned()),
        line_directives: true,
        block: None,
        coarsen: 4,
        vector: 1,
        noalias: true,
        guard: true,
        same_extents: true,
        mirror: true,
    };
    generate(k, &opts)
}

/// The row-vector variant: a fixed block, exact grid, 4 positions per thread along
/// the row and 2 block rows per thread.
fn gen_vector(file: &Path, k: &Kernel) -> Generated {
    let opts = CodegenOptions {
        file_name: file
            .file_name()
            .map_or("kernel.q".into(), |n| n.to_string_lossy().into_owned()),
        line_directives: true,
        block: Some([32, 4, 2]),
        coarsen: 2,
        vector: 4,
        noalias: true,
        guard: false,
        same_extents: true,
        mirror: true,
    };
    generate(k, &opts)
}

#[test]
fn golden_sources_are_nonempty_and_deterministic() {
    let kernels = golden_kernels();
    assert!(kernels.len() >= 50, "only {} kernels", kernels.len());
    for (f, k) in &kernels {
        let a = gen(f, k);
        let b = gen(f, k);
        assert!(!a.source.is_empty());
        assert!(a
            .source
            .contains(&format!("void __launch_bounds__(1024) {}(", a.entry)));
        assert_eq!(a, b, "{}: {} is not deterministic", f.display(), k.name);
    }
}

/// Compiles `src` to PTX; `Err(log)` on failure.
fn nvrtc(src: &str, name: &str) -> Result<(), String> {
    let mut options: Vec<String> = NVRTC_OPTIONS.iter().map(|s| s.to_string()).collect();
    options.push("-lineinfo".into());
    let opts = cudarc::nvrtc::CompileOptions {
        arch: Some("sm_90"),
        options,
        name: Some(format!("{name}.cu")),
        ..Default::default()
    };
    match cudarc::nvrtc::compile_ptx_with_opts(src, opts) {
        Ok(_) => Ok(()),
        Err(cudarc::nvrtc::CompileError::CompileError { log, .. }) => {
            Err(log.to_string_lossy().into_owned())
        }
        Err(e) => Err(format!("{e:?}")),
    }
}

#[test]
fn golden_kernels_compile_with_nvrtc() {
    // SAFETY: only tries to dlopen libnvrtc under its usual names; no other effect.
    let present = unsafe { cudarc::nvrtc::sys::is_culib_present() };
    if !present {
        println!("SKIP nvrtc: libnvrtc not found");
        eprintln!("SKIP nvrtc: libnvrtc not found");
        return;
    }
    let mut kernels = golden_kernels();
    let hand = Path::new("hand-built.q");
    let every = exhaustive::kernel();
    assert_eq!(blazar_kir::verify::verify(&every), Ok(()));
    for k in [
        common::gamma(),
        common::reduction(),
        common::with_output(),
        every,
    ] {
        kernels.push((hand.to_path_buf(), k));
    }
    let mut jobs: Vec<(String, Generated)> = kernels
        .iter()
        .map(|(f, k)| {
            let name = format!("{}:{}", f.file_stem().unwrap().to_string_lossy(), k.name);
            (name, gen(f, k))
        })
        .collect();
    // The row-vector variant (`cuda/vector.rs`) of every kernel that takes it.
    let vectors: Vec<(String, Generated)> = kernels
        .iter()
        .filter_map(|(f, k)| {
            let g = gen_vector(f, k);
            let name = format!(
                "{}:{} (rows)",
                f.file_stem().unwrap().to_string_lossy(),
                k.name
            );
            (g.vector == 4).then_some((name, g))
        })
        .collect();
    assert!(
        vectors.len() >= 20,
        "only {} row-vector kernels",
        vectors.len()
    );
    jobs.extend(vectors);
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get().min(8));
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let jobs = &jobs;
                s.spawn(move || {
                    let mut bad = Vec::new();
                    for (name, g) in jobs.iter().skip(t).step_by(threads) {
                        if let Err(log) = nvrtc(&g.source, &g.entry) {
                            bad.push(format!("== {name} ({})\n{log}", g.entry));
                        }
                    }
                    bad
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    println!(
        "nvrtc: {} of {} kernels (golden suite and hand-built) compiled for sm_90",
        jobs.len() - failures.len(),
        jobs.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The kernels of one program written to a temporary file.
#[test]
fn band_variants_of_split_kernels_compile_with_nvrtc() {
    // The kernels a run over several GPUs splits by rows run as their band variant
    // (`pos[0]` offset by a parameter): those of the multi-device programs and
    // benchmarks through the generator and NVRTC.
    let mut kernels = kernels_under("tests/programs/multidevice");
    // benches/multi's kernels, at a small size.
    let common = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/multi/common.q"),
    )
    .expect("benches/multi/common.q");
    let src = format!(
        "{common}\nx = make(32, 32, 37, 11, 0)\nu = denoise(x) + smooth(x)\nprint sum(u)\n"
    );
    let bench = Path::new("benches-multi.q");
    kernels.extend(
        kernels_of("benches-multi.q", &src)
            .into_iter()
            .map(|k| (bench.to_path_buf(), k)),
    );
    assert!(kernels.len() >= 8, "only {} kernels", kernels.len());
    // SAFETY: only tries to dlopen libnvrtc under its usual names; no other effect.
    let present = unsafe { cudarc::nvrtc::sys::is_culib_present() };
    for (f, k) in &kernels {
        let v = blazar_multi::variant::band_variant(k);
        assert_eq!(blazar_kir::verify::verify(&v), Ok(()), "{}", k.name);
        let g = gen(f, &v);
        assert_eq!(v.params.len(), k.params.len() + 1, "{}", k.name);
        assert_ne!(
            g.source,
            gen(f, k).source,
            "{}: the band's row is used",
            k.name
        );
        if present {
            if let Err(log) = nvrtc(&g.source, &g.entry) {
                panic!("{}: band variant of {}:\n{log}", f.display(), k.name);
            }
        }
    }
    if !present {
        println!("SKIP nvrtc: libnvrtc not found");
    }
}

fn kernels_of(name: &str, src: &str) -> Vec<Kernel> {
    let dir = std::env::temp_dir().join(format!("blazar-codegen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let file = dir.join(name);
    std::fs::write(&file, src).expect("write the program");
    let loaded = load(&file).expect("loads");
    let ctx = Ctx::new(Prec::Single, Box::new(std::io::sink()), dir, "t".into());
    let (r, kernels) = blazar_interp::run_collect(&loaded, ctx, cpu());
    assert!(r.is_ok(), "{name} runs on the CPU");
    kernels
}

#[test]
fn a_fixed_block_decides_block_asserts_and_shared_extents() {
    let src = "\
function [] = __kernel__ tree(x : vec, y : vec, pos : int, blkpos : int, blkdim : int)
    assert(blkdim <= 1024)
    part = shared(blkdim)
    part[blkpos] = x[pos]
    syncthreads
    if blkpos == 0
        y[pos] = part[blkdim - 1]
    endif
endfunction
x = ones(512)
y = zeros(512)
parallel_do([[512], [256]], x, y, tree)
";
    let k = &kernels_of("tree.q", src)[0];
    let with = |block| {
        let opts = CodegenOptions {
            block,
            ..CodegenOptions::default()
        };
        generate(k, &opts)
    };
    let fixed = with(Some([256, 1, 1]));
    assert!(
        !fixed.can_fail,
        "the assert holds and the shared array fits"
    );
    let body = &fixed.source[fixed.source.find("---- kernel").expect("kernel text")..];
    assert!(!body.contains("bz_fail("), "{body}");
    assert_eq!(fixed.shared_bytes, Some(256 * 4), "one static shared array");
    let any = with(None);
    assert!(
        any.can_fail,
        "for any block the assert and the allocation may fail"
    );
    assert_eq!(any.shared_bytes, None);
    let large = with(Some([2048, 1, 1]));
    assert!(large.can_fail, "an assert that does not hold stays");
}

#[test]
fn checked_accesses_record_their_line_and_column() {
    // Two 'checked reads on line 2, the second past column 2048 (its packed place is
    // negative as the record's i32), and a 'checked store: each access passes its own
    // place to `bz_idx`, and the source compiles.
    let pad = " ".repeat(2100);
    let src = format!(
        "\
function [] = __kernel__ two(x : vec'checked, y : vec'checked, pos : int)
    y[pos] = x[pos] +{pad}x[max(pos - 1, 0)]
end
parallel_do(8, ones(8), zeros(8), two)
"
    );
    let line = src.lines().nth(1).expect("line 2");
    let col = |s: &str| line.find(s).expect("the access") as u32 + 1;
    let k = &kernels_of("columns.q", &src)[0];
    let g = generate(k, &CodegenOptions::default());
    let body = &g.source[g.source.find("---- kernel").expect("kernel text")..];
    for c in [col("x[pos]"), col("x[max"), col("y[pos]")] {
        let at = blazar_kir::Loc::new(2, c).record(2) as i32;
        assert!(
            body.contains(&format!("bz_idx<4>(bz_e, {at}, ")),
            "the access at column {c} records {at}:\n{body}"
        );
    }
    assert!(
        col("x[max") > 2048,
        "the second read's place prints negative"
    );
    // SAFETY: only tries to dlopen libnvrtc under its usual names; no other effect.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        println!("SKIP nvrtc: libnvrtc not found");
        return;
    }
    nvrtc(&g.source, "columns").expect("compiles");
}

/// Options that run kernels on the CPU backend (the SIMT interpreter).
fn cpu() -> Options {
    Options {
        backend: Some(blazar_interp::BackendRef::new(
            blazar_native::CpuBackend::default(),
        )),
        ..Options::default()
    }
}
