//! What the CUDA printer makes of three kinds of kernels, checked in the source and,
//! where libnvrtc loads, in the PTX NVRTC makes of it (`-arch=sm_90`):
//!
//! - `min` and `max` of floats never become the hardware's `min.f32` / `max.f32`
//!   (which do not keep the first of two equal zeros, as the CPU does);
//! - the grid-stride loop of a fused reduction runs batches whose loads come first;
//! - a coarsened kernel with outputs runs a chunk of block rows sized by its grid.
//!
//! Without libnvrtc the PTX checks print `SKIP nvrtc: libnvrtc not found`.

use blazar_codegen_c::cuda::{generate, CodegenOptions, Generated, NVRTC_OPTIONS};
use blazar_interp::{load, Options};
use blazar_kir::Kernel;
use blazar_runtime::builtins::Ctx;
use blazar_runtime::Prec;

/// The kernels a program launches on the CPU, every array expression fused.
fn kernels_of(name: &str, src: &str, prec: Prec) -> Vec<Kernel> {
    let cpu = blazar_interp::BackendRef::new(blazar_native::CpuBackend::default());
    let (ok, kernels) = kernels_on(name, src, prec, cpu);
    assert!(ok, "{name} runs on the CPU");
    kernels
}

/// The kernels launched on `backend` (which may leave them to nobody: then the run
/// stops at the first, which is still collected), and whether the run succeeded.
fn kernels_on(
    name: &str,
    src: &str,
    prec: Prec,
    backend: blazar_interp::BackendRef,
) -> (bool, Vec<Kernel>) {
    let dir = std::env::temp_dir().join(format!("blazar-shapes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let file = dir.join(name);
    std::fs::write(&file, src).expect("write the program");
    let loaded = load(&file).expect("loads");
    let ctx = Ctx::new(prec, Box::new(std::io::sink()), dir, "t".into());
    let opts = Options {
        backend: Some(backend),
        fuse_min: Some(0),
        ..Options::default()
    };
    let (r, kernels) = blazar_interp::run_collect(&loaded, ctx, opts);
    (r.is_ok(), kernels)
}

fn gen(k: &Kernel, block: [u32; 3], coarsen: u32) -> Generated {
    let opts = CodegenOptions {
        file_name: "shapes.q".into(),
        line_directives: false,
        block: Some(block),
        coarsen,
        vector: 1,
        noalias: true,
        guard: false,
        same_extents: false,
        mirror: false,
    };
    generate(k, &opts)
}

/// The PTX of `g`, or `None` without libnvrtc.
fn ptx(g: &Generated) -> Option<String> {
    // SAFETY: only tries to dlopen libnvrtc under its usual names; no other effect.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        println!("SKIP nvrtc: libnvrtc not found");
        return None;
    }
    let opts = cudarc::nvrtc::CompileOptions {
        arch: Some("sm_90"),
        options: NVRTC_OPTIONS.iter().map(|s| s.to_string()).collect(),
        name: Some(format!("{}.cu", g.entry)),
        ..Default::default()
    };
    match cudarc::nvrtc::compile_ptx_with_opts(&g.source, opts) {
        Ok(p) => Some(p.to_src()),
        Err(e) => panic!("{} does not compile: {e:?}", g.entry),
    }
}

/// PTX lines that are a float min or max instruction.
fn float_min_max(ptx: &str) -> Vec<String> {
    ptx.lines()
        .map(str::trim)
        .filter(|l| {
            (l.starts_with("min.") || l.starts_with("max."))
                && (l.contains(".f32") || l.contains(".f64"))
        })
        .map(String::from)
        .collect()
}

#[test]
fn float_min_and_max_are_never_the_hardware_instruction() {
    // Constants of either sign on either side (where the NaN test of a constant folds
    // away and NVRTC used to make the select a `min.f32`), two arrays, a scalar
    // parameter, and the reductions (whose block combine and atomic use them too).
    let src = "\
x = zeros(64)
y = zeros(64)
for i = 0..63
    x[i] = [-0.0, 0.0, 1, 0/0][mod(i, 4)]
    y[i] = [0.0, -0.0, 0/0, 2][mod(i, 4)]
endfor
c = -0.0
a = max(x, 0) + min(0, x) + max(-0.0, x) + min(x, -0.0) + min(x, y) + max(y, x) + min(x, c)
print sum(a), min(x), max(y)
";
    for prec in [Prec::Single, Prec::Double] {
        let kernels = kernels_of("minmax.q", src, prec);
        assert!(kernels.len() >= 3, "{} kernels", kernels.len());
        let mut spelled = 0;
        for k in &kernels {
            let g = gen(k, [64, 1, 1], 1);
            let body = &g.source[g.source.find("---- kernel").expect("kernel text")..];
            spelled += body.matches("bz_fmin").count() + body.matches("bz_fmax").count();
            if let Some(p) = ptx(&g) {
                let bad = float_min_max(&p);
                assert!(bad.is_empty(), "{}: {bad:?}", k.name);
                assert!(p.contains("selp.f"), "{}: the select stays", k.name);
            }
        }
        assert!(spelled >= 7, "min/max spelled {spelled} times");
    }
}

#[test]
fn fused_reductions_issue_the_loads_of_four_iterations_first() {
    let src = "\
function e = pipeline(x)
    y = 255*(x/255).^0.45
    t = y > 128
    e = sum(t .* y)
endfunction
x = zeros(512, 512, 3)
for i = 0..511
    x[i, :, :] = mod(i * 37, 256)
endfor
print pipeline(x) > 0
";
    // (Large enough that the reduction is a grid-stride loop.)
    // The CPU runs reductions one element per thread; the GPU's backend asks for a
    // grid stride (`Backend::grid_stride_reductions`): NVRTC's checking backend.
    // SAFETY: only tries to dlopen libnvrtc under its usual names; no other effect.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        println!("SKIP nvrtc: libnvrtc not found");
        return;
    }
    let check = blazar_cuda::NvrtcCheck::new("pipeline.q").expect("NVRTC");
    let backend = blazar_interp::BackendRef::new(check);
    let (_, kernels) = kernels_on("pipeline.q", src, Prec::Single, backend);
    let k = kernels
        .iter()
        .find(|k| !k.outputs.is_empty())
        .expect("the fused reduction");
    let g = gen(k, [256, 1, 1], 1);
    let s = &g.source;
    // One distinct load (`x` at the loop's index, read twice in the expression), for
    // each of the four iterations, before the first iteration's arithmetic.
    let loads: Vec<&str> = s
        .lines()
        .filter(|l| l.contains("const auto bz_h"))
        .collect();
    assert_eq!(loads.len(), 4, "{s}");
    let batch = s.find(">= 4; bz_n").expect("a batch loop");
    let first_use = s[batch..].find("bz_pow").expect("the arithmetic") + batch;
    let last_load = s.rfind("const auto bz_h").expect("loads");
    assert!(last_load < first_use, "loads come first");
    assert!(s.contains("#pragma unroll 1"), "the rest one by one");
    if let Some(p) = ptx(&g) {
        // Four global loads issued before the first division's check.
        assert!(p.matches("ld.global.nc").count() >= 5, "{p}");
    }
}

