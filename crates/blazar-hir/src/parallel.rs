//! Host loops that run as kernels: what the loop parallelizer (`passes::parallelize`)
//! puts in place of a `for` nest it can run in parallel.
//!
//! The plan keeps the original loop: the interpreter runs it serially whenever the
//! kernel cannot be used at run time (too few iterations, a value a kernel cannot take,
//! two names for one written array, a kernel that does not compile).

use crate::hir::{Expr, FnId, Stmt, Var};
use blazar_diagnostics::Span;

/// A `for` nest run as one launch of a generated kernel.
#[derive(Clone, Debug)]
pub struct ParallelLoop {
    /// The generated `__kernel__` function. Its ordinary parameters are, in order, the
    /// start and step of each level whose range is not literal, then the host variables of [`ParallelLoop::args`];
    /// its outputs are the partial results of [`ParallelLoop::outputs`].
    pub kernel: FnId,
    /// The parallel levels, outermost first: level `k` is `pos[k]`.
    pub levels: Vec<LoopLevel>,
    /// Host variables the kernel reads or writes (arrays and scalars).
    pub args: Vec<Var>,
    /// Arrays the kernel writes: none may share its data with another argument.
    pub written: Vec<Var>,
    /// Per kernel output: the host variable that receives it before `combine` runs,
    /// and the variable whose value gives the output its initial type.
    pub outputs: Vec<(Var, Var)>,
    /// Host statements run after the kernel: fold each output into its accumulator.
    pub combine: Vec<Stmt>,
    /// Every element access of each array argument: where all of an array's accesses
    /// are provably inside it for the launch's ranges, it is passed unchecked.
    pub accesses: Vec<(Var, Vec<Vec<IndexForm>>)>,
    /// The same kernel under the shared-memory caching transform (seed 003).
    pub cached: Option<CachedKernel>,
    /// `!kernel_tiling dims=[...]`: the block shape to launch with (one extent per
    /// level, shrunk to divide the ranges and to fit a block), and its target.
    pub tiling: Option<(Vec<usize>, Option<String>)>,
    /// `#pragma force_parallel` or `!parallel for`: no minimum trip count.
    pub forced: bool,
    /// The loop as written, run when the kernel cannot be used.
    pub serial: Box<Stmt>,
}

/// A loop kernel whose atomic updates of one array go to a shared-memory copy per block.
#[derive(Clone, Debug)]
pub struct CachedKernel {
    pub kernel: FnId,
    /// `None`: every target; `Some("gpu")` (from `if $target("gpu")` in a macro): only
    /// there (`gpu`, `nvidia_cuda` or `cpu`).
    pub target: Option<String>,
    /// The cached array and its element count (the kernel is used when they agree).
    pub array: Var,
    pub numel: i64,
}

#[derive(Clone, Debug)]
pub struct LoopLevel {
    pub var: Var,
    pub start: Expr,
    pub step: Option<Expr>,
    pub end: Expr,
}

impl LoopLevel {
    /// The start and step when both are integer literals (`for i = 0..n-1`): the kernel
    /// then has them as constants (contiguous indices the C++ and CUDA compilers see),
    /// else they are kernel parameters.
    pub fn literal(&self) -> Option<(i64, i64)> {
        fn int(e: &Expr) -> Option<i64> {
            match &e.kind {
                crate::hir::ExprKind::Int(v) => Some(*v),
                crate::hir::ExprKind::Unary(crate::hir::UnOp::Neg, a) => int(a).map(|v| -v),
                _ => None,
            }
        }
        let step = match &self.step {
            Some(e) => int(e)?,
            None => 1,
        };
        Some((int(&self.start)?, step))
    }
}

/// One index of an element access, as far as the launch can bound it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexForm {
    /// The variable of parallel level `level` plus a constant.
    Level {
        level: usize,
        offset: i64,
    },
    Const(i64),
    /// Anything else: the access is checked when the kernel runs.
    Unknown,
}

/// What the parallelizer decided for one `for` loop, for `blazar emit loops`.
#[derive(Clone, Debug)]
pub struct LoopReport {
    pub span: Span,
    pub decision: LoopDecision,
    /// Why, in words ("`y[i]` reads `y[i-1]`, written by the previous iteration").
    pub reason: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopDecision {
    /// Every iteration writes its own elements: one thread per iteration.
    Kernel,
    /// Accumulators become kernel outputs (a tree reduction per block).
    Reduction,
    /// Updates at data-dependent indices become atomic operations.
    Atomics,
    /// Runs in the interpreter.
    Serial,
    /// Runs inside the kernel of an enclosing loop.
    Inner,
}

impl LoopDecision {
    pub fn word(self) -> &'static str {
        match self {
            LoopDecision::Kernel => "kernel",
            LoopDecision::Reduction => "reduction",
            LoopDecision::Atomics => "atomics",
            LoopDecision::Serial => "serial",
            LoopDecision::Inner => "inner",
        }
    }
}
