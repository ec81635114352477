//! The bookkeeping of `MultiBackend` over simulated devices, with a stand-in executor
//! that runs hand-made kernels by name (see `Exec`). Each simulated device has memory of its own, so a copy the
//! backend forgets gives a wrong element here.

use crate::{Device, MultiBackend, SimDevice};
use blazar_kir::{
    ArrayDecl, ArrayTy, AtomicOp, Bind, Expr, ExprKind, Kernel, Output, Param, ReadMode, Scalar,
    Space, Special, Stmt, StmtKind, Ty, WriteMode,
};
use blazar_launch::{with_host_arrays, ArgVal, Backend, KValue, KernelError, LaunchPlan};
use blazar_value::{Array, ArrayRef, Buffer, ElemType, Residency};
use std::cell::Cell;
use std::rc::Rc;

/// Runs `add1`, `add`, `blur` (`a0 = a1[i-1] + a1[i] + a1[i+1]`, zero outside) and
/// `sum` (an output, the sum of `a0`) on the host copies it is handed, counting launches.
#[derive(Clone, Default)]
struct Exec(Rc<Cell<usize>>);

impl Backend for Exec {
    fn name(&self) -> &'static str {
        "test"
    }

    fn launch(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        // A band variant gets its first row as one more argument.
        let row0 = match args.last() {
            Some(ArgVal::Value(v)) => v.as_i64() as usize,
            _ => 0,
        };
        self.0.set(self.0.get() + 1);
        with_host_arrays(arrays, |a| {
            let read = |b: &Buffer, i: isize| {
                if i < 0 || i as usize >= b.len() {
                    0.0
                } else {
                    b.get_f64(i as usize)
                }
            };
            let mut sum = 0.0;
            for i in row0..row0 + plan.data_dims[0] {
                let j = i as isize;
                let x = match k.name.as_str() {
                    "add1" => read(a[1].buf, j) + 1.0,
                    "blur" => read(a[1].buf, j - 1) + read(a[1].buf, j) + read(a[1].buf, j + 1),
                    "sum" => {
                        sum += read(a[0].buf, j);
                        continue;
                    }
                    _ => read(a[1].buf, j) + read(a[2].buf, j),
                };
                a[0].buf.set_f64(i, x);
            }
            Ok(Some(if k.name == "sum" {
                vec![KValue::Float(sum)]
            } else {
                Vec::new()
            }))
        })
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        Ok(())
    }
}

fn kernel(name: &str, inputs: usize) -> Rc<Kernel> {
    let arr = ArrayDecl {
        name: "a".into(),
        ty: Ty::Array(ArrayTy {
            elem: Scalar::F64,
            rank: 1,
            read: ReadMode::default(),
            write: WriteMode::default(),
            is_const: false,
            space: Space::Global,
        }),
    };
    let pos = || Expr::new(ExprKind::Special(Special::Pos), Ty::I32);
    let load = |arr: u32, index: Expr| {
        Expr::new(
            ExprKind::Load {
                arr,
                index: vec![index],
                at: Default::default(),
            },
            Ty::Scalar(Scalar::F64),
        )
    };
    let shifted = |d: i64| {
        Expr::new(
            ExprKind::Binary(
                blazar_kir::BinOp::Add,
                Box::new(pos()),
                Box::new(Expr::int(d)),
            ),
            Ty::I32,
        )
    };
    let f64_add = |a: Expr, b: Expr| {
        Expr::new(
            ExprKind::Binary(blazar_kir::BinOp::Add, Box::new(a), Box::new(b)),
            Ty::Scalar(Scalar::F64),
        )
    };
    let (kind, outputs) = match name {
        "sum" => (
            StmtKind::Accumulate {
                output: 0,
                value: load(0, pos()),
            },
            vec![Output {
                name: "s".into(),
                ty: Scalar::F64,
                op: AtomicOp::Add,
            }],
        ),
        "blur" => (
            StmtKind::Store {
                arr: 0,
                index: vec![pos()],
                value: f64_add(
                    f64_add(load(1, shifted(-1)), load(1, pos())),
                    load(1, shifted(1)),
                ),
                at: Default::default(),
            },
            Vec::new(),
        ),
        _ => (
            StmtKind::Store {
                arr: 0,
                index: vec![pos()],
                value: load(1, pos()),
                at: Default::default(),
            },
            Vec::new(),
        ),
    };
    Rc::new(Kernel {
        name: name.into(),
        rank: 1,
        params: (0..=inputs)
            .map(|i| Param {
                name: format!("a{i}"),
                bind: Bind::Array(i as u32),
            })
            .collect(),
        outputs,
        vars: Vec::new(),
        arrays: vec![arr; inputs + 1],
        body: vec![Stmt { kind, line: 1 }],
        calls: Default::default(),
        facts: Default::default(),
    })
}

