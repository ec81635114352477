//! Value types: complex numbers, small ints, vectors and dynamic kernel memory.

use super::build::*;
use crate::*;
use blazar_kir::*;
use blazar_launch::KValue;
use blazar_runtime::Buffer;
use num_complex::Complex32;

const C32: Ty = Ty::Scalar(Scalar::C32);

#[test]
fn complex_arithmetic() {
    // z = complex(x, 1); w = z * z + conj(z) / z; y = [real(w), imag(w), abs(z)].
    let mut b = KB::new(1);
    let x = b.garr(Scalar::F32, 1);
    let y = b.garr(Scalar::F32, 2);
    let z = b.var(C32);
    let w = b.var(C32);
    let p = pos(1);
    let k = b.build(vec![
        assign(
            &z,
            math(
                MathFn::MakeComplex,
                vec![x.at(vec![p.clone()]), cf(1.0)],
                C32,
            ),
        ),
        assign(
            &w,
            add(
                mul(z.clone(), z.clone()),
                bin(
                    BinOp::Div,
                    math(MathFn::Conj, vec![z.clone()], C32),
                    z.clone(),
                ),
            ),
        ),
        y.set(
            vec![p.clone(), ci(0)],
            math(MathFn::Real, vec![w.clone()], F32),
        ),
        y.set(vec![p.clone(), ci(1)], math(MathFn::Imag, vec![w], F32)),
        y.set(vec![p, ci(2)], math(MathFn::Abs, vec![z], F32)),
    ]);
    let xs = vec![0.5f32, -2.0, 3.0];
    let bufs = vec![
        (vec![3], Buffer::F32(xs.clone())),
        (vec![3, 3], Buffer::F32(vec![0.0; 9])),
    ];
    let (r, out) = run(&k, &[3], &[1], arrays(2), bufs, 0);
    r.unwrap();
    let got = f32s(&out[1]);
    for (i, &xv) in xs.iter().enumerate() {
        let z = Complex32::new(xv, 1.0);
        let w = z * z + z.conj() / z;
        assert_eq!(&got[i * 3..i * 3 + 3], &[w.re, w.im, z.norm()]);
    }
}

#[test]
fn small_ints_wrap_and_convert() {
    // u8: y = x + 200 (wraps); i8: -x; u16: x * 1000; shifts and int division by zero.
    let mut b = KB::new(1);
    let (x8, y8) = (b.garr(Scalar::U8, 1), b.garr(Scalar::U8, 1));
    let yi8 = b.garr(Scalar::I8, 1);
    let y16 = b.garr(Scalar::U16, 1);
    let yi = b.garr(Scalar::I32, 2);
    let p = pos(1);
    let xv = x8.at(vec![p.clone()]);
    let xi = cast(xv.clone(), I32);
    let k = b.build(vec![
        y8.set(vec![p.clone()], add(xv.clone(), ct(200, Scalar::U8))),
        yi8.set(
            vec![p.clone()],
            st_neg(cast(xv.clone(), Ty::Scalar(Scalar::I8))),
        ),
        y16.set(
            vec![p.clone()],
            mul(cast(xv, Ty::Scalar(Scalar::U16)), ct(1000, Scalar::U16)),
        ),
        yi.set(
            vec![p.clone(), ci(0)],
            bin(BinOp::Div, ci(100), sub(xi.clone(), ci(3))),
        ),
        yi.set(
            vec![p.clone(), ci(1)],
            bin(BinOp::Shl, ci(1), add(xi.clone(), ci(30))),
        ),
        yi.set(
            vec![p.clone(), ci(2)],
            math(MathFn::Periodize, vec![sub(xi.clone(), ci(5)), ci(4)], I32),
        ),
        yi.set(vec![p, ci(3)], bin(BinOp::Rem, sub(xi, ci(5)), ci(4))),
    ]);
    let xs = vec![0u8, 3, 100, 255];
    let bufs = vec![
        (vec![4], Buffer::U8(xs)),
        (vec![4], Buffer::U8(vec![0; 4])),
        (vec![4], Buffer::I8(vec![0; 4])),
        (vec![4], Buffer::U16(vec![0; 4])),
        (vec![4, 4], Buffer::I32(vec![0; 16])),
    ];
    let (r, out) = run(&k, &[4], &[1], arrays(5), bufs, 0);
    r.unwrap();
    let (Buffer::U8(a), Buffer::I8(c), Buffer::U16(d)) = (&out[1], &out[2], &out[3]) else {
        panic!()
    };
    assert_eq!(a, &[200, 203, 44, 199]);
    assert_eq!(c, &[0, -3, -100, 1]);
    assert_eq!(d, &[0, 3000, 34464, 58392]);
    // Shift counts of 32 or more shift every bit out (host code's rule), not masked.
    #[rustfmt::skip]
    let want = [-33, 1 << 30, 3, -1,  0, 0, 2, -2,  1, 0, 3, 3,  0, 0, 2, 2];
    assert_eq!(i32s(&out[4]), &want);
}

