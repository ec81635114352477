//! The abstract syntax tree of a Quasar program, exactly as written.
//!
//! The AST knows nothing of types or devices: names are plain strings, type annotations
//! are unresolved [`TypeExpr`]s, and attributes are kept verbatim. Every node carries the
//! [`Span`] of the text it came from so that later stages can point at it.

use blazar_diagnostics::Span;

/// A parsed source file: its top-level statements, function definitions included.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub stmts: Vec<Stmt>,
}

/// An identifier with its location.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// An expression evaluated for its effect: `f(x)`, `syncthreads`, `x`.
    Expr(Expr),
    /// `lhs = rhs`, `lhs += rhs`, `[a, b] = rhs`. `targets` has one element unless the
    /// left side was bracketed (`multi`), in which case it has one per element
    /// (possibly zero for `[] = f()`).
    Assign {
        targets: Vec<Expr>,
        multi: bool,
        op: AssignOp,
        value: Expr,
    },
    /// `x : T`, `x : T = e`, and the C-like `T x = e`.
    Decl {
        name: Ident,
        ty: TypeExpr,
        value: Option<Expr>,
    },
    /// `function ... end` (also nested).
    Function(Box<Function>),
    If {
        arms: Vec<(Expr, Block)>,
        otherwise: Option<Block>,
    },
    /// `for var = iter ... end`; `iter` is normally an [`ExprKind::Range`].
    For {
        label: Option<Ident>,
        var: Ident,
        iter: Expr,
        body: Block,
    },
    While {
        label: Option<Ident>,
        cond: Expr,
        body: Block,
    },
    /// `repeat body until cond`.
    Repeat {
        label: Option<Ident>,
        body: Block,
        cond: Expr,
    },
    Break(Option<Ident>),
    Continue(Option<Ident>),
    Return,
    Match {
        scrutinee: Expr,
        arms: Vec<MatchArm>,
    },
    /// `print a, b, c` and `print(a)`: the arguments, in order.
    Print(Vec<Expr>),
    /// `import "file.q"`.
    Import(String),
    /// `type name : ...`.
    TypeDef {
        name: Ident,
        def: TypeDef,
    },
    /// `reduction (params) -> pattern = replacement [where cond]`; pattern and replacement are
    /// statements so that `(x[a > b] = c)` can be written.
    Reduction {
        params: Vec<Param>,
        pattern: Box<Stmt>,
        replacement: Box<Stmt>,
        /// `where cond`: the rule applies only when `cond` holds for the matched values.
        cond: Option<Expr>,
    },
    /// `macro [] = name(params) ... endmacro`; the body is parsed but not expanded yet.
    Macro {
        name: Ident,
        params: Vec<Param>,
        body: Block,
    },
    /// `!name args`, `{!name args}`, `#pragma name args`: kept verbatim.
    Attribute(Attribute),
}

pub type Block = Vec<Stmt>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+= -= *= /= ^= .*= ./= .^=`: the operator that combines old and new value.
    Update(BinOp),
}

#[derive(Clone, Debug, PartialEq)]
pub struct MatchArm {
    /// `None` for the wildcard `_`.
    pub pattern: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrStyle {
    /// `!name ...` on its own line.
    Bang,
    /// `{!name ...}`.
    Brace,
    /// `#pragma name ...`.
    Pragma,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub style: AttrStyle,
    pub name: Ident,
    /// The rest of the attribute after its name, trimmed, exactly as written.
    pub args: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FnKind {
    #[default]
    Host,
    Kernel,
    Device,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: Ident,
    pub kind: FnKind,
    pub params: Vec<Param>,
    /// Output variables: `y`, `[a, b]`, `y : scalar`, `[]` (none).
    pub outputs: Vec<Param>,
    pub body: Block,
    pub concealed: bool,
    pub span: Span,
}

/// A parameter, output or lambda argument: `x`, `x : int`, `x : scalar = 0.5`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub ty: Option<TypeExpr>,
    pub default: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeDef {
    /// `type p : class` / `type p : mutable class` followed by `field : T` lines and `end`.
    Class { mutable: bool, fields: Vec<Param> },
    /// `type T : [vec|mat]`, `type f : [(scalar) -> scalar]`, `type v : vec[int]`.
    Alias(TypeExpr),
}

/// A type as written in a program.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    pub kind: TypeKind,
    /// Access modifiers in order: `cube'unchecked'const` gives `["unchecked", "const"]`.
    pub modifiers: Vec<Ident>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    /// `??`
    Unknown,
    /// `scalar`, `vec`, `vec[int8]`, `cube[??]`, `cube{4}`, `ivec3`, a class name.
    /// `params` are the bracketed element types, `rank` the braced dimension count.
    Named {
        name: String,
        params: Vec<TypeExpr>,
        rank: Option<u32>,
    },
    /// `[(scalar, scalar) -> scalar]`, `[__device__ int -> int]`, `[?? -> ??]`.
    Func {
        kind: FnKind,
        params: Vec<TypeExpr>,
        results: Vec<TypeExpr>,
    },
    /// `[vec | mat | cube]`.
    Union(Vec<TypeExpr>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal: `5`, `1011b` (value 11).
    Int(i64),
    /// A real literal: `5.`, `0.5`, `1e37`.
    Real(f64),
    /// An imaginary literal: `3j`, `0i`, `2.5i` (the imaginary part).
    Imag(f64),
    Str(String),
    Ident(String),
    /// `:` alone inside an index: the whole dimension.
    Colon,
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `start..end` or `start..step..end`.
    Range {
        start: Box<Expr>,
        step: Option<Box<Expr>>,
        end: Box<Expr>,
    },
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
    },
    Index {
        base: Box<Expr>,
        indices: Vec<Expr>,
    },
    Field {
        base: Box<Expr>,
        name: Ident,
    },
    /// `[a, b, c]`; nested rows are themselves `Matrix` expressions.
    Matrix(Vec<Expr>),
    /// `` `a, b, c' ``.
    Cell(Vec<Expr>),
    Lambda(Box<Lambda>),
    /// `e : T` as a call argument (`twice(n : int)`) or the value of a typed field
    /// assignment (`p.gain : scalar = 2.5`): `e` converted to `T`.
    Typed(Box<Expr>, Box<TypeExpr>),
    /// `name := e` as a call argument: the parameter or field `name`.
    Named(Ident, Box<Expr>),
    /// A type used as a value, where the parser can tell: `vec[int8]` in `vec[int8](5)`
    /// is still parsed as an `Index` of `Ident("vec")`; the resolver decides.
    Type(Box<TypeExpr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    /// Unary `+`, kept so that printing reproduces the source.
    Plus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    /// `*`: the matrix product on matrices, element-wise otherwise.
    Mul,
    Div,
    /// `^`
    Pow,
    /// `.*`
    EMul,
    /// `./`
    EDiv,
    /// `.^`
    EPow,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    And,
    Or,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    pub kind: FnKind,
    pub params: Vec<Param>,
    pub body: LambdaBody,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LambdaBody {
    /// `x -> x + 1`
    Expr(Expr),
    /// `() -> (s1; s2)` or a kernel lambda whose body is an assignment:
    /// `__kernel__ (y : vec, pos : int) -> y[pos] = 0`. The value of a block lambda is
    /// the value of its last statement when that is an expression.
    Block(Block),
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Pow => "^",
            EMul => ".*",
            EDiv => "./",
            EPow => ".^",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            And => "&&",
            Or => "||",
        }
    }
}
