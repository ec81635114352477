//! Scalar operations spelled in C: operators, casts and math functions with the CPU
//! executor's semantics over the `bz_*` helpers both preludes define; vector operations
//! map a scalar rule over the lanes with a generic lambda.

use crate::names;
pub use crate::names::{c_string, constant, ident, int_lit, op_code, real_lit, scalar, ty};
use blazar_kir::{BinOp, Expr, ExprKind, MathFn, Scalar, Ty, UnOp, VecReduce};

fn narrow(s: Scalar) -> bool {
    matches!(s, Scalar::I8 | Scalar::I16 | Scalar::U8 | Scalar::U16)
}

/// `a op b` on scalars of type `s` (the operand type).
pub fn binary(op: BinOp, s: Scalar, a: &str, b: &str) -> String {
    use BinOp::*;
    let t = scalar(s);
    let infix = |o: &str| {
        if narrow(s) {
            format!("(({t})({a} {o} {b}))")
        } else {
            format!("({a} {o} {b})")
        }
    };
    let (f32, f64, cx, int) = (
        s == Scalar::F32,
        s == Scalar::F64,
        s.is_complex(),
        s.is_int(),
    );
    match op {
        Add => infix("+"),
        Sub => infix("-"),
        Mul => infix("*"),
        Div if int => format!("bz_div({a}, {b})"),
        Div => format!("({a} / {b})"),
        Pow if int => format!("bz_ipow({a}, {b})"),
        Pow if cx => format!("bz_cpow({a}, {b})"),
        Pow => format!("bz_pow({a}, {b})"),
        Rem if int => format!("bz_rem({a}, {b})"),
        Rem if f32 => format!("fmodf({a}, {b})"),
        Rem if f64 => format!("fmod({a}, {b})"),
        Min if f32 => format!("bz_fminf({a}, {b})"),
        Min if f64 => format!("bz_fmin({a}, {b})"),
        Max if f32 => format!("bz_fmaxf({a}, {b})"),
        Max if f64 => format!("bz_fmax({a}, {b})"),
        Min if int => format!("bz_min({a}, {b})"),
        Max if int => format!("bz_max({a}, {b})"),
        // Undefined on complex and bool (rejected by the verifier): the CPU keeps `a`.
        Rem | Min | Max => a.to_string(),
        Eq => format!("({a} == {b})"),
        Ne => format!("({a} != {b})"),
        Lt | Gt if cx => "false".into(),
        Le | Ge if cx => format!("({a} == {b})"),
        Lt => format!("({a} < {b})"),
        Gt => format!("({a} > {b})"),
        Le => format!("({a} <= {b})"),
        Ge => format!("({a} >= {b})"),
        And => format!("({a} && {b})"),
        Or => format!("({a} || {b})"),
        BitAnd => infix("&"),
        BitOr => infix("|"),
        BitXor => infix("^"),
        Shl => format!("bz_shl({a}, {b})"),
        Shr => format!("bz_shr({a}, {b})"),
    }
}

/// `op a` on a scalar of type `s`.
pub fn unary(op: UnOp, s: Scalar, a: &str) -> String {
    let t = scalar(s);
    match op {
        UnOp::Neg if narrow(s) => format!("(({t})(-{a}))"),
        UnOp::Neg => format!("(-{a})"),
        UnOp::Not => format!("(!{a})"),
        UnOp::BitNot => format!("(({t})(~{a}))"),
    }
}

/// A conversion of a scalar from `from` to `to`.
pub fn cast(to: Scalar, from: Scalar, a: &str) -> String {
    if to == from {
        a.to_string()
    } else {
        format!("bz_cast<{}>({a})", scalar(to))
    }
}