fn st_neg(e: Expr) -> Expr {
    let ty = e.ty;
    Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(e)), ty)
}

#[test]
fn vectors() {
    // v = [p, 2p, 3p]; v[1] = 7 (dynamic lane p % 3); y = [sum(v), v[2], max(splat(p) + v)].
    let mut b = KB::new(1);
    let y = b.garr(Scalar::I32, 2);
    let vt = Ty::Vector(Scalar::I32, 3);
    let v = b.var(vt);
    let p = pos(1);
    let ExprKind::Var(vid) = v.kind else { panic!() };
    let veclit = Expr::new(
        ExprKind::VecLit(vec![
            p.clone(),
            mul(p.clone(), ci(2)),
            mul(p.clone(), ci(3)),
        ]),
        vt,
    );
    let red = |r, e: Expr| Expr::new(ExprKind::VecReduce(r, Box::new(e)), I32);
    let splat = Expr::new(ExprKind::Splat(Box::new(p.clone())), vt);
    let dyn_lane = Expr::new(
        ExprKind::Lane(
            Box::new(v.clone()),
            Box::new(bin(BinOp::Rem, p.clone(), ci(2))),
        ),
        I32,
    );
    let k = b.build(vec![
        assign(&v, veclit),
        st(StmtKind::SetLane {
            var: vid,
            lane: bin(BinOp::Rem, p.clone(), ci(3)),
            value: ci(7),
        }),
        y.set(vec![p.clone(), ci(0)], red(VecReduce::Sum, v.clone())),
        y.set(vec![p.clone(), ci(1)], lane(v.clone(), 2)),
        y.set(
            vec![p.clone(), ci(2)],
            red(VecReduce::Max, add(splat, v.clone())),
        ),
        y.set(vec![p, ci(3)], dyn_lane),
    ]);
    let (r, out) = run(
        &k,
        &[5],
        &[1],
        arrays(1),
        vec![(vec![5, 4], Buffer::I32(vec![0; 20]))],
        0,
    );
    r.unwrap();
    for p in 0..5i32 {
        let mut v = [p, 2 * p, 3 * p];
        v[(p % 3) as usize] = 7;
        let want = [
            v.iter().sum(),
            v[2],
            v.iter().map(|x| x + p).max().unwrap(),
            v[(p % 2) as usize],
        ];
        assert_eq!(&i32s(&out[0])[p as usize * 4..p as usize * 4 + 4], &want);
    }
}

/// Each thread fills `zeros(n)` with a descending sequence, bubble-sorts it and
/// stores element `k` and the sum.
fn local_sort_kernel() -> Kernel {
    let mut b = KB::new(1);
    let y = b.garr(Scalar::F32, 2);
    let n = b.param(I32);
    let a = b.local(Scalar::F32, 1, ReadMode::Zero);
    let (i, j, t, s) = (b.var(I32), b.var(I32), b.var(F32), b.var(F32));
    let p = pos(1);
    let aj = a.at(vec![j.clone()]);
    let aj1 = a.at(vec![add(j.clone(), ci(1))]);
    b.build(vec![
        st(StmtKind::AllocLocal {
            arr: a.id,
            dims: vec![n.clone()],
            fill: Fill::Zero,
        }),
        forr(
            &i,
            ci(0),
            ci(1),
            sub(n.clone(), ci(1)),
            vec![a.set(
                vec![i.clone()],
                cast(sub(add(p.clone(), n.clone()), i.clone()), F32),
            )],
        ),
        forr(
            &i,
            ci(0),
            ci(1),
            sub(n.clone(), ci(2)),
            vec![forr(
                &j,
                ci(0),
                ci(1),
                sub(sub(n.clone(), ci(2)), i.clone()),
                vec![iff(
                    bin(BinOp::Gt, aj.clone(), aj1.clone()),
                    vec![
                        assign(&t, aj.clone()),
                        a.set(vec![j.clone()], aj1),
                        a.set(vec![add(j.clone(), ci(1))], t.clone()),
                    ],
                    vec![],
                )],
            )],
        ),
        assign(&s, cf(0.0)),
        forr(
            &i,
            ci(0),
            ci(1),
            sub(n.clone(), ci(1)),
            vec![assign(&s, add(s.clone(), a.at(vec![i.clone()])))],
        ),
        y.set(vec![p.clone(), ci(0)], a.at(vec![ci(0)])),
        y.set(vec![p.clone(), ci(1)], a.at(vec![sub(n, ci(1))])),
        y.set(vec![p, ci(2)], s),
    ])
}

