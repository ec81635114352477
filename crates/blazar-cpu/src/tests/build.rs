//! Helpers that build KIR kernels by hand and launch them.

use crate::*;
use blazar_kir::*;
use blazar_launch::KValue;
use blazar_runtime::Buffer;

pub const F32: Ty = Ty::Scalar(Scalar::F32);
pub const I32: Ty = Ty::I32;
pub const BOOL: Ty = Ty::BOOL;

/// A kernel under construction.
pub struct KB {
    pub k: Kernel,
}

impl KB {
    pub fn new(rank: u8) -> KB {
        KB {
            k: Kernel {
                name: "k".into(),
                rank,
                params: vec![],
                outputs: vec![],
                vars: vec![],
                arrays: vec![],
                body: vec![],
                calls: Default::default(),
                facts: Default::default(),
            },
        }
    }

    pub fn var(&mut self, ty: Ty) -> Expr {
        self.k.vars.push(VarDecl {
            name: format!("v{}", self.k.vars.len()),
            ty,
        });
        Expr::new(ExprKind::Var(self.k.vars.len() as u32 - 1), ty)
    }

    pub fn param(&mut self, ty: Ty) -> Expr {
        let v = self.var(ty);
        let ExprKind::Var(id) = v.kind else {
            unreachable!()
        };
        self.k.params.push(Param {
            name: format!("p{id}"),
            bind: Bind::Var(id),
        });
        v
    }

    fn array(
        &mut self,
        elem: Scalar,
        rank: u8,
        read: ReadMode,
        write: WriteMode,
        space: Space,
    ) -> Arr {
        let ty = ArrayTy {
            elem,
            rank,
            read,
            write,
            is_const: false,
            space,
        };
        self.k.arrays.push(ArrayDecl {
            name: format!("a{}", self.k.arrays.len()),
            ty: Ty::Array(ty),
        });
        Arr {
            id: self.k.arrays.len() as u32 - 1,
            elem,
        }
    }

    /// A global array parameter.
    pub fn arr(&mut self, elem: Scalar, rank: u8, read: ReadMode, write: WriteMode) -> Arr {
        let a = self.array(elem, rank, read, write, Space::Global);
        self.k.params.push(Param {
            name: format!("a{}", a.id),
            bind: Bind::Array(a.id),
        });
        a
    }

    pub fn garr(&mut self, elem: Scalar, rank: u8) -> Arr {
        self.arr(elem, rank, ReadMode::Zero, WriteMode::Skip)
    }

    pub fn shared(&mut self, elem: Scalar, rank: u8) -> Arr {
        self.array(elem, rank, ReadMode::Zero, WriteMode::Skip, Space::Shared)
    }

    pub fn local(&mut self, elem: Scalar, rank: u8, read: ReadMode) -> Arr {
        self.array(elem, rank, read, WriteMode::Skip, Space::Local)
    }

    pub fn output(&mut self, ty: Scalar, op: AtomicOp) -> u32 {
        self.k.outputs.push(Output {
            name: format!("o{}", self.k.outputs.len()),
            ty,
            op,
        });
        self.k.outputs.len() as u32 - 1
    }

    /// The kernel with `body`, checked by the KIR verifier.
    pub fn build(mut self, body: Vec<Stmt>) -> Kernel {
        self.k.body = body;
        if let Err(e) = blazar_kir::verify::verify(&self.k) {
            panic!(
                "invalid test kernel:\n{}\n{}",
                e.join("\n"),
                blazar_kir::printer::print_kernel(&self.k)
            );
        }
        self.k
    }
}

#[derive(Clone, Copy)]
pub struct Arr {
    pub id: u32,
    pub elem: Scalar,
}

impl Arr {
    pub fn at(self, idx: Vec<Expr>) -> Expr {
        Expr::new(
            ExprKind::Load {
                arr: self.id,
                index: idx,
                at: Default::default(),
            },
            Ty::Scalar(self.elem),
        )
    }
    pub fn set(self, idx: Vec<Expr>, v: Expr) -> Stmt {
        st(StmtKind::Store {
            arr: self.id,
            index: idx,
            value: v,
            at: Default::default(),
        })
    }
    pub fn upd(self, idx: Vec<Expr>, op: AtomicOp, v: Expr) -> Stmt {
        st(StmtKind::Update {
            arr: self.id,
            index: idx,
            op,
            value: v,
            at: Default::default(),
        })
    }
    #[allow(dead_code)]
    pub fn size(self, dim: u8) -> Expr {
        Expr::new(ExprKind::Size { arr: self.id, dim }, I32)
    }
}

