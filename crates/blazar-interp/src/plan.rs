//! Plans: statement blocks prepared once for the interpreter's fast path.
//!
//! A [`Block`] is a body of statements (`&[Stmt]`) turned, the first time it runs, into
//! [`Step`]s the interpreter executes without looking at the HIR again: a scalar
//! assignment holds its expression as an [`X`] tree whose leaves are resolved variable
//! slots and literals already rounded to the run's precision; an `if`, `for`, `while`
//! or `repeat` holds its bodies as nested blocks, so a loop nest runs without a look-up
//! per iteration or per entry of an inner loop. Everything else is a
//! [`StepKind::General`] step that the general statement path (`exec.rs`) runs.
//!
//! A plan decides nothing that depends on values: types stay dynamic. An [`X`]
//! evaluates to a [`crate::num::Num`] (a real or int scalar) or gives up, exactly as
//! [`crate::interp::Interp::num`] does on the same expression; a step whose expression
//! gives up runs its statement on the general path, which gives the same value or
//! reports the error at its place (what an `X` holds is pure, so evaluating it again is
//! harmless). `plan_build.rs` builds plans, `plan_run.rs` runs them; [`Plans`] keeps
//! them per body for the run.
//!
//! Plans run only when nothing watches the statements (no debugger hook, no profiler,
//! no device arrays, no fused statement groups: [`crate::interp::Interp::watched`]);
//! then the general path with its per-statement work runs instead.

use crate::num::Num;
use blazar_diagnostics::Span;
use blazar_hir::{BinOp, Expr, FnId, Stmt, Var};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// The most nodes of one [`X`]: a larger expression stays on the general path (which
/// bounds its own scalar attempt in the same way).
pub(crate) const MAX_NODES: usize = 64;

/// The most arguments of a [`StepKind::Call`].
pub(crate) const MAX_ARGS: usize = 8;

/// A prepared body of statements.
pub(crate) struct Block<'p> {
    pub steps: Box<[Step<'p>]>,
    /// Where a loop whose body this is counts its steps (the first statement, as the
    /// general path does; the loop's own span for an empty body).
    pub first: Span,
}

/// One statement of a [`Block`].
pub(crate) struct Step<'p> {
    pub span: Span,
    pub kind: StepKind<'p>,
}

pub(crate) enum StepKind<'p> {
    /// `var = x` or `var op= x` without a declared type: stored in place when `x` is a
    /// scalar, else the statement `s` on the general path.
    Set {
        var: Var,
        op: Option<BinOp>,
        x: X<'p>,
        s: &'p Stmt,
    },
    /// `var[idx] = x` or `var[idx] op= x` of one element of a numeric array, at
    /// integer coordinates.
    Store {
        var: Var,
        idx: Box<[X<'p>]>,
        op: Option<BinOp>,
        x: X<'p>,
        /// The target's span (where an index outside the array is reported).
        at: Span,
        /// The value's span (where the operator of `op=` is reported).
        vspan: Span,
        s: &'p Stmt,
    },
    /// `var = f(args)` of a user function `f` (no overloads, captures or defaults) with
    /// scalar arguments: called without vectors of arguments (`Interp::call_nums`),
    /// else the statement `s` on the general path. `at` is the call's span.
    Call {
        var: Var,
        func: FnId,
        args: Box<[X<'p>]>,
        at: Span,
        s: &'p Stmt,
    },
    /// `var = strcat(var, rest...)`: the text appended to `var`'s own buffer when no
    /// other value shares it (`plan_append.rs`), else the statement `s` on the general
    /// path. `at` is the call's span.
    Append {
        var: Var,
        rest: &'p [Expr],
        at: Span,
        s: &'p Stmt,
    },
    If {
        arms: Box<[(Cond<'p>, Block<'p>)]>,
        otherwise: Block<'p>,
    },
    For {
        var: Var,
        start: &'p Expr,
        step: Option<&'p Expr>,
        end: &'p Expr,
        body: Block<'p>,
    },
    While {
        cond: Cond<'p>,
        body: Block<'p>,
    },
    Repeat {
        body: Block<'p>,
        cond: Cond<'p>,
    },
    Break(u32),
    Continue(u32),
    Return,
    /// Nothing to do (a declaration, an attribute other than `sched`).
    Nop,
    /// Any other statement: the general path runs it.
    General(&'p Stmt),
}

/// A condition: its scalar form when it has one, and the expression for the general
/// path.
pub(crate) struct Cond<'p> {
    pub x: Option<X<'p>>,
    pub e: &'p Expr,
}

/// An expression of real and int scalars (see the module's comment).
pub(crate) enum X<'p> {
    /// A literal, already rounded or wrapped.
    Num(Num),
    Local(u32),
    Global(u32),
    Neg(Box<X<'p>>),
    Not(Box<X<'p>>),
    Bin(BinOp, Box<(X<'p>, X<'p>)>),
    /// `a && b` (`and`) or `a || b`: `b` is not evaluated when `a` decides; the general
    /// path then still requires `b` (the expression `rhs`) to be one of scalars.
    Logic {
        and: bool,
        ab: Box<(X<'p>, X<'p>)>,
        rhs: &'p Expr,
    },
    /// An element-wise builtin's call (the expression `e`, for its span).
    Call {
        id: u32,
        args: Box<[X<'p>]>,
        e: &'p Expr,
    },
    /// An element of a numeric array at integer coordinates (one to four).
    Elem {
        var: Var,
        idx: Box<[X<'p>]>,
    },
}

/// The plans of one run, by body: built on a body's first run.
#[derive(Default)]
pub(crate) struct Plans<'p> {
    by_body: HashMap<(usize, usize), Rc<Block<'p>>, BuildHasherDefault<AddrHasher>>,
}

impl<'p> Plans<'p> {
    #[inline]
    pub fn get(&self, body: &[Stmt]) -> Option<&Rc<Block<'p>>> {
        self.by_body.get(&key(body))
    }

    pub fn insert(&mut self, body: &[Stmt], b: Rc<Block<'p>>) {
        self.by_body.insert(key(body), b);
    }
}

/// A body by where it lies and its length (a body and its first statement alone
/// differ).
#[inline(always)]
fn key(body: &[Stmt]) -> (usize, usize) {
    (body.as_ptr() as usize, body.len())
}

/// A hasher for addresses: a multiply that spreads their bits (they are distinct and
/// aligned; no adversary chooses them).
#[derive(Default)]
pub(crate) struct AddrHasher(u64);

impl Hasher for AddrHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // The product's high bits, where the address's bits went, folded down too
        // (the table picks buckets by the low bits).
        self.0 ^ self.0 >> 29
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}