#[test]
fn local_memory_sort_and_limits() {
    let k = local_sort_kernel();
    let threads = 700;
    let n = 20i64;
    let args = vec![ArgVal::Array(0), ArgVal::Value(KValue::Int(n))];
    let bufs = vec![(vec![threads, 3], Buffer::F32(vec![0.0; threads * 3]))];
    let (r, out) = run(&k, &[threads], &[1], args, bufs, 2);
    r.unwrap();
    for p in 0..threads {
        let (lo, hi) = (p as f32 + 1.0, (p + n as usize) as f32);
        let sum: f32 = (0..n).map(|i| (p as i64 + n - i) as f32).sum();
        assert_eq!(&f32s(&out[0])[p * 3..p * 3 + 3], &[lo, hi, sum]);
    }
    // 10000 f32 = 40000 bytes: over the per-allocation limit.
    let args = vec![ArgVal::Array(0), ArgVal::Value(KValue::Int(10000))];
    let bufs = vec![(vec![4, 3], Buffer::F32(vec![0.0; 12]))];
    let (r, _) = run(&k, &[4], &[1], args, bufs, 0);
    let e = r.unwrap_err();
    assert_eq!(e.kind, KernelErrorKind::OutOfMemory);
    assert_eq!(
        e.message,
        "dynamic kernel memory: an allocation of 40000 bytes exceeds the 32768-byte limit"
    );
    // 512 lanes x 32 KiB = 16 MiB is the most a work item may hold; 8193 floats
    // round to 64 KiB... so use 8192 floats (32 KiB) on 513+ lanes in one block.
    let args = vec![ArgVal::Array(0), ArgVal::Value(KValue::Int(8192))];
    let bufs = vec![(vec![1024, 3], Buffer::F32(vec![0.0; 3072]))];
    let mut b = KB::new(1);
    let a = b.local(Scalar::F32, 1, ReadMode::Zero);
    let n = b.param(I32);
    let k2 = b.build(vec![
        st(StmtKind::Barrier),
        st(StmtKind::AllocLocal {
            arr: a.id,
            dims: vec![n],
            fill: Fill::One,
        }),
    ]);
    let (r, _) = run(&k2, &[1024], &[1024], vec![args[1].clone()], vec![], 0);
    assert_eq!(r.unwrap_err().kind, KernelErrorKind::OutOfMemory);
    let (r, _) = run(&k2, &[1024], &[512], vec![args[1].clone()], vec![], 0);
    r.unwrap();
    drop(bufs);
}

#[test]
fn results_do_not_depend_on_thread_count() {
    let k = local_sort_kernel();
    let go = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let args = vec![ArgVal::Array(0), ArgVal::Value(KValue::Int(9))];
            let bufs = vec![(vec![3000, 3], Buffer::F32(vec![0.0; 9000]))];
            let (r, out) = run(&k, &[3000], &[1], args, bufs, 0);
            r.unwrap();
            f32s(&out[0]).to_vec()
        })
    };
    assert_eq!(go(1), go(2));
}

/// Shifted shared accesses `s[t + k]` with `t = blkpos` assigned inside a loop (the
/// contiguous shared path), with lanes outside the array on both sides.
#[test]
fn shifted_shared_accesses_match_per_lane_results() {
    let mut b = KB::new(1);
    let x = b.garr(Scalar::F32, 1);
    let y = b.garr(Scalar::F32, 1);
    let s = b.shared(Scalar::F32, 1);
    let (t, r) = (b.var(I32), b.var(I32));
    let bd = special(Special::BlkDim, 1);
    let body = vec![
        assign(&t, special(Special::BlkPos, 1)),
        s.clone().set(vec![t.clone()], x.clone().at(vec![pos(1)])),
        st(StmtKind::Barrier),
        s.clone().set(vec![add(t.clone(), ci(2))], cf(0.0)),
        iff(
            lt(t.clone(), ci(5)),
            vec![y.clone().set(
                vec![pos(1)],
                add(
                    s.clone().at(vec![sub(t.clone(), ci(3))]),
                    s.clone().at(vec![add(t.clone(), ci(7))]),
                ),
            )],
            vec![y
                .clone()
                .set(vec![pos(1)], s.clone().at(vec![sub(t.clone(), ci(3))]))],
        ),
        st(StmtKind::Barrier),
    ];
    let k = b.build(vec![
        st(StmtKind::AllocShared {
            arr: s.id,
            dims: vec![bd],
            zero: false,
        }),
        forr(&r, ci(0), ci(1), ci(0), body),
    ]);
    let (n, bs) = (256usize, 32usize);
    let xs: Vec<f32> = (0..n).map(|i| i as f32 + 1.0).collect();
    let want: Vec<f32> = (0..n)
        .map(|p| {
            let (blk, t) = (p / bs * bs, (p % bs) as i64);
            // s after the second store: x[blk + i], zeroed from index 2 on.
            let sv = |i: i64| {
                if (0..2).contains(&i) {
                    xs[blk + i as usize]
                } else {
                    0.0
                }
            };
            if t < 5 {
                sv(t - 3) + sv(t + 7)
            } else {
                sv(t - 3)
            }
        })
        .collect();
    for threads in [1, 2] {
        let bufs = vec![
            (vec![n], Buffer::F32(xs.clone())),
            (vec![n], Buffer::F32(vec![0.0; n])),
        ];
        let (res, out) = run(&k, &[n], &[bs], arrays(2), bufs, threads);
        res.unwrap();
        assert_eq!(f32s(&out[1]), &want[..]);
    }
}
