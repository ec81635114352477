//! A stable, line-oriented text form of KIR kernels (`blazar emit kir`, snapshot tests).
//!
//! Variables print as `%N`, arrays as `@N`; their names and types are listed in the
//! header. Every expression carries enough type information to be read back without
//! the declarations of its subterms: float, complex and non-`i32` integer constants
//! have a type suffix, casts print as `ty(x)`, vector literals and splats end in `:ty`.
//! Statements print as `L<line> <text>`, indented two spaces per nesting level.
//! Printing never panics, even on malformed kernels (bad ids print as `?`).

use crate::ir::*;
use crate::types::Ty;
use std::fmt::Write;

/// The text form of a whole kernel.
pub fn print_kernel(k: &Kernel) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "kernel {} rank {}", k.name, k.rank);
    for p in &k.params {
        let (target, ty) = match p.bind {
            Bind::Var(v) => (format!("%{v}"), k.vars.get(v as usize).map(|d| d.ty)),
            Bind::Array(a) => (format!("@{a}"), k.arrays.get(a as usize).map(|d| d.ty)),
        };
        let ty = ty.map_or("?".to_string(), |t| t.to_string());
        let _ = writeln!(out, "  param {} -> {target} : {ty}", p.name);
    }
    for o in &k.outputs {
        let _ = writeln!(
            out,
            "  output {} {} {}",
            o.name,
            update_op(o.op),
            o.ty.name()
        );
    }
    for (i, v) in k.vars.iter().enumerate() {
        let _ = writeln!(out, "  var %{i} {} : {}", v.name, v.ty);
    }
    for (i, a) in k.arrays.iter().enumerate() {
        let _ = writeln!(out, "  array @{i} {} : {}", a.name, a.ty);
    }
    out.push_str("  body\n");
    print_block(k, &k.body, 2, &mut out);
    for (i, f) in k.calls.funcs.iter().enumerate() {
        let show = |vs: &[VarId]| {
            vs.iter()
                .map(|v| format!("%{v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            out,
            "  function f{i} {}({}) -> [{}]",
            f.kernel.name,
            show(&f.params),
            show(&f.outputs)
        );
        for (j, v) in f.kernel.vars.iter().enumerate() {
            let _ = writeln!(out, "    var %{j} {} : {}", v.name, v.ty);
        }
        print_block(&f.kernel, &f.kernel.body, 3, &mut out);
    }
    out
}

/// The text form of one expression.
pub fn print_expr(e: &Expr) -> String {
    let mut s = String::new();
    expr(e, &mut s);
    s
}

/// The text form of one statement (nested blocks included), at nesting level 0.
pub fn print_stmt(k: &Kernel, s: &Stmt) -> String {
    let mut out = String::new();
    stmt(k, s, 0, &mut out);
    out
}

/// The compound-assignment spelling of an atomic operation (`+=`, `min=`, ...).
pub fn update_op(op: AtomicOp) -> &'static str {
    match op {
        AtomicOp::Add => "+=",
        AtomicOp::Sub => "-=",
        AtomicOp::Mul => "*=",
        AtomicOp::Div => "/=",
        AtomicOp::Pow => "pow=",
        AtomicOp::Min => "min=",
        AtomicOp::Max => "max=",
        AtomicOp::And => "&=",
        AtomicOp::Or => "|=",
        AtomicOp::Xor => "^=",
    }
}

/// The lower-case name of a math function, as printed (its row in `blazar_ops::MATH`).
pub fn math_name(f: MathFn) -> &'static str {
    f.name()
}

/// The spelling of a binary operator: infix (`+`) or function-like (`min`).
pub fn binop_name(op: BinOp) -> (&'static str, bool) {
    use BinOp::*;
    match op {
        Add => ("+", true),
        Sub => ("-", true),
        Mul => ("*", true),
        Div => ("/", true),
        Pow => ("pow", false),
        Rem => ("%", true),
        Min => ("min", false),
        Max => ("max", false),
        Eq => ("==", true),
        Ne => ("!=", true),
        Lt => ("<", true),
        Gt => (">", true),
        Le => ("<=", true),
        Ge => (">=", true),
        And => ("&&", true),
        Or => ("||", true),
        BitAnd => ("&", true),
        BitOr => ("|", true),
        BitXor => ("^", true),
        Shl => ("<<", true),
        Shr => (">>", true),
    }
}

