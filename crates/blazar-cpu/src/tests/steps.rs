//! The random schedule inside one statement (`exec/steps.rs`): a read-modify-write of
//! one shared element by the 16 threads of one block, observed access by access.

use super::build::*;
use crate::observe::{Access, AccessKind, Observer};
use crate::*;
use blazar_kir::*;
use blazar_runtime::Buffer;

/// The shared-memory accesses of a run: kind and lanes, in order.
type Accesses = Vec<(AccessKind, Vec<u32>)>;

/// Records the shared-memory accesses of line 2 of a launch: kind and lanes, in order.
#[derive(Default)]
struct Trace(Accesses);

impl Observer for Trace {
    fn access(&mut self, a: &Access) {
        if a.space == crate::observe::MemSpace::Shared && a.line == 2 {
            self.0
                .push((a.kind, a.lanes.iter().map(|&(l, _)| l).collect()));
        }
    }
}

/// `c = shared_zeros(1); c[0] = c[0] + 1; syncthreads; if blkpos == 0: y[0] = c[0]`.
fn counter() -> Kernel {
    let mut b = KB::new(1);
    let y = b.garr(Scalar::F32, 1);
    let c = b.shared(Scalar::F32, 1);
    b.build(vec![
        st(StmtKind::AllocShared {
            arr: c.id,
            dims: vec![ci(1)],
            zero: true,
        }),
        at_line(2, c.set(vec![ci(0)], add(c.at(vec![ci(0)]), cf(1.0)))),
        st(StmtKind::Barrier),
        iff(
            eq(special(Special::BlkPos, 1), ci(0)),
            vec![y.set(vec![ci(0)], c.at(vec![ci(0)]))],
            vec![],
        ),
    ])
}

/// The count and the access trace of one run under `seed`.
fn run_seeded(k: &Kernel, seed: u64) -> (f32, Accesses) {
    let mut plan = LaunchPlan {
        block_given: true,
        rank: 1,
        data_dims: [16, 1, 1, 1],
        block_dims: [16, 1, 1, 1],
        serial: false,
    };
    plan.data_dims[0] = 16;
    let mut buf = Buffer::F32(vec![0.0]);
    let mut trace = Trace::default();
    {
        let mut arrays = vec![ArrayArg {
            dims: vec![1],
            buf: &mut buf,
        }];
        let args = arrays_of(1);
        launch_scheduled(k, &plan, &args, &mut arrays, Some(&mut trace), seed).expect("runs");
    }
    (f32s(&buf)[0], trace.0)
}

fn arrays_of(n: usize) -> Vec<ArgVal> {
    (0..n).map(ArgVal::Array).collect()
}

/// Whether some thread `b` reads and writes the counter between thread `a`'s read
/// and `a`'s write: an update lost inside the statement, which neither lock step nor
/// groups running ahead to the barrier can produce.
fn nested(trace: &[(AccessKind, Vec<u32>)]) -> bool {
    let when = |kind: AccessKind, lane: u32| {
        trace
            .iter()
            .position(|(k, ls)| *k == kind && ls.contains(&lane))
    };
    (0..16).any(|a| {
        (0..16).filter(|&b| b != a).any(|b| {
            let t = [
                when(AccessKind::Read, a),
                when(AccessKind::Read, b),
                when(AccessKind::Write, b),
                when(AccessKind::Write, a),
            ];
            matches!(t, [Some(ra), Some(rb), Some(wb), Some(wa)] if ra < rb && rb < wb && wb < wa)
        })
    })
}

#[test]
fn a_statement_s_accesses_interleave_between_the_threads_of_a_block() {
    let k = counter();
    let runs: Vec<(f32, Accesses)> = (1..=40).map(|s| run_seeded(&k, s)).collect();
    // Reproducible per seed.
    assert_eq!(run_seeded(&k, 7), runs[6]);
    // Updates lost inside the statement under some seeds.
    assert!(
        runs.iter().any(|(_, t)| nested(t)),
        "no nested read-modify-write"
    );
    // The counts spread, mostly well below 16 (each group reads before others write).
    let counts: std::collections::BTreeSet<i64> = runs.iter().map(|r| r.0 as i64).collect();
    assert!(counts.len() >= 4, "{counts:?}");
    assert!(
        runs.iter().filter(|r| r.0 <= 8.0).count() >= 30,
        "{counts:?}"
    );
    // Every thread reads and writes once.
    for (_, t) in &runs {
        for kind in [AccessKind::Read, AccessKind::Write] {
            let mut lanes: Vec<u32> = (t.iter())
                .filter(|(k, _)| *k == kind)
                .flat_map(|(_, ls)| ls.iter().copied())
                .collect();
            lanes.sort();
            assert_eq!(lanes, (0..16).collect::<Vec<_>>());
        }
    }
}

/// Groups paused between the steps of a statement keep their values: a statement
/// with two loads and a per-thread result gives the lock-step result under any seed.
#[test]
fn paused_groups_keep_their_registers() {
    let mut b = KB::new(1);
    let x = b.garr(Scalar::F32, 1);
    let y = b.garr(Scalar::F32, 1);
    let s = b.shared(Scalar::F32, 1);
    let t = b.var(I32);
    let bp = special(Special::BlkPos, 1);
    let k = b.build(vec![
        st(StmtKind::AllocShared {
            arr: s.id,
            dims: vec![special(Special::BlkDim, 1)],
            zero: false,
        }),
        assign(&t, mul(bp.clone(), ci(3))),
        s.set(vec![bp.clone()], x.at(vec![pos(1)])),
        st(StmtKind::Barrier),
        y.set(
            vec![pos(1)],
            add(
                mul(s.at(vec![bp.clone()]), cast(t.clone(), F32)),
                s.at(vec![sub(ci(15), bp)]),
            ),
        ),
    ]);
    let xs: Vec<f32> = (0..32).map(|i| i as f32 * 0.5).collect();
    let want: Vec<f32> = (0..32)
        .map(|p| {
            let (blk, bp) = (p / 16 * 16, p % 16);
            xs[p] * (bp as f32 * 3.0) + xs[blk + 15 - bp]
        })
        .collect();
    for seed in 1..=24 {
        let mut plan = LaunchPlan {
            block_given: true,
            rank: 1,
            data_dims: [32, 1, 1, 1],
            block_dims: [16, 1, 1, 1],
            serial: false,
        };
        plan.data_dims[0] = 32;
        let (mut bx, mut by) = (Buffer::F32(xs.clone()), Buffer::F32(vec![0.0; 32]));
        {
            let mut arrays = vec![
                ArrayArg {
                    dims: vec![32],
                    buf: &mut bx,
                },
                ArrayArg {
                    dims: vec![32],
                    buf: &mut by,
                },
            ];
            launch_scheduled(&k, &plan, &arrays_of(2), &mut arrays, None, seed).expect("runs");
        }
        assert_eq!(f32s(&by), &want[..], "seed {seed}");
    }
}
