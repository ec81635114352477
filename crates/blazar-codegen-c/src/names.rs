//! C spellings: type names, identifiers, literals and the prelude's numeric codes.

use blazar_kir::{AtomicOp, Const, ReadMode, Scalar, Ty, WriteMode};

/// The prelude's name of a scalar type (`f32`, `c64`, `bool`, ...).
pub fn scalar(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "bool",
        s => s.name(),
    }
}

/// The C type of a KIR value or array slot.
pub fn ty(t: Ty) -> String {
    match t {
        Ty::Scalar(s) => scalar(s).to_string(),
        Ty::Vector(s, n) => format!("bz_v<{}, {n}>", scalar(s)),
        Ty::Array(a) => format!("bz_arr<{}>", scalar(a.elem)),
    }
}

/// A C identifier from a KIR name (letters, digits and `_`; never empty).
pub fn ident(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    while s.contains("__") {
        s = s.replace("__", "_");
    }
    let s = s.trim_matches('_').to_string();
    if s.is_empty() {
        "k".into()
    } else {
        s
    }
}

/// The C name of variable `%v`.
pub fn var(k: &blazar_kir::Kernel, v: u32) -> String {
    let name = k.vars.get(v as usize).map_or("", |d| d.name.as_str());
    format!("v{v}_{}", ident(name))
}

/// The C name of array slot `@a`.
pub fn arr(k: &blazar_kir::Kernel, a: u32) -> String {
    let name = k.arrays.get(a as usize).map_or("", |d| d.name.as_str());
    format!("a{a}_{}", ident(name))
}

/// The prelude's boundary-mode code of a read.
pub fn read_mode(m: ReadMode) -> u8 {
    match m {
        ReadMode::Zero => 0,
        ReadMode::Circular => 1,
        ReadMode::Mirror => 2,
        ReadMode::Clamped => 3,
        ReadMode::Checked => 4,
        ReadMode::Unchecked => 5,
    }
}

/// The prelude's boundary-mode code of a write (outside: skip, error, or unchecked).
pub fn write_mode(m: WriteMode) -> u8 {
    match m {
        WriteMode::Skip => 0,
        WriteMode::Checked => 4,
        WriteMode::Unchecked => 5,
    }
}

/// The prelude's code of a read-modify-write operator (`bz_combine<OP>`).
pub fn op_code(op: AtomicOp) -> u8 {
    match op {
        AtomicOp::Add => 0,
        AtomicOp::Sub => 1,
        AtomicOp::Mul => 2,
        AtomicOp::Div => 3,
        AtomicOp::Pow => 4,
        AtomicOp::Min => 5,
        AtomicOp::Max => 6,
        AtomicOp::And => 7,
        AtomicOp::Or => 8,
        AtomicOp::Xor => 9,
    }
}

/// The op that combines per-thread and per-block partials of a kernel output.
pub fn partial_op(op: AtomicOp) -> AtomicOp {
    match op {
        AtomicOp::Sub => AtomicOp::Add,
        AtomicOp::Div | AtomicOp::Pow => AtomicOp::Mul,
        op => op,
    }
}

fn f32_lit(v: f64) -> String {
    let x = v as f32;
    if x.is_nan() {
        "__int_as_float(0x7fc00000)".into()
    } else if x.is_infinite() {
        let bits = if x > 0.0 { "0x7f800000" } else { "0xff800000" };
        format!("__int_as_float({bits})")
    } else {
        format!("{x:?}f")
    }
}

fn f64_lit(v: f64) -> String {
    if v.is_nan() {
        "__longlong_as_double(0x7ff8000000000000LL)".into()
    } else if v.is_infinite() {
        let bits = if v > 0.0 {
            "0x7ff0000000000000LL"
        } else {
            "0xfff0000000000000LL"
        };
        format!("__longlong_as_double({bits})")
    } else {
        format!("{v:?}")
    }
}

/// A real literal of type `s` (f32 or f64).
pub fn real_lit(v: f64, s: Scalar) -> String {
    if s == Scalar::F64 || s == Scalar::C64 {
        f64_lit(v)
    } else {
        f32_lit(v)
    }
}

/// An integer literal of type `s`, wrapped to its width.
pub fn int_lit(v: i64, s: Scalar) -> String {
    match s {
        Scalar::I8 => format!("((i8){})", v as i8),
        Scalar::I16 => format!("((i16){})", v as i16),
        Scalar::I32 => match v as i32 {
            i32::MIN => "(-2147483647 - 1)".into(),
            x if x < 0 => format!("({x})"),
            x => x.to_string(),
        },
        Scalar::I64 => match v {
            i64::MIN => "(-9223372036854775807LL - 1)".into(),
            x if x < 0 => format!("({x}LL)"),
            x => format!("{x}LL"),
        },
        Scalar::U8 => format!("((u8){})", v as u8),
        Scalar::U16 => format!("((u16){})", v as u16),
        Scalar::U32 => format!("{}u", v as u32),
        Scalar::U64 => format!("{}ull", v as u64),
        Scalar::Bool => (v != 0).to_string(),
        Scalar::F32 | Scalar::F64 => real_lit(v as f64, s),
        Scalar::C32 | Scalar::C64 => complex_lit(v as f64, 0.0, s),
    }
}

fn complex_lit(re: f64, im: f64, s: Scalar) -> String {
    let r = s.real_part();
    format!("{}{{{}, {}}}", scalar(s), real_lit(re, r), real_lit(im, r))
}

/// A constant of type `s` (the verifier guarantees kind and type agree; mismatches are
/// converted as C would).
pub fn constant(c: &Const, s: Scalar) -> String {
    match (c, s) {
        (Const::Bool(b), Scalar::Bool) => b.to_string(),
        (Const::Bool(b), s) => int_lit(*b as i64, s),
        (Const::Int(v), s) => int_lit(*v, s),
        (Const::Float(v), s) if s.is_complex() => complex_lit(*v, 0.0, s),
        (Const::Float(v), s) if s.is_float() => real_lit(*v, s),
        (Const::Float(v), Scalar::Bool) => (*v != 0.0).to_string(),
        (Const::Float(v), s) => int_lit(*v as i64, s),
        (Const::Complex(re, im), s) if s.is_complex() => complex_lit(*re, *im, s),
        (Const::Complex(re, _), s) => constant(&Const::Float(*re), s),
    }
}

/// Escapes a file name for a `#line` directive.
pub fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
