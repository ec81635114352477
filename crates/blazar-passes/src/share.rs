//! `share`: a costly subexpression that one statement evaluates more than once becomes
//! a kernel variable, assigned right before the statement and read where the copies
//! were. Fused whole-array statements produce such copies: in `y = 255*(x/255).^0.45;
//! t = y > 128; e = sum(t .* y)` the value of `y` appears twice in the one statement of
//! the fused kernel, and the generated C had two inlined copies of an accurate power
//! with branches, which NVRTC merged only in part (266 PTX lines per element against
//! 237 with one copy).
//!
//! Only real and complex values are shared, only copies that the statement evaluates
//! unconditionally (never one under a branch of a select or on the right of
//! `&&`/`||`), and only subexpressions that cannot record an error (no `'checked`
//! load): evaluated before the statement, they compute the same value, and the
//! statement fails exactly where it failed before. Operands are evaluated before a
//! statement's effect, so reading an array the statement writes gives the same value
//! too. A subexpression is costly when it calls a math function, raises to a power or
//! divides; loads, which the C compilers already share, are not worth a variable by
//! themselves. `BLAZAR_KIR_SHARE=0` turns the pass off (for measuring).

use blazar_kir::visit::operands;
use blazar_kir::{BinOp, Expr, ExprKind, Kernel, ReadMode, Stmt, StmtKind, Ty, VarDecl};

pub fn share(k: &mut Kernel) {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *OFF.get_or_init(|| std::env::var("BLAZAR_KIR_SHARE").is_ok_and(|v| v == "0")) {
        return;
    }
    let body = std::mem::take(&mut k.body);
    k.body = block(k, body);
}

fn block(k: &mut Kernel, b: Vec<Stmt>) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(b.len());
    for mut s in b {
        match &mut s.kind {
            StmtKind::If { then, els, .. } => {
                *then = block(k, std::mem::take(then));
                *els = block(k, std::mem::take(els));
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => {
                *body = block(k, std::mem::take(body));
            }
            _ => {}
        }
        // Repeatedly: the largest shared subexpression first, then those left.
        while let Some(e) = repeated(k, &s) {
            let v = k.vars.len() as u32;
            k.vars.push(VarDecl {
                name: format!("shared{v}"),
                ty: e.ty,
            });
            let var = Expr::new(ExprKind::Var(v), e.ty);
            replace_in_stmt(&mut s, &e, &var);
            out.push(Stmt {
                kind: StmtKind::Assign { var: v, value: e },
                line: s.line,
            });
        }
        out.push(s);
    }
    out
}

/// The expressions statement `s` evaluates unconditionally before its effect (its own
/// operands; not the conditions of loops, which run again each iteration).
fn stmt_operands(s: &mut Stmt) -> Vec<&mut Expr> {
    match &mut s.kind {
        StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => vec![value],
        StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
            index.iter_mut().chain(std::iter::once(value)).collect()
        }
        StmtKind::If { cond, .. } => vec![cond],
        _ => Vec::new(),
    }
}

/// The largest costly, error-free subexpression that `s` evaluates unconditionally at
/// least twice.
fn repeated(k: &Kernel, s: &Stmt) -> Option<Expr> {
    let mut seen: Vec<(Expr, u32)> = Vec::new();
    let direct: Vec<&Expr> = match &s.kind {
        StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => vec![value],
        StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
            index.iter().chain(std::iter::once(value)).collect()
        }
        StmtKind::If { cond, .. } => vec![cond],
        _ => Vec::new(),
    };
    for e in direct {
        collect(k, e, &mut seen);
    }
    seen.into_iter()
        .filter(|(_, n)| *n >= 2)
        .map(|(e, _)| e)
        .max_by_key(size)
}

/// Counts the unconditionally evaluated subexpressions of `e` that are worth sharing.
fn collect(k: &Kernel, e: &Expr, seen: &mut Vec<(Expr, u32)>) {
    if costly(e) && shareable(k, e) {
        match seen.iter_mut().find(|(x, _)| x == e) {
            Some((_, n)) => *n += 1,
            None => seen.push((e.clone(), 1)),
        }
    }
    match &e.kind {
        // Only the condition of a select, and the left side of `&&` / `||`, always run.
        ExprKind::Select(c, _, _) => collect(k, c, seen),
        ExprKind::Binary(BinOp::And | BinOp::Or, a, _) => collect(k, a, seen),
        _ => operands(e, &mut |x| collect(k, x, seen)),
    }
}

/// Calls a math function, raises to a power or divides somewhere inside.
fn costly(e: &Expr) -> bool {
    let mut found = matches!(
        e.kind,
        ExprKind::Math(..) | ExprKind::Binary(BinOp::Div | BinOp::Pow | BinOp::Rem, ..)
    );
    if !found {
        operands(e, &mut |x| found |= costly(x));
    }
    found
}

/// A real or complex value (integer arithmetic, in indices, stays where it is: the
/// range facts of `blazar_kir::affine` read indices as written, and the C compilers
/// share integer expressions themselves), computed without recording an error.
fn shareable(k: &Kernel, e: &Expr) -> bool {
    matches!(e.ty, Ty::Scalar(s) | Ty::Vector(s, _) if s.is_float() || s.is_complex()) && safe(k, e)
}

/// Cannot record an error.
fn safe(k: &Kernel, e: &Expr) -> bool {
    if let ExprKind::Load { arr, .. } = &e.kind {
        let checked = match k.arrays.get(*arr as usize).map(|a| a.ty) {
            Some(Ty::Array(t)) => t.read == ReadMode::Checked,
            _ => true,
        };
        if checked {
            return false;
        }
    }
    let mut ok = true;
    operands(e, &mut |x| ok &= safe(k, x));
    ok
}

