//! `print EXPR`: an expression evaluated in the debugger's current thread.
//!
//! The expression is parsed by the language's own parser; names are the kernel's
//! variables in the current thread, then `pos`, `blkpos`, `blkidx`, `blkdim`,
//! `blkcnt`; `a[i, j]` reads an element of a shared or global array (row-major,
//! 0-based) and `v[k]` a vector component. Arithmetic (`+ - * / .* ./`), comparisons,
//! `&&`, `||`, `!` and unary minus work on numbers (vectors component-wise). Anything
//! else is a message, never a panic.

use blazar_cpu::observe::{ItemView, Thread};
use blazar_launch::KValue;
use blazar_ops::scalar::Arith as A;
use blazar_syntax::{BinOp, ExprKind, StmtKind, UnOp};

/// What names mean where an expression is evaluated: a kernel thread ([`Scope`]) or
/// the host ([`HostScope`]).
pub trait Lookup {
    /// A scalar or vector variable.
    fn var(&self, name: &str) -> Option<KValue>;
    /// The dimensions of array `name`.
    fn array_dims(&self, name: &str) -> Option<Vec<usize>>;
    /// Element `offset` (row-major) of array `name`.
    fn element(&self, name: &str, offset: usize) -> Option<KValue>;
}

/// Where an expression is evaluated: a view of the block, a lane, its position.
pub struct Scope<'v, 'a, 'o> {
    pub view: &'v ItemView<'a, 'o>,
    pub lane: usize,
    pub thread: Thread,
    pub blkdim: Vec<i64>,
    pub blkcnt: Vec<i64>,
}

impl Lookup for Scope<'_, '_, '_> {
    fn var(&self, n: &str) -> Option<KValue> {
        if let Some(v) = self.view.var(n, self.lane) {
            return Some(v);
        }
        match n {
            "pos" => Some(ints(&self.thread.pos)),
            "blkpos" => Some(ints(&self.thread.blkpos)),
            "blkidx" => Some(ints(&self.thread.blkidx)),
            "blkdim" => Some(ints(&self.blkdim)),
            "blkcnt" => Some(ints(&self.blkcnt)),
            _ => None,
        }
    }

    fn array_dims(&self, n: &str) -> Option<Vec<usize>> {
        self.view.array_dims(n)
    }

    fn element(&self, n: &str, offset: usize) -> Option<KValue> {
        self.view.element(n, offset)
    }
}

/// The host's variables where the host is stopped, in frame `frame` of its call
/// stack (0: the stopped function).
pub struct HostScope<'s, 'a, 'p> {
    pub at: &'s blazar_interp::HostStop<'a, 'p>,
    pub frame: usize,
}

impl Lookup for HostScope<'_, '_, '_> {
    fn var(&self, n: &str) -> Option<KValue> {
        match self.at.value_in(self.frame, n)? {
            blazar_runtime::Value::Int(i, _) => Some(KValue::Int(i)),
            blazar_runtime::Value::Real(x) => Some(KValue::Float(x)),
            blazar_runtime::Value::Complex(c) => Some(KValue::Complex(c.re, c.im)),
            _ => None,
        }
    }

    fn array_dims(&self, n: &str) -> Option<Vec<usize>> {
        match self.at.value_in(self.frame, n)? {
            blazar_runtime::Value::Array(a) => Some(a.borrow().size()),
            _ => None,
        }
    }

    fn element(&self, n: &str, offset: usize) -> Option<KValue> {
        let blazar_runtime::Value::Array(a) = self.at.value_in(self.frame, n)? else {
            return None;
        };
        let a = a.borrow();
        if offset >= a.len() || a.is_cell() {
            return None;
        }
        Some(if a.elem().is_complex() {
            let c = a.get_c(offset);
            KValue::Complex(c.re, c.im)
        } else {
            let x = a.get_f64(offset);
            if x.fract() == 0.0 && a.elem().is_int() {
                KValue::Int(x as i64)
            } else {
                KValue::Float(x)
            }
        })
    }
}