#[test]
fn a_loop_that_stores_issues_loads_ahead_only_without_aliases() {
    let src = "\
function [] = __kernel__ shift(x : vec, y : vec, n : int, pos : int)
    for i = pos..64..n-1
        y[i] = sqrt(x[i]) + 1
    endfor
endfunction
x = ones(256)
y = zeros(256)
parallel_do(64, x, y, 256, shift)
print sum(y)
";
    let k = &kernels_of("stores.q", src, Prec::Single)[0];
    let with = |noalias| {
        let opts = CodegenOptions {
            noalias,
            ..CodegenOptions::default()
        };
        generate(k, &opts).source
    };
    assert!(with(true).contains("const auto bz_h"));
    assert!(
        !with(false).contains("const auto bz_h"),
        "x and y may be one array"
    );
}

#[test]
fn coarsened_outputs_run_a_chunk_of_rows_that_any_grid_covers() {
    let src = "\
function total = __kernel__ ksum(x : mat, pos : ivec2)
    total += x[pos]
endfunction
x = ones(64, 256)
print parallel_do(size(x), x, ksum)
";
    let k = &kernels_of("chunks.q", src, Prec::Single)[0];
    let g = gen(k, [256, 1, 1], 8);
    assert_eq!(g.coarsen, 8);
    assert!(g.chunked());
    let s = &g.source;
    assert!(s.contains("const i32 bz_chunk = (bz_rows + (i32)gridDim.y - 1) / (i32)gridDim.y;"));
    assert!(s.contains("for (i32 bz_r = bz_r0; bz_r < bz_r1; ++bz_r)"));
    assert!(
        s.contains("bz_r * 1 + (i32)threadIdx.y"),
        "component 0 is the run's row"
    );
    ptx(&g);
}

#[test]
fn row_vectors_read_each_chunk_of_a_row_once() {
    // A 3x3 stencil (zero extension) with 4 positions per thread along the row: every
    // load of `a` reads an aligned 16-byte chunk (left, own, right of the 4 positions;
    // equal chunks are left to the compiler to merge), and the 4 stores to `b` (never
    // read) are gathered into one.
    let src = "\
function [] = __kernel__ life(a : mat, b : mat'unchecked, pos : ivec2)
    s = 0.0
    for di = -1..1
        for dj = -1..1
            s += a[pos + [di, dj]]
        endfor
    endfor
    b[pos] = s - a[pos]
endfunction
a = ones(8, 64)
b = zeros(8, 64)
parallel_do(size(a), a, b, life)
print sum(b)
";
    let k = &kernels_of("life.q", src, Prec::Single)[0];
    let opts = CodegenOptions {
        file_name: "life.q".into(),
        line_directives: false,
        block: Some([16, 8, 1]),
        coarsen: 1,
        vector: 4,
        noalias: true,
        guard: false,
        same_extents: false,
        mirror: false,
    };
    let g = generate(k, &opts);
    assert_eq!(g.vector, 4);
    assert!(
        g.source.contains("bz_getv4<true>(a0_a.data"),
        "{}",
        g.source
    );
    assert!(g.source.contains("for (i32 bz_u = 0; bz_u < 4; ++bz_u)"));
    assert!(g.source.contains("bz_putv4(a1_b.data"), "{}", g.source);
    // Not with a guard (a ragged grid), nor for a kernel with outputs.
    let guarded = generate(
        k,
        &CodegenOptions {
            guard: true,
            ..opts.clone()
        },
    );
    assert_eq!(guarded.vector, 1);
    assert!(!guarded.source.contains("bz_getv4"));
    if let Some(p) = ptx(&g) {
        let vec_loads = p.matches("ld.global.nc.v4.f32").count();
        let scalar_loads = p.matches("ld.global.nc.f32").count();
        assert!(
            (9..=40).contains(&vec_loads),
            "{vec_loads} chunk loads:\n{p}"
        );
        assert_eq!(scalar_loads, 0, "{p}");
        assert_eq!(p.matches("st.global.v4.f32").count(), 1, "{p}");
    }
}
