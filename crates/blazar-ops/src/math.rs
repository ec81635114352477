//! The element-wise math functions: one variant of [`MathFn`] and one row of [`MATH`]
//! each.
//!
//! A row gives the function's name in source code, its arity, its signature in KIR
//! ([`Sig`]), how the host and kernel lowering promote its arguments ([`Promote`]),
//! whether AIR fuses it ([`MathDef::fuse`]), its scalar computation on reals
//! ([`Eval`]) and its C spelling ([`MathDef::c`]). A function whose row says
//! `Promote::Real` with an [`Eval`] and a C name needs nothing else: every layer
//! derives it from the row.

/// Element-wise math functions of one or two arguments (KIR's `ExprKind::Math`, AIR's
/// math nodes, and the host builtins of the same names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    Abs,
    Sqrt,
    Rsqrt,
    Exp,
    Exp2,
    Log,
    Log2,
    Log10,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Floor,
    Ceil,
    Round,
    Frac,
    /// Rounding toward zero (MATLAB's `fix`).
    Fix,
    Sign,
    IsNan,
    IsInf,
    IsFinite,
    Atan2,
    /// `sqrt(x^2 + y^2)` without overflow or underflow in the squares.
    Hypot,
    /// Non-negative remainder.
    Periodize,
    /// Real part, imaginary part, conjugate, argument of complex values.
    Real,
    Imag,
    Conj,
    Angle,
    /// `complex(re, im)`.
    MakeComplex,
}

/// What a function takes and gives in KIR (its arguments all have one type `t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sig {
    /// Reals; gives `t`.
    Float,
    /// Reals or complex; gives `t`.
    FloatOrComplex,
    /// Any number; gives the real type of `t` (`abs real imag angle`).
    RealPart,
    /// Any number; gives `t`.
    Number,
    /// Ints or reals; gives `t`.
    Ordered,
    /// Reals; gives bool.
    Test,
    /// Reals; gives the complex type of `t`.
    MakeComplex,
}

/// How the host evaluator and kernel lowering type a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promote {
    /// Ints and reals are computed as reals of the program precision (f64 stays f64),
    /// through [`MathDef::eval`]; complex arguments are an error.
    Real,
    /// A rule of its own in each layer (ints kept, complex variants).
    Own,
}

/// The scalar computation on reals, in f64 and in f32.
#[derive(Clone, Copy, Debug)]
pub enum Eval {
    /// Written where the function has a rule of its own on reals too.
    Own,
    One(fn(f64) -> f64, fn(f32) -> f32),
    Two(fn(f64, f64) -> f64, fn(f32, f32) -> f32),
}

/// Where AIR fuses a function into whole-array kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fuse {
    No,
    /// On real and int operands.
    Real,
    /// On complex operands.
    Complex,
    Both,
}

/// One function's row.
#[derive(Clone, Copy, Debug)]
pub struct MathDef {
    pub f: MathFn,
    /// The builtin's name in source code (and in printed KIR).
    pub name: &'static str,
    pub arity: usize,
    pub sig: Sig,
    pub promote: Promote,
    pub eval: Eval,
    pub fuse: Fuse,
    /// The C math library's function on reals (`f` appended for f32); `None` where the
    /// C spelling composes it from `bz_*` helpers (`blazar-codegen-c`'s `spell`).
    pub c: Option<&'static str>,
}

impl MathDef {
    /// Whether AIR fuses it on operands of this kind.
    pub fn fuses(&self, complex: bool) -> bool {
        match self.fuse {
            Fuse::No => false,
            Fuse::Real => !complex,
            Fuse::Complex => complex,
            Fuse::Both => true,
        }
    }
}

use Eval::{One, Own as E};
use MathFn::*;
use Promote::{Own as P, Real as R};

