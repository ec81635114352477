//! Walks over KIR shared by the passes and backends: rewriting expressions bottom-up,
//! how deep a kernel's expressions nest, and which arrays it writes.

use crate::ir::{Bind, Block, Expr, ExprKind, Kernel, Stmt, StmtKind, VarId};

/// Calls `f` on each operand of `e` (not on `e`).
pub fn operands<'a>(e: &'a Expr, f: &mut impl FnMut(&'a Expr)) {
    match &e.kind {
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Special(_)
        | ExprKind::Size { .. }
        | ExprKind::Numel(_) => {}
        ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::Splat(a) => f(a),
        ExprKind::VecReduce(_, a) => f(a),
        ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => {
            f(a);
            f(b);
        }
        ExprKind::Select(c, a, b) => {
            f(c);
            f(a);
            f(b);
        }
        ExprKind::Math(_, args) | ExprKind::VecLit(args) | ExprKind::Load { index: args, .. } => {
            args.iter().for_each(f)
        }
    }
}

/// Calls `f` on `e` and on every expression inside it, each before its operands.
pub fn walk_expr<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(e);
    operands(e, &mut |a| walk_expr(a, f));
}

/// Whether evaluating `e` reads no array (so it may be computed for one lane alone,
/// or hoisted).
pub fn reads_no_array(e: &Expr) -> bool {
    if matches!(e.kind, ExprKind::Load { .. }) {
        return false;
    }
    let mut free = true;
    operands(e, &mut |a| free = free && reads_no_array(a));
    free
}

/// Levels of `e` (1 for a leaf), counted with an explicit stack: however deep `e`
/// is, this takes no call stack.
pub fn depth(e: &Expr) -> usize {
    let mut deepest = 0;
    let mut work = vec![(e, 1usize)];
    while let Some((x, d)) = work.pop() {
        deepest = deepest.max(d);
        operands(x, &mut |o| work.push((o, d + 1)));
    }
    deepest
}

/// The deepest expression a backend hands to a compiler (C++, CUDA): past it the
/// kernel runs on the interpreter (g++ takes 0.4 s and 120 MB on a chain of 512
/// additions, 4 s and 1 GB on 2,000, and exhausts 24 GB on 10,000).
pub const MAX_COMPILED_DEPTH: usize = 512;

/// The deepest expression of kernel `k`. Backends that hand expressions to a compiler
/// as nested text (C++, CUDA) decline kernels past a bound: compilers take minutes
/// or run out of stack on chains of 100,000 operators, which the interpreter runs.
pub fn max_expr_depth(k: &Kernel) -> usize {
    fn block(b: &Block) -> usize {
        let mut deepest = 0;
        for s in b {
            let mut e = |x: &Expr| deepest = deepest.max(depth(x));
            let mut inner = 0;
            match &s.kind {
                StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => e(value),
                StmtKind::SetLane { lane, value, .. } => {
                    e(lane);
                    e(value);
                }
                StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
                    index.iter().for_each(&mut e);
                    e(value);
                }
                StmtKind::If { cond, then, els } => {
                    e(cond);
                    inner = block(then).max(block(els));
                }
                StmtKind::While { cond, body } => {
                    e(cond);
                    inner = block(body);
                }
                StmtKind::For {
                    start,
                    step,
                    end,
                    body,
                    ..
                } => {
                    e(start);
                    e(step);
                    e(end);
                    inner = block(body);
                }
                StmtKind::Assert { cond } => e(cond),
                StmtKind::AllocShared { dims, .. } | StmtKind::AllocLocal { dims, .. } => {
                    dims.iter().for_each(&mut e)
                }
                StmtKind::Call { args, .. } => args.iter().for_each(&mut e),
                StmtKind::Break(_)
                | StmtKind::Continue(_)
                | StmtKind::Barrier
                | StmtKind::Return => {}
            }
            deepest = deepest.max(inner);
        }
        deepest
    }
    block(&k.body)
}

/// The most expression nodes a backend hands to a compiler in one kernel: past it the
/// kernel runs on the interpreter. Compilers optimise a function in time that grows
/// with the square of its size (g++ -O3: 10 s for 8,000 added terms in statements of
/// 100, 164 s and 2.3 GB for 32,000), while the interpreter's compile is linear.
pub const MAX_COMPILED_SIZE: usize = 50_000;

/// The expression nodes of kernel `k`, all statements' together (counted with an
/// explicit stack, like [`depth`]).
pub fn kernel_size(k: &Kernel) -> usize {
    let mut n = 0;
    walk_stmts(&k.body, &mut |s| {
        n += 1;
        stmt_exprs(s, &mut |e| {
            let mut work = vec![e];
            while let Some(x) = work.pop() {
                n += 1;
                operands(x, &mut |o| work.push(o));
            }
        });
    });
    n
}

