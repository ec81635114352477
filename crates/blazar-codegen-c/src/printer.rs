//! The C printer's walk over KIR statements and expressions, shared by every dialect.
//!
//! A dialect (`crate::cuda`, `crate::cpp`) is a generator that implements [`Dialect`]:
//! it owns the output text and says how the target spells what differs between C
//! targets (variables and specials, memory accesses, `for` headers, barriers,
//! asserts, `return`, allocations, and how an operand that may record an error is
//! evaluated). The walk itself (`expr`, `stmt`) prints scalar operations with `spell`
//! and structured control flow the same way for every dialect: loops are C
//! `while`/`for`; `break 0`/`continue 0` are C's, deeper ones are `goto`s to labels
//! printed only when used (`bz_cont_N:` ends loop N's body, `bz_brk_N:` follows it).
//! A third dialect is one more implementation of the trait, not a copy of the walk.

mod expr;
mod stmt;

pub(crate) use expr::expr;
pub(crate) use stmt::block;

use blazar_kir::{ArrId, AtomicOp, Expr, Fill, Kernel, Special, Stmt, VarId};

/// The extents that `k` indices into an array of rank `r` (extent `i` spelled by
/// `dim`) run over, as the CPU executor indexes: left-padded with 1s when `k > r`,
/// the trailing extents folded into the last index when `k < r` (one index is linear).
pub(crate) fn index_extents(r: usize, k: usize, dim: impl Fn(usize) -> String) -> Vec<String> {
    if k >= r {
        (0..k)
            .map(|i| {
                if i < k - r {
                    "1".into()
                } else {
                    dim(i - (k - r))
                }
            })
            .collect()
    } else {
        let mut v: Vec<String> = (0..k - 1).map(&dim).collect();
        let rest: Vec<String> = (k - 1..r).map(&dim).collect();
        v.push(format!("({})", rest.join(" * ")));
        v
    }
}

/// A loop being printed: its id and whether labelled exits were used.
pub(crate) struct LoopCtx {
    pub id: usize,
    pub brk: bool,
    pub cont: bool,
}

/// A `for` loop being printed: the KIR statement's parts, the loop's id, and the C
/// name of its variable and type.
pub(crate) struct ForLoop<'a> {
    pub var: VarId,
    pub start: &'a Expr,
    pub step: &'a Expr,
    pub end: &'a Expr,
    pub body: &'a [Stmt],
    pub id: usize,
    pub v: String,
    pub t: String,
}

/// The walk's state that every dialect keeps: the text, its indentation and the loops.
#[derive(Default)]
pub(crate) struct Out {
    pub text: String,
    pub depth: usize,
    /// Lines printed so far (`#line` directives count them).
    pub lines: usize,
    pub loops: Vec<LoopCtx>,
    pub next_loop: usize,
}

/// What a C dialect decides; the walk in `expr` and `stmt` does the rest.
pub(crate) trait Dialect {
    fn kernel(&self) -> &Kernel;
    fn out(&mut self) -> &mut Out;

    /// Appends one line at the current indentation.
    fn line_out(&mut self, text: &str) {
        let o = self.out();
        for _ in 0..o.depth {
            o.text.push_str("  ");
        }
        o.text.push_str(text);
        o.text.push('\n');
        o.lines += 1;
    }

    // ---- expressions ----

    /// The capture list of the lambdas that map scalar rules over vector lanes.
    const CAPTURE: &'static str;
    /// A read of variable `%v`.
    fn var_read(&mut self, v: VarId) -> String;
    /// Variable `%v` as an assignment target.
    fn var_target(&self, v: VarId) -> String;
    /// A special (`pos`, `blkpos`, ...): a scalar for rank 1, else a vector.
    fn special_expr(&mut self, sp: Special) -> String;
    /// `@arr[index]`; `e` is the load expression itself.
    fn load_expr(&mut self, e: &Expr, arr: ArrId, index: &[Expr]) -> String;
    /// `size(@arr, dim)`, or `numel(@arr)` for `None`.
    fn size_expr(&mut self, arr: ArrId, dim: Option<u8>) -> String;
    /// A dialect's own form of `e`, when it has one.
    fn special_form(&mut self, _e: &Expr) -> Option<String> {
        None
    }
    /// Lane `k` (in range) of the vector expression `v`.
    fn const_lane(&mut self, v: &Expr, k: usize) -> String
    where
        Self: Sized,
    {
        let x = expr(self, v);
        format!("{x}[{k}]")
    }

    // ---- statements ----

    /// Called before each statement is printed.
    fn begin_stmt(&mut self, s: &Stmt);
    /// After `begin_stmt`: opens a condition the statement runs under and returns
    /// `true` (then [`Dialect::guard_close`] follows the statement), or prints nothing.
    fn guard_open(&mut self, _s: &Stmt) -> bool {
        false
    }
    fn guard_close(&mut self) {}
    /// Prints `s`, an `if`, in a form of the dialect's own and returns true; false
    /// (nothing printed) leaves it to the walk.
    fn if_form(&mut self, _s: &Stmt) -> bool {
        false
    }
    /// Statements evaluate their operands first, in a `{ }` scope of their own (for
    /// operands that may record an error: see [`Dialect::operand`]).
    const SCOPED: bool;
    /// `e` may record an error (a `'checked` read) that ends the statement.
    fn checked(&self, _e: &Expr) -> bool {
        false
    }
    /// The C expression of an operand, evaluated before the statement that uses it.
    fn operand(&mut self, e: &Expr) -> String
    where
        Self: Sized,
    {
        expr(self, e)
    }
    /// After a statement whose expression may have recorded an error.
    fn abort_if_failed(&mut self) {}
    fn store_stmt(
        &mut self,
        s: &Stmt,
        arr: ArrId,
        index: &[Expr],
        value: &Expr,
        op: Option<AtomicOp>,
    );
    /// The header of a `for` loop (its bounds are already in `bz_lo<id>`,
    /// `bz_st<id>`, `bz_hi<id>`), ending in its opening brace.
    fn for_header(&mut self, l: &ForLoop);
    fn barrier(&mut self);
    fn assert_stmt(&mut self, line: u32, cond: &Expr);
    fn ret(&mut self);
    fn alloc_shared_stmt(&mut self, arr: ArrId, dims: &[Expr], zero: bool);
    fn alloc_local_stmt(&mut self, arr: ArrId, dims: &[Expr], fill: Fill);
    /// The start of each iteration of loop `_s` (printed inside its body, before it);
    /// nothing by default.
    fn iteration(&mut self, _s: &Stmt) {}
    /// A call of a function of the kernel's table (`blazar_kir::calls`); a dialect
    /// without calls never receives one (its backend declines such kernels), and the
    /// text says so to the compiler rather than silently skipping it.
    fn call_stmt(&mut self, _func: u32, _args: &[Expr], _outs: &[VarId]) {
        self.line_out("#error calls of functions are not supported in this dialect");
    }
}

/// Where load `e` is written (not known for any other expression).
pub fn access_at(e: &Expr) -> blazar_kir::Loc {
    match e.kind {
        blazar_kir::ExprKind::Load { at, .. } => at,
        _ => Default::default(),
    }
}

/// Where the store or update `s` is written (not known for any other statement).
pub fn store_at(s: &Stmt) -> blazar_kir::Loc {
    match s.kind {
        blazar_kir::StmtKind::Store { at, .. } | blazar_kir::StmtKind::Update { at, .. } => at,
        _ => Default::default(),
    }
}