#[allow(clippy::too_many_arguments)]
const fn row(
    f: MathFn,
    name: &'static str,
    arity: usize,
    sig: Sig,
    promote: Promote,
    eval: Eval,
    fuse: Fuse,
    c: Option<&'static str>,
) -> MathDef {
    MathDef {
        f,
        name,
        arity,
        sig,
        promote,
        eval,
        fuse,
        c,
    }
}

/// One-argument functions of the C math library: on reals the library's function
/// (`f64`, `f32`: the host's and the SIMT interpreter's real rule), with complex
/// variants and int rules of their own (`Promote::Own`).
const fn libm1(
    f: MathFn,
    name: &'static str,
    sig: Sig,
    fuse: Fuse,
    f64: fn(f64) -> f64,
    f32: fn(f32) -> f32,
) -> MathDef {
    row(f, name, 1, sig, P, One(f64, f32), fuse, Some(name))
}

/// Every function, in the order of [`MathFn`]'s variants.
pub static MATH: &[MathDef] = &[
    row(Abs, "abs", 1, Sig::RealPart, P, E, Fuse::Both, Some("fabs")),
    libm1(
        Sqrt,
        "sqrt",
        Sig::FloatOrComplex,
        Fuse::Real,
        f64::sqrt,
        f32::sqrt,
    ),
    row(Rsqrt, "rsqrt", 1, Sig::Float, P, E, Fuse::No, None),
    libm1(
        Exp,
        "exp",
        Sig::FloatOrComplex,
        Fuse::Real,
        f64::exp,
        f32::exp,
    ),
    libm1(Exp2, "exp2", Sig::Float, Fuse::Real, f64::exp2, f32::exp2),
    libm1(
        Log,
        "log",
        Sig::FloatOrComplex,
        Fuse::Real,
        f64::ln,
        f32::ln,
    ),
    libm1(Log2, "log2", Sig::Float, Fuse::Real, f64::log2, f32::log2),
    libm1(
        Log10,
        "log10",
        Sig::Float,
        Fuse::Real,
        f64::log10,
        f32::log10,
    ),
    libm1(
        Sin,
        "sin",
        Sig::FloatOrComplex,
        Fuse::Real,
        f64::sin,
        f32::sin,
    ),
    libm1(
        Cos,
        "cos",
        Sig::FloatOrComplex,
        Fuse::Real,
        f64::cos,
        f32::cos,
    ),
    libm1(
        Tan,
        "tan",
        Sig::FloatOrComplex,
        Fuse::Real,
        f64::tan,
        f32::tan,
    ),
    libm1(Asin, "asin", Sig::Float, Fuse::Real, f64::asin, f32::asin),
    libm1(Acos, "acos", Sig::Float, Fuse::Real, f64::acos, f32::acos),
    libm1(Atan, "atan", Sig::Float, Fuse::Real, f64::atan, f32::atan),
    libm1(
        Sinh,
        "sinh",
        Sig::FloatOrComplex,
        Fuse::Real,
        f64::sinh,
        f32::sinh,
    ),
    libm1(
        Cosh,
        "cosh",
        Sig::FloatOrComplex,
        Fuse::Real,
        f64::cosh,
        f32::cosh,
    ),
    libm1(
        Tanh,
        "tanh",
        Sig::FloatOrComplex,
        Fuse::Real,
        f64::tanh,
        f32::tanh,
    ),
    libm1(
        Floor,
        "floor",
        Sig::Float,
        Fuse::Real,
        f64::floor,
        f32::floor,
    ),
    libm1(Ceil, "ceil", Sig::Float, Fuse::Real, f64::ceil, f32::ceil),
    libm1(
        Round,
        "round",
        Sig::Float,
        Fuse::Real,
        f64::round,
        f32::round,
    ),
    row(
        Frac,
        "frac",
        1,
        Sig::Float,
        R,
        One(|x| x - x.floor(), |x| x - x.floor()),
        Fuse::Real,
        None,
    ),
    row(
        Fix,
        "fix",
        1,
        Sig::Float,
        R,
        One(f64::trunc, f32::trunc),
        Fuse::Real,
        Some("trunc"),
    ),
    row(Sign, "sign", 1, Sig::Ordered, P, E, Fuse::Real, None),
    row(IsNan, "isnan", 1, Sig::Test, P, E, Fuse::Real, None),
    row(IsInf, "isinf", 1, Sig::Test, P, E, Fuse::Real, None),
    row(IsFinite, "isfinite", 1, Sig::Test, P, E, Fuse::Real, None),
    row(
        Atan2,
        "atan2",
        2,
        Sig::Float,
        R,
        Eval::Two(f64::atan2, f32::atan2),
        Fuse::Real,
        Some("atan2"),
    ),
    row(
        Hypot,
        "hypot",
        2,
        Sig::Float,
        R,
        Eval::Two(f64::hypot, f32::hypot),
        Fuse::Real,
        Some("hypot"),
    ),
    row(
        Periodize,
        "periodize",
        2,
        Sig::Ordered,
        P,
        E,
        Fuse::No,
        None,
    ),
    row(Real, "real", 1, Sig::RealPart, P, E, Fuse::Complex, None),
    row(Imag, "imag", 1, Sig::RealPart, P, E, Fuse::Complex, None),
    row(Conj, "conj", 1, Sig::Number, P, E, Fuse::Complex, None),
    row(Angle, "angle", 1, Sig::RealPart, P, E, Fuse::Complex, None),
    row(
        MakeComplex,
        "complex",
        2,
        Sig::MakeComplex,
        P,
        E,
        Fuse::Real,
        None,
    ),
];

