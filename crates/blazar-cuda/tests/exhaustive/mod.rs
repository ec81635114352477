//! A hand-built kernel that uses every scalar type with every operator, math
//! function, cast, atomic update (global, shared and local memory) and output op the
//! verifier allows, so that NVRTC instantiates every prelude template.

use blazar_kir::*;

const ALL: [Scalar; 13] = [
    Scalar::Bool,
    Scalar::I8,
    Scalar::I16,
    Scalar::I32,
    Scalar::I64,
    Scalar::U8,
    Scalar::U16,
    Scalar::U32,
    Scalar::U64,
    Scalar::F32,
    Scalar::F64,
    Scalar::C32,
    Scalar::C64,
];

fn st(kind: StmtKind) -> Stmt {
    Stmt { kind, line: 7 }
}

fn ordered(s: Scalar) -> bool {
    s != Scalar::Bool && !s.is_complex()
}

pub fn kernel() -> Kernel {
    let mut vars = Vec::new();
    let mut arrays = Vec::new();
    let mut params = Vec::new();
    let mut body = Vec::new();
    let mut outputs = Vec::new();
    let var = |s: Scalar| {
        Expr::new(
            ExprKind::Var(ALL.iter().position(|x| *x == s).unwrap() as u32),
            Ty::Scalar(s),
        )
    };
    for s in ALL {
        vars.push(VarDecl {
            name: format!("x_{}", s.name()),
            ty: Ty::Scalar(s),
        });
    }
    let pos = Expr::new(ExprKind::Special(Special::Pos), Ty::I32);
    for (i, s) in ALL.iter().enumerate() {
        for space in [Space::Global, Space::Shared, Space::Local] {
            let a = arrays.len() as u32;
            arrays.push(ArrayDecl {
                name: format!("{}_{space:?}", s.name()),
                ty: Ty::Array(ArrayTy {
                    elem: *s,
                    rank: 1,
                    read: ReadMode::Circular,
                    write: WriteMode::Checked,
                    is_const: false,
                    space,
                }),
            });
            match space {
                Space::Global => params.push(Param {
                    name: format!("g{i}"),
                    bind: Bind::Array(a),
                }),
                Space::Shared => body.push(st(StmtKind::AllocShared {
                    arr: a,
                    dims: vec![Expr::int(4)],
                    zero: true,
                })),
                Space::Local => body.push(st(StmtKind::AllocLocal {
                    arr: a,
                    dims: vec![Expr::int(4)],
                    fill: Fill::One,
                })),
            }
            body.push(st(StmtKind::Assign {
                var: i as u32,
                value: Expr::new(
                    ExprKind::Load {
                        arr: a,
                        index: vec![pos.clone()],
                        at: Default::default(),
                    },
                    Ty::Scalar(*s),
                ),
            }));
            use AtomicOp::*;
            for op in [Add, Sub, Mul, Div, Pow, Min, Max, And, Or, Xor] {
                let ok = match op {
                    And | Or | Xor => s.is_int(),
                    Min | Max => ordered(*s),
                    _ => *s != Scalar::Bool,
                };
                if ok {
                    body.push(st(StmtKind::Update {
                        arr: a,
                        index: vec![Expr::int(0)],
                        op,
                        value: var(*s),
                        at: Default::default(),
                    }));
                    if space == Space::Global {
                        outputs.push(Output {
                            name: format!("o{}", outputs.len()),
                            ty: *s,
                            op,
                        });
                        body.push(st(StmtKind::Accumulate {
                            output: outputs.len() as u32 - 1,
                            value: var(*s),
                        }));
                    }
                }
            }
        }
    }
    for from in ALL {
        for to in ALL {
            if from.is_complex() && !to.is_complex() {
                continue;
            }
            let value = Expr::new(ExprKind::Cast(Box::new(var(from))), Ty::Scalar(to));
            body.push(st(StmtKind::Assign {
                var: ALL.iter().position(|x| *x == to).unwrap() as u32,
                value,
            }));
        }
    }
    let set = |s: Scalar, value: Expr| {
        st(StmtKind::Assign {
            var: ALL.iter().position(|x| *x == s).unwrap() as u32,
            value,
        })
    };
    use BinOp::*;
    let vec3 = |s: Scalar| Ty::Vector(s, 3);
    for s in ALL {
        for op in [
            Add, Sub, Mul, Div, Pow, Rem, Min, Max, Eq, Ne, Lt, Gt, Le, Ge, And, Or, BitAnd, BitOr,
            BitXor, Shl, Shr,
        ] {
            let ok = match op {
                Add | Sub | Mul | Div | Pow => s != Scalar::Bool,
                Rem | Min | Max | Lt | Gt | Le | Ge => ordered(s),
                Eq | Ne => true,
                And | Or => s == Scalar::Bool,
                _ => s.is_int(),
            };
            if !ok {
                continue;
            }
            let r = if op.is_comparison() { Scalar::Bool } else { s };
            let e = Expr::new(
                ExprKind::Binary(op, Box::new(var(s)), Box::new(var(s))),
                Ty::Scalar(r),
            );
            body.push(set(r, e));
            // The same on 3-vectors, reduced back to a scalar.
            let sv = Expr::new(ExprKind::Splat(Box::new(var(s))), vec3(s));
            let ev = Expr::new(
                ExprKind::Binary(op, Box::new(sv.clone()), Box::new(sv)),
                vec3(r),
            );
            let lane = Expr::new(
                ExprKind::Lane(Box::new(ev), Box::new(var(Scalar::I32))),
                Ty::Scalar(r),
            );
            body.push(set(r, lane));
        }
        for f in MathFn::all() {
            let Some(r) = math_result(f, s) else { continue };
            let n = f.arity();
            body.push(set(
                r,
                Expr::new(ExprKind::Math(f, vec![var(s); n]), Ty::Scalar(r)),
            ));
            let sv = Expr::new(ExprKind::Splat(Box::new(var(s))), vec3(s));
            let ev = Expr::new(ExprKind::Math(f, vec![sv; n]), vec3(r));
            if r != Scalar::Bool {
                let red = Expr::new(
                    ExprKind::VecReduce(VecReduce::Sum, Box::new(ev)),
                    Ty::Scalar(r),
                );
                body.push(set(r, red));
            }
        }
    }
    Kernel {
        name: "exhaustive".into(),
        rank: 1,
        params,
        outputs,
        vars,
        arrays,
        body,
        calls: Default::default(),
        facts: Default::default(),
    }
}
