//! The bookkeeping of `MultiBackend` over simulated devices, with a stand-in executor
//! that runs two hand-made kernels by name: `add1` (`a0 = a1 + 1`) and `add`
//! (`a0 = a1 + a2`). Each simulated device has memory of its own, so a copy the
//! backend forgets gives a wrong element here.

use crate::{Device, MultiBackend, SimDevice};
use blazar_kir::{
    ArrayDecl, ArrayTy, Bind, Expr, ExprKind, Kernel, Param, ReadMode, Scalar, Space, Special,
    Stmt, StmtKind, Ty, WriteMode,
};
use blazar_launch::{with_host_arrays, ArgVal, Backend, KValue, KernelError, LaunchPlan};
use blazar_value::{Array, ArrayRef, Buffer, ElemType, Residency};
use std::rc::Rc;

/// Runs `add1` and `add` on the host copies it is handed.
struct Exec;

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
        with_host_arrays(arrays, |a| {
            let read = |b: &Buffer, i: usize| b.get_f64(i);
            for i in row0..row0 + plan.data_dims[0] {
                let x = match k.name.as_str() {
                    "add1" => read(a[1].buf, i) + 1.0,
                    _ => read(a[1].buf, i) + read(a[2].buf, i),
                };
                a[0].buf.set_f64(i, x);
            }
            Ok(Some(Vec::new()))
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
    let pos = Expr::new(ExprKind::Special(Special::Pos), Ty::I32);
    let value = Expr::new(
        ExprKind::Load {
            arr: 1,
            index: vec![pos.clone()],
        },
        Ty::Scalar(Scalar::F64),
    );
    Rc::new(Kernel {
        name: name.into(),
        rank: 1,
        params: (0..=inputs)
            .map(|i| Param {
                name: format!("a{i}"),
                bind: Bind::Array(i as u32),
            })
            .collect(),
        outputs: Vec::new(),
        vars: Vec::new(),
        arrays: vec![arr; inputs + 1],
        body: vec![Stmt {
            kind: StmtKind::Store {
                arr: 0,
                index: vec![pos],
                value,
            },
            line: 1,
        }],
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
    let devices = (0..n)
        .map(|i| Box::new(SimDevice::new(i, Box::new(Exec))) as Box<dyn Device>)
        .collect();
    MultiBackend::new(devices, Box::new(Exec))
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

#[test]
fn a_split_launch_runs_in_bands_and_the_home_device_gathers_them() {
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
    // Bands of 3, 3 and 4 rows; the home device (0) gathered 7 rows of 8 bytes.
    let gathered: usize = log.borrow().devices[0].from_peer.values().sum();
    assert_eq!(gathered, 7 * 8);
    assert_eq!(host(&y), (1..=10).map(f64::from).collect::<Vec<_>>());
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
