//! KIR nodes: a kernel is typed variables, array slots and a structured body.
//!
//! Control flow is structured (if, loops, break/continue by depth) so that the SIMT CPU
//! executor can run it under execution masks and the CUDA code generator can print it
//! as C. Operands of binary operations always have the same type (lowering inserts
//! casts and splats); comparisons give `bool`.

use crate::types::{Scalar, Ty};

pub type VarId = u32;
pub type ArrId = u32;

/// A compiled kernel specialised for one signature of argument types.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    /// Rank of the index space (1 to 4): the length of `pos`.
    pub rank: u8,
    /// Arguments in launch order: each binds a variable or an array slot.
    pub params: Vec<Param>,
    /// Kernel output parameters, accumulated over all threads.
    pub outputs: Vec<Output>,
    pub vars: Vec<VarDecl>,
    pub arrays: Vec<ArrayDecl>,
    pub body: Block,
    /// Functions called without being inlined (recursion), see [`crate::calls`].
    pub calls: crate::calls::Calls,
    /// Facts about the kernel, computed on first use ([`Kernel::facts`]).
    pub facts: crate::facts::FactsCell,
}

impl Kernel {
    /// The kernel's facts (uniformity, barriers, written arrays, aliases of specials),
    /// computed once and shared by every backend.
    pub fn facts(&self) -> &crate::facts::Facts {
        self.facts.get(self)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub bind: Bind,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bind {
    Var(VarId),
    Array(ArrId),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    pub name: String,
    pub ty: Scalar,
    pub op: AtomicOp,
}

#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub name: String,
    pub ty: Ty,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDecl {
    pub name: String,
    /// Always `Ty::Array`.
    pub ty: Ty,
}

pub type Block = Vec<Stmt>;

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    /// Line in the `.q` source, for error records and `#line`.
    pub line: u32,
}

/// Where an element access is written in the `.q` source: its 1-based line and column
/// (0: not known, e.g. an access the compiler made). A `'checked` access that misses
/// reports it, so that the error names the access that failed, not only its line.
///
/// Error records carry it in their 32-bit line field ([`Loc::record`]): the line in the
/// low [`Loc::LINE_BITS`] bits, the column above. A line or column too large for its
/// bits keeps the line alone (column 0: the host then names the statement's first
/// access, as it does for an unknown column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Loc {
    pub line: u32,
    pub col: u32,
}

impl Loc {
    /// Bits of an error record's line field that hold the line.
    pub const LINE_BITS: u32 = 20;
    const LINE_MASK: u32 = (1 << Loc::LINE_BITS) - 1;

    pub fn new(line: u32, col: u32) -> Loc {
        Loc { line, col }
    }

    /// The value an error record's line field carries for a failure of this access,
    /// inside a statement of line `stmt_line` (used when the access has no line).
    pub fn record(self, stmt_line: u32) -> u32 {
        if self.line == 0 {
            return stmt_line;
        }
        if self.line > Loc::LINE_MASK || self.col >= 1 << (32 - Loc::LINE_BITS) {
            return self.line;
        }
        self.line | (self.col << Loc::LINE_BITS)
    }

