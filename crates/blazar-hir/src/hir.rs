//! The HIR: a program with every name resolved.
//!
//! Variables are numbered slots of their function's frame (or of the global frame for
//! top-level variables), calls name a user function, a builtin or an intrinsic, nested
//! functions and lambdas list the variables they capture, and loop labels are turned
//! into loop depths. The host interpreter executes this tree directly.

use crate::types::Ty;
use blazar_diagnostics::Span;
pub use blazar_syntax::{AttrStyle, BinOp, FnKind};

pub type FnId = u32;

/// A whole program: every function (top-level, nested, lambdas) in one table.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub functions: Vec<Function>,
    /// Overload groups of top-level functions, by name.
    pub groups: Vec<FnGroup>,
    /// The top-level statements, run as a function whose variables are the globals.
    pub script: FnId,
    /// `main()`, run after the script when defined.
    pub main: Option<FnId>,
    pub global_names: Vec<String>,
    pub classes: Vec<ClassDef>,
    /// `macro [] = name() ... endmacro` definitions: the attributes each expands to.
    pub macros: Vec<MacroDef>,
    /// `reduction` rewrite rules, in source order (applied by `passes::apply_rules`).
    pub rules: Vec<RewriteRule>,
    /// Statements that run as one fused region (`passes::fuse_statements`).
    pub fused: crate::fused::FusedGroups,
    /// Per host function the function outliner looked at: its one-thread kernel, or why
    /// it has none (`passes::serialize_functions`).
    pub serial_fns: std::collections::HashMap<FnId, Result<crate::serial::SerialFn, String>>,
}

/// `reduction (x : T, ...) -> pattern = replacement [where cond]`: the parameters are
/// the local slots `0..params.len()` of the rule's pattern, replacement and condition.
#[derive(Clone, Debug)]
pub struct RewriteRule {
    pub params: Vec<Param>,
    pub pattern: Stmt,
    pub replacement: Stmt,
    pub cond: Option<Expr>,
    pub span: Span,
}

/// A statement a rule rewrote where the rule's types or condition can only be known
/// when it runs: the replacement runs when every check holds, the original otherwise.
#[derive(Clone, Debug)]
pub struct Rewritten {
    /// Values (pure expressions) and the types they must conform to.
    pub checks: Vec<(Expr, Ty)>,
    pub cond: Option<Expr>,
    pub replaced: Stmt,
    pub original: Stmt,
}

/// A macro of code attributes (seed 003): `!name` in a loop body stands for them.
#[derive(Clone, Debug)]
pub struct MacroDef {
    pub name: String,
    pub attrs: Vec<MacroAttr>,
}

/// One attribute of a macro, with the `$target(...)` it is guarded by, if any.
#[derive(Clone, Debug)]
pub struct MacroAttr {
    pub name: String,
    pub args: String,
    /// `Some("gpu")` under `if $target("gpu")`: only for that target.
    pub target: Option<String>,
}

#[derive(Clone, Debug)]
pub struct FnGroup {
    pub name: String,
    pub members: Vec<FnId>,
}

#[derive(Clone, Debug)]
pub struct ClassDef {
    pub name: String,
    pub mutable: bool,
    pub fields: Vec<(String, Ty)>,
}

/// Where a variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    Local(u32),
    Global(u32),
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub slot: u32,
    pub ty: Option<Annot>,
    pub default: Option<Expr>,
    pub span: Span,
}

