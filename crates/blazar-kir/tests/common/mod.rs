//! Hand-built KIR kernels shared by the printer and verifier tests.
#![allow(dead_code)]

use blazar_kir::*;

pub fn s(kind: StmtKind, line: u32) -> Stmt {
    Stmt { kind, line }
}

pub fn e(kind: ExprKind, ty: Ty) -> Expr {
    Expr::new(kind, ty)
}

pub const F32: Ty = Ty::Scalar(Scalar::F32);

pub fn f32c(v: f64) -> Expr {
    e(ExprKind::Const(Const::Float(v)), F32)
}

pub fn var(v: VarId, ty: Ty) -> Expr {
    e(ExprKind::Var(v), ty)
}

pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    let ty = if op.is_comparison() { Ty::BOOL } else { a.ty };
    e(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
}

pub fn special(sp: Special, ty: Ty) -> Expr {
    e(ExprKind::Special(sp), ty)
}

pub fn lane(v: Expr, i: i64) -> Expr {
    let ty = Ty::Scalar(v.ty.elem());
    e(ExprKind::Lane(Box::new(v), Box::new(Expr::int(i))), ty)
}

pub fn load(arr: ArrId, elem: Scalar, index: Vec<Expr>) -> Expr {
    e(
        ExprKind::Load {
            arr,
            index,
            at: Default::default(),
        },
        Ty::Scalar(elem),
    )
}

pub fn arr(elem: Scalar, rank: u8, space: Space) -> Ty {
    Ty::Array(ArrayTy {
        elem,
        rank,
        read: ReadMode::Zero,
        write: WriteMode::Skip,
        is_const: false,
        space,
    })
}

pub fn vdecl(name: &str, ty: Ty) -> VarDecl {
    VarDecl {
        name: name.into(),
        ty,
    }
}

pub fn adecl(name: &str, ty: Ty) -> ArrayDecl {
    ArrayDecl {
        name: name.into(),
        ty,
    }
}

pub fn param(name: &str, bind: Bind) -> Param {
    Param {
        name: name.into(),
        bind,
    }
}

/// `y[pos] = 255 * (y[pos] / 255) ^ gamma` over a 'mirror cube.
pub fn gamma() -> Kernel {
    let pos = special(Special::Pos, Ty::Vector(Scalar::I32, 3));
    let idx = || (0..3).map(|i| lane(pos.clone(), i)).collect::<Vec<_>>();
    let mut y = arr(Scalar::F32, 3, Space::Global);
    if let Ty::Array(a) = &mut y {
        a.read = ReadMode::Mirror;
    }
    let scaled = bin(BinOp::Div, load(0, Scalar::F32, idx()), f32c(255.0));
    let value = bin(
        BinOp::Mul,
        f32c(255.0),
        bin(BinOp::Pow, scaled, var(0, F32)),
    );
    Kernel {
        name: "gamma".into(),
        rank: 3,
        params: vec![param("y", Bind::Array(0)), param("gamma", Bind::Var(0))],
        outputs: vec![],
        vars: vec![vdecl("gamma", F32)],
        arrays: vec![adecl("y", y)],
        body: vec![s(
            StmtKind::Store {
                arr: 0,
                index: idx(),
                value,
                at: Default::default(),
            },
            12,
        )],
        calls: Default::default(),
        facts: Default::default(),
    }
}

