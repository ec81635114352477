//! Prints an AST back as Quasar source that parses to the same tree (spans aside).
//!
//! Binary, unary, range, conditional and lambda expressions are fully parenthesised so
//! that no precedence knowledge is needed to read the output back.

use crate::ast::*;

/// Prints a whole program, one statement per line.
pub fn print_program(p: &Program) -> String {
    let mut pr = Printer {
        out: String::new(),
        indent: 0,
        inline: false,
    };
    pr.block(&p.stmts);
    pr.out
}

/// Prints one expression.
pub fn print_expr(e: &Expr) -> String {
    let mut pr = Printer {
        out: String::new(),
        indent: 0,
        inline: false,
    };
    pr.expr(e);
    pr.out
}

/// Prints one type expression.
pub fn print_type(t: &TypeExpr) -> String {
    let mut pr = Printer {
        out: String::new(),
        indent: 0,
        inline: false,
    };
    pr.ty(t);
    pr.out
}

struct Printer {
    out: String,
    indent: usize,
    /// Inside a lambda block: statements are separated by `;` instead of newlines.
    inline: bool,
}

impl Printer {
    fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// Ends the current line (or statement, in inline mode) and indents the next.
    fn nl(&mut self) {
        if self.inline {
            self.w("; ");
        } else {
            self.out.push('\n');
            for _ in 0..self.indent {
                self.out.push_str("    ");
            }
        }
    }

