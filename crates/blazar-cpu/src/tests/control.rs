//! Control flow under masks, barriers, atomics and reductions.

use super::build::*;
use crate::*;
use blazar_kir::*;
use blazar_launch::KValue;
use blazar_runtime::Buffer;

/// `hist[x[pos]] += 1` over a u8 image, on global memory.
#[test]
fn global_histogram_counts_exactly() {
    let mut b = KB::new(1);
    let x = b.garr(Scalar::U8, 1);
    let h = b.garr(Scalar::I32, 1);
    let k = b.build(vec![h.upd(
        vec![cast(x.at(vec![pos(1)]), I32)],
        AtomicOp::Add,
        ci(1),
    )]);
    let n = 100_003;
    let xs: Vec<u8> = (0..n).map(|i| ((i * 7919) % 251) as u8).collect();
    let mut want = vec![0i32; 256];
    for &v in &xs {
        want[v as usize] += 1;
    }
    for threads in [1, 2, 4] {
        let bufs = vec![
            (vec![n], Buffer::U8(xs.clone())),
            (vec![256], Buffer::I32(vec![0; 256])),
        ];
        let (r, out) = run(&k, &[n], &[1], arrays(2), bufs, threads);
        r.unwrap();
        assert_eq!(i32s(&out[1]), &want[..]);
    }
}

/// A 256-bin histogram through shared memory: zero, barrier, atomics, barrier, flush.
#[test]
fn shared_histogram() {
    let mut b = KB::new(1);
    let x = b.garr(Scalar::I32, 1);
    let h = b.garr(Scalar::I32, 1);
    let s = b.shared(Scalar::I32, 1);
    let bp = special(Special::BlkPos, 1);
    let k = b.build(vec![
        st(StmtKind::AllocShared {
            arr: s.id,
            dims: vec![ci(256)],
            zero: true,
        }),
        st(StmtKind::Barrier),
        s.upd(vec![x.at(vec![pos(1)])], AtomicOp::Add, ci(1)),
        st(StmtKind::Barrier),
        h.upd(vec![bp.clone()], AtomicOp::Add, s.at(vec![bp])),
    ]);
    let n = 256 * 40;
    let xs: Vec<i32> = (0..n).map(|i| ((i * 31 + i / 7) % 256) as i32).collect();
    let mut want = vec![0i32; 256];
    for &v in &xs {
        want[v as usize] += 1;
    }
    let bufs = vec![
        (vec![n], Buffer::I32(xs)),
        (vec![256], Buffer::I32(vec![0; 256])),
    ];
    let (r, out) = run(&k, &[n], &[256], arrays(2), bufs, 2);
    r.unwrap();
    assert_eq!(i32s(&out[1]), &want[..]);
}

/// Block sum: shared load, `bit = 1; while bit < blkdim { if blkpos % (2 bit) == 0
/// { s[p] += s[p + bit] }; barrier; bit *= 2 }`, thread 0 accumulates the output.
fn block_sum_kernel() -> Kernel {
    let mut b = KB::new(1);
    let x = b.garr(Scalar::F32, 1);
    let s = b.shared(Scalar::F32, 1);
    let out = b.output(Scalar::F32, AtomicOp::Add);
    let bit = b.var(I32);
    let bp = special(Special::BlkPos, 1);
    let bd = special(Special::BlkDim, 1);
    let even = eq(bin(BinOp::Rem, bp.clone(), mul(bit.clone(), ci(2))), ci(0));
    b.build(vec![
        st(StmtKind::AllocShared {
            arr: s.id,
            dims: vec![bd.clone()],
            zero: false,
        }),
        s.set(vec![bp.clone()], x.at(vec![pos(1)])),
        st(StmtKind::Barrier),
        assign(&bit, ci(1)),
        whl(
            lt(bit.clone(), bd),
            vec![
                iff(
                    even,
                    vec![s.upd(
                        vec![bp.clone()],
                        AtomicOp::Add,
                        s.at(vec![add(bp.clone(), bit.clone())]),
                    )],
                    vec![],
                ),
                st(StmtKind::Barrier),
                assign(&bit, mul(bit.clone(), ci(2))),
            ],
        ),
        iff(eq(bp, ci(0)), vec![acc(out, s.at(vec![ci(0)]))], vec![]),
    ])
}

