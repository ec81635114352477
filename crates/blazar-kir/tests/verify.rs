//! Verifier tests: the hand-built kernels pass, and each kind of broken kernel is
//! rejected with a message naming the line and the problem.

mod common;

use blazar_kir::verify::verify;
use blazar_kir::*;
use common::*;

/// Asserts that `k` fails verification with an error containing `needle`.
#[track_caller]
fn rejects(k: &Kernel, needle: &str) {
    match verify(k) {
        Ok(()) => panic!("kernel was accepted; expected an error containing {needle:?}"),
        Err(errs) => assert!(
            errs.iter().any(|m| m.contains(needle)),
            "no error contains {needle:?}: {errs:#?}"
        ),
    }
}

/// `gamma()` with `stmt` appended at line 99.
fn gamma_with(kind: StmtKind) -> Kernel {
    let mut k = gamma();
    k.body.push(s(kind, 99));
    k
}

/// `with_output()` (rank 2, vars v: f32x3, a: f32, b: u8) assigning `value` to `var`.
fn assign(var: VarId, value: Expr) -> Kernel {
    let mut k = with_output();
    k.body.push(s(StmtKind::Assign { var, value }, 99));
    k
}

#[test]
fn good_kernels_verify() {
    for k in [gamma(), reduction(), with_output()] {
        assert_eq!(verify(&k), Ok(()), "{}", k.name);
    }
}

#[test]
fn header_errors() {
    let mut k = gamma();
    k.params.push(param("again", Bind::Var(0)));
    rejects(&k, "kernel gamma: param again: %0 is already bound");
    let mut k = gamma();
    k.params.push(param("ghost", Bind::Array(4)));
    rejects(&k, "param ghost: unknown array @4 (kernel has 1)");
    let mut k = reduction();
    k.params.push(param("vals", Bind::Array(2)));
    rejects(&k, "binds @2 in Shared space");
    let mut k = gamma();
    k.rank = 0;
    rejects(&k, "rank 0 is outside 1..=4");
    let mut k = gamma();
    k.vars[0].ty = k.arrays[0].ty;
    rejects(&k, "variable %0 (gamma) has type global");
    let mut k = with_output();
    k.outputs[0].op = AtomicOp::Xor;
    rejects(&k, "output total: `^=` is not defined on f32");
}

#[test]
fn statement_errors() {
    rejects(
        &assign(1, Expr::int(1)),
        "L99: assigning `1` of type i32 to %1 of type f32",
    );
    rejects(
        &assign(7, Expr::int(1)),
        "L99: unknown variable %7 (kernel has 3)",
    );
    let set = |var, lane: Expr, value| gamma_with(StmtKind::SetLane { var, lane, value });
    rejects(
        &set(0, Expr::int(0), f32c(1.0)),
        "lane assignment to %0 of non-vector type f32",
    );
    let mut k = with_output();
    k.body.push(s(
        StmtKind::SetLane {
            var: 0,
            lane: f32c(0.0),
            value: f32c(1.0),
        },
        99,
    ));
    rejects(
        &k,
        "lane `0.0f32` of %0 has type f32, not an integer scalar",
    );
    let store = |arr, index, value| {
        gamma_with(StmtKind::Store {
            arr,
            index,
            value,
            at: Default::default(),
        })
    };
    rejects(&store(0, vec![], f32c(1.0)), "@0 is indexed with no index");
    rejects(
        &store(0, vec![Expr::int(0); 4], f32c(1.0)),
        "@0 of rank 3 is indexed with 4 indices",
    );
    rejects(
        &store(0, vec![f32c(0.0)], f32c(1.0)),
        "index 0 of @0 `0.0f32` has type f32",
    );
    rejects(
        &store(0, vec![Expr::int(0)], Expr::int(1)),
        "writing `1` of type i32 into @0 with elements of type f32",
    );
    rejects(
        &store(3, vec![Expr::int(0)], f32c(1.0)),
        "L99: unknown array @3",
    );
    let mut k = reduction();
    k.body.push(s(
        StmtKind::Store {
            arr: 0,
            index: vec![Expr::int(0)],
            value: f32c(1.0),
            at: Default::default(),
        },
        99,
    ));
    rejects(&k, "L99: writing to const array @0");
    let upd = gamma_with(StmtKind::Update {
        arr: 0,
        index: vec![Expr::int(0)],
        op: AtomicOp::Xor,
        value: f32c(1.0),
        at: Default::default(),
    });
    rejects(&upd, "atomic update of @0: `^=` is not defined on f32");
    rejects(
        &gamma_with(StmtKind::Accumulate {
            output: 0,
            value: f32c(1.0),
        }),
        "unknown output 0 (kernel has 0)",
    );
    let mut k = with_output();
    k.body.push(s(
        StmtKind::Accumulate {
            output: 0,
            value: Expr::int(1),
        },
        99,
    ));
    rejects(
        &k,
        "accumulating `1` of type i32 into output total of type f32",
    );
}

