//! The load phase of row-vector kernels (on unless `BLAZAR_CUDA_LOAD_PHASE=0`, read once
//! per process: this test binary sets it on before generating anything). A 3x3
//! stencil run 8 rows per thread loads its 10 x 3 chunk table before the row loop;
//! taps read the table, and, where libnvrtc loads, the PTX has exactly those 30 vector
//! loads, all before the first store.

use blazar_codegen_c::cuda::{generate, CodegenOptions, NVRTC_OPTIONS};
use blazar_interp::{load, Options};
use blazar_runtime::builtins::Ctx;
use blazar_runtime::Prec;

#[test]
fn stencil_taps_load_their_chunks_before_the_rows() {
    std::env::set_var("BLAZAR_CUDA_LOAD_PHASE", "1");
    let src = "\
function [] = __kernel__ life(a : mat, b : mat'unchecked, pos : ivec2)
    s = a[pos + [-1, -1]] + a[pos + [-1, 0]] + a[pos + [-1, 1]] + a[pos + [0, -1]] + _
        a[pos + [0, 1]] + a[pos + [1, -1]] + a[pos + [1, 0]] + a[pos + [1, 1]]
    b[pos] = s - a[pos]
endfunction
a = ones(16, 64)
b = zeros(16, 64)
parallel_do(size(a), a, b, life)
print sum(b)
";
    let dir = std::env::temp_dir().join(format!("blazar-load-phase-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let file = dir.join("life.q");
    std::fs::write(&file, src).expect("write the program");
    let loaded = load(&file).expect("loads");
    let ctx = Ctx::new(Prec::Single, Box::new(std::io::sink()), dir, "t".into());
    let cpu = blazar_interp::BackendRef::new(blazar_native::CpuBackend::default());
    let opts = Options {
        backend: Some(cpu),
        fuse_min: Some(0),
        ..Options::default()
    };
    let (r, kernels) = blazar_interp::run_collect(&loaded, ctx, opts);
    assert!(r.is_ok());
    let k = &kernels[0];
    let opts = CodegenOptions {
        file_name: "life.q".into(),
        line_directives: false,
        block: Some([256, 1, 1]),
        coarsen: 8,
        vector: 4,
        noalias: true,
        guard: false,
        same_extents: false,
        mirror: false,
    };
    let g = generate(k, &opts);
    assert_eq!(g.vector, 4);
    let body = &g.source[g.source.find("// ---- kernel").expect("kernel")..];
    assert!(body.contains("bz_lp0[10][3];"), "{body}");
    assert!(!body.contains("bz_getv4"), "{body}");
    // Rows one apart (block height 1) only: a taller block keeps per-tap loads.
    let tall = generate(
        k,
        &CodegenOptions {
            block: Some([64, 4, 1]),
            ..opts.clone()
        },
    );
    assert!(!tall.source.contains("bz_lp0["));
    assert!(tall.source.contains("bz_getv4<true>(a0_a.data"));

    // SAFETY: only tries to dlopen libnvrtc under its usual names; no other effect.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        println!("SKIP nvrtc: libnvrtc not found");
        return;
    }
    let copts = cudarc::nvrtc::CompileOptions {
        arch: Some("sm_90"),
        options: NVRTC_OPTIONS.iter().map(|s| s.to_string()).collect(),
        name: Some(format!("{}.cu", g.entry)),
        ..Default::default()
    };
    let ptx = cudarc::nvrtc::compile_ptx_with_opts(&g.source, copts)
        .expect("compiles")
        .to_src();
    let entry = &ptx[ptx.find(".entry").expect("entry")..];
    let lines: Vec<&str> = entry.lines().map(str::trim).collect();
    let loads: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("ld.global.nc.v4"))
        .collect();
    let first_store = (0..lines.len())
        .find(|&i| lines[i].starts_with("st.global"))
        .expect("a store");
    assert_eq!(loads.len(), 30, "{entry}");
    assert!(loads.iter().all(|&i| i < first_store), "{entry}");
}