/// A block-wise tree sum in shared memory: `AllocShared`, `Barrier`, `While`, `If`,
/// an atomic update, a `For` loop with `Break`, and `Assert`.
pub fn reduction() -> Kernel {
    let i32v = |v| var(v, Ty::I32);
    let blkpos = || special(Special::BlkPos, Ty::I32);
    let blkdim = || special(Special::BlkDim, Ty::I32);
    let tree = vec![
        s(
            StmtKind::If {
                cond: bin(
                    BinOp::Eq,
                    bin(BinOp::Rem, blkpos(), bin(BinOp::Mul, i32v(0), Expr::int(2))),
                    Expr::int(0),
                ),
                then: vec![s(
                    StmtKind::Update {
                        arr: 2,
                        index: vec![blkpos()],
                        op: AtomicOp::Add,
                        value: load(2, Scalar::F32, vec![bin(BinOp::Add, blkpos(), i32v(0))]),
                        at: Default::default(),
                    },
                    8,
                )],
                els: vec![],
            },
            7,
        ),
        s(StmtKind::Barrier, 10),
        s(
            StmtKind::Assign {
                var: 0,
                value: bin(BinOp::Mul, i32v(0), Expr::int(2)),
            },
            11,
        ),
    ];
    let body = vec![
        s(
            StmtKind::AllocShared {
                arr: 2,
                dims: vec![blkdim()],
                zero: false,
            },
            3,
        ),
        s(
            StmtKind::Store {
                arr: 2,
                index: vec![blkpos()],
                value: load(0, Scalar::F32, vec![special(Special::Pos, Ty::I32)]),
                at: Default::default(),
            },
            4,
        ),
        s(StmtKind::Barrier, 5),
        s(
            StmtKind::Assign {
                var: 0,
                value: Expr::int(1),
            },
            6,
        ),
        s(
            StmtKind::While {
                cond: bin(BinOp::Lt, i32v(0), blkdim()),
                body: tree,
            },
            6,
        ),
        s(
            StmtKind::If {
                cond: bin(BinOp::Eq, blkpos(), Expr::int(0)),
                then: vec![s(
                    StmtKind::Store {
                        arr: 1,
                        index: vec![special(Special::BlkIdx, Ty::I32)],
                        value: load(2, Scalar::F32, vec![Expr::int(0)]),
                        at: Default::default(),
                    },
                    14,
                )],
                els: vec![s(StmtKind::Return, 16)],
            },
            13,
        ),
        s(
            StmtKind::For {
                var: 1,
                start: Expr::int(0),
                step: Expr::int(1),
                end: bin(
                    BinOp::Sub,
                    e(ExprKind::Size { arr: 1, dim: 0 }, Ty::I32),
                    Expr::int(1),
                ),
                body: vec![
                    s(
                        StmtKind::Assert {
                            cond: bin(BinOp::Ge, i32v(1), Expr::int(0)),
                        },
                        19,
                    ),
                    s(StmtKind::Break(0), 20),
                ],
            },
            18,
        ),
    ];
    let mut x = arr(Scalar::F32, 1, Space::Global);
    if let Ty::Array(a) = &mut x {
        a.is_const = true;
        a.read = ReadMode::Unchecked;
    }
    Kernel {
        name: "reduce".into(),
        rank: 1,
        params: vec![param("x", Bind::Array(0)), param("y", Bind::Array(1))],
        outputs: vec![],
        vars: vec![vdecl("bit", Ty::I32), vdecl("i", Ty::I32)],
        arrays: vec![
            adecl("x", x),
            adecl("y", arr(Scalar::F32, 1, Space::Global)),
            adecl("vals", arr(Scalar::F32, 1, Space::Shared)),
        ],
        body,
        calls: Default::default(),
        facts: Default::default(),
    }
}

/// `total += sum(v) + real(complex(a, b))` with vectors, select, casts and a local array.
pub fn with_output() -> Kernel {
    let v3 = Ty::Vector(Scalar::F32, 3);
    let pos = special(Special::Pos, Ty::Vector(Scalar::I32, 2));
    let fpos = e(
        ExprKind::Cast(Box::new(pos.clone())),
        Ty::Vector(Scalar::F32, 2),
    );
    let lit = e(
        ExprKind::VecLit(vec![lane(fpos, 0), f32c(0.5), f32c(-1.0)]),
        v3,
    );
    let splat = e(ExprKind::Splat(Box::new(f32c(2.0))), v3);
    let c32 = Ty::Scalar(Scalar::C32);
    let cx = e(
        ExprKind::Math(MathFn::MakeComplex, vec![var(1, F32), f32c(1.0)]),
        c32,
    );
    let re = e(ExprKind::Math(MathFn::Real, vec![cx]), F32);
    let sum = e(
        ExprKind::VecReduce(VecReduce::Sum, Box::new(var(0, v3))),
        F32,
    );
    let cond = bin(BinOp::Gt, lane(pos.clone(), 1), Expr::int(3));
    let sel = e(
        ExprKind::Select(Box::new(cond), Box::new(sum), Box::new(re)),
        F32,
    );
    let mask = e(ExprKind::Const(Const::Int(255)), Ty::Scalar(Scalar::U8));
    let bits = bin(BinOp::BitAnd, load(1, Scalar::U8, vec![Expr::int(0)]), mask);
    Kernel {
        name: "acc".into(),
        rank: 2,
        params: vec![param("w", Bind::Array(0)), param("a", Bind::Var(1))],
        outputs: vec![Output {
            name: "total".into(),
            ty: Scalar::F32,
            op: AtomicOp::Add,
        }],
        vars: vec![
            vdecl("v", v3),
            vdecl("a", F32),
            vdecl("b", Ty::Scalar(Scalar::U8)),
        ],
        arrays: vec![
            adecl("w", arr(Scalar::F32, 2, Space::Global)),
            adecl("t", arr(Scalar::U8, 1, Space::Local)),
        ],
        body: vec![
            s(
                StmtKind::Assign {
                    var: 0,
                    value: bin(BinOp::Mul, lit, splat),
                },
                2,
            ),
            s(
                StmtKind::SetLane {
                    var: 0,
                    lane: Expr::int(2),
                    value: f32c(1e-7),
                },
                3,
            ),
            s(
                StmtKind::AllocLocal {
                    arr: 1,
                    dims: vec![Expr::int(4)],
                    fill: Fill::One,
                },
                4,
            ),
            s(
                StmtKind::Assign {
                    var: 2,
                    value: bits,
                },
                5,
            ),
            s(
                StmtKind::Accumulate {
                    output: 0,
                    value: sel,
                },
                6,
            ),
        ],
        calls: Default::default(),
        facts: Default::default(),
    }
}