fn plan(n: usize) -> LaunchPlan {
    LaunchPlan {
        rank: 1,
        data_dims: [n, 1, 1, 1],
        block_dims: [1, 1, 1, 1],
        serial: false,
        block_given: false,
    }
}

/// A backend that runs every launch whole (placement and residency alone).
fn backend(n: usize) -> MultiBackend {
    let mut b = splitting(n);
    b.set_split_min(usize::MAX);
    b
}

fn splitting(n: usize) -> MultiBackend {
    devices(n, false, &Exec::default())
}

/// A backend over `n` simulated devices (lagging ones: `lag`) that splits every launch
/// that qualifies, its launches counted in `exec`.
fn devices(n: usize, lag: bool, exec: &Exec) -> MultiBackend {
    let devices = (0..n)
        .map(|i| Box::new(SimDevice::with_lag(i, Box::new(exec.clone()), lag)) as Box<dyn Device>)
        .collect();
    MultiBackend::new(devices, Box::new(exec.clone()))
}

fn vector(v: &[f64]) -> ArrayRef {
    ArrayRef::new(Array::new(vec![v.len()], Buffer::F64(v.to_vec())))
}

fn host(a: &ArrayRef) -> Vec<f64> {
    a.borrow().to_f64_vec()
}

fn run(b: &mut MultiBackend, k: &Rc<Kernel>, arrays: &[&ArrayRef]) {
    let args: Vec<ArgVal> = (0..arrays.len()).map(ArgVal::Array).collect();
    let arrays: Vec<ArrayRef> = arrays.iter().map(|a| (*a).clone()).collect();
    let n = arrays[0].meta().unwrap().dims[0];
    b.launch(k, &plan(n), &args, &arrays).unwrap().unwrap();
}

#[test]
fn independent_launches_spread_and_meet_through_a_peer_copy() {
    let mut b = backend(2);
    let (add1, add) = (kernel("add1", 1), kernel("add", 2));
    let (x1, x2) = (vector(&[1.0, 2.0, 3.0]), vector(&[10.0, 20.0, 30.0]));
    let y1 = ArrayRef::zeros(vec![3], ElemType::F64);
    let y2 = ArrayRef::zeros(vec![3], ElemType::F64);
    run(&mut b, &add1, &[&y1, &x1]);
    run(&mut b, &add1, &[&y2, &x2]);
    let log = b.log();
    assert_eq!(log.borrow().devices[0].launches(), 1);
    assert_eq!(
        log.borrow().devices[1].launches(),
        1,
        "the second went elsewhere"
    );
    assert_eq!(y1.data.residency(), Residency::Device);
    let z = ArrayRef::zeros(vec![3], ElemType::F64);
    run(&mut b, &add, &[&z, &y1, &y2]);
    let peer: usize = log
        .borrow()
        .devices
        .iter()
        .flat_map(|d| d.from_peer.values())
        .sum();
    assert_eq!(peer, 24, "one of y1, y2 crossed between the devices");
    assert_eq!(host(&z), vec![13.0, 24.0, 35.0]);
    assert_eq!(
        log.borrow()
            .devices
            .iter()
            .map(|d| d.to_host)
            .sum::<usize>(),
        24
    );
}

#[test]
fn a_host_write_makes_every_device_copy_stale() {
    let mut b = backend(2);
    let add1 = kernel("add1", 1);
    let x = vector(&[1.0, 2.0]);
    let y = ArrayRef::zeros(vec![2], ElemType::F64);
    b.pin(Some(0));
    run(&mut b, &add1, &[&y, &x]);
    // x is current on device 0 and the host; the host changes it.
    assert_eq!(x.data.residency(), Residency::Both);
    x.borrow_mut().buf.set_f64(0, 100.0);
    run(&mut b, &add1, &[&y, &x]);
    assert_eq!(
        host(&y),
        vec![101.0, 3.0],
        "device 0's stale copy of x was not used"
    );
    // x went up twice; y was cleared on the device, then stayed there.
    assert_eq!(b.log().borrow().devices[0].from_host, 16 * 2);
    assert_eq!(b.log().borrow().devices[0].zeroed, 1);
}

