//! Unit tests: kernels built by hand, compiled and called through the launch ABI with
//! records laid out as `abi` says (the native launcher's own tests run whole programs
//! on this tier against the interpreter).

use crate::{compile, unsupported};
use blazar_kir::*;

#[repr(C)]
pub(crate) struct GArr {
    pub data: *mut u8,
    pub len: i64,
    pub rank: i64,
    pub dims: [i64; 8],
}

/// The interrupt flag the tests' launches pass (never set).
static SIG: usize = 0;

#[repr(C)]
pub(crate) struct Call {
    pub arrs: *const GArr,
    pub params: *const u8,
    pub stop: *const i64,
    pub kd: [i64; 4],
    pub kb: [i64; 4],
    pub total: i64,
    pub items: i64,
    pub chunk: i64,
    pub sig: *const usize,
}

#[repr(C)]
#[derive(Default)]
pub(crate) struct Err {
    pub code: i32,
    line: i32,
    item: i64,
    a: u64,
    b: i64,
    c: i64,
    pos: i64,
}

/// The record of an `f32` array of `dims` at `data`.
pub(crate) fn garr(data: *mut f32, dims: &[usize]) -> GArr {
    let mut d = [0i64; 8];
    for (x, &e) in d.iter_mut().zip(dims) {
        *x = e as i64;
    }
    GArr {
        data: data as *mut u8,
        len: dims.iter().product::<usize>() as i64,
        rank: dims.len() as i64,
        dims: d,
    }
}

/// Runs compiled kernel `code` over the index space `kd` (threads in row-major order,
/// work items of `chunk` threads, one range) with the arrays `arrs` and no
/// parameters, then folds its `nout` outputs when the run succeeded: the run's code,
/// its error record and each output's 16 result bytes.
pub(crate) fn call(
    code: &crate::Compiled,
    arrs: &[GArr],
    kd: &[usize],
    chunk: usize,
    nout: usize,
) -> (i32, Err, Vec<[u8; 16]>) {
    let total: usize = kd.iter().product();
    let mut dims = [1i64; 4];
    for (d, &e) in dims.iter_mut().zip(kd) {
        *d = e as i64;
    }
    let stop = i64::MAX;
    let items = total.div_ceil(chunk) as i64;
    let call = Call {
        arrs: arrs.as_ptr(),
        params: [0u8; 16].as_ptr(),
        stop: &stop,
        kd: dims,
        kb: [1, 1, 1, 1],
        total: total as i64,
        items,
        chunk: chunk as i64,
        sig: &SIG,
    };
    let nout = nout.max(1);
    let mut parts = vec![0u8; items as usize * 16 * nout];
    let mut out = vec![0u8; 16 * nout];
    let mut err = Err::default();
    type Run = unsafe extern "C" fn(*const Call, i64, i64, *mut u8, *mut Err) -> i32;
    type Finish = unsafe extern "C" fn(*const u8, i64, *mut u8);
    // SAFETY: the records are laid out as `abi` says and outlive the calls; the
    // partials have room for every item's outputs, the arrays for every thread.
    let rc = unsafe {
        let run: Run = std::mem::transmute(code.run_ptr());
        let finish: Finish = std::mem::transmute(code.finish_ptr());
        let rc = run(&call, 0, items, parts.as_mut_ptr(), &mut err);
        if rc == 0 {
            finish(parts.as_ptr(), items, out.as_mut_ptr());
        }
        rc
    };
    let outs = out
        .chunks(16)
        .map(|b| b.try_into().expect("16 bytes"))
        .collect();
    (rc, err, outs)
}

fn stmt(kind: StmtKind, line: u32) -> Stmt {
    Stmt { kind, line }
}

fn arr_ty(read: ReadMode, write: WriteMode) -> Ty {
    Ty::Array(ArrayTy {
        elem: Scalar::F32,
        rank: 1,
        read,
        write,
        is_const: false,
        space: Space::Global,
    })
}

