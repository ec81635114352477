//! Snapshots of the CUDA generated for small hand-built kernels (the builders of the
//! KIR tests). Each snapshot is the kernel after the prelude, in
//! `tests/snapshots/NAME.cu`; run with `BLESS=1` to rewrite them after a deliberate
//! change, and review the diff.

#[path = "../../blazar-kir/tests/common/mod.rs"]
mod common;

use blazar_codegen_c::cuda::{generate, CodegenOptions, ErrorKind, ParamLayout};
use blazar_kir::{AtomicOp, Kernel, Scalar};
use std::path::Path;

fn kernel_text(k: &Kernel) -> String {
    let opts = CodegenOptions {
        file_name: "test.q".into(),
        ..CodegenOptions::default()
    };
    kernel_text_with(k, &opts)
}

fn kernel_text_with(k: &Kernel, opts: &CodegenOptions) -> String {
    let src = generate(k, opts).source;
    let at = src.find("// ---- kernel").expect("kernel marker");
    src[at..].to_string()
}

fn snapshot(name: &str, text: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.cu"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, text).expect("write snapshot");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        want == text,
        "snapshot {name} differs (BLESS=1 to update)\n--- want\n{want}\n--- got\n{text}"
    );
}

#[test]
fn gamma_snapshot() {
    let text = kernel_text(&common::gamma());
    assert!(text.contains("bz_idx<2>("), "mirror reads use mode 2");
    assert!(text.contains("bz_pow("));
    assert!(text.contains("#line 12 \"test.q\""));
    snapshot("gamma", &text);
}

#[test]
fn reduction_snapshot() {
    let text = kernel_text(&common::reduction());
    assert!(
        text.contains("extern __shared__"),
        "shared(blkdim) is dynamic"
    );
    // It may fail (an assert, a dynamic shared allocation): a failing thread stops and
    // runs on to the barriers with its stores skipped. Its loop's trip count does not
    // depend on memory, so the barriers need not ask whether any thread still runs.
    assert!(text.contains("bool bz_stop = false;"));
    assert!(text.contains("if (!bz_stop) {"));
    assert!(text.contains("__syncthreads();"));
    assert!(!text.contains("__syncthreads_or"));
    assert!(text.contains("bz_atomic<0, f32>"));
    assert!(text.contains("bz_fail(bz_e, 1, 19, 0, 0); bz_stop = true;"));
    assert!(text.contains("return;"));
    snapshot("reduction", &text);
}

#[test]
fn with_output_snapshot() {
    let text = kernel_text(&common::with_output());
    assert!(text.contains("bz_block_reduce<0>"));
    assert!(text.contains("bz_local_alloc("));
    assert!(text.contains("c32{"));
    snapshot("with_output", &text);
}

#[test]
fn layout_of_parameters() {
    let g = generate(&common::with_output(), &CodegenOptions::default());
    assert_eq!(g.entry, "bzk_acc");
    assert_eq!(
        g.params,
        vec![
            ParamLayout::ArrayData {
                index: 0,
                elem: Scalar::F32,
            },
            ParamLayout::ArrayExtents { index: 0, rank: 2 },
            ParamLayout::Scalar {
                index: 1,
                ty: Scalar::F32
            },
            ParamLayout::Space,
            ParamLayout::ErrorRecord,
            ParamLayout::Output {
                index: 0,
                ty: Scalar::F32
            },
            ParamLayout::Pool,
        ]
    );
    assert!(g.uses_pool);
    assert_eq!(g.outputs[0].combine, AtomicOp::Add);
    assert_eq!(ParamLayout::Pool.size_align(), (24, 8));
    assert_eq!(
        ErrorKind::decode(2 | (3 << 8)),
        Some((ErrorKind::OutOfBounds, 3))
    );
}

#[test]
fn mirrored_outputs_take_a_parameter_and_a_last_block_copy() {
    let opts = CodegenOptions {
        mirror: true,
        ..CodegenOptions::default()
    };
    let g = generate(&common::with_output(), &opts);
    let at = g.params.iter().position(|p| *p == ParamLayout::Mirror);
    let out = g
        .params
        .iter()
        .position(|p| matches!(p, ParamLayout::Output { .. }));
    assert!(at > out, "after the outputs: {:?}", g.params);
    assert_eq!(ParamLayout::Mirror.size_align(), (16, 8));
    assert!(g.source.contains("bz_mirror bz_mr"));
    // Once per block, after every output's atomic.
    let text = kernel_text_with(&common::with_output(), &opts);
    let copy = text.find("bz_mirror_out(bz_erec, bz_mr);").expect("copy");
    assert!(text.rfind("bz_atomic<").expect("atomic") < copy);
    assert_eq!(text.matches("bz_mirror_out(").count(), 1);
    // The last block is counted against the grid's blocks in 64 bits: a grid too large
    // for the record's 32-bit count hands nothing over instead of publishing early.
    assert!(g
        .source
        .contains("(u64)gridDim.x * (u64)gridDim.y * (u64)gridDim.z"));
    assert!(g.source.contains("if (blocks > 0xffffffffull) return;"));
    // The words reach host memory before the sequence number: a system-scope fence.
    let f = g.source.find("void bz_mirror_out(").expect("the hand-over");
    let body = &g.source[f..];
    let fence = body.find("__threadfence_system();").expect("system fence");
    assert!(body.find("dst[4 + k] = src[k]").expect("copy") < fence);
    assert!(fence < body.find("dst[0] = m.seq;").expect("publish"));
    // Kernels without outputs have nothing to hand over.
    let g = generate(&common::gamma(), &opts);
    assert!(!g.params.contains(&ParamLayout::Mirror));
    assert!(!kernel_text_with(&common::gamma(), &opts).contains("bz_mirror_out("));
}

