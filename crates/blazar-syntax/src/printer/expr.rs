//! Printing of expressions and type expressions.

use super::Printer;
use crate::ast::*;

impl Printer {
    pub(super) fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int(v) => self.w(&v.to_string()),
            ExprKind::Real(v) => self.w(&real(*v)),
            ExprKind::Imag(v) => {
                let text = real(*v);
                self.w(&text);
                self.w("i");
            }
            ExprKind::Str(s) => self.string(s),
            // A lone `_` before a line break would read as a line continuation.
            ExprKind::Ident(name) if name == "_" => self.w("(_)"),
            ExprKind::Ident(name) => self.w(name),
            ExprKind::Colon => self.w(":"),
            ExprKind::Unary(op, x) => {
                self.w(match op {
                    UnOp::Neg => "(-",
                    UnOp::Not => "(!",
                    UnOp::Plus => "(+",
                });
                self.expr(x);
                self.w(")");
            }
            ExprKind::Binary(op, l, r) => {
                self.w("(");
                self.expr(l);
                self.w(" ");
                self.w(op.symbol());
                self.w(" ");
                self.expr(r);
                self.w(")");
            }
            ExprKind::Range { start, step, end } => {
                self.w("(");
                self.expr(start);
                self.w(" .. ");
                if let Some(s) = step {
                    self.expr(s);
                    self.w(" .. ");
                }
                self.expr(end);
                self.w(")");
            }
            ExprKind::Ternary(c, a, b) => {
                self.w("(");
                self.expr(c);
                self.w(" ? ");
                self.expr(a);
                self.w(" : ");
                self.expr(b);
                self.w(")");
            }
            ExprKind::Call { callee, args } => {
                self.expr(callee);
                self.w("(");
                self.list(args, |p, a| p.expr(a));
                self.w(")");
            }
            ExprKind::Index { base, indices } => {
                self.expr(base);
                self.w("[");
                self.list(indices, |p, a| p.expr(a));
                self.w("]");
            }
            ExprKind::Field { base, name } => {
                self.expr(base);
                self.w(".");
                self.w(&name.name);
            }
            ExprKind::Matrix(elems) => {
                self.w("[");
                self.list(elems, |p, a| p.expr(a));
                self.w("]");
            }
            ExprKind::Cell(elems) => {
                self.w("`");
                self.list(elems, |p, a| p.expr(a));
                // `´` always closes a cell; `'` right after the backquote would not.
                self.w(if elems.is_empty() { "\u{b4}" } else { "'" });
            }
            ExprKind::Lambda(l) => self.lambda(l),
            ExprKind::Type(t) => self.ty(t),
            ExprKind::Typed(x, t) => {
                self.expr(x);
                self.w(" : ");
                self.ty(t);
            }
            ExprKind::Named(n, x) => {
                self.w(&n.name);
                self.w(" := ");
                self.expr(x);
            }
        }
    }

    fn lambda(&mut self, l: &Lambda) {
        self.w("(");
        self.fn_kind(l.kind);
        self.w("(");
        self.list(&l.params, |p, x| p.param(x));
        self.w(") -> ");
        match &l.body {
            LambdaBody::Expr(e) => self.expr(e),
            LambdaBody::Block(stmts) => {
                let saved = std::mem::replace(&mut self.inline, true);
                self.w("(");
                for (i, s) in stmts.iter().enumerate() {
                    if i > 0 {
                        self.w("; ");
                    }
                    self.stmt(s);
                }
                // A lone non-assignment statement needs a `;` to read back as a block.
                if stmts.len() == 1 && !matches!(stmts[0].kind, StmtKind::Assign { .. }) {
                    self.w(";");
                }
                self.w(")");
                self.inline = saved;
            }
        }
        self.w(")");
    }

    pub(super) fn ty(&mut self, t: &TypeExpr) {
        match &t.kind {
            TypeKind::Unknown => self.w("??"),
            TypeKind::Named { name, params, rank } => {
                self.w(name);
                if !params.is_empty() {
                    self.w("[");
                    self.list(params, |p, x| p.ty(x));
                    self.w("]");
                }
                if let Some(r) = rank {
                    self.w(&format!("{{{r}}}"));
                }
            }
            TypeKind::Func {
                kind,
                params,
                results,
            } => {
                self.w("[");
                self.fn_kind(*kind);
                self.w("(");
                self.list(params, |p, x| p.ty(x));
                self.w(") -> ");
                if results.len() == 1 {
                    self.ty(&results[0]);
                } else {
                    self.w("(");
                    self.list(results, |p, x| p.ty(x));
                    self.w(")");
                }
                self.w("]");
            }
            TypeKind::Union(alts) => {
                self.w("[");
                for (i, a) in alts.iter().enumerate() {
                    if i > 0 {
                        self.w(" | ");
                    }
                    self.ty(a);
                }
                self.w("]");
            }
        }
        for m in &t.modifiers {
            self.w("'");
            self.w(&m.name);
        }
    }
}

/// A real number as a literal that lexes back to the same value.
fn real(v: f64) -> String {
    if v.is_infinite() {
        "1e999".to_string()
    } else if v.is_nan() {
        "(0.0 / 0.0)".to_string()
    } else {
        // `{:?}` is the shortest round-tripping form and always has `.` or `e`.
        format!("{v:?}")
    }
}