#[test]
fn control_flow_errors() {
    let iff = StmtKind::If {
        cond: Expr::int(1),
        then: vec![],
        els: vec![],
    };
    rejects(
        &gamma_with(iff),
        "L99: if condition `1` has type i32, not bool",
    );
    rejects(
        &gamma_with(StmtKind::While {
            cond: f32c(1.0),
            body: vec![],
        }),
        "while condition `1.0f32`",
    );
    rejects(
        &gamma_with(StmtKind::Assert { cond: Expr::int(0) }),
        "assert condition",
    );
    let for_ = |var, start: Expr, body| StmtKind::For {
        var,
        start,
        step: f32c(1.0),
        end: f32c(3.0),
        body,
    };
    rejects(
        &gamma_with(for_(0, Expr::int(0), vec![])),
        "for start `0` has type i32 but %0 is f32",
    );
    rejects(
        &assign(0, f32c(0.0)),
        "assigning `0.0f32` of type f32 to %0 of type f32x3",
    );
    let mut k = with_output();
    k.body.push(s(for_(0, f32c(0.0), vec![]), 99));
    rejects(
        &k,
        "for variable %0 has type f32x3, not an int or float scalar",
    );
    rejects(
        &gamma_with(StmtKind::Break(0)),
        "L99: break 0 with only 0 enclosing loop(s)",
    );
    let inner = vec![s(StmtKind::Continue(1), 100)];
    rejects(
        &gamma_with(StmtKind::While {
            cond: Expr::boolean(true),
            body: inner,
        }),
        "L100: continue 1 with only 1",
    );
    let nested = vec![s(
        StmtKind::While {
            cond: Expr::boolean(true),
            body: vec![s(StmtKind::Break(1), 101)],
        },
        100,
    )];
    assert_eq!(
        verify(&gamma_with(StmtKind::While {
            cond: Expr::boolean(true),
            body: nested
        })),
        Ok(())
    );
}

#[test]
fn allocation_errors() {
    let shared = |arr, dims| {
        gamma_with(StmtKind::AllocShared {
            arr,
            dims,
            zero: true,
        })
    };
    rejects(
        &shared(0, vec![Expr::int(4)]),
        "allocating @0 as Shared but it is declared in Global space",
    );
    let mut k = reduction();
    k.body.push(s(
        StmtKind::AllocShared {
            arr: 2,
            dims: vec![Expr::int(4); 2],
            zero: false,
        },
        99,
    ));
    rejects(&k, "allocating @2 of rank 1 with 2 dimensions");
    let mut k = with_output();
    k.body.push(s(
        StmtKind::AllocLocal {
            arr: 1,
            dims: vec![f32c(4.0)],
            fill: Fill::Zero,
        },
        99,
    ));
    rejects(&k, "dimension 0 of @1 `4.0f32` has type f32");
    let mut k = with_output();
    k.body.push(s(
        StmtKind::AllocLocal {
            arr: 1,
            dims: vec![],
            fill: Fill::Uninit,
        },
        99,
    ));
    rejects(&k, "allocating @1 of rank 1 with 0 dimensions");
}
