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
    /// Its documentation (`help sqrt`), attached with [`MathDef::doc`].
    pub doc: Doc,
}

impl MathDef {
    /// This row with its documentation: signature, one paragraph, an example and what
    /// the example prints (see [`Doc`]).
    pub const fn doc(
        self,
        sig: &'static str,
        text: &'static str,
        example: &'static str,
        output: &'static str,
    ) -> MathDef {
        MathDef {
            doc: Doc::new(sig, text, example, output),
            ..self
        }
    }

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

use crate::Doc;
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
        doc: Doc::NONE,
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
    row(Abs, "abs", 1, Sig::RealPart, P, E, Fuse::Both, Some("fabs")).doc(
        "abs(x)",
        "The absolute value of each element of a number or array; of a complex number, its modulus (a real). Ints stay ints of the same type.",
        "print abs([-2, 3]), \" \", abs(-1.5), \" \", abs(3 + 4i)",
        "[2,3] 1.5 5",
    ),
    libm1(Sqrt, "sqrt", Sig::FloatOrComplex, Fuse::Real, f64::sqrt, f32::sqrt).doc(
        "sqrt(x)",
        "The square root of each element. A negative real gives NaN; pass a complex value (`complex(x)`) for complex roots.",
        "print sqrt([4, 9, 2.25]), \" \", sqrt(complex(-4))",
        "[2,3,1.5] 0+2i",
    ),
    row(Rsqrt, "rsqrt", 1, Sig::Float, P, E, Fuse::No, None).doc(
        "rsqrt(x)",
        "The reciprocal square root 1 / sqrt(x) of each element, as one operation (fast on GPUs).",
        "print rsqrt([4, 16])",
        "[0.5,0.25]",
    ),
    libm1(Exp, "exp", Sig::FloatOrComplex, Fuse::Real, f64::exp, f32::exp).doc(
        "exp(x)",
        "e raised to each element; complex arguments give complex results.",
        "print exp(0), \" \", exp([1, 2])",
        "1 [2.7182817,7.389056]",
    ),
    libm1(Exp2, "exp2", Sig::Float, Fuse::Real, f64::exp2, f32::exp2).doc(
        "exp2(x)",
        "2 raised to each element.",
        "print exp2([0, 3, 0.5])",
        "[1,8,1.4142135]",
    ),
    libm1(Log, "log", Sig::FloatOrComplex, Fuse::Real, f64::ln, f32::ln).doc(
        "log(x)",
        "The natural logarithm of each element (NaN for negative reals, -Inf for 0); complex arguments give the principal complex logarithm.",
        "print log([1, exp(2)])",
        "[0,2]",
    ),
    libm1(Log2, "log2", Sig::Float, Fuse::Real, f64::log2, f32::log2).doc(
        "log2(x)",
        "The base-2 logarithm of each element.",
        "print log2([1, 8, 1024])",
        "[0,3,10]",
    ),
    libm1(Log10, "log10", Sig::Float, Fuse::Real, f64::log10, f32::log10).doc(
        "log10(x)",
        "The base-10 logarithm of each element.",
        "print log10([1, 100, 0.001])",
        "[0,2,-3]",
    ),
    libm1(Sin, "sin", Sig::FloatOrComplex, Fuse::Real, f64::sin, f32::sin).doc(
        "sin(x)",
        "The sine of each element, in radians.",
        "print sin(0), \" \", round(sin(pi / 2))",
        "0 1",
    ),
    libm1(Cos, "cos", Sig::FloatOrComplex, Fuse::Real, f64::cos, f32::cos).doc(
        "cos(x)",
        "The cosine of each element, in radians.",
        "print cos(0), \" \", cos(pi)",
        "1 -1",
    ),
    libm1(Tan, "tan", Sig::FloatOrComplex, Fuse::Real, f64::tan, f32::tan).doc(
        "tan(x)",
        "The tangent of each element, in radians.",
        "print tan(0), \" \", round(1000 * tan(pi / 4)) / 1000",
        "0 1",
    ),
    libm1(Asin, "asin", Sig::Float, Fuse::Real, f64::asin, f32::asin).doc(
        "asin(x)",
        "The arcsine of each element, in radians (-pi/2 to pi/2); NaN outside -1..1.",
        "print asin(0), \" \", asin(1) * 2 == pi",
        "0 1",
    ),
    libm1(Acos, "acos", Sig::Float, Fuse::Real, f64::acos, f32::acos).doc(
        "acos(x)",
        "The arccosine of each element, in radians (0 to pi); NaN outside -1..1.",
        "print acos(1), \" \", acos(-1) == pi",
        "0 1",
    ),
    libm1(Atan, "atan", Sig::Float, Fuse::Real, f64::atan, f32::atan).doc(
        "atan(x)",
        "The arctangent of each element, in radians (-pi/2 to pi/2). For the angle of a point (x, y) use `atan2(y, x)`.",
        "print atan(0), \" \", 4 * atan(1) == pi",
        "0 1",
    ),
    libm1(Sinh, "sinh", Sig::FloatOrComplex, Fuse::Real, f64::sinh, f32::sinh).doc(
        "sinh(x)",
        "The hyperbolic sine of each element.",
        "print sinh(0), \" \", sinh([1, -1]) == [sinh(1), -sinh(1)]",
        "0 [1,1]",
    ),
    libm1(Cosh, "cosh", Sig::FloatOrComplex, Fuse::Real, f64::cosh, f32::cosh).doc(
        "cosh(x)",
        "The hyperbolic cosine of each element.",
        "print cosh(0)",
        "1",
    ),
    libm1(Tanh, "tanh", Sig::FloatOrComplex, Fuse::Real, f64::tanh, f32::tanh).doc(
        "tanh(x)",
        "The hyperbolic tangent of each element (between -1 and 1).",
        "print tanh(0), \" \", tanh(100)",
        "0 1",
    ),
    libm1(Floor, "floor", Sig::Float, Fuse::Real, f64::floor, f32::floor).doc(
        "floor(x)",
        "Each element rounded down to an integral value (the result keeps the type: a scalar stays a scalar; use `int` for an int).",
        "print floor([2.7, -2.5]), \" \", type(floor(2.7))",
        "[2,-3] scalar",
    ),
    libm1(Ceil, "ceil", Sig::Float, Fuse::Real, f64::ceil, f32::ceil).doc(
        "ceil(x)",
        "Each element rounded up to an integral value.",
        "print ceil([2.2, -2.5])",
        "[3,-2]",
    ),
    libm1(Round, "round", Sig::Float, Fuse::Real, f64::round, f32::round).doc(
        "round(x)",
        "Each element rounded to the nearest integral value, halves away from zero (MATLAB's rule, not banker's rounding).",
        "print round([2.5, -2.5, 2.4])",
        "[3,-3,2]",
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
    ).doc(
        "frac(x)",
        "The fractional part x - floor(x) of each element: between 0 and 1, also for negative x.",
        "print frac([2.75, -0.25])",
        "[0.75,0.75]",
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
    )
    .doc(
        "fix(x)",
        "Each element rounded toward zero to an integral value (MATLAB's `fix`; the result keeps the type).",
        "print fix([2.7, -2.7])",
        "[2,-2]",
    ),
    row(Sign, "sign", 1, Sig::Ordered, P, E, Fuse::Real, None).doc(
        "sign(x)",
        "-1, 0 or 1 by the sign of each element.",
        "print sign([-3, 0, 2.5])",
        "[-1,0,1]",
    ),
    row(IsNan, "isnan", 1, Sig::Test, P, E, Fuse::Real, None).doc(
        "isnan(x)",
        "1 where an element is NaN (not a number), else 0.",
        "print isnan([0 / 0, 1])",
        "[1,0]",
    ),
    row(IsInf, "isinf", 1, Sig::Test, P, E, Fuse::Real, None).doc(
        "isinf(x)",
        "1 where an element is +Inf or -Inf, else 0.",
        "print isinf([1 / 0, -1 / 0, 1])",
        "[1,1,0]",
    ),
    row(IsFinite, "isfinite", 1, Sig::Test, P, E, Fuse::Real, None).doc(
        "isfinite(x)",
        "1 where an element is neither NaN nor infinite, else 0.",
        "print isfinite([1, 1 / 0, 0 / 0])",
        "[1,0,0]",
    ),
    row(
        Atan2,
        "atan2",
        2,
        Sig::Float,
        R,
        Eval::Two(f64::atan2, f32::atan2),
        Fuse::Real,
        Some("atan2"),
    ).doc(
        "atan2(y, x)",
        "The angle of the point (x, y) from the positive x axis, in radians (-pi to pi), element by element with broadcasting. Note the order: y first, as in C and MATLAB.",
        "print atan2(1, 1) * 4 == pi, \" \", atan2(0, -1) == pi",
        "1 1",
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
    ).doc(
        "hypot(x, y)",
        "sqrt(x^2 + y^2) element by element, without overflow or underflow in the squares.",
        "print hypot(3, 4), \" \", hypot([5, 8], 12)",
        "5 [13,14.422205]",
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
    ).doc(
        "periodize(x, n)",
        "x wrapped into 0..n-1 (never negative: periodize(-1, n) is n-1), element by element; the index rule of circular boundary access. Compare `mod`, which keeps the dividend's sign.",
        "print periodize(-7, 3), \" \", periodize([0, 5, -1], 5)",
        "2 [0,0,4]",
    ),
    row(Real, "real", 1, Sig::RealPart, P, E, Fuse::Complex, None).doc(
        "real(z)",
        "The real part of each element (a real number is its own real part).",
        "print real(3 + 4i), \" \", real([1 + 2i, 5])",
        "3 [1,5]",
    ),
    row(Imag, "imag", 1, Sig::RealPart, P, E, Fuse::Complex, None).doc(
        "imag(z)",
        "The imaginary part of each element (0 for a real number).",
        "print imag(3 + 4i), \" \", imag(2)",
        "4 0",
    ),
    row(Conj, "conj", 1, Sig::Number, P, E, Fuse::Complex, None).doc(
        "conj(z)",
        "The complex conjugate of each element.",
        "print conj(3 + 4i)",
        "3-4i",
    ),
    row(Angle, "angle", 1, Sig::RealPart, P, E, Fuse::Complex, None).doc(
        "angle(z)",
        "The argument of each complex element, in radians (-pi to pi).",
        "print angle(1i) * 2 == pi, \" \", angle(-1)",
        "1 3.1415927",
    ),
    row(
        MakeComplex,
        "complex",
        2,
        Sig::MakeComplex,
        P,
        E,
        Fuse::Real,
        None,
    ).doc(
        "complex(re) · complex(re, im)",
        "A complex number or array from real and imaginary parts (broadcast against each other); `complex(x)` makes x complex with imaginary part 0.",
        "print complex(1, 2), \" \", complex([1, 2])",
        "1+2i [1+0i,2+0i]",
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