impl MathFn {
    /// Under single precision, computed by the f32 variant of the C library's function
    /// on every path (host, fused arrays, kernels), ints converted to f32 first: the
    /// transcendental functions, whose f64 result rounded to f32 may be an ulp away
    /// from the f32 function's. The others (`sqrt`, rounding) give the same bits
    /// either way.
    pub fn in_f32(self) -> bool {
        use MathFn::*;
        matches!(
            self,
            Exp | Exp2
                | Log
                | Log2
                | Log10
                | Sin
                | Cos
                | Tan
                | Asin
                | Acos
                | Atan
                | Sinh
                | Cosh
                | Tanh
                | Atan2
                | Hypot
        )
    }

    /// This function's row of [`MATH`].
    pub fn def(self) -> &'static MathDef {
        &MATH[self as usize]
    }

    /// The name in source code and printed KIR.
    pub fn name(self) -> &'static str {
        self.def().name
    }

    pub fn arity(self) -> usize {
        self.def().arity
    }

    /// Every function, in the order of the variants.
    pub fn all() -> impl Iterator<Item = MathFn> {
        MATH.iter().map(|d| d.f)
    }

    /// The function a call `name(...)` with `nargs` arguments names.
    pub fn from_name(name: &str, nargs: usize) -> Option<MathFn> {
        MATH.iter()
            .find(|d| d.name == name && d.arity == nargs)
            .map(|d| d.f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_follow_the_variants() {
        for (i, d) in MATH.iter().enumerate() {
            assert_eq!(d.f as usize, i, "row {} ({}) out of order", i, d.name);
        }
        assert_eq!(MATH.last().unwrap().f, MathFn::MakeComplex);
    }

    #[test]
    fn names_are_unique_per_arity() {
        for d in MATH {
            assert_eq!(MathFn::from_name(d.name, d.arity), Some(d.f));
        }
    }

    #[test]
    fn generic_rows_are_complete() {
        // A `Promote::Real` row is computed from its `eval` everywhere.
        for d in MATH.iter().filter(|d| d.promote == Promote::Real) {
            let n = match d.eval {
                Eval::One(..) => 1,
                Eval::Two(..) => 2,
                Eval::Own => panic!("{} has no eval", d.name),
            };
            assert_eq!(n, d.arity, "{}", d.name);
        }
    }
}