#[test]
fn a_device_write_makes_the_other_devices_copies_stale() {
    let mut b = backend(3);
    let add1 = kernel("add1", 1);
    let x = vector(&[1.0]);
    let y = ArrayRef::zeros(vec![1], ElemType::F64);
    let z = ArrayRef::zeros(vec![1], ElemType::F64);
    // y = x + 1 on device 0; z = y + 1 on device 1 (y copied there)
    b.pin(Some(0));
    run(&mut b, &add1, &[&y, &x]);
    b.pin(Some(1));
    run(&mut b, &add1, &[&z, &y]);
    // y = z + 1 on device 2: y's copy on device 1 is now stale
    b.pin(Some(2));
    run(&mut b, &add1, &[&y, &z]);
    b.pin(Some(1));
    run(&mut b, &add1, &[&z, &y]);
    assert_eq!(host(&z), vec![5.0]);
    assert_eq!(host(&y), vec![4.0]);
}

#[test]
fn pinning_past_the_devices_is_an_error() {
    let mut b = backend(2);
    assert_eq!(b.pin_device(Some(1)), Ok(()));
    let e = b.pin_device(Some(2)).unwrap_err();
    assert_eq!(e, "`gpu_index=2`: this run has 2 devices (0 to 1)");
}

/// Bytes copied between devices so far.
fn peer_bytes(b: &MultiBackend) -> usize {
    b.log()
        .borrow()
        .devices
        .iter()
        .flat_map(|d| d.from_peer.values().chain(d.staged.values()))
        .sum()
}

#[test]
fn a_split_launch_leaves_each_band_where_it_was_made() {
    let mut b = splitting(3);
    let add1 = kernel("add1", 1);
    let x = vector(&(0..10).map(f64::from).collect::<Vec<_>>());
    let y = ArrayRef::zeros(vec![10], ElemType::F64);
    run(&mut b, &add1, &[&y, &x]);
    let log = b.log();
    assert_eq!(log.borrow().split.get("add1"), Some(&1));
    for d in 0..3 {
        assert_eq!(
            log.borrow().devices[d].launches(),
            1,
            "one band on each device"
        );
    }
    // x went up from the host to device 0, and each other band's rows of it crossed
    // from there (3 and 4 rows of 8 bytes); y was cleared on each device.
    assert_eq!(peer_bytes(&b), 7 * 8);
    // Bands of 3, 3 and 4 rows: the host read downloads each from its device.
    assert_eq!(host(&y), (1..=10).map(f64::from).collect::<Vec<_>>());
    let to_host: Vec<usize> = log.borrow().devices.iter().map(|d| d.to_host).collect();
    assert_eq!(to_host, vec![3 * 8, 3 * 8, 4 * 8]);
}

#[test]
fn a_stencil_over_split_rows_copies_only_the_halo() {
    let mut b = splitting(2);
    let (add1, blur) = (kernel("add1", 1), kernel("blur", 1));
    let x = vector(&(0..10).map(f64::from).collect::<Vec<_>>());
    let y = ArrayRef::zeros(vec![10], ElemType::F64);
    let z = ArrayRef::zeros(vec![10], ElemType::F64);
    run(&mut b, &add1, &[&y, &x]);
    let before = peer_bytes(&b);
    run(&mut b, &blur, &[&z, &y]);
    assert_eq!(b.log().borrow().split.get("blur"), Some(&1));
    // Each band read one row of the other's: 2 rows of 8 bytes crossed.
    assert_eq!(peer_bytes(&b) - before, 16);
    let y: Vec<f64> = (1..=10).map(f64::from).collect();
    let want: Vec<f64> = (0..10)
        .map(|i| {
            let at = |j: isize| {
                if (0..10).contains(&j) {
                    y[j as usize]
                } else {
                    0.0
                }
            };
            at(i - 1) + at(i) + at(i + 1)
        })
        .collect();
    assert_eq!(host(&z), want);
}