pub fn ci(v: i64) -> Expr {
    Expr::int(v)
}
pub fn cf(v: f64) -> Expr {
    Expr::new(ExprKind::Const(Const::Float(v)), F32)
}
pub fn ct(v: i64, s: Scalar) -> Expr {
    Expr::new(ExprKind::Const(Const::Int(v)), Ty::Scalar(s))
}
pub fn special(sp: Special, rank: u8) -> Expr {
    let ty = if rank == 1 || sp == Special::WarpSize {
        I32
    } else {
        Ty::Vector(Scalar::I32, rank)
    };
    Expr::new(ExprKind::Special(sp), ty)
}
pub fn pos(rank: u8) -> Expr {
    special(Special::Pos, rank)
}
pub fn lane(v: Expr, i: i64) -> Expr {
    let ty = Ty::Scalar(v.ty.elem());
    Expr::new(ExprKind::Lane(Box::new(v), Box::new(ci(i))), ty)
}
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    let ty = if op.is_comparison() {
        match a.ty {
            Ty::Vector(_, n) => Ty::Vector(Scalar::Bool, n),
            _ => BOOL,
        }
    } else {
        a.ty
    };
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
}
pub fn add(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Add, a, b)
}
pub fn sub(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Sub, a, b)
}
pub fn mul(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Mul, a, b)
}
pub fn lt(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Lt, a, b)
}
pub fn eq(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Eq, a, b)
}
pub fn cast(e: Expr, ty: Ty) -> Expr {
    Expr::new(ExprKind::Cast(Box::new(e)), ty)
}
pub fn math(f: MathFn, args: Vec<Expr>, ty: Ty) -> Expr {
    Expr::new(ExprKind::Math(f, args), ty)
}
pub fn select(c: Expr, a: Expr, b: Expr) -> Expr {
    let ty = a.ty;
    Expr::new(ExprKind::Select(Box::new(c), Box::new(a), Box::new(b)), ty)
}

pub fn st(kind: StmtKind) -> Stmt {
    Stmt { kind, line: 1 }
}
pub fn at_line(line: u32, mut s: Stmt) -> Stmt {
    s.line = line;
    s
}
pub fn assign(v: &Expr, e: Expr) -> Stmt {
    let ExprKind::Var(var) = v.kind else {
        panic!("not a var")
    };
    st(StmtKind::Assign { var, value: e })
}
pub fn iff(c: Expr, then: Vec<Stmt>, els: Vec<Stmt>) -> Stmt {
    st(StmtKind::If { cond: c, then, els })
}
pub fn whl(c: Expr, body: Vec<Stmt>) -> Stmt {
    st(StmtKind::While { cond: c, body })
}
pub fn forr(v: &Expr, start: Expr, step: Expr, end: Expr, body: Vec<Stmt>) -> Stmt {
    let ExprKind::Var(var) = v.kind else {
        panic!("not a var")
    };
    st(StmtKind::For {
        var,
        start,
        step,
        end,
        body,
    })
}
pub fn acc(out: u32, e: Expr) -> Stmt {
    st(StmtKind::Accumulate {
        output: out,
        value: e,
    })
}

/// Launches `k` over `data` (blocks `block`) with `args`; returns outputs and buffers.
pub fn run(
    k: &Kernel,
    data: &[usize],
    block: &[usize],
    args: Vec<ArgVal>,
    mut bufs: Vec<(Vec<usize>, Buffer)>,
    threads: usize,
) -> (Result<Vec<KValue>, KernelError>, Vec<Buffer>) {
    let mut plan = LaunchPlan {
        block_given: false,
        rank: data.len() as u8,
        data_dims: [1; 4],
        block_dims: [1; 4],
        serial: false,
    };
    plan.data_dims[..data.len()].copy_from_slice(data);
    plan.block_dims[..block.len()].copy_from_slice(block);
    let r = {
        let mut arrays: Vec<ArrayArg> = bufs
            .iter_mut()
            .map(|(d, b)| ArrayArg {
                dims: d.clone(),
                buf: b,
            })
            .collect();
        launch(k, &plan, &args, &mut arrays, &ExecOptions { threads })
    };
    (r, bufs.into_iter().map(|(_, b)| b).collect())
}

pub fn arrays(n: usize) -> Vec<ArgVal> {
    (0..n).map(ArgVal::Array).collect()
}

pub fn f32s(b: &Buffer) -> &[f32] {
    match b {
        Buffer::F32(v) => v,
        _ => panic!("not f32"),
    }
}

pub fn i32s(b: &Buffer) -> &[i32] {
    match b {
        Buffer::I32(v) => v,
        _ => panic!("not i32"),
    }
}