#[test]
fn block_sum_reduction_is_exact_and_thread_independent() {
    let k = block_sum_kernel();
    let n = 1 << 16;
    let xs: Vec<f32> = (0..n).map(|i| (i % 13) as f32).collect();
    let want: f32 = xs.iter().map(|&v| v as f64).sum::<f64>() as f32;
    let mut got = vec![];
    for threads in [1, 2, 3] {
        let (r, _) = run(
            &k,
            &[n],
            &[256],
            arrays(1),
            vec![(vec![n], Buffer::F32(xs.clone()))],
            threads,
        );
        got.push(r.unwrap());
    }
    assert_eq!(got[0], vec![KValue::Float(want as f64)]);
    assert!(got.iter().all(|g| *g == got[0]));
}

/// The tree sum with its barrier inside the thread-dependent `if` (threads whose pair
/// is out of range leave the reduction for good): `bit = 1; while bit < blkdim {
/// i = 2 bit blkpos; if i + bit < blkdim { s[i] += s[i + bit]; barrier }; bit *= 2 }`.
#[test]
fn a_barrier_inside_a_thread_dependent_branch_waits_for_the_threads_that_reach_it() {
    let mut b = KB::new(1);
    let x = b.garr(Scalar::F32, 1);
    let s = b.shared(Scalar::F32, 1);
    let out = b.output(Scalar::F32, AtomicOp::Add);
    let bit = b.var(I32);
    let i = b.var(I32);
    let bp = special(Special::BlkPos, 1);
    let bd = special(Special::BlkDim, 1);
    let k = b.build(vec![
        st(StmtKind::AllocShared {
            arr: s.id,
            dims: vec![bd.clone()],
            zero: false,
        }),
        s.set(vec![bp.clone()], x.at(vec![pos(1)])),
        st(StmtKind::Barrier),
        assign(&bit, ci(1)),
        whl(
            lt(bit.clone(), bd.clone()),
            vec![
                assign(&i, mul(mul(ci(2), bit.clone()), bp.clone())),
                iff(
                    lt(add(i.clone(), bit.clone()), bd),
                    vec![
                        s.set(
                            vec![i.clone()],
                            add(
                                s.at(vec![i.clone()]),
                                s.at(vec![add(i.clone(), bit.clone())]),
                            ),
                        ),
                        st(StmtKind::Barrier),
                    ],
                    vec![],
                ),
                assign(&bit, mul(bit.clone(), ci(2))),
            ],
        ),
        iff(eq(bp, ci(0)), vec![acc(out, s.at(vec![ci(0)]))], vec![]),
    ]);
    let n = 1 << 12;
    let xs: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let want: f32 = xs.iter().sum();
    let (r, _) = run(
        &k,
        &[n],
        &[256],
        arrays(1),
        vec![(vec![n], Buffer::F32(xs))],
        2,
    );
    assert_eq!(r.unwrap(), vec![KValue::Float(want as f64)]);
}

/// Mandelbrot-like: iterate `z = z^2 + c` until `|z|^2 > 4` (break) or 100 steps.
#[test]
fn mandelbrot_iteration_counts() {
    let mut b = KB::new(2);
    let y = b.garr(Scalar::I32, 2);
    let it = b.var(I32);
    let (zr, zi, t) = (b.var(F32), b.var(F32), b.var(F32));
    let p = pos(2);
    let (i, j) = (lane(p.clone(), 0), lane(p.clone(), 1));
    let cr = sub(mul(cast(j.clone(), F32), cf(3.0 / 64.0)), cf(2.0));
    let ci_ = sub(mul(cast(i.clone(), F32), cf(2.4 / 48.0)), cf(1.2));
    let mag = add(mul(zr.clone(), zr.clone()), mul(zi.clone(), zi.clone()));
    let k = b.build(vec![
        assign(&zr, cf(0.0)),
        assign(&zi, cf(0.0)),
        assign(&it, ci(0)),
        whl(
            lt(it.clone(), ci(100)),
            vec![
                iff(
                    bin(BinOp::Gt, mag, cf(4.0)),
                    vec![st(StmtKind::Break(0))],
                    vec![],
                ),
                assign(
                    &t,
                    add(
                        sub(mul(zr.clone(), zr.clone()), mul(zi.clone(), zi.clone())),
                        cr,
                    ),
                ),
                assign(&zi, add(mul(mul(cf(2.0), zr.clone()), zi.clone()), ci_)),
                assign(&zr, t.clone()),
                assign(&it, add(it.clone(), ci(1))),
            ],
        ),
        y.set(vec![i, j], it),
    ]);
    let (h, w) = (48, 64);
    let (r, out) = run(
        &k,
        &[h, w],
        &[1, 1],
        arrays(1),
        vec![(vec![h, w], Buffer::I32(vec![0; h * w]))],
        2,
    );
    r.unwrap();
    for (l, &got) in i32s(&out[0]).iter().enumerate() {
        let (i, j) = ((l / w) as f32, (l % w) as f32);
        let (cr, ci) = (j * (3.0 / 64.0) - 2.0, i * (2.4 / 48.0) - 1.2);
        let (mut zr, mut zi, mut n) = (0f32, 0f32, 0);
        while n < 100 && zr * zr + zi * zi <= 4.0 {
            let t = zr * zr - zi * zi + cr;
            zi = 2.0 * zr * zi + ci;
            zr = t;
            n += 1;
        }
        assert_eq!(got, n, "pixel {l}");
    }
}