/// Evaluates `text` in `scope`.
pub fn eval(text: &str, scope: &dyn Lookup) -> Result<KValue, String> {
    let (prog, diags) = blazar_syntax::parse(text, blazar_syntax::FileId(0));
    if let Some(d) = diags.first() {
        return Err(format!("cannot parse `{text}`: {}", d.message));
    }
    match prog.stmts.as_slice() {
        [s] => match &s.kind {
            StmtKind::Expr(e) => expr(e, scope),
            _ => Err(format!("`{text}` is not an expression")),
        },
        _ => Err(format!("`{text}` is not one expression")),
    }
}

fn ints(v: &[i64]) -> KValue {
    match v {
        [x] => KValue::Int(*x),
        _ => KValue::Vector(v.iter().map(|&x| KValue::Int(x)).collect()),
    }
}

fn name(n: &str, s: &dyn Lookup) -> Result<KValue, String> {
    if let Some(v) = s.var(n) {
        return Ok(v);
    }
    match s.array_dims(n) {
        Some(d) => Err(format!(
            "`{n}` is an array of size {}: print an element (`{n}[0]`)",
            d.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("x")
        )),
        None => Err(format!("no variable `{n}` here")),
    }
}

fn index_of(v: &KValue) -> Result<Vec<i64>, String> {
    match v {
        KValue::Int(i) => Ok(vec![*i]),
        KValue::Bool(b) => Ok(vec![*b as i64]),
        KValue::Float(f) if f.fract() == 0.0 => Ok(vec![*f as i64]),
        KValue::Vector(c) => c.iter().map(|x| index_of(x).map(|v| v[0])).collect(),
        _ => Err("an index must be an integer".into()),
    }
}

fn index(
    base: &blazar_syntax::Expr,
    idx: &[blazar_syntax::Expr],
    s: &dyn Lookup,
) -> Result<KValue, String> {
    let mut iv = Vec::new();
    for e in idx {
        iv.extend(index_of(&expr(e, s)?)?);
    }
    if let ExprKind::Ident(n) = &base.kind {
        if s.var(n).is_none() {
            if let Some(dims) = s.array_dims(n) {
                let mut shape = dims.clone();
                while shape.len() > iv.len() && shape.len() > 1 && shape[0] == 1 {
                    shape.remove(0);
                }
                if iv.len() != shape.len() && iv.len() != 1 {
                    return Err(format!(
                        "`{n}` has {} dimensions, {} indices given",
                        shape.len(),
                        iv.len()
                    ));
                }
                let shape = if iv.len() == 1 {
                    vec![shape.iter().product()]
                } else {
                    shape
                };
                let mut off = 0usize;
                for (&i, &d) in iv.iter().zip(&shape) {
                    if i < 0 || i as usize >= d {
                        return Err(format!("index {i} is outside `{n}` (size {d})"));
                    }
                    off = off * d + i as usize;
                }
                return s
                    .element(n, off)
                    .ok_or_else(|| format!("cannot read `{n}`"));
            }
        }
    }
    match (expr(base, s)?, iv.as_slice()) {
        (KValue::Vector(c), [k]) => c
            .get(*k as usize)
            .cloned()
            .filter(|_| *k >= 0)
            .ok_or_else(|| format!("component {k} is outside the vector (length {})", c.len())),
        (v, [0]) => Ok(v),
        _ => Err("only arrays and vectors can be indexed".into()),
    }
}

fn num(v: &KValue) -> Result<f64, String> {
    match v {
        KValue::Bool(b) => Ok(*b as u8 as f64),
        KValue::Int(i) => Ok(*i as f64),
        KValue::Float(f) => Ok(*f),
        _ => Err("this operation takes numbers".into()),
    }
}

