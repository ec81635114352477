//! Which builtin functions kernel code may call, and what they become in KIR.

use blazar_kir::{BinOp, MathFn, VecReduce};

/// What a builtin call lowers to.
pub enum KBuiltin {
    Math(MathFn),
    /// A binary operator: `min`, `max`, `mod`, bitwise functions, `pow`.
    Bin(BinOp),
    /// `sum`, `prod`, `min`, `max` of one fixed-length vector.
    Reduce(VecReduce),
    /// Conversions: `int`, `float`, `complex` (1 argument), `int8`, ...
    Convert(&'static str),
    Size,
    Numel,
    Zeros,
    Ones,
    Uninit,
    Clamp,
    Saturate,
    Pos2Ind,
    Ind2Pos,
    Dotprod,
}

pub fn classify(name: &str, nargs: usize) -> Option<KBuiltin> {
    use KBuiltin as K;
    use MathFn as M;
    Some(match (name, nargs) {
        ("abs", 1) => K::Math(M::Abs),
        ("sqrt", 1) => K::Math(M::Sqrt),
        ("rsqrt", 1) => K::Math(M::Rsqrt),
        ("exp", 1) => K::Math(M::Exp),
        ("exp2", 1) => K::Math(M::Exp2),
        ("log", 1) => K::Math(M::Log),
        ("log2", 1) => K::Math(M::Log2),
        ("log10", 1) => K::Math(M::Log10),
        ("sin", 1) => K::Math(M::Sin),
        ("cos", 1) => K::Math(M::Cos),
        ("tan", 1) => K::Math(M::Tan),
        ("asin", 1) => K::Math(M::Asin),
        ("acos", 1) => K::Math(M::Acos),
        ("atan", 1) => K::Math(M::Atan),
        ("sinh", 1) => K::Math(M::Sinh),
        ("cosh", 1) => K::Math(M::Cosh),
        ("tanh", 1) => K::Math(M::Tanh),
        ("floor", 1) => K::Math(M::Floor),
        ("ceil", 1) => K::Math(M::Ceil),
        ("round", 1) => K::Math(M::Round),
        ("frac", 1) => K::Math(M::Frac),
        ("sign", 1) => K::Math(M::Sign),
        ("isnan", 1) => K::Math(M::IsNan),
        ("isinf", 1) => K::Math(M::IsInf),
        ("isfinite", 1) => K::Math(M::IsFinite),
        ("atan2", 2) => K::Math(M::Atan2),
        ("periodize", 2) => K::Math(M::Periodize),
        ("real", 1) => K::Math(M::Real),
        ("imag", 1) => K::Math(M::Imag),
        ("conj", 1) => K::Math(M::Conj),
        ("angle", 1) => K::Math(M::Angle),
        ("complex", 2) => K::Math(M::MakeComplex),
        ("min", 2) => K::Bin(BinOp::Min),
        ("max", 2) => K::Bin(BinOp::Max),
        ("mod", 2) => K::Bin(BinOp::Rem),
        ("pow", 2) => K::Bin(BinOp::Pow),
        ("and", 2) => K::Bin(BinOp::BitAnd),
        ("or", 2) => K::Bin(BinOp::BitOr),
        ("xor", 2) => K::Bin(BinOp::BitXor),
        ("shl", 2) => K::Bin(BinOp::Shl),
        ("shr", 2) => K::Bin(BinOp::Shr),
        ("sum", 1) => K::Reduce(VecReduce::Sum),
        ("prod", 1) => K::Reduce(VecReduce::Prod),
        ("min", 1) => K::Reduce(VecReduce::Min),
        ("max", 1) => K::Reduce(VecReduce::Max),
        ("dotprod", 2) => K::Dotprod,
        (
            "int" | "float" | "complex" | "int8" | "int16" | "int32" | "int64" | "uint8" | "uint16"
            | "uint32" | "uint64",
            1,
        ) => K::Convert(match name {
            "int" => "int",
            "float" => "float",
            "complex" => "complex",
            "int8" => "int8",
            "int16" => "int16",
            "int32" => "int",
            "int64" => "int64",
            "uint8" => "uint8",
            "uint16" => "uint16",
            "uint32" => "uint32",
            _ => "uint64",
        }),
        ("size", 1 | 2) => K::Size,
        ("numel", 1) => K::Numel,
        ("zeros", _) => K::Zeros,
        ("ones", _) => K::Ones,
        ("uninit", _) => K::Uninit,
        ("clamp", 2 | 3) => K::Clamp,
        ("saturate", 1) => K::Saturate,
        ("pos2ind", 2) => K::Pos2Ind,
        ("ind2pos", 2) => K::Ind2Pos,
        _ => return None,
    })
}