/// `y[pos] = x[pos + shift] * 2 + 1` (reading `x` under `read`) and `s += x[pos]`.
fn kernel(read: ReadMode, shift: i64) -> Kernel {
    let f32t = Ty::Scalar(Scalar::F32);
    let pos = Expr::new(ExprKind::Special(Special::Pos), Ty::I32);
    let idx = Expr::new(
        ExprKind::Binary(
            BinOp::Add,
            Box::new(pos.clone()),
            Box::new(Expr::int(shift)),
        ),
        Ty::I32,
    );
    let load = |i: Expr| {
        Expr::new(
            ExprKind::Load {
                arr: 0,
                index: vec![i],
                at: Default::default(),
            },
            f32t,
        )
    };
    let c = |v: f64| Expr::new(ExprKind::Const(Const::Float(v)), f32t);
    let twice = Expr::new(
        ExprKind::Binary(BinOp::Mul, Box::new(load(idx)), Box::new(c(2.0))),
        f32t,
    );
    let value = Expr::new(
        ExprKind::Binary(BinOp::Add, Box::new(twice), Box::new(c(1.0))),
        f32t,
    );
    Kernel {
        name: "k".into(),
        rank: 1,
        params: vec![
            Param {
                name: "x".into(),
                bind: Bind::Array(0),
            },
            Param {
                name: "y".into(),
                bind: Bind::Array(1),
            },
        ],
        outputs: vec![Output {
            name: "s".into(),
            ty: Scalar::F32,
            op: AtomicOp::Add,
        }],
        vars: vec![],
        arrays: vec![
            ArrayDecl {
                name: "x".into(),
                ty: arr_ty(read, WriteMode::Skip),
            },
            ArrayDecl {
                name: "y".into(),
                ty: arr_ty(ReadMode::Zero, WriteMode::Skip),
            },
        ],
        body: vec![
            stmt(
                StmtKind::Store {
                    arr: 1,
                    index: vec![pos.clone()],
                    value,
                    at: Default::default(),
                },
                3,
            ),
            stmt(
                StmtKind::Accumulate {
                    output: 0,
                    value: load(pos),
                },
                4,
            ),
        ],
        calls: Default::default(),
        facts: Default::default(),
    }
}

/// Runs `k` over `n` threads in chunks of 4 (one range): `(y, s, error)`.
fn launch(k: &Kernel, x: &mut [f32], n: usize) -> (Vec<f32>, f32, Err) {
    let code = compile(k, &[0, 0]).expect("compiles");
    let mut y = vec![0f32; n];
    let arrs = [garr(x.as_mut_ptr(), &[x.len()]), garr(y.as_mut_ptr(), &[n])];
    let (_, err, outs) = call(&code, &arrs, &[n], 4, 1);
    let s = f32::from_ne_bytes([outs[0][0], outs[0][1], outs[0][2], outs[0][3]]);
    (y, s, err)
}

#[test]
fn a_kernel_runs_with_its_output_folded_in_order() {
    let mut x: Vec<f32> = (0..10).map(|i| i as f32 * 0.5).collect();
    let (y, s, err) = launch(&kernel(ReadMode::Zero, 1), &mut x, 10);
    assert_eq!(err.code, 0);
    let want: Vec<f32> = (0..10)
        .map(|i| {
            if i + 1 < 10 {
                (i + 1) as f32 * 0.5 * 2.0 + 1.0
            } else {
                1.0
            }
        })
        .collect();
    assert_eq!(y, want);
    assert_eq!(s, x.iter().sum::<f32>());
}

#[test]
fn boundary_modes_remap_or_zero() {
    let mut x: Vec<f32> = (0..5).map(|i| i as f32).collect();
    let (y, _, _) = launch(&kernel(ReadMode::Circular, 3), &mut x, 5);
    assert_eq!(y, [7.0, 9.0, 1.0, 3.0, 5.0]);
    let (y, _, _) = launch(&kernel(ReadMode::Clamped, 3), &mut x, 5);
    assert_eq!(y, [7.0, 9.0, 9.0, 9.0, 9.0]);
    let (y, _, _) = launch(&kernel(ReadMode::Mirror, 3), &mut x, 5);
    assert_eq!(y, [7.0, 9.0, 9.0, 7.0, 5.0]);
}

#[test]
fn a_checked_read_outside_stops_with_its_index_and_line() {
    let mut x = vec![1f32; 6];
    let (_, _, err) = launch(&kernel(ReadMode::Checked, 2), &mut x, 6);
    assert_eq!(err.code, crate::abi::OUT_OF_BOUNDS);
    assert_eq!((err.line, err.item, err.a, err.b, err.c), (3, 1, 6, 0, 6));
}

#[test]
fn barriers_and_kernel_memory_are_declined() {
    let mut k = kernel(ReadMode::Zero, 0);
    assert_eq!(unsupported(&k), None);
    k.body.push(stmt(StmtKind::Barrier, 5));
    assert_eq!(unsupported(&k).as_deref(), Some("a barrier"));
}