/// A declared type with the variable's access modifiers (`cube'unchecked'const`).
#[derive(Clone, Debug, PartialEq)]
pub struct Annot {
    pub ty: Ty,
    /// `safe`, `circular`, `mirror`, `clamped`, `checked` or `unchecked`.
    pub mode: Option<String>,
    pub is_const: bool,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub kind: FnKind,
    pub params: Vec<Param>,
    pub outputs: Vec<Param>,
    /// Local slots that receive captured values, in the order the creation site lists
    /// them (see [`ExprKind::Closure`]).
    pub capture_slots: Vec<u32>,
    pub capture_names: Vec<String>,
    pub n_locals: u32,
    pub local_names: Vec<String>,
    pub body: Vec<Stmt>,
    /// For expression lambdas: the value of this expression is the result.
    pub result: Option<Expr>,
    pub span: Span,
    /// Static type of the function value, for `type(f)`.
    pub ty: Ty,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Expr(Expr),
    /// `target = value` or `target op= value`; `ty` is a declared type to convert to.
    Assign {
        target: Place,
        op: Option<BinOp>,
        value: Expr,
        ty: Option<Annot>,
    },
    /// `[a, b] = value`.
    MultiAssign {
        targets: Vec<Place>,
        value: Expr,
    },
    /// A typed declaration without a value: `img : cube`.
    Declare {
        var: Var,
        ty: Annot,
    },
    If {
        arms: Vec<(Expr, Vec<Stmt>)>,
        otherwise: Vec<Stmt>,
    },
    /// `for var = start..step..end` over numbers.
    ForRange {
        var: Var,
        start: Expr,
        step: Option<Expr>,
        end: Expr,
        body: Vec<Stmt>,
    },
    /// `for var = expr` over the elements of any other value.
    ForEach {
        var: Var,
        iter: Expr,
        body: Vec<Stmt>,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
    },
    Repeat {
        body: Vec<Stmt>,
        cond: Expr,
    },
    /// Leaves the loop `depth` levels out (0 = innermost).
    Break(u32),
    Continue(u32),
    Return,
    Match {
        scrutinee: Expr,
        arms: Vec<(Option<Expr>, Vec<Stmt>)>,
    },
    Print(Vec<Expr>),
    /// A `for` nest the loop parallelizer runs as a kernel (it is added after checking).
    Parallel(Box<crate::parallel::ParallelLoop>),
    /// A loop the serial-loop outliner runs as a one-thread kernel (added after checking).
    Serial(Box<crate::serial::SerialLoop>),
    /// A statement a `reduction` rule rewrote, guarded by run-time checks.
    Rewritten(Box<Rewritten>),
    /// Attributes and pragmas: kept for transforms, no effect when run.
    Attribute {
        style: AttrStyle,
        name: String,
        args: String,
    },
}

/// An assignable place: a variable followed by index and field accesses.
#[derive(Clone, Debug)]
pub struct Place {
    pub var: Var,
    pub path: Vec<Access>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Access {
    Index(Vec<Expr>),
    Field(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

/// Functions the interpreter implements itself because they need its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intrinsic {
    Type,
    Error,
    Assert,
    ParallelDo,
    SerialDo,
    Syncthreads,
    MaxBlockSize,
    OptBlockSize,
    Shared,
    SharedZeros,
    IsDefined,
    /// `$target("gpu")` inside macros.
    Target,
    /// `nullptr`: the reference to no object (a name, lowered to a call).
    Nullptr,
}

impl Intrinsic {
    pub fn from_name(name: &str) -> Option<Intrinsic> {
        Some(match name {
            "type" => Intrinsic::Type,
            "error" => Intrinsic::Error,
            "assert" => Intrinsic::Assert,
            "parallel_do" => Intrinsic::ParallelDo,
            "serial_do" => Intrinsic::SerialDo,
            "syncthreads" => Intrinsic::Syncthreads,
            "max_block_size" => Intrinsic::MaxBlockSize,
            "opt_block_size" => Intrinsic::OptBlockSize,
            "shared" => Intrinsic::Shared,
            "shared_zeros" => Intrinsic::SharedZeros,
            "isdefined" => Intrinsic::IsDefined,
            "$target" => Intrinsic::Target,
            _ => return None,
        })
    }
}

/// What a call or a function-valued name refers to.
#[derive(Clone, Debug)]
pub enum Callee {
    /// A user function or overload group called by name.
    Group(u32),
    /// A nested function or lambda, called with the current values of `captures`.
    Nested {
        func: FnId,
        captures: Vec<Var>,
    },
    /// A function calling itself: its captures are copied from its own frame.
    SelfCall(FnId),
    Builtin(u32),
    Intrinsic(Intrinsic),
    /// Constructor of a class.
    Class(u32),
    /// A typed array constructor: `vec[int8](5)`, `cube[scalar](10)`.
    TypeCtor(Ty),
    /// Any other expression evaluating to a function value.
    Value(Box<Expr>),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Real(f64),
    Imag(f64),
    Str(String),
    Var(Var),
    /// A nested function or lambda as a value: the current values of `captures`
    /// (variables of the frame evaluating this) are copied into the new closure.
    Closure {
        func: FnId,
        captures: Vec<Var>,
    },
    /// A top-level function (group) or builtin used as a value.
    FuncValue(Callee),
    /// `:` in an index.
    Colon,
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Range {
        start: Box<Expr>,
        step: Option<Box<Expr>>,
        end: Box<Expr>,
    },
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Call {
        callee: Callee,
        args: Vec<Expr>,
    },
    Index {
        base: Box<Expr>,
        args: Vec<Expr>,
    },
    Field {
        base: Box<Expr>,
        name: String,
    },
    Matrix(Vec<Expr>),
    Cell(Vec<Expr>),
    /// A type used as a value (argument of `type(x, T)` written unquoted).
    TypeValue(Ty),
    /// `e : T` (a call argument or a typed field assignment): `e` converted to `T`.
    Convert(Box<Expr>, Annot),
}