    fn block(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(s);
            self.nl();
        }
    }

    /// An indented body: newline, statements, and back out.
    fn body(&mut self, stmts: &[Stmt]) {
        self.indent += 1;
        self.nl();
        for (i, s) in stmts.iter().enumerate() {
            self.stmt(s);
            if i + 1 < stmts.len() {
                self.nl();
            }
        }
        self.indent -= 1;
        self.nl();
    }

    fn label(&mut self, label: &Option<Ident>) {
        if let Some(l) = label {
            self.w(&l.name);
            self.w(":");
            self.nl();
        }
    }

    fn list<T>(&mut self, items: &[T], mut f: impl FnMut(&mut Self, &T)) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            f(self, item);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Assign {
                targets,
                multi,
                op,
                value,
            } => {
                if *multi {
                    self.w("[");
                    self.list(targets, |p, t| p.expr(t));
                    self.w("]");
                } else {
                    self.list(targets, |p, t| p.expr(t));
                }
                if let (AssignOp::Set, ExprKind::Typed(x, t)) = (op, &value.kind) {
                    // `p.gain : scalar = 2.5`
                    self.w(" : ");
                    self.ty(t);
                    self.w(" = ");
                    self.expr(x);
                    return;
                }
                self.w(match op {
                    AssignOp::Set => " = ",
                    AssignOp::Update(op) => match op {
                        BinOp::Add => " += ",
                        BinOp::Sub => " -= ",
                        BinOp::Mul => " *= ",
                        BinOp::Div => " /= ",
                        BinOp::Pow => " ^= ",
                        BinOp::EMul => " .*= ",
                        BinOp::EDiv => " ./= ",
                        _ => " .^= ",
                    },
                });
                self.expr(value);
            }
            StmtKind::Decl { name, ty, value } => {
                self.w(&name.name);
                self.w(" : ");
                self.ty(ty);
                if let Some(v) = value {
                    self.w(" = ");
                    self.expr(v);
                }
            }
            StmtKind::Function(f) => self.function(f),
            StmtKind::If { arms, otherwise } => {
                for (i, (cond, body)) in arms.iter().enumerate() {
                    self.w(if i == 0 { "if " } else { "elseif " });
                    self.expr(cond);
                    self.body(body);
                }
                if let Some(body) = otherwise {
                    self.w("else");
                    self.body(body);
                }
                self.w("end");
            }
            StmtKind::For {
                label,
                var,
                iter,
                body,
            } => {
                self.label(label);
                self.w("for ");
                self.w(&var.name);
                self.w(" = ");
                self.expr(iter);
                self.body(body);
                self.w("end");
            }
            StmtKind::While { label, cond, body } => {
                self.label(label);
                self.w("while ");
                self.expr(cond);
                self.body(body);
                self.w("end");
            }
            StmtKind::Repeat { label, body, cond } => {
                self.label(label);
                self.w("repeat");
                self.body(body);
                self.w("until ");
                self.expr(cond);
            }
            StmtKind::Break(l) | StmtKind::Continue(l) => {
                self.w(if matches!(s.kind, StmtKind::Break(_)) {
                    "break"
                } else {
                    "continue"
                });
                if let Some(l) = l {
                    self.w(" ");
                    self.w(&l.name);
                }
            }
            StmtKind::Return => self.w("return"),
            StmtKind::Match { scrutinee, arms } => {
                self.w("match ");
                self.expr(scrutinee);
                self.w(" with");
                for arm in arms {
                    self.nl();
                    self.w("| ");
                    match &arm.pattern {
                        Some(p) => self.expr(p),
                        None => self.w("_"),
                    }
                    self.w(" ->");
                    self.body(&arm.body);
                }
                if arms.is_empty() {
                    self.nl();
                }
                self.w("end");
            }
            StmtKind::Print(args) => {
                self.w("print");
                if !args.is_empty() {
                    self.w(" ");
                }
                self.list(args, |p, a| p.expr(a));
            }
            StmtKind::Import(path) => {
                self.w("import ");
                self.string(path);
            }
            StmtKind::TypeDef { name, def } => {
                self.w("type ");
                self.w(&name.name);
                self.w(" : ");
                match def {
                    TypeDef::Alias(t) => self.ty(t),
                    TypeDef::Class { mutable, fields } => {
                        self.w(if *mutable { "mutable class" } else { "class" });
                        self.indent += 1;
                        for f in fields {
                            self.nl();
                            self.param(f);
                        }
                        self.indent -= 1;
                        self.nl();
                        self.w("end");
                    }
                }
            }
            StmtKind::Reduction {
                params,
                pattern,
                replacement,
                cond,
            } => {
                self.w("reduction (");
                self.list(params, |p, x| p.param(x));
                self.w(") -> ");
                self.reduction_side(pattern);
                self.w(" = ");
                self.reduction_side(replacement);
                if let Some(c) = cond {
                    self.w(" where ");
                    self.expr(c);
                }
            }
            StmtKind::Macro { name, params, body } => {
                self.w("macro [] = ");
                self.w(&name.name);
                self.w("(");
                self.list(params, |p, x| p.param(x));
                self.w(")");
                self.body(body);
                self.w("endmacro");
            }
            StmtKind::Attribute(a) => {
                let sep = if a.args.is_empty() { "" } else { " " };
                match a.style {
                    AttrStyle::Bang => self.w(&format!("!{}{sep}{}", a.name.name, a.args)),
                    AttrStyle::Brace => self.w(&format!("{{!{}{sep}{}}}", a.name.name, a.args)),
                    AttrStyle::Pragma => self.w(&format!("#pragma {}{sep}{}", a.name.name, a.args)),
                }
            }
        }
    }

    fn reduction_side(&mut self, s: &Stmt) {
        if let StmtKind::Expr(e) = &s.kind {
            self.expr(e);
        } else {
            self.w("(");
            self.stmt(s);
            self.w(")");
        }
    }

    fn function(&mut self, f: &Function) {
        self.w("function [");
        self.list(&f.outputs, |p, x| p.param(x));
        self.w("] = ");
        self.fn_kind(f.kind);
        self.w(&f.name.name);
        self.w("(");
        self.list(&f.params, |p, x| p.param(x));
        self.w(")");
        if f.concealed {
            self.w(" concealed");
        }
        self.body(&f.body);
        self.w("end");
    }

    fn fn_kind(&mut self, kind: FnKind) {
        match kind {
            FnKind::Host => {}
            FnKind::Kernel => self.w("__kernel__ "),
            FnKind::Device => self.w("__device__ "),
        }
    }

    fn param(&mut self, p: &Param) {
        self.w(&p.name.name);
        if let Some(t) = &p.ty {
            self.w(" : ");
            self.ty(t);
        }
        if let Some(d) = &p.default {
            self.w(" = ");
            self.expr(d);
        }
    }

    fn string(&mut self, s: &str) {
        let q = if s.contains('"') && !s.contains('\'') {
            '\''
        } else {
            '"'
        };
        self.out.push(q);
        self.w(s);
        self.out.push(q);
    }
}

mod expr;