/// `f(args)` where the (first) argument has scalar type `s`.
pub fn math(f: MathFn, s: Scalar, args: &[String]) -> String {
    use MathFn::*;
    let a = args.first().map_or("0", String::as_str);
    let b = args.get(1).map_or("0", String::as_str);
    let zero = || names::int_lit(0, s);
    if s.is_complex() {
        let n = match f {
            Abs => "bz_cabs",
            Real => return format!("{a}.re"),
            Imag => return format!("{a}.im"),
            Angle => "bz_carg",
            Conj => "bz_conj",
            Sqrt => "bz_csqrt",
            Exp => "bz_cexp",
            Log => "bz_clog",
            Sin => "bz_csin",
            Cos => "bz_ccos",
            Tan => "bz_ctan",
            Sinh => "bz_csinh",
            Cosh => "bz_ccosh",
            Tanh => "bz_ctanh",
            _ => return a.to_string(),
        };
        return format!("{n}({a})");
    }
    if s.is_float() {
        let sfx = if s == Scalar::F32 { "f" } else { "" };
        let one = names::real_lit(1.0, s);
        if let Some(n) = f.def().c {
            // The C library's function of its row in `blazar_ops::MATH` (`sqrt`, `atan2`).
            return format!("{n}{sfx}({})", args.join(", "));
        }
        return match f {
            Rsqrt => format!("({one} / sqrt{sfx}({a}))"),
            IsNan => format!("((bool)isnan({a}))"),
            IsInf => format!("((bool)isinf({a}))"),
            IsFinite => format!("((bool)isfinite({a}))"),
            Real | Conj => a.to_string(),
            Imag => zero(),
            MakeComplex => {
                let c = if s == Scalar::F64 { "c64" } else { "c32" };
                format!("{c}{{{a}, {b}}}")
            }
            // Without a C library name: the prelude's overloaded helper `bz_NAME`
            // (`bz_frac`, `bz_sign`, `bz_periodize`, `bz_angle`).
            _ => format!("bz_{}({})", f.name(), args.join(", ")),
        };
    }
    if s == Scalar::Bool {
        return a.to_string();
    }
    match f {
        Abs => format!("bz_iabs({a})"),
        Sign => format!("bz_sign({a})"),
        Periodize => format!("bz_periodize({a}, {b})"),
        Imag => zero(),
        Angle => format!("bz_angle({a})"),
        _ => a.to_string(),
    }
}

/// The operator nodes both C++ emitters spell alike (unary, binary, cast, select and
/// math functions, on scalars or lane by lane on vectors), written into `out`, given
/// how to write an operand (`sub`) and the capture of the lane lambdas (`[]` on the
/// device, `[&]` on the host); `false` (nothing written) for every other node.
///
/// Each node's own text is spelled with placeholders for its operands, then copied
/// with each placeholder replaced by the operand written in place: the text of a chain
/// of N operators is written once (linear time), not copied into each enclosing node.
pub fn operator(
    e: &Expr,
    capture: &str,
    out: &mut String,
    sub: &mut dyn FnMut(&Expr, &mut String),
) -> bool {
    let ph = |i: usize| HOLE[i].to_string();
    let m1 = |body: String| format!("bz_map1({}, {capture}(auto x) {{ return {body}; }})", ph(0));
    let m2 = |body: String| {
        format!(
            "bz_map2({}, {}, {capture}(auto x, auto y) {{ return {body}; }})",
            ph(0),
            ph(1)
        )
    };
    let (template, operands): (String, Vec<&Expr>) = match &e.kind {
        ExprKind::Unary(op, a) => (
            match a.ty {
                Ty::Vector(s, _) => m1(unary(*op, s, "x")),
                t => unary(*op, t.elem(), &ph(0)),
            },
            vec![a],
        ),
        ExprKind::Binary(op, a, b) => (
            match a.ty {
                Ty::Vector(s, _) => m2(binary(*op, s, "x", "y")),
                t => binary(*op, t.elem(), &ph(0), &ph(1)),
            },
            vec![a, b],
        ),
        ExprKind::Cast(a) => {
            let (from, to) = (a.ty.elem(), e.ty.elem());
            let t = match a.ty {
                Ty::Vector(..) if from != to => m1(cast(to, from, "x")),
                _ => cast(to, from, &ph(0)),
            };
            (t, vec![a])
        }
        ExprKind::Select(c, a, b) => {
            let t = match c.ty {
                Ty::Vector(..) => format!("bz_vsel({}, {}, {})", ph(0), ph(1), ph(2)),
                _ => format!("({} ? {} : {})", ph(0), ph(1), ph(2)),
            };
            (t, vec![c, a, b])
        }
        ExprKind::Math(f, args) => {
            let first = args.first().map_or(Ty::BOOL, |a| a.ty);
            let t = match (first, args.len()) {
                (Ty::Vector(s, _), 1) => m1(math(*f, s, &["x".into()])),
                (Ty::Vector(s, _), 2) => m2(math(*f, s, &["x".into(), "y".into()])),
                (t, n) => math(
                    *f,
                    t.elem(),
                    &(0..n.min(HOLE.len())).map(ph).collect::<Vec<_>>(),
                ),
            };
            (t, args.iter().collect())
        }
        _ => return false,
    };
    for c in template.chars() {
        match HOLE.iter().position(|&h| h == c) {
            Some(i) => sub(operands[i], out),
            None => out.push(c),
        }
    }
    true
}

/// Placeholders for operands in [`operator`]'s templates: private-use characters,
/// which no spelling contains.
const HOLE: [char; 4] = ['\u{E000}', '\u{E001}', '\u{E002}', '\u{E003}'];

/// The binary operator that folds the lanes of a vector reduction.
pub fn reduce_op(r: VecReduce) -> BinOp {
    match r {
        VecReduce::Sum => BinOp::Add,
        VecReduce::Prod => BinOp::Mul,
        VecReduce::Min => BinOp::Min,
        VecReduce::Max => BinOp::Max,
    }
}