fn size(e: &Expr) -> usize {
    let mut n = 1;
    operands(e, &mut |x| n += size(x));
    n
}

fn replace_in_stmt(s: &mut Stmt, from: &Expr, to: &Expr) {
    for e in stmt_operands(s) {
        replace(e, from, to);
    }
}

/// Replaces the unconditionally evaluated copies of `from` in `e` (those `collect`
/// counted).
fn replace(e: &mut Expr, from: &Expr, to: &Expr) {
    if e == from {
        *e = to.clone();
        return;
    }
    match &mut e.kind {
        ExprKind::Select(c, _, _) => replace(c, from, to),
        ExprKind::Binary(BinOp::And | BinOp::Or, a, _) => replace(a, from, to),
        ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::Splat(a) => replace(a, from, to),
        ExprKind::VecReduce(_, a) => replace(a, from, to),
        ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => {
            replace(a, from, to);
            replace(b, from, to);
        }
        ExprKind::Math(_, args) | ExprKind::VecLit(args) => {
            args.iter_mut().for_each(|x| replace(x, from, to))
        }
        ExprKind::Load { index, .. } => index.iter_mut().for_each(|x| replace(x, from, to)),
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Special(_)
        | ExprKind::Size { .. }
        | ExprKind::Numel(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blazar_kir::{ArrayDecl, ArrayTy, Const, Scalar, Space, Special, WriteMode};

    const F32: Ty = Ty::Scalar(Scalar::F32);

    fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        let ty = if matches!(op, BinOp::Gt | BinOp::And) {
            Ty::Scalar(Scalar::Bool)
        } else {
            F32
        };
        Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
    }

    fn real(x: f64) -> Expr {
        Expr::new(ExprKind::Const(Const::Float(x)), F32)
    }

    /// `@0[pos]` of an array read in `mode`.
    fn load() -> Expr {
        let pos = Expr::new(ExprKind::Special(Special::Pos), Ty::I32);
        Expr::new(
            ExprKind::Load {
                arr: 0,
                index: vec![pos],
            },
            F32,
        )
    }

    /// A kernel of one statement `x = value` reading array @0 in `read` mode.
    fn kernel(value: Expr, read: ReadMode) -> Kernel {
        Kernel {
            name: "k".into(),
            rank: 1,
            params: vec![],
            outputs: vec![],
            vars: vec![VarDecl {
                name: "x".into(),
                ty: F32,
            }],
            arrays: vec![ArrayDecl {
                name: "a".into(),
                ty: Ty::Array(ArrayTy {
                    elem: Scalar::F32,
                    rank: 1,
                    read,
                    write: WriteMode::Unchecked,
                    is_const: true,
                    space: Space::Global,
                }),
            }],
            body: vec![Stmt {
                line: 1,
                kind: StmtKind::Assign { var: 0, value },
            }],
            calls: Default::default(),
            facts: Default::default(),
        }
    }

    /// `255 * (a[pos] / 255) ^ 0.45`: the gamma of the fused pipeline.
    fn gamma() -> Expr {
        let p = bin(BinOp::Pow, bin(BinOp::Div, load(), real(255.0)), real(0.45));
        bin(BinOp::Mul, real(255.0), p)
    }

    fn count(e: &Expr, what: &Expr) -> usize {
        let mut n = usize::from(e == what);
        operands(e, &mut |x| n += count(x, what));
        n
    }

    #[test]
    fn a_repeated_power_is_computed_once() {
        // (gamma > 128) * gamma
        let cmp = Expr::new(
            ExprKind::Cast(Box::new(bin(BinOp::Gt, gamma(), real(128.0)))),
            F32,
        );
        let mut k = kernel(bin(BinOp::Mul, cmp, gamma()), ReadMode::Unchecked);
        share(&mut k);
        assert_eq!(k.body.len(), 2, "{:?}", k.body);
        let StmtKind::Assign { var, value } = &k.body[0].kind else {
            panic!("an assignment first: {:?}", k.body[0]);
        };
        assert_eq!((*var, value), (1, &gamma()));
        assert_eq!(k.vars[1].ty, F32);
        let StmtKind::Assign { value, .. } = &k.body[1].kind else {
            panic!()
        };
        assert_eq!(count(value, &gamma()), 0);
        assert_eq!(count(value, &Expr::new(ExprKind::Var(1), F32)), 2);
    }

    #[test]
    fn checked_reads_and_conditional_copies_stay() {
        // A read that may fail is not moved before the statement.
        let e = bin(BinOp::Add, gamma(), gamma());
        let mut k = kernel(e.clone(), ReadMode::Checked);
        share(&mut k);
        assert_eq!(k.body.len(), 1);
        // A copy under a select branch is not evaluated unconditionally.
        let cond = bin(BinOp::Gt, load(), real(1.0));
        let sel = Expr::new(
            ExprKind::Select(Box::new(cond), Box::new(gamma()), Box::new(real(0.0))),
            F32,
        );
        let mut k = kernel(bin(BinOp::Add, sel, gamma()), ReadMode::Unchecked);
        share(&mut k);
        assert_eq!(k.body.len(), 1, "{:?}", k.body);
        // Cheap repeated loads are left to the compilers.
        let mut k = kernel(bin(BinOp::Add, load(), load()), ReadMode::Unchecked);
        share(&mut k);
        assert_eq!(k.body.len(), 1);
    }
}
