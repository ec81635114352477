//! Joins inside a region: a matrix literal `[a, b]` of arrays (stacked along a new
//! leading dimension) and `cat(d, ...)`, `horzcat`, `vertcat` become one AIR join node
//! whose parts are any operands (`[x, 2*y] + 1` is one kernel), so each element of the
//! result is read from the part that owns it and nothing is copied on the host.

use super::*;
use blazar_air::JoinKind;

/// The host's join of the evaluated parts (its errors are the user's).
type HostJoin<'a, I> = dyn Fn(&mut I, Vec<Value>, Span) -> R<Value> + 'a;

/// Which builtin joins its arguments (`cat`'s first argument is the dimension).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum JoinFn {
    Cat,
    Horzcat,
    Vertcat,
}

/// Whether a matrix literal may join arrays: some item is not a number written out.
pub(super) fn joins_arrays(items: &[Expr]) -> bool {
    items.iter().any(|i| {
        !matches!(
            i.kind,
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Imag(_)
        )
    })
}

impl<'p> Interp<'p> {
    /// `[a, b, ...]`: its items in order, as one join node when one is large and the
    /// region takes them all, else the host's matrix literal (and its errors).
    pub(super) fn matrix_operand(
        &mut self,
        items: &'p [Expr],
        frame: &mut Frame,
        f: &mut Fusion,
        span: Span,
    ) -> R<Operand> {
        let mut ops = Vec::with_capacity(items.len());
        for i in items {
            ops.push(self.operand(i, frame, f)?);
        }
        let prec = self.prec;
        self.join_or_host(Some(JoinKind::Stack), ops, f, span, &|_, vals, span| {
            crate::coerce::build_matrix(vals, prec, false).at(span)
        })
    }

    /// `cat(d, ...)`, `horzcat(...)` or `vertcat(...)` (builtin `id`), as
    /// [`Interp::matrix_operand`].
    pub(super) fn cat_operand(
        &mut self,
        which: JoinFn,
        id: u32,
        args: &'p [Expr],
        frame: &mut Frame,
        f: &mut Fusion,
        span: Span,
    ) -> R<Operand> {
        let (dim, parts) = match which {
            JoinFn::Cat => (Some(self.eval(&args[0], frame)?), &args[1..]),
            _ => (None, args),
        };
        let kind = match which {
            JoinFn::Vertcat => Some(JoinKind::Cat(0)),
            JoinFn::Horzcat => Some(JoinKind::Cat(1)),
            JoinFn::Cat => dim
                .as_ref()
                .and_then(Value::as_i64)
                .filter(|d| (0..16).contains(d))
                .map(|d| JoinKind::Cat(d as usize)),
        };
        let mut ops = Vec::with_capacity(parts.len());
        for a in parts {
            ops.push(self.operand(a, frame, f)?);
        }
        self.join_or_host(kind, ops, f, span, &|it, vals, span| {
            let mut all: Vec<Value> = dim.iter().cloned().collect();
            all.extend(vals);
            it.call_builtin(id, &all, span)
        })
    }

    fn join_or_host(
        &mut self,
        kind: Option<JoinKind>,
        ops: Vec<Operand>,
        f: &mut Fusion,
        span: Span,
        host: &HostJoin<'_, Self>,
    ) -> R<Operand> {
        if let Some(kind) = kind {
            if ops.iter().any(|o| self.big(o)) {
                let nodes: Option<Vec<NodeRef>> = ops.iter().map(|o| self.node_of(o, f)).collect();
                if let Some(n) = nodes.and_then(|nodes| f.b.join(kind, &nodes)) {
                    return Ok(Operand::Node(n));
                }
            }
        }
        let mut vals = Vec::with_capacity(ops.len());
        for o in ops {
            vals.push(self.force(o, f, span)?);
        }
        Ok(Operand::Val(host(self, vals, span)?, false))
    }
}