fn special_name(s: Special) -> &'static str {
    match s {
        Special::Pos => "pos",
        Special::BlkPos => "blkpos",
        Special::BlkDim => "blkdim",
        Special::BlkIdx => "blkidx",
        Special::BlkCnt => "blkcnt",
        Special::WarpSize => "warpsize",
    }
}

fn float(v: f64) -> String {
    // `{:?}` always shows a decimal point or exponent (`1.0`, `1e-7`, `NaN`, `inf`).
    format!("{v:?}")
}

fn constant(c: &Const, ty: Ty, s: &mut String) {
    let text = match c {
        Const::Bool(b) => b.to_string(),
        Const::Int(v) => v.to_string(),
        Const::Float(v) => float(*v),
        Const::Complex(re, im) => format!("({}, {}i)", float(*re), float(*im)),
    };
    s.push_str(&text);
    match (c, ty) {
        (Const::Bool(_), Ty::BOOL) | (Const::Int(_), Ty::I32) => {}
        (Const::Int(_), Ty::Scalar(sc)) if sc.is_int() => s.push_str(sc.name()),
        (Const::Float(_), Ty::Scalar(sc)) if sc.is_float() => s.push_str(sc.name()),
        (Const::Complex(..), Ty::Scalar(sc)) if sc.is_complex() => s.push_str(sc.name()),
        // Mismatched constants (rejected by the verifier) print with an explicit type.
        (_, t) => {
            let _ = write!(s, ":{t}");
        }
    }
}

fn list(es: &[Expr], s: &mut String) {
    for (i, e) in es.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        expr(e, s);
    }
}

fn expr(e: &Expr, s: &mut String) {
    match &e.kind {
        ExprKind::Const(c) => constant(c, e.ty, s),
        ExprKind::Var(v) => {
            let _ = write!(s, "%{v}");
        }
        ExprKind::Special(sp) => s.push_str(special_name(*sp)),
        ExprKind::Unary(op, a) => {
            s.push_str(match op {
                UnOp::Neg => "(-",
                UnOp::Not => "(!",
                UnOp::BitNot => "(~",
            });
            expr(a, s);
            s.push(')');
        }
        ExprKind::Binary(op, a, b) => {
            let (name, infix) = binop_name(*op);
            if infix {
                s.push('(');
                expr(a, s);
                let _ = write!(s, " {name} ");
                expr(b, s);
                s.push(')');
            } else {
                let _ = write!(s, "{name}(");
                expr(a, s);
                s.push_str(", ");
                expr(b, s);
                s.push(')');
            }
        }
        ExprKind::Cast(a) => {
            let _ = write!(s, "{}(", e.ty);
            expr(a, s);
            s.push(')');
        }
        ExprKind::Select(c, a, b) => {
            s.push_str("select(");
            expr(c, s);
            s.push_str(", ");
            expr(a, s);
            s.push_str(", ");
            expr(b, s);
            s.push(')');
        }
        ExprKind::Math(f, args) => {
            let _ = write!(s, "{}(", math_name(*f));
            list(args, s);
            s.push(')');
        }
        ExprKind::Load { arr, index, .. } => {
            let _ = write!(s, "@{arr}[");
            list(index, s);
            s.push(']');
        }
        ExprKind::Size { arr, dim } => {
            let _ = write!(s, "size(@{arr}, {dim})");
        }
        ExprKind::Numel(arr) => {
            let _ = write!(s, "numel(@{arr})");
        }
        ExprKind::VecLit(es) => {
            s.push('[');
            list(es, s);
            let _ = write!(s, "]:{}", e.ty);
        }
        ExprKind::Splat(a) => {
            s.push_str("splat(");
            expr(a, s);
            let _ = write!(s, "):{}", e.ty);
        }
        ExprKind::Lane(v, i) => {
            s.push_str("lane(");
            expr(v, s);
            s.push_str(", ");
            expr(i, s);
            s.push(')');
        }
        ExprKind::VecReduce(r, a) => {
            s.push_str(match r {
                VecReduce::Sum => "vsum(",
                VecReduce::Prod => "vprod(",
                VecReduce::Min => "vmin(",
                VecReduce::Max => "vmax(",
            });
            expr(a, s);
            s.push(')');
        }
    }
}