#[test]
fn dynamic_shared_size_from_block_dims() {
    let g = generate(&common::reduction(), &CodegenOptions::default());
    assert_eq!(g.shared_bytes, None);
    let bytes = blazar_codegen_c::cuda::dynamic_shared_bytes(&g, &[256], &|_| None);
    assert_eq!(bytes, Some(256 * 4));
    let g = generate(&common::gamma(), &CodegenOptions::default());
    assert_eq!(g.shared_bytes, Some(0));
}

#[test]
fn no_line_directives_when_disabled() {
    let opts = CodegenOptions {
        file_name: "x.q".into(),
        line_directives: false,
        ..CodegenOptions::default()
    };
    assert!(!generate(&common::gamma(), &opts).source.contains("#line"));
}

#[test]
fn coarsened_gamma_snapshot() {
    let opts = CodegenOptions {
        file_name: "test.q".into(),
        block: Some([256, 1, 1]),
        coarsen: 4,
        vector: 1,
        noalias: true,
        ..CodegenOptions::default()
    };
    let g = generate(&common::gamma(), &opts);
    assert_eq!(g.coarsen, 4);
    let text = kernel_text_with(&common::gamma(), &opts);
    // The hand-built gamma works in place: its one array is written, so not `const`.
    assert!(text.contains("    f32* __restrict__ a0_y_p,"));
    assert!(text.contains("bz_r < 4"));
    assert!(
        text.contains("* 4 + bz_r)"),
        "component 0 takes the run's row"
    );
    assert!(
        !text.contains("break;"),
        "an exact grid has no test between the positions of a run"
    );
    snapshot("coarsened_gamma", &text);
    let guarded = CodegenOptions {
        guard: true,
        ..opts
    };
    let text = kernel_text_with(&common::gamma(), &guarded);
    assert!(
        text.contains("|| bz_pos[2] >= bz_sp.dims[2]) break;"),
        "with a guard, positions past the extent end the run"
    );
}

#[test]
fn kernels_with_outputs_or_blocks_are_not_coarsened() {
    let opts = CodegenOptions {
        coarsen: 8,
        vector: 1,
        ..CodegenOptions::default()
    };
    assert_eq!(generate(&common::with_output(), &opts).coarsen, 1);
    assert_eq!(generate(&common::reduction(), &opts).coarsen, 1);
    let text = kernel_text_with(&common::reduction(), &opts);
    assert!(
        !text.contains("__restrict__"),
        "aliasing unknown: no restrict"
    );
}

#[test]
fn ragged_grids_skip_positions_outside() {
    let opts = CodegenOptions {
        guard: true,
        ..CodegenOptions::default()
    };
    let text = kernel_text_with(&common::gamma(), &opts);
    assert!(text.contains(
        "if (bz_pos[0] >= bz_sp.dims[0] || bz_pos[1] >= bz_sp.dims[1] || bz_pos[2] >= bz_sp.dims[2]) return;"
    ));
    // With outputs every thread still reaches the block reduction.
    let text = kernel_text_with(&common::with_output(), &opts);
    assert!(text.contains(") goto bz_done;"));
    assert!(text.contains("bz_done:;"));
}

#[test]
fn exact_grids_tell_the_compiler_that_pos_is_inside() {
    let opts = CodegenOptions {
        block: Some([256, 1, 1]),
        same_extents: true,
        ..CodegenOptions::default()
    };
    let text = kernel_text_with(&common::gamma(), &opts);
    assert!(text.contains(
        "__builtin_assume((u32)((i32)blockIdx.x * 256 + (i32)threadIdx.x) < (u32)bz_sp.dims[2]);"
    ));
    assert!(
        text.contains("{bz_sp.dims[0], bz_sp.dims[1], bz_sp.dims[2], a0_y_d.d[3]}"),
        "the array's extents are the index space's"
    );
    // A ragged grid may run positions outside: no such promise.
    let guarded = CodegenOptions {
        guard: true,
        ..opts
    };
    assert!(!kernel_text_with(&common::gamma(), &guarded).contains("__builtin_assume((u32)("));
}

