//! Whether kernel code can express a host loop body: one walker over the statements
//! and expressions, shared by the loop parallelizer (`loop_body`) and the serial-loop
//! outliner (`serialize`). What neither can take (printing, strings, slices, objects,
//! cells, `match`, declarations, loops over elements, nested serial loops, rewritten
//! statements) is refused here; what differs between them (calls, jumps, `return`,
//! multiple assignments, nested parallel loops, built arrays) is a [`Form`]'s answer.

use blazar_diagnostics::Span;
use blazar_hir::{self as hir, Access, Expr, ExprKind, Stmt, StmtKind};

/// Why a body has no kernel form: where, and in words.
pub type Refusal = (Span, String);

/// The rules one user of the walker adds to the shared ones.
pub trait Form {
    /// A statement the shared rules allow, `depth` loops inside the body walked
    /// (for `break`/`continue`); its expressions and blocks are walked after.
    fn stmt(&self, s: &Stmt, depth: u32) -> Result<(), Refusal>;
    /// A call, an array literal or a conversion (the expressions the shared rules
    /// leave to the form); its operands are walked after.
    fn expr(&self, e: &Expr) -> Result<(), Refusal>;
}

/// Checks every statement of `body` and of its nested blocks, `depth` loops inside
/// the body first walked.
pub fn walk(body: &[Stmt], depth: u32, form: &dyn Form) -> Result<(), Refusal> {
    for s in body {
        shared_stmt(s)?;
        form.stmt(s, depth)?;
        for e in hir::visit::own_exprs(s) {
            walk_expr(e, form)?;
        }
        let inner = match s.kind {
            StmtKind::ForRange { .. } | StmtKind::While { .. } | StmtKind::Repeat { .. } => 1,
            _ => 0,
        };
        for b in hir::visit::blocks(s) {
            walk(b, depth + inner, form)?;
        }
    }
    Ok(())
}

/// The statements no kernel code takes.
fn shared_stmt(s: &Stmt) -> Result<(), Refusal> {
    let no = |m: &str| Err((s.span, m.to_string()));
    match &s.kind {
        StmtKind::Assign { target, .. } => {
            if target.path.iter().any(|a| matches!(a, Access::Field(_))) {
                return no("it sets a field of an object");
            }
            if target.path.len() > 1 {
                return no("it indexes a value twice in one assignment");
            }
        }
        StmtKind::Declare { .. } => return no("a declaration"),
        StmtKind::ForEach { .. } => return no("a loop over the elements of a value"),
        StmtKind::Match { .. } => return no("a `match`"),
        StmtKind::Print(_) => return no("it prints"),
        StmtKind::Serial(_) => return no("it holds a serial loop"),
        StmtKind::Rewritten(_) => {
            return no("a `reduction` rule rewrites a statement only when its types allow")
        }
        _ => {}
    }
    Ok(())
}

fn walk_expr(e: &Expr, form: &dyn Form) -> Result<(), Refusal> {
    let no = |m: &str| Err((e.span, m.to_string()));
    match &e.kind {
        ExprKind::Str(_) => return no("it uses a string"),
        ExprKind::Closure { .. } | ExprKind::FuncValue(_) => {
            return no("it makes a function value")
        }
        ExprKind::Colon | ExprKind::Range { .. } => return no("it takes a slice"),
        ExprKind::Field { .. } => return no("it reads a field of an object"),
        ExprKind::Cell(_) | ExprKind::TypeValue(_) => return no("it makes a cell or a type"),
        ExprKind::Index { base, .. } if !matches!(base.kind, ExprKind::Var(_)) => {
            return no("it indexes the result of an expression")
        }
        ExprKind::Call { .. } | ExprKind::Matrix(_) | ExprKind::Convert(..) => form.expr(e)?,
        _ => {}
    }
    for c in hir::visit::children(e) {
        walk_expr(c, form)?;
    }
    Ok(())
}
