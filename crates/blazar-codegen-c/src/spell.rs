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
        Pow if f64 => format!("pow({a}, {b})"),
        Pow => format!("powf({a}, {b})"),
        Rem if int => format!("bz_rem({a}, {b})"),
        Rem if f32 => format!("fmodf({a}, {b})"),
        Rem if f64 => format!("fmod({a}, {b})"),
        Min if f32 => format!("fminf({a}, {b})"),
        Min if f64 => format!("fmin({a}, {b})"),
        Max if f32 => format!("fmaxf({a}, {b})"),
        Max if f64 => format!("fmax({a}, {b})"),
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
/// math functions, on scalars or lane by lane on vectors), given the spelling of the
/// operands (`sub`) and the capture of the lane lambdas (`[]` on the device, `[&]` on
/// the host); `None` for every other node.
pub fn operator(e: &Expr, capture: &str, sub: &mut dyn FnMut(&Expr) -> String) -> Option<String> {
    let m1 =
        |v: &str, body: String| format!("bz_map1({v}, {capture}(auto x) {{ return {body}; }})");
    let m2 = |a: &str, b: &str, body: String| {
        format!("bz_map2({a}, {b}, {capture}(auto x, auto y) {{ return {body}; }})")
    };
    Some(match &e.kind {
        ExprKind::Unary(op, a) => {
            let x = sub(a);
            match a.ty {
                Ty::Vector(s, _) => m1(&x, unary(*op, s, "x")),
                t => unary(*op, t.elem(), &x),
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (sub(a), sub(b));
            match a.ty {
                Ty::Vector(s, _) => m2(&x, &y, binary(*op, s, "x", "y")),
                t => binary(*op, t.elem(), &x, &y),
            }
        }
        ExprKind::Cast(a) => {
            let x = sub(a);
            let (from, to) = (a.ty.elem(), e.ty.elem());
            match a.ty {
                Ty::Vector(..) if from != to => m1(&x, cast(to, from, "x")),
                _ => cast(to, from, &x),
            }
        }
        ExprKind::Select(c, a, b) => {
            let (cc, x, y) = (sub(c), sub(a), sub(b));
            match c.ty {
                Ty::Vector(..) => format!("bz_vsel({cc}, {x}, {y})"),
                _ => format!("({cc} ? {x} : {y})"),
            }
        }
        ExprKind::Math(f, args) => {
            let xs: Vec<String> = args.iter().map(|a| sub(a)).collect();
            let first = args.first().map_or(Ty::BOOL, |a| a.ty);
            match (first, xs.as_slice()) {
                (Ty::Vector(s, _), [x]) => m1(x, math(*f, s, &["x".into()])),
                (Ty::Vector(s, _), [x, y]) => m2(x, y, math(*f, s, &["x".into(), "y".into()])),
                (t, _) => math(*f, t.elem(), &xs),
            }
        }
        _ => return None,
    })
}

/// The binary operator that folds the lanes of a vector reduction.
pub fn reduce_op(r: VecReduce) -> BinOp {
    match r {
        VecReduce::Sum => BinOp::Add,
        VecReduce::Prod => BinOp::Mul,
        VecReduce::Min => BinOp::Min,
        VecReduce::Max => BinOp::Max,
    }
}
