//! Finds the element access a kernel's error names: kernels record the line and column
//! of a `'checked` access that misses (`blazar_kir::Loc`), and the host reports the
//! access written there, as the interpreter reports an index out of range.

use blazar_diagnostics::{SourceMap, Span};
use blazar_hir::visit::{blocks, each_expr, own_exprs};
use blazar_hir::{ExprKind, Stmt, StmtKind};

/// The span of the element access that starts at `line`:`col` in `body` (an indexing
/// expression, or an indexed assignment target), at any depth.
pub(crate) fn access_at(sources: &SourceMap, body: &[Stmt], line: u32, col: u32) -> Option<Span> {
    if line == 0 || col == 0 {
        return None;
    }
    let starts_here =
        |s: Span| sources.line_of(s) as u32 == line && sources.col_of(s) as u32 == col;
    for s in body {
        let mut found = None;
        for x in own_exprs(s) {
            each_expr(x, &mut |y| {
                if found.is_none()
                    && matches!(y.kind, ExprKind::Index { .. })
                    && starts_here(y.span)
                {
                    found = Some(y.span);
                }
            });
        }
        let targets = match &s.kind {
            StmtKind::Assign { target, .. } => std::slice::from_ref(target),
            StmtKind::MultiAssign { targets, .. } => targets.as_slice(),
            _ => &[],
        };
        found = found.or_else(|| {
            targets
                .iter()
                .find(|t| !t.path.is_empty() && starts_here(t.span))
                .map(|t| t.span)
        });
        if found.is_some() {
            return found;
        }
        if let Some(x) = blocks(s)
            .into_iter()
            .find_map(|b| access_at(sources, b, line, col))
        {
            return Some(x);
        }
    }
    None
}

/// [`access_at`] over every function of `prog` in the file of `in_file` (an explicit
/// kernel's accesses may be in a device function it calls).
pub(crate) fn access_in_program(
    prog: &blazar_hir::Program,
    sources: &SourceMap,
    in_file: Span,
    line: u32,
    col: u32,
) -> Option<Span> {
    prog.functions
        .iter()
        .filter(|f| f.span.file == in_file.file)
        .find_map(|f| access_at(sources, &f.body, line, col))
}