    /// The line and column of an error record's line field ([`Loc::record`]); a plain
    /// line (a statement's) has column 0.
    pub fn from_record(v: u32) -> Loc {
        if v <= Loc::LINE_MASK {
            return Loc { line: v, col: 0 };
        }
        Loc {
            line: v & Loc::LINE_MASK,
            col: v >> Loc::LINE_BITS,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Min,
    Max,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    Zero,
    One,
    Uninit,
}

/// The builtins that allocate kernel memory, numbered as error records carry them
/// (`alloc_builtin`): per-thread `zeros ones uninit`, per-block `shared shared_zeros`.
pub const ALLOC_BUILTINS: [&str; 5] = ["zeros", "ones", "uninit", "shared", "shared_zeros"];

/// The number in [`ALLOC_BUILTINS`] of the builtin behind an allocation statement.
pub fn alloc_builtin(s: &StmtKind) -> Option<usize> {
    match s {
        StmtKind::AllocLocal { fill, .. } => Some(match fill {
            Fill::Zero => 0,
            Fill::One => 1,
            Fill::Uninit => 2,
        }),
        StmtKind::AllocShared { zero, .. } => Some(if *zero { 4 } else { 3 }),
        _ => None,
    }
}

/// The message of an allocation with a negative extent, as host code words it.
pub fn negative_extent_message(builtin: usize, extent: i64) -> String {
    let name = ALLOC_BUILTINS.get(builtin).copied().unwrap_or("zeros");
    format!("{name}: dimensions must be non-negative integers, got {extent}")
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Assign {
        var: VarId,
        value: Expr,
    },
    /// `v[lane] = value` on a fixed-length vector variable.
    SetLane {
        var: VarId,
        lane: Expr,
        value: Expr,
    },
    /// `arr[index] = value`; one index per dimension, or one linear index. `at`: where
    /// the access is written (a `'checked` miss reports it).
    Store {
        arr: ArrId,
        index: Vec<Expr>,
        value: Expr,
        at: Loc,
    },
    /// An atomic read-modify-write: `arr[index] op= value`.
    Update {
        arr: ArrId,
        index: Vec<Expr>,
        op: AtomicOp,
        value: Expr,
        at: Loc,
    },
    /// `y op= value` on kernel output `output`.
    Accumulate {
        output: u32,
        value: Expr,
    },
    If {
        cond: Expr,
        then: Block,
        els: Block,
    },
    /// Tests `cond` before each iteration.
    While {
        cond: Expr,
        body: Block,
    },
    /// `var = start; while (step > 0 ? var <= end : var >= end) { body; var += step }`.
    /// `start`, `step` and `end` are evaluated once, before the loop.
    For {
        var: VarId,
        start: Expr,
        step: Expr,
        end: Expr,
        body: Block,
    },
    /// Leaves the loop `n` levels out (0 = innermost).
    Break(u32),
    Continue(u32),
    /// `syncthreads`: all threads of the block meet here.
    Barrier,
    Assert {
        cond: Expr,
    },
    Return,
    /// `arr = shared(dims)` / `shared_zeros(dims)`: per-block memory.
    AllocShared {
        arr: ArrId,
        dims: Vec<Expr>,
        zero: bool,
    },
    /// `arr = zeros(dims)` inside a kernel: per-thread dynamic memory.
    AllocLocal {
        arr: ArrId,
        dims: Vec<Expr>,
        fill: Fill,
    },
    /// Calls function `func` of the kernel's [`crate::calls::Calls`] with `args` (of
    /// its parameters' types) and assigns its outputs to `outs` (of their types).
    Call {
        func: u32,
        args: Vec<Expr>,
        outs: Vec<VarId>,
    },
}

/// Index-space coordinates available to every thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// Global position (`pos`): `Vector(I32, rank)` or `I32` for rank 1.
    Pos,
    BlkPos,
    BlkDim,
    BlkIdx,
    BlkCnt,
    WarpSize,
}

/// Element-wise operators, declared in `blazar-ops`.
pub use blazar_ops::{BinOp, UnOp};

/// Element-wise math functions of one or two arguments: declared, with their names,
/// typing and C spelling, in `blazar-ops`.
pub use blazar_ops::MathFn;

/// The element type of `f` applied to elements of type `s` (its row's [`blazar_ops::Sig`]),
/// or `None` where `f` is not defined on `s`.
pub fn math_result(f: MathFn, s: Scalar) -> Option<Scalar> {
    use blazar_ops::Sig;
    let ordered = s != Scalar::Bool && !s.is_complex();
    let (ok, r) = match f.def().sig {
        Sig::RealPart => (s != Scalar::Bool, s.real_part()),
        Sig::Number => (s != Scalar::Bool, s),
        Sig::FloatOrComplex => (s.is_float() || s.is_complex(), s),
        Sig::Float => (s.is_float(), s),
        Sig::Ordered => (ordered, s),
        Sig::Test => (s.is_float(), Scalar::Bool),
        Sig::MakeComplex => (
            s.is_float(),
            if s == Scalar::F64 {
                Scalar::C64
            } else {
                Scalar::C32
            },
        ),
    };
    ok.then_some(r)
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Const {
    Bool(bool),
    Int(i64),
    Float(f64),
    Complex(f64, f64),
}

/// Reductions over the lanes of a fixed-length vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VecReduce {
    Sum,
    Prod,
    Min,
    Max,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Ty,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Const(Const),
    Var(VarId),
    Special(Special),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Converts to `ty` (numeric conversion, C rules: float to int truncates).
    Cast(Box<Expr>),
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    Math(MathFn, Vec<Expr>),
    /// One element; one index per dimension, or one linear index. `at`: where the
    /// access is written (a `'checked` miss reports it).
    Load {
        arr: ArrId,
        index: Vec<Expr>,
        at: Loc,
    },
    /// `size(arr, dim)` as i32 (dims past the rank are 1).
    Size {
        arr: ArrId,
        dim: u8,
    },
    /// `numel(arr)` as i32.
    Numel(ArrId),
    /// A fixed-length vector from scalars of its element type.
    VecLit(Vec<Expr>),
    /// A vector with every lane equal to the scalar operand.
    Splat(Box<Expr>),
    /// One lane of a vector; the lane is an i32 expression.
    Lane(Box<Expr>, Box<Expr>),
    VecReduce(VecReduce, Box<Expr>),
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Ty) -> Expr {
        Expr { kind, ty }
    }

    pub fn int(v: i64) -> Expr {
        Expr::new(ExprKind::Const(Const::Int(v)), Ty::I32)
    }

    pub fn boolean(v: bool) -> Expr {
        Expr::new(ExprKind::Const(Const::Bool(v)), Ty::BOOL)
    }
}