/// Nested loops with continue, break(1), continue(1) and return.
#[test]
fn break_continue_return_masks() {
    let mut b = KB::new(1);
    let y = b.garr(Scalar::I32, 1);
    let (i, j, s) = (b.var(I32), b.var(I32), b.var(I32));
    let p = pos(1);
    let k = b.build(vec![
        iff(eq(p.clone(), ci(3)), vec![st(StmtKind::Return)], vec![]),
        assign(&s, ci(0)),
        forr(
            &i,
            ci(0),
            ci(1),
            ci(9),
            vec![
                iff(
                    eq(bin(BinOp::Rem, i.clone(), ci(2)), ci(0)),
                    vec![st(StmtKind::Continue(0))],
                    vec![],
                ),
                iff(
                    lt(p.clone(), i.clone()),
                    vec![st(StmtKind::Break(0))],
                    vec![],
                ),
                forr(
                    &j,
                    ci(0),
                    ci(1),
                    ci(100),
                    vec![
                        iff(
                            eq(j.clone(), ci(2)),
                            vec![st(StmtKind::Continue(1))],
                            vec![],
                        ),
                        iff(
                            lt(ci(20), add(s.clone(), p.clone())),
                            vec![st(StmtKind::Break(1))],
                            vec![],
                        ),
                        assign(&s, add(s.clone(), i.clone())),
                    ],
                ),
            ],
        ),
        y.set(vec![p.clone()], s.clone()),
    ]);
    let n = 12;
    let (r, out) = run(
        &k,
        &[n],
        &[1],
        arrays(1),
        vec![(vec![n], Buffer::I32(vec![-7; n]))],
        0,
    );
    r.unwrap();
    let want: Vec<i32> = (0..n as i32)
        .map(|p| {
            if p == 3 {
                return -7;
            }
            let mut s = 0;
            'outer: for i in 0..=9 {
                if i % 2 == 0 {
                    continue;
                }
                if p < i {
                    break;
                }
                for j in 0..=100 {
                    if j == 2 {
                        continue 'outer;
                    }
                    if 20 < s + p {
                        break 'outer;
                    }
                    s += i;
                }
            }
            s
        })
        .collect();
    assert_eq!(i32s(&out[0]), &want[..]);
}

#[test]
fn a_barrier_skipped_then_reached_is_an_error() {
    // Threads 2.. skip the barrier at line 12 (allowed: they could run on to the end),
    // then wait at the one at line 14, which their block passed without them.
    let mut b = KB::new(1);
    let y = b.garr(Scalar::I32, 1);
    let bp = special(Special::BlkPos, 1);
    let k = b.build(vec![
        iff(
            lt(bp.clone(), ci(2)),
            vec![at_line(12, st(StmtKind::Barrier))],
            vec![],
        ),
        at_line(14, st(StmtKind::Barrier)),
        y.set(vec![pos(1)], bp),
    ]);
    let (r, _) = run(
        &k,
        &[64],
        &[8],
        arrays(1),
        vec![(vec![64], Buffer::I32(vec![0; 64]))],
        0,
    );
    let e = r.unwrap_err();
    assert_eq!((e.kind, e.line), (KernelErrorKind::Divergence, 14));
    assert_eq!(
        e.message,
        "syncthreads at line 14 is reached by a thread that skipped an earlier barrier of its block (a thread may leave out barriers only on its way to the end of the kernel)"
    );
    // After a return by some threads, the barrier is fine for the others.
    let mut b = KB::new(1);
    let y = b.garr(Scalar::I32, 1);
    let bp = special(Special::BlkPos, 1);
    let k = b.build(vec![
        iff(lt(bp.clone(), ci(2)), vec![st(StmtKind::Return)], vec![]),
        st(StmtKind::Barrier),
        y.set(vec![pos(1)], bp),
    ]);
    let (r, out) = run(
        &k,
        &[16],
        &[8],
        arrays(1),
        vec![(vec![16], Buffer::I32(vec![-1; 16]))],
        0,
    );
    r.unwrap();
    assert_eq!(
        i32s(&out[0]),
        [-1, -1, 2, 3, 4, 5, 6, 7, -1, -1, 2, 3, 4, 5, 6, 7]
    );
}