/// `common::reduction` with its tree barrier moved under the thread-dependent `if`
/// (the form of published block reductions), optionally with a kernel output.
fn divergent(output: bool) -> Kernel {
    use blazar_kir::{Output, StmtKind};
    let mut k = common::reduction();
    for s in &mut k.body {
        if let StmtKind::While { body, .. } = &mut s.kind {
            let barrier = body.remove(1);
            assert!(matches!(barrier.kind, StmtKind::Barrier));
            if let StmtKind::If { then, .. } = &mut body[0].kind {
                then.push(barrier);
            }
        }
    }
    if output {
        k.outputs.push(Output {
            name: "total".into(),
            ty: Scalar::F32,
            op: AtomicOp::Add,
        });
        k.body.push(common::s(
            StmtKind::Accumulate {
                output: 0,
                value: common::f32c(1.0),
            },
            21,
        ));
    }
    assert_eq!(blazar_kir::verify::verify(&k), Ok(()));
    k
}

#[test]
fn divergent_barrier_snapshot() {
    let k = divergent(false);
    assert_eq!(blazar_kir::uniform::divergent_barrier(&k), Some(10));
    let text = kernel_text(&k);
    assert!(!text.contains("__syncthreads()"), "{text}");
    assert!(text.contains("__shared__ bz_sbar bz_sb;\n  bz_sbar_init(&bz_sb);"));
    assert_eq!(
        text.matches("bz_sbar_sync(&bz_sb, 0);").count(),
        2,
        "{text}"
    );
    // The `return` of the else branch and the end of the body leave the barrier.
    assert!(text.contains("{ bz_sbar_exit(&bz_sb); return; }"), "{text}");
    assert!(
        text.trim_end().ends_with("bz_sbar_exit(&bz_sb);\n}"),
        "{text}"
    );
    // A failing assert stops the thread: it leaves the kernel as a `return` does.
    assert!(
        text.contains(
            "bz_fail(bz_e, 1, 19, 0, 0); bz_stop = true; { bz_sbar_exit(&bz_sb); return; } }"
        ),
        "{text}"
    );
    let full = generate(&k, &CodegenOptions::default()).source;
    assert!(full.contains("struct bz_sbar"));
    assert!(
        full.contains("bz_chk(bool& st, i32 o)"),
        "the stopped-thread prelude"
    );
    snapshot("divergent_barrier", &text);
    // Kernels whose barriers every thread reaches keep the hardware barrier.
    let plain = generate(&common::reduction(), &CodegenOptions::default()).source;
    assert!(!plain.contains("bz_sbar"));
}

#[test]
fn divergent_barrier_with_an_output_leaves_before_the_epilogue() {
    let text = kernel_text(&divergent(true));
    // `return` goes to the epilogue, which every thread reaches after leaving the
    // software barrier; the block reduction then uses the unaligned hardware barrier.
    assert!(text.contains("goto bz_done;"), "{text}");
    let done = text.find("bz_done:;").expect("epilogue label");
    let exit = text.find("bz_sbar_exit(&bz_sb);").expect("exit");
    let reduce = text
        .find("bz_block_reduce<0, true>")
        .expect("diverged reduction");
    assert!(done < exit && exit < reduce, "{text}");
    assert!(!text.contains("__syncthreads()"), "{text}");
    snapshot("divergent_barrier_output", &text);
}

#[test]
fn an_early_return_before_a_barrier_with_an_output_uses_the_software_barrier() {
    use blazar_kir::{Output, StmtKind};
    // `common::reduction` returns under `blkpos != 0`: without outputs the leaving
    // threads simply end (the hardware barrier does not wait for exited threads) ...
    let mut k = common::reduction();
    assert_eq!(blazar_kir::uniform::divergent_barrier(&k), None);
    assert_eq!(blazar_kir::uniform::varying_return(&k), Some(16));
    assert!(!generate(&k, &CodegenOptions::default())
        .source
        .contains("bz_sbar"));
    // ... but with an output they would wait at the epilogue's barrier.
    k.outputs.push(Output {
        name: "n".into(),
        ty: Scalar::I32,
        op: AtomicOp::Add,
    });
    k.body.push(common::s(
        StmtKind::Accumulate {
            output: 0,
            value: blazar_kir::Expr::int(1),
        },
        21,
    ));
    let text = kernel_text(&k);
    assert!(text.contains("bz_sbar_sync(&bz_sb, 0);"), "{text}");
    assert!(!text.contains("__syncthreads()"), "{text}");
}