/// Calls `f` on each expression of statement `s` itself (not of the blocks inside it).
pub fn stmt_exprs<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Expr)) {
    match &s.kind {
        StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => f(value),
        StmtKind::SetLane { lane, value, .. } => {
            f(lane);
            f(value);
        }
        StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
            index.iter().for_each(&mut *f);
            f(value);
        }
        StmtKind::If { cond, .. } | StmtKind::While { cond, .. } | StmtKind::Assert { cond } => {
            f(cond)
        }
        StmtKind::For {
            start, step, end, ..
        } => {
            f(start);
            f(step);
            f(end);
        }
        StmtKind::AllocShared { dims, .. } | StmtKind::AllocLocal { dims, .. } => {
            dims.iter().for_each(&mut *f)
        }
        StmtKind::Call { args, .. } => args.iter().for_each(&mut *f),
        StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Barrier | StmtKind::Return => {}
    }
}

/// `e` with every node passed through `f` after its operands (bottom-up).
pub fn map_expr(e: &Expr, f: &mut dyn FnMut(Expr) -> Expr) -> Expr {
    let mut m = |x: &Expr| Box::new(map_expr(x, f));
    let kind = match &e.kind {
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Special(_)
        | ExprKind::Size { .. }
        | ExprKind::Numel(_) => e.kind.clone(),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, m(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, m(a), m(b)),
        ExprKind::Cast(a) => ExprKind::Cast(m(a)),
        ExprKind::Select(c, a, b) => ExprKind::Select(m(c), m(a), m(b)),
        ExprKind::Math(g, args) => ExprKind::Math(*g, args.iter().map(|a| *m(a)).collect()),
        ExprKind::Load { arr, index, at } => ExprKind::Load {
            arr: *arr,
            index: index.iter().map(|a| *m(a)).collect(),
            at: *at,
        },
        ExprKind::VecLit(items) => ExprKind::VecLit(items.iter().map(|a| *m(a)).collect()),
        ExprKind::Splat(a) => ExprKind::Splat(m(a)),
        ExprKind::Lane(v, l) => ExprKind::Lane(m(v), m(l)),
        ExprKind::VecReduce(r, a) => ExprKind::VecReduce(*r, m(a)),
    };
    f(Expr::new(kind, e.ty))
}

/// `e` with every read of variable `var` replaced by `with`.
pub fn substitute(e: &Expr, var: VarId, with: &Expr) -> Expr {
    map_expr(e, &mut |x| match x.kind {
        ExprKind::Var(v) if v == var => with.clone(),
        _ => x,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::BinOp;
    use crate::types::Ty;

    #[test]
    fn substitute_replaces_every_read_of_the_variable() {
        let v = |i| Expr::new(ExprKind::Var(i), Ty::I32);
        let add = |a, b| {
            Expr::new(
                ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(b)),
                Ty::I32,
            )
        };
        let e = add(v(0), add(v(1), v(0)));
        let got = substitute(&e, 0, &Expr::int(7));
        assert_eq!(got, add(Expr::int(7), add(v(1), Expr::int(7))));
        assert_eq!(depth(&e), 3);
        assert_eq!(depth(&v(0)), 1);
    }
}

/// Calls `f` on every statement of `b`, nested ones after their parent.
pub fn walk_stmts<'a>(b: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    for s in b {
        f(s);
        match &s.kind {
            StmtKind::If { then, els, .. } => {
                walk_stmts(then, f);
                walk_stmts(els, f);
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => walk_stmts(body, f),
            _ => {}
        }
    }
}

/// Per array slot of `k`: the kernel stores into it or updates it atomically.
pub fn written_arrays(k: &Kernel) -> Vec<bool> {
    let mut written = vec![false; k.arrays.len()];
    walk_stmts(&k.body, &mut |s| {
        if let StmtKind::Store { arr, .. } | StmtKind::Update { arr, .. } = &s.kind {
            if let Some(w) = written.get_mut(*arr as usize) {
                *w = true;
            }
        }
    });
    written
}

/// Which parameters of `k` name arrays the kernel writes (scalars `false`).
pub fn written_params(k: &Kernel) -> Vec<bool> {
    let written = written_arrays(k);
    k.params
        .iter()
        .map(|p| match p.bind {
            Bind::Array(a) => written.get(a as usize).copied().unwrap_or(true),
            Bind::Var(_) => false,
        })
        .collect()
}

/// Calls `f` on every expression that statements of `b` hold (not their
/// subexpressions), nested statements' after their parent's.
pub fn exprs_mut(b: &mut [Stmt], f: &mut dyn FnMut(&mut Expr)) {
    for s in b {
        match &mut s.kind {
            StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => f(value),
            StmtKind::SetLane { lane, value, .. } => {
                f(lane);
                f(value);
            }
            StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
                index.iter_mut().for_each(&mut *f);
                f(value);
            }
            StmtKind::If { cond, then, els } => {
                f(cond);
                exprs_mut(then, f);
                exprs_mut(els, f);
            }
            StmtKind::While { cond, body } => {
                f(cond);
                exprs_mut(body, f);
            }
            StmtKind::For {
                start,
                step,
                end,
                body,
                ..
            } => {
                f(start);
                f(step);
                f(end);
                exprs_mut(body, f);
            }
            StmtKind::Assert { cond } => f(cond),
            StmtKind::AllocShared { dims, .. } | StmtKind::AllocLocal { dims, .. } => {
                dims.iter_mut().for_each(&mut *f)
            }
            StmtKind::Call { args, .. } => args.iter_mut().for_each(&mut *f),
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Barrier | StmtKind::Return => {}
        }
    }
}