fn indent(depth: usize, out: &mut String) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn print_block(k: &Kernel, b: &Block, depth: usize, out: &mut String) {
    for s in b {
        stmt(k, s, depth, out);
    }
}

fn close(depth: usize, text: &str, out: &mut String) {
    indent(depth, out);
    out.push_str(text);
    out.push('\n');
}

fn stmt(k: &Kernel, st: &Stmt, depth: usize, out: &mut String) {
    indent(depth, out);
    let _ = write!(out, "L{} ", st.line);
    match &st.kind {
        StmtKind::Assign { var, value } => {
            let _ = writeln!(out, "%{var} = {}", print_expr(value));
        }
        StmtKind::SetLane { var, lane, value } => {
            let _ = writeln!(out, "%{var}[{}] = {}", print_expr(lane), print_expr(value));
        }
        StmtKind::Store {
            arr, index, value, ..
        } => {
            let mut idx = String::new();
            list(index, &mut idx);
            let _ = writeln!(out, "@{arr}[{idx}] = {}", print_expr(value));
        }
        StmtKind::Update {
            arr,
            index,
            op,
            value,
            ..
        } => {
            let mut idx = String::new();
            list(index, &mut idx);
            let _ = writeln!(
                out,
                "atomic @{arr}[{idx}] {} {}",
                update_op(*op),
                print_expr(value)
            );
        }
        StmtKind::Accumulate { output, value } => {
            let (name, op) = match k.outputs.get(*output as usize) {
                Some(o) => (o.name.as_str(), update_op(o.op)),
                None => ("?", "?="),
            };
            let _ = writeln!(out, "output {output} {name} {op} {}", print_expr(value));
        }
        StmtKind::If { cond, then, els } => {
            let _ = writeln!(out, "if {} {{", print_expr(cond));
            print_block(k, then, depth + 1, out);
            if !els.is_empty() {
                close(depth, "} else {", out);
                print_block(k, els, depth + 1, out);
            }
            close(depth, "}", out);
        }
        StmtKind::While { cond, body } => {
            let _ = writeln!(out, "while {} {{", print_expr(cond));
            print_block(k, body, depth + 1, out);
            close(depth, "}", out);
        }
        StmtKind::For {
            var,
            start,
            step,
            end,
            body,
        } => {
            let (a, b, c) = (print_expr(start), print_expr(step), print_expr(end));
            let _ = writeln!(out, "for %{var} = {a} .. {b} .. {c} {{");
            print_block(k, body, depth + 1, out);
            close(depth, "}", out);
        }
        StmtKind::Break(n) => {
            let _ = writeln!(out, "break {n}");
        }
        StmtKind::Continue(n) => {
            let _ = writeln!(out, "continue {n}");
        }
        StmtKind::Barrier => out.push_str("syncthreads\n"),
        StmtKind::Assert { cond } => {
            let _ = writeln!(out, "assert {}", print_expr(cond));
        }
        StmtKind::Return => out.push_str("return\n"),
        StmtKind::Call { func, args, outs } => {
            let mut a = String::new();
            list(args, &mut a);
            let o: Vec<String> = outs.iter().map(|v| format!("%{v}")).collect();
            let _ = writeln!(out, "[{}] = call f{func}({a})", o.join(", "));
        }
        StmtKind::AllocShared { arr, dims, zero } => {
            let mut d = String::new();
            list(dims, &mut d);
            let f = if *zero { "shared_zeros" } else { "shared" };
            let _ = writeln!(out, "@{arr} = {f}({d})");
        }
        StmtKind::AllocLocal { arr, dims, fill } => {
            let mut d = String::new();
            list(dims, &mut d);
            let f = match fill {
                Fill::Zero => "zeros",
                Fill::One => "ones",
                Fill::Uninit => "uninit",
            };
            let _ = writeln!(out, "@{arr} = {f}({d})");
        }
    }
}