fn binary(op: BinOp, a: KValue, b: KValue) -> Result<KValue, String> {
    if let (KValue::Vector(x), KValue::Vector(y)) = (&a, &b) {
        if x.len() != y.len() {
            return Err("vectors of different lengths".into());
        }
        let r: Result<Vec<_>, _> = (x.iter().zip(y))
            .map(|(p, q)| binary(op, p.clone(), q.clone()))
            .collect();
        return r.map(KValue::Vector);
    }
    if let KValue::Vector(x) = &a {
        let r: Result<Vec<_>, _> = x.iter().map(|p| binary(op, p.clone(), b.clone())).collect();
        return r.map(KValue::Vector);
    }
    if let KValue::Vector(y) = &b {
        let r: Result<Vec<_>, _> = y.iter().map(|q| binary(op, a.clone(), q.clone())).collect();
        return r.map(KValue::Vector);
    }
    let int = |v: &KValue| match v {
        KValue::Bool(b) => Some(*b as i64),
        KValue::Int(i) => Some(*i),
        _ => None,
    };
    let cmp = |c: bool| Ok(KValue::Int(c as i64));
    if let (Some(i), Some(j), BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::EMul) =
        (int(&a), int(&b), op)
    {
        return Ok(KValue::Int(match op {
            BinOp::Add => A::add(i, j),
            BinOp::Sub => A::sub(i, j),
            _ => A::mul(i, j),
        }));
    }
    let (x, y) = (num(&a)?, num(&b)?);
    match op {
        BinOp::Add => Ok(KValue::Float(A::add(x, y))),
        BinOp::Sub => Ok(KValue::Float(A::sub(x, y))),
        BinOp::Mul | BinOp::EMul => Ok(KValue::Float(A::mul(x, y))),
        BinOp::Div | BinOp::EDiv => Ok(KValue::Float(A::div(x, y))),
        BinOp::Pow | BinOp::EPow => Ok(KValue::Float(A::pow(x, y))),
        BinOp::Eq => cmp(x == y),
        BinOp::Ne => cmp(x != y),
        BinOp::Lt => cmp(A::lt(x, y)),
        BinOp::Gt => cmp(A::gt(x, y)),
        BinOp::Le => cmp(A::le(x, y)),
        BinOp::Ge => cmp(A::ge(x, y)),
        BinOp::And => cmp(A::truth(x) && A::truth(y)),
        BinOp::Or => cmp(A::truth(x) || A::truth(y)),
    }
}

fn expr(e: &blazar_syntax::Expr, s: &dyn Lookup) -> Result<KValue, String> {
    match &e.kind {
        ExprKind::Int(i) => Ok(KValue::Int(*i)),
        ExprKind::Real(f) => Ok(KValue::Float(*f)),
        ExprKind::Ident(n) => name(n, s),
        ExprKind::Index { base, indices } => index(base, indices, s),
        ExprKind::Unary(UnOp::Plus, a) => expr(a, s),
        ExprKind::Unary(UnOp::Neg, a) => binary(BinOp::Sub, KValue::Int(0), expr(a, s)?),
        ExprKind::Unary(UnOp::Not, a) => Ok(KValue::Int((num(&expr(a, s)?)? == 0.0) as i64)),
        ExprKind::Binary(op, a, b) => binary(*op, expr(a, s)?, expr(b, s)?),
        ExprKind::Matrix(items) => {
            let v: Result<Vec<_>, _> = items.iter().map(|x| expr(x, s)).collect();
            Ok(KValue::Vector(v?))
        }
        _ => Err("the debugger evaluates names, elements, arithmetic and comparisons".into()),
    }
}

/// A value as the debugger prints it (as `print` does in a program).
pub fn show(v: &KValue) -> String {
    match v {
        KValue::Bool(b) => (*b as u8).to_string(),
        KValue::Int(i) => i.to_string(),
        KValue::Float(f) => real(*f),
        KValue::Complex(re, im) => format!(
            "{}{}{}i",
            real(*re),
            if *im < 0.0 { "-" } else { "+" },
            real(im.abs())
        ),
        KValue::Vector(c) => format!("[{}]", c.iter().map(show).collect::<Vec<_>>().join(",")),
    }
}

fn real(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        let s = format!("{:.6}", f);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