#[test]
fn a_split_sum_combines_the_partials_of_the_bands() {
    let mut b = splitting(3);
    let (add1, sum) = (kernel("add1", 1), kernel("sum", 0));
    let x = vector(&(0..12).map(f64::from).collect::<Vec<_>>());
    let y = ArrayRef::zeros(vec![12], ElemType::F64);
    run(&mut b, &add1, &[&y, &x]);
    let before = peer_bytes(&b);
    let outs = b
        .launch(
            &sum,
            &plan(12),
            &[ArgVal::Array(0)],
            std::slice::from_ref(&y),
        )
        .unwrap()
        .unwrap();
    assert_eq!(outs, vec![KValue::Float(78.0)]);
    assert_eq!(b.log().borrow().split.get("sum"), Some(&1));
    assert_eq!(peer_bytes(&b), before, "each band summed its own rows");
}

#[test]
fn lagging_devices_run_only_when_waited_for_and_give_the_same_answers() {
    let exec = Exec::default();
    let mut b = devices(2, true, &exec);
    let (add1, add, blur) = (kernel("add1", 1), kernel("add", 2), kernel("blur", 1));
    let (x1, x2) = (
        vector(&[1.0, 2.0, 3.0, 4.0]),
        vector(&[10.0, 20.0, 30.0, 40.0]),
    );
    let y1 = ArrayRef::zeros(vec![4], ElemType::F64);
    let y2 = ArrayRef::zeros(vec![4], ElemType::F64);
    let z = ArrayRef::zeros(vec![4], ElemType::F64);
    let w = ArrayRef::zeros(vec![4], ElemType::F64);
    b.pin(Some(0));
    run(&mut b, &add1, &[&y1, &x1]);
    b.pin(Some(1));
    run(&mut b, &add1, &[&y2, &x2]);
    assert_eq!(exec.0.get(), 0, "nothing has run: nobody waited");
    // Device 1 adds y1 (copied from device 0 after its launch) and y2.
    run(&mut b, &add, &[&z, &y1, &y2]);
    // Device 0 overwrites y1 while device 1's copy of it may not have run yet.
    b.pin(Some(0));
    run(&mut b, &add1, &[&y1, &x2]);
    b.pin(None);
    // Split: each band needs a row of the other's z.
    run(&mut b, &blur, &[&w, &z]);
    assert_eq!(host(&z), vec![13.0, 24.0, 35.0, 46.0]);
    assert_eq!(host(&w), vec![37.0, 72.0, 105.0, 81.0]);
    assert_eq!(host(&y1), vec![11.0, 21.0, 31.0, 41.0]);
    let waits: usize = b.log().borrow().devices.iter().map(|d| d.waits).sum();
    assert!(
        waits >= 3,
        "copies waited for their sources' launches: {waits}"
    );
}

#[test]
fn a_copy_that_does_not_wait_reads_what_a_lagging_device_has_not_written() {
    // The simulated devices alone: the model that makes a forgotten wait visible.
    let exec = Exec::default();
    let mut d0 = SimDevice::with_lag(0, Box::new(exec.clone()), true);
    let mut d1 = SimDevice::with_lag(1, Box::new(exec.clone()), true);
    let mut src = d0.alloc(ElemType::F64, 2).unwrap();
    d0.upload(&mut *src, &Buffer::F64(vec![5.0, 6.0])).unwrap();
    let ev = d0.record().unwrap();
    let mut lost = d1.alloc(ElemType::F64, 2).unwrap();
    d1.copy_range_from(&mut *lost, &*src, 0, 0, 2).unwrap();
    let mut kept = d1.alloc(ElemType::F64, 2).unwrap();
    d1.wait(&ev).unwrap();
    d1.copy_range_from(&mut *kept, &*src, 0, 0, 2).unwrap();
    let mut got = Buffer::F64(vec![0.0; 2]);
    kept.download(&mut got).unwrap();
    assert_eq!((got.get_f64(0), got.get_f64(1)), (5.0, 6.0));
    lost.download(&mut got).unwrap();
    assert!(
        got.get_f64(0).is_nan(),
        "the copy ran before the upload it did not wait for"
    );
}

