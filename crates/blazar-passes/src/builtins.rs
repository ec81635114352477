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
    /// `im2double(x)`, `im2uint8(x)`: image-scale conversions by the argument's type.
    Im2Double,
    Im2Uint8,
}

pub fn classify(name: &str, nargs: usize) -> Option<KBuiltin> {
    use KBuiltin as K;
    if let Some(f) = MathFn::from_name(name, nargs) {
        return Some(K::Math(f));
    }
    if let Some(op) = BinOp::from_builtin(name).filter(|_| nargs == 2) {
        return Some(K::Bin(op));
    }
    Some(match (name, nargs) {
        ("sum", 1) => K::Reduce(VecReduce::Sum),
        ("prod", 1) => K::Reduce(VecReduce::Prod),
        ("min", 1) => K::Reduce(VecReduce::Min),
        ("max", 1) => K::Reduce(VecReduce::Max),
        ("dotprod", 2) => K::Dotprod,
        (
            "int" | "float" | "double" | "single" | "complex" | "int8" | "int16" | "int32"
            | "int64" | "uint8" | "uint16" | "uint32" | "uint64",
            1,
        ) => K::Convert(match name {
            "int" => "int",
            "float" | "double" | "single" => "float",
            "complex" => "complex",
            "int8" => "int8",
            "int16" => "int16",
            "int32" => "int32",
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
        ("im2double", 1) => K::Im2Double,
        ("im2uint8", 1) => K::Im2Uint8,
        _ => return None,
    })
}
