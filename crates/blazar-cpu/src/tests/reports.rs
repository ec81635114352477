//! Run-time errors (the first failing assert, the lowest failing position), kernel
//! outputs and the special parameters, in chunk and block mode.

use super::build::*;
use crate::*;
use blazar_kir::*;
use blazar_launch::KValue;
use blazar_runtime::Buffer;

#[test]
fn assert_reports_first_failure_with_line() {
    let mut b = KB::new(1);
    let k = b.build_assert();
    let (r, _) = run(&k, &[5000], &[1], vec![], vec![], 2);
    let e = r.unwrap_err();
    assert_eq!(
        (e.kind, e.line, e.message.as_str()),
        (KernelErrorKind::AssertFailed, 42, "assertion failed")
    );
    b = KB::new(1);
    let _ = b.var(I32);
}

/// Several failing threads: the lowest position's failure is reported, whatever the
/// statement order (position 400 fails at line 7, positions 300 and 9000 later, at line
/// 9; one chunk holds 300 and 400, a later one 9000), and the positions after a
/// failing one still run (`y` is written past it).
#[test]
fn the_lowest_failing_position_is_reported() {
    let mut b = KB::new(1);
    let y = b.garr(Scalar::I32, 1);
    let p = pos(1);
    let k = b.build(vec![
        at_line(
            7,
            st(StmtKind::Assert {
                cond: bin(BinOp::Ne, p.clone(), ci(400)),
            }),
        ),
        y.set(vec![p.clone()], ci(1)),
        at_line(
            9,
            st(StmtKind::Assert {
                cond: bin(
                    BinOp::And,
                    bin(BinOp::Ne, p.clone(), ci(300)),
                    bin(BinOp::Ne, p, ci(9000)),
                ),
            }),
        ),
    ]);
    for threads in [1, 2] {
        let (r, out) = run(
            &k,
            &[10_000],
            &[1],
            arrays(1),
            vec![(vec![10_000], Buffer::I32(vec![0; 10_000]))],
            threads,
        );
        assert_eq!(r.unwrap_err().line, 9);
        let ys = i32s(&out[0]);
        assert_eq!((ys[299], ys[300], ys[400], ys[401]), (1, 1, 0, 1));
    }
}

impl KB {
    /// `assert(pos != 3000)` at line 42.
    fn build_assert(self) -> Kernel {
        self.build(vec![at_line(
            42,
            st(StmtKind::Assert {
                cond: bin(BinOp::Ne, pos(1), ci(3000)),
            }),
        )])
    }
}

#[test]
fn outputs_min_max_sub_and_serial() {
    let mut b = KB::new(1);
    let x = b.garr(Scalar::I32, 1);
    let (o1, o2, o3) = (
        b.output(Scalar::I32, AtomicOp::Min),
        b.output(Scalar::I32, AtomicOp::Max),
        b.output(Scalar::F64, AtomicOp::Sub),
    );
    let v = x.at(vec![pos(1)]);
    let k = b.build(vec![
        acc(o1, v.clone()),
        acc(o2, v.clone()),
        acc(o3, cast(v, Ty::Scalar(Scalar::F64))),
    ]);
    let xs: Vec<i32> = (0..3000).map(|i| (i * 37) % 1001 - 500).collect();
    let mut plan = LaunchPlan {
        block_given: false,
        rank: 1,
        data_dims: [3000, 1, 1, 1],
        block_dims: [1; 4],
        serial: true,
    };
    let mut buf = Buffer::I32(xs.clone());
    let mut arrs = vec![ArrayArg {
        dims: vec![3000],
        buf: &mut buf,
    }];
    let r = launch(&k, &plan, &arrays(1), &mut arrs, &ExecOptions::default()).unwrap();
    let sum: i64 = xs.iter().map(|&v| v as i64).sum();
    let want = vec![
        KValue::Int(*xs.iter().min().unwrap() as i64),
        KValue::Int(*xs.iter().max().unwrap() as i64),
        KValue::Float(-(sum as f64)),
    ];
    assert_eq!(r, want);
    plan.serial = false;
    assert_eq!(
        launch(
            &k,
            &plan,
            &arrays(1),
            &mut arrs,
            &ExecOptions { threads: 2 }
        )
        .unwrap(),
        want
    );
}

#[test]
fn specials_in_chunk_and_block_mode() {
    // y[i, j] = blkidx * 1000 + blkpos * 100 + blkdim * 10 + blkcnt, per component.
    for with_barrier in [false, true] {
        let mut b = KB::new(2);
        let y = b.garr(Scalar::I32, 3);
        let p = pos(2);
        let (i, j) = (lane(p.clone(), 0), lane(p.clone(), 1));
        let mut body = vec![];
        if with_barrier {
            body.push(st(StmtKind::Barrier));
        }
        for c in 0..2 {
            let f = |s| lane(special(s, 2), c);
            let v = add(
                add(
                    mul(f(Special::BlkIdx), ci(1000)),
                    mul(f(Special::BlkPos), ci(100)),
                ),
                add(mul(f(Special::BlkDim), ci(10)), f(Special::BlkCnt)),
            );
            body.push(y.set(vec![i.clone(), j.clone(), ci(c)], v));
        }
        let k = b.build(body);
        let (h, w) = (6, 8);
        let (r, out) = run(
            &k,
            &[h, w],
            &[3, 4],
            arrays(1),
            vec![(vec![h, w, 2], Buffer::I32(vec![0; h * w * 2]))],
            2,
        );
        r.unwrap();
        let got = i32s(&out[0]);
        for i in 0..h {
            for j in 0..w {
                let want = |p: usize, bd: usize, n: usize| {
                    ((p / bd) * 1000 + (p % bd) * 100 + bd * 10 + n / bd) as i32
                };
                assert_eq!(got[(i * w + j) * 2], want(i, 3, h));
                assert_eq!(got[(i * w + j) * 2 + 1], want(j, 4, w));
            }
        }
    }
}