#[test]
fn kernels_that_read_other_rows_of_what_they_write_run_whole() {
    let mut b = splitting(2);
    // a0[pos] = a0[pos + 1]: reads a row that another band writes.
    let mut k = (*kernel("add1", 1)).clone();
    let next = Expr::new(
        ExprKind::Binary(
            blazar_kir::BinOp::Add,
            Box::new(Expr::new(ExprKind::Special(Special::Pos), Ty::I32)),
            Box::new(Expr::int(1)),
        ),
        Ty::I32,
    );
    if let StmtKind::Store { value, .. } = &mut k.body[0].kind {
        *value = Expr::new(
            ExprKind::Load {
                arr: 0,
                index: vec![next],
                at: Default::default(),
            },
            Ty::Scalar(Scalar::F64),
        );
    }
    let k = Rc::new(k);
    let why = crate::split::analyse(&k, &[vec![10], vec![10]], 10, &[Some(0), Some(1)]);
    assert_eq!(why.unwrap_err(), "an access to `a` may reach another row");
    let x = vector(&[0.0; 10]);
    let y = ArrayRef::zeros(vec![10], ElemType::F64);
    run(&mut b, &k, &[&y, &x]);
    assert!(b.log().borrow().split.is_empty());
    assert_eq!(b.log().borrow().whole.len(), 1);
}

#[test]
fn small_independent_launches_stay_on_one_device_and_nothing_crosses() {
    let mut b = backend(2);
    // Launches of less work than this do not start a device of their own.
    b.set_spread_min(1000);
    let (add1, add) = (kernel("add1", 1), kernel("add", 2));
    let (x1, x2) = (vector(&[1.0, 2.0, 3.0]), vector(&[10.0, 20.0, 30.0]));
    let y1 = ArrayRef::zeros(vec![3], ElemType::F64);
    let y2 = ArrayRef::zeros(vec![3], ElemType::F64);
    let z = ArrayRef::zeros(vec![3], ElemType::F64);
    run(&mut b, &add1, &[&y1, &x1]);
    run(&mut b, &add1, &[&y2, &x2]);
    run(&mut b, &add, &[&z, &y1, &y2]);
    assert_eq!(host(&z), vec![13.0, 24.0, 35.0]);
    let log = b.log();
    assert_eq!(log.borrow().devices[0].launches(), 3);
    assert_eq!(log.borrow().devices[1].launches(), 0);
    assert_eq!(peer_bytes(&b), 0, "no array crossed between the devices");
}

#[test]
fn a_split_stencil_runs_its_interior_before_its_halo_arrives() {
    // 12 rows over 3 lagging devices: bands of 4; each band's edge rows next to another
    // band run after the halo copy, the rows between them before it.
    let exec = Exec::default();
    let mut b = devices(3, true, &exec);
    let (add1, blur) = (kernel("add1", 1), kernel("blur", 1));
    let x = vector(&(0..12).map(f64::from).collect::<Vec<_>>());
    let y = ArrayRef::zeros(vec![12], ElemType::F64);
    let z = ArrayRef::zeros(vec![12], ElemType::F64);
    let w = ArrayRef::zeros(vec![12], ElemType::F64);
    run(&mut b, &add1, &[&y, &x]);
    let before = peer_bytes(&b);
    run(&mut b, &blur, &[&z, &y]);
    // Again, over the stencil's own result: its halo rows come from bands written by
    // the launch before, on the other devices.
    run(&mut b, &blur, &[&w, &z]);
    let log = b.log();
    // Bands 0 and 2 have one neighbour, band 1 two: one interior and one edge launch,
    // or one interior and two edge launches, per stencil.
    assert_eq!(log.borrow().overlapped, 6);
    let launches: Vec<usize> = log.borrow().devices.iter().map(|d| d.launches()).collect();
    assert_eq!(launches, vec![1 + 2 * 2, 1 + 2 * 3, 1 + 2 * 2]);
    // Only halo rows crossed: 4 rows of 8 bytes per stencil.
    assert_eq!(peer_bytes(&b) - before, 2 * 4 * 8);
    let blur_of = |v: &[f64]| -> Vec<f64> {
        let at = |j: isize| {
            usize::try_from(j)
                .ok()
                .and_then(|j| v.get(j))
                .copied()
                .unwrap_or(0.0)
        };
        (0..v.len() as isize)
            .map(|i| at(i - 1) + at(i) + at(i + 1))
            .collect()
    };
    let want_z = blur_of(&(1..=12).map(f64::from).collect::<Vec<_>>());
    assert_eq!(host(&z), want_z);
    assert_eq!(host(&w), blur_of(&want_z));
}