/// `y[pos] = x[pos[0], pos[1] + 1]` over an `r x c` space (2-D arrays, `x` read as 0
/// outside), run in chunks of `chunk` threads that cross rows: the work items whose
/// reads are all inside take the unchecked copy, the others the checked one.
#[test]
fn work_items_across_rows_read_inside_or_as_zero() {
    let (r, c) = (5usize, 7usize);
    let f32t = Ty::Scalar(Scalar::F32);
    let i32v = Ty::Vector(Scalar::I32, 2);
    let pos = Expr::new(ExprKind::Special(Special::Pos), i32v);
    let lane = |l: i64| {
        Expr::new(
            ExprKind::Lane(Box::new(pos.clone()), Box::new(Expr::int(l))),
            Ty::I32,
        )
    };
    let right = Expr::new(
        ExprKind::Binary(BinOp::Add, Box::new(lane(1)), Box::new(Expr::int(1))),
        Ty::I32,
    );
    let arr2 = |read| {
        Ty::Array(ArrayTy {
            elem: Scalar::F32,
            rank: 2,
            read,
            write: WriteMode::Skip,
            is_const: false,
            space: Space::Global,
        })
    };
    let k = Kernel {
        name: "k2".into(),
        rank: 2,
        params: vec![
            Param {
                name: "x".into(),
                bind: Bind::Array(0),
            },
            Param {
                name: "y".into(),
                bind: Bind::Array(1),
            },
        ],
        outputs: vec![],
        vars: vec![],
        arrays: vec![
            ArrayDecl {
                name: "x".into(),
                ty: arr2(ReadMode::Zero),
            },
            ArrayDecl {
                name: "y".into(),
                ty: arr2(ReadMode::Zero),
            },
        ],
        body: vec![stmt(
            StmtKind::Store {
                arr: 1,
                index: vec![lane(0), lane(1)],
                value: Expr::new(
                    ExprKind::Load {
                        arr: 0,
                        index: vec![lane(0), right],
                        at: Default::default(),
                    },
                    f32t,
                ),
                at: Default::default(),
            },
            2,
        )],
        calls: Default::default(),
        facts: Default::default(),
    };
    assert!(
        !k.ranges().accesses.is_empty(),
        "the accesses have range facts"
    );
    let code = compile(&k, &[0, 0]).expect("compiles");
    for chunk in [1usize, 3, 7, 9, 35] {
        let mut x: Vec<f32> = (0..r * c).map(|i| i as f32 + 1.0).collect();
        let mut y = vec![-1f32; r * c];
        let arrs = [garr(x.as_mut_ptr(), &[r, c]), garr(y.as_mut_ptr(), &[r, c])];
        let (rc, err, _) = call(&code, &arrs, &[r, c], chunk, 0);
        assert_eq!((rc, err.code), (0, 0));
        let want: Vec<f32> = (0..r * c)
            .map(|t| {
                let (i, j) = (t / c, t % c);
                if j + 1 < c {
                    (i * c + j + 1) as f32 + 1.0
                } else {
                    0.0
                }
            })
            .collect();
        assert_eq!(y, want, "chunk {chunk}");
    }
}

/// `y[pos] = x[pos] * 2 + 1`: an element-wise body the strips take.
fn elementwise() -> Kernel {
    let mut k = kernel(ReadMode::Zero, 0);
    k.body.pop();
    k.outputs.clear();
    if let StmtKind::Store { value, .. } = &mut k.body[0].kind {
        if let ExprKind::Binary(_, a, _) = &mut value.kind {
            if let ExprKind::Binary(_, l, _) = &mut a.kind {
                if let ExprKind::Load { index, .. } = &mut l.kind {
                    index[0] = Expr::new(ExprKind::Special(Special::Pos), Ty::I32);
                }
            }
        }
    }
    k
}

/// Runs the one-store kernel `k` with `x` and `y` at element offsets `xo` and `yo` of
/// one buffer (`n` elements each), chunks of `chunk`: the buffer after.
fn run_views(k: &Kernel, buf: &mut [f32], xo: usize, yo: usize, n: usize, chunk: usize) {
    let code = compile(k, &[0, 0]).expect("compiles");
    let base = buf.as_mut_ptr();
    // SAFETY: `o + n` is within the buffer (the callers' sizes).
    let at = |o: usize| garr(unsafe { base.add(o) }, &[n]);
    let (rc, err, _) = call(&code, &[at(xo), at(yo)], &[n], chunk, 0);
    assert_eq!((rc, err.code), (0, 0));
}

#[test]
fn strips_compute_what_the_threads_compute() {
    let k = elementwise();
    assert!(
        crate::strip::plan(&k).is_some(),
        "the strips take the kernel"
    );
    let n = 23;
    for chunk in [1, 4, 6, 8, 23] {
        // Separate arrays (strips), then the same array in place (strips too).
        let mut buf: Vec<f32> = (0..2 * n).map(|i| i as f32 * 0.25).collect();
        let want: Vec<f32> = buf[..n].iter().map(|v| v * 2.0 + 1.0).collect();
        run_views(&k, &mut buf, 0, n, n, chunk);
        assert_eq!(&buf[n..], &want[..], "chunk {chunk}");
        run_views(&k, &mut buf, 0, 0, n, chunk);
        assert_eq!(&buf[..n], &want[..], "in place, chunk {chunk}");
        // Views one element apart overlap in part: thread by thread, each thread
        // reading what the one before it wrote.
        let mut buf: Vec<f32> = vec![1.0; n + 1];
        run_views(&k, &mut buf, 0, 1, n, chunk);
        let mut want = vec![1.0f32; n + 1];
        for i in 0..n {
            want[i + 1] = want[i] * 2.0 + 1.0;
        }
        assert_eq!(buf, want, "overlapping, chunk {chunk}");
    }
}
