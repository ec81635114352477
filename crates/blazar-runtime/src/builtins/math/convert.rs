//! Conversion builtins: `int` (Quasar's cast: truncating toward zero and saturating
//! from reals, wrapping between int types like C casts), `int8 .. uint64` (MATLAB's
//! conversions: rounding halves away from zero, saturating from reals and ints alike,
//! NaN to 0), `double`/`single` (to reals of the program's precision), `im2double`,
//! `im2uint8`, `prevpow2`, `nextpow2` (int results) and `complex`.

use super::{bi, binary, expected_numeric, map_to_int};
use crate::array::Array;
use crate::builtins::{Builtin, Ctx};
use crate::ops::{complex_buffer, complexes_of};
use crate::value::{IntTy, Value};
use crate::{rt_bail, RtResult};

/// C-style conversion of a stored int of type `s` to type `t` (wrapping).
fn int_to_int(v: i64, _s: IntTy, _t: IntTy) -> i64 {
    v
}

/// The range of an int type.
fn bounds(t: IntTy) -> (i128, i128) {
    match t {
        IntTy::I8 => (i8::MIN as i128, i8::MAX as i128),
        IntTy::I16 => (i16::MIN as i128, i16::MAX as i128),
        IntTy::I32 => (i32::MIN as i128, i32::MAX as i128),
        IntTy::I64 => (i64::MIN as i128, i64::MAX as i128),
        IntTy::U8 => (0, u8::MAX as i128),
        IntTy::U16 => (0, u16::MAX as i128),
        IntTy::U32 => (0, u32::MAX as i128),
        IntTy::U64 => (0, u64::MAX as i128),
    }
}

/// MATLAB's conversion of a stored int of type `s` to type `t`: saturating.
pub(crate) fn int_to_int_saturating(v: i64, s: IntTy, t: IntTy) -> i64 {
    let x = if s == IntTy::U64 {
        v as u64 as i128
    } else {
        v as i128
    };
    let (lo, hi) = bounds(t);
    let x = x.clamp(lo, hi);
    if t == IntTy::U64 {
        x as u64 as i64
    } else {
        x as i64
    }
}

/// MATLAB's conversion of a real to type `t`: rounded, halves away from zero, then
/// saturated (NaN gives 0).
pub(crate) fn real_to_int_rounding(x: f64, t: IntTy) -> i64 {
    t.from_f64(x.round())
}

macro_rules! int_conv {
    ($($fname:ident => $qname:literal, $t:expr;)*) => {
        $(fn $fname(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
            if let Value::Str(_) = &args[0] {
                rt_bail!("{}: cannot convert a string to an integer", $qname);
            }
            map_to_int($qname, &args[0], Some($t), real_to_int_rounding, int_to_int_saturating)
        })*
    };
}

/// `int(x)`: Quasar's cast to `int`, truncating toward zero.
fn to_int(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    if let Value::Str(_) = &args[0] {
        rt_bail!("int: cannot convert a string to an integer");
    }
    map_to_int(
        "int",
        &args[0],
        Some(IntTy::I32),
        |x, t| t.from_f64(x),
        int_to_int,
    )
}

int_conv! {
    to_int8 => "int8", IntTy::I8;
    to_int16 => "int16", IntTy::I16;
    to_int32 => "int32", IntTy::I32;
    to_int64 => "int64", IntTy::I64;
    to_uint8 => "uint8", IntTy::U8;
    to_uint16 => "uint16", IntTy::U16;
    to_uint32 => "uint32", IntTy::U32;
    to_uint64 => "uint64", IntTy::U64;
}

fn pow2_below(x: f64) -> i64 {
    if x.is_nan() || x < 1.0 {
        0
    } else if x >= 2f64.powi(62) {
        1 << 62
    } else {
        1i64 << (63 - (x as u64).leading_zeros())
    }
}

fn pow2_above(x: f64) -> i64 {
    if x.is_nan() || x <= 1.0 {
        1
    } else if x > 2f64.powi(62) {
        1 << 62
    } else {
        (x.ceil() as u64).next_power_of_two() as i64
    }
}

fn prevpow2(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    map_to_int(
        "prevpow2",
        &args[0],
        None,
        |x, _| pow2_below(x),
        |v, s, _| pow2_below(s.to_f64(v)),
    )
}

fn nextpow2(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    map_to_int(
        "nextpow2",
        &args[0],
        None,
        |x, _| pow2_above(x),
        |v, s, _| pow2_above(s.to_f64(v)),
    )
}

/// The scale that maps an int type's stored values to [0, 1] and the offset added
/// first (MATLAB's `im2double`): none for types other than `uint8`, `uint16`, `int16`.
fn image_scale(t: IntTy) -> Option<(f64, f64)> {
    match t {
        IntTy::U8 => Some((0.0, 255.0)),
        IntTy::U16 => Some((0.0, 65535.0)),
        IntTy::I16 => Some((32768.0, 65535.0)),
        _ => None,
    }
}

fn image_arg<'a>(name: &str, v: &'a Value) -> RtResult<crate::ArrRead<'a>> {
    let a = super::super::arrange::numeric(name, v)?;
    if a.elem().is_complex() {
        rt_bail!("{name}: expected a real image, got a complex array");
    }
    Ok(a)
}

/// `im2double(I)`: an image's values in [0, 1] as reals: `uint8` divided by 255,
/// `uint16` by 65535, `int16` shifted by 32768 then divided by 65535; a real image is
/// returned unchanged (as MATLAB: it is taken to be in [0, 1] already).
fn im2double(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = image_arg("im2double", &args[0])?;
    let data: Vec<f64> = match a.elem() {
        crate::ElemType::Int(t) => {
            let Some((off, scale)) = image_scale(t) else {
                rt_bail!(
                    "im2double: expected a uint8, uint16, int16 or real image, got {}",
                    args[0].kind_name()
                );
            };
            (0..a.len())
                .map(|i| (a.buf.get_f64(i) + off) / scale)
                .collect()
        }
        _ => (0..a.len()).map(|i| a.buf.get_f64(i)).collect(),
    };
    Ok(Value::array(Array::from_reals(
        a.dims.clone(),
        data,
        ctx.prec,
    )))
}

/// `im2uint8(I)`: an image as `uint8`: reals in [0, 1] times 255, rounded and
/// saturated; `uint16` divided by 257 and rounded; `int16` shifted by 32768 first;
/// `uint8` unchanged.
fn im2uint8(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = image_arg("im2uint8", &args[0])?;
    let data: Vec<i64> = match a.elem() {
        crate::ElemType::Int(t) => {
            let Some((off, scale)) = image_scale(t) else {
                rt_bail!(
                    "im2uint8: expected a uint8, uint16, int16 or real image, got {}",
                    args[0].kind_name()
                );
            };
            (0..a.len())
                .map(|i| real_to_int_rounding((a.buf.get_f64(i) + off) * 255.0 / scale, IntTy::U8))
                .collect()
        }
        _ => (0..a.len())
            .map(|i| real_to_int_rounding(a.buf.get_f64(i) * 255.0, IntTy::U8))
            .collect(),
    };
    Ok(Value::array(Array::new(
        a.dims.clone(),
        crate::ops::int_buffer(IntTy::U8, data),
    )))
}

/// `complex(x)` converts to complex; `complex(re, im)` combines parts.
fn complex(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let prec = ctx.prec;
    let to_c = |v: &Value| -> RtResult<Value> {
        match v {
            Value::Real(_) | Value::Int(..) | Value::Complex(_) => {
                Ok(Value::Complex(v.as_complex().unwrap_or_default()))
            }
            Value::Array(r) => {
                let a = r.try_borrow().map_err(|_| expected_numeric("complex", v))?;
                if a.is_cell() {
                    return Err(expected_numeric("complex", v));
                }
                Ok(Value::array(Array::new(
                    a.dims.clone(),
                    complex_buffer(prec, complexes_of(&a.buf).into_owned()),
                )))
            }
            _ => Err(expected_numeric("complex", v)),
        }
    };
    match args {
        [x] => to_c(x),
        [re, im] => binary::make_complex(&to_c(re)?, im, prec),
        _ => rt_bail!("complex: expected 1 or 2 arguments"),
    }
}

pub(in crate::builtins) static TABLE: &[Builtin] = &[
    bi("int", to_int, 1, 1).doc(
        "int(x)",
        "x converted to `int`, element by element: reals are truncated toward zero and saturate at the type's limits; ints wrap around to the type's width, as in C.",
        "print int(2.7), \" \", int(-2.7), \" \", type(int(2.7))",
        "2 -2 int",
    ),
    bi("int8", to_int8, 1, 1).doc(
        "int8(x)",
        "x converted to `int8`, element by element: reals are rounded to the nearest integer (halves away from zero), every value saturates at the type's limits and NaN gives 0, as MATLAB's conversions do (arithmetic on the result wraps, as in C).",
        "print int8(100) + int8(100), \" \", int8(-3.5), \" \", int8(300)",
        "-56 -4 127",
    ),
    bi("int16", to_int16, 1, 1).doc(
        "int16(x)",
        "x converted to `int16`, element by element: reals are rounded to the nearest integer (halves away from zero), every value saturates at the type's limits and NaN gives 0, as MATLAB's conversions do (arithmetic on the result wraps, as in C).",
        "print int16(40000), \" \", int16(2.5)",
        "32767 3",
    ),
    bi("int32", to_int32, 1, 1).doc(
        "int32(x)",
        "x converted to `int32`, element by element: reals are rounded to the nearest integer (halves away from zero), every value saturates at the type's limits and NaN gives 0, as MATLAB's conversions do (arithmetic on the result wraps, as in C).",
        "print int32(3.9), \" \", type(int32(1))",
        "4 int",
    ),
    bi("int64", to_int64, 1, 1).doc(
        "int64(x)",
        "x converted to `int64`, element by element: reals are rounded to the nearest integer (halves away from zero), every value saturates at the type's limits and NaN gives 0, as MATLAB's conversions do (arithmetic on the result wraps, as in C).",
        "print int64(2) ^ 40",
        "1099511627776",
    ),
    bi("uint8", to_uint8, 1, 1).doc(
        "uint8(x)",
        "x converted to `uint8`, element by element: reals are rounded to the nearest integer (halves away from zero), every value saturates at the type's limits and NaN gives 0, as MATLAB's conversions do (arithmetic on the result wraps, as in C).",
        "print uint8(250) + uint8(10), \" \", uint8([1.5, 300]), \" \", uint8(250.6)",
        "4 [2,255] 251",
    ),
    bi("uint16", to_uint16, 1, 1).doc(
        "uint16(x)",
        "x converted to `uint16`, element by element: reals are rounded to the nearest integer (halves away from zero), every value saturates at the type's limits and NaN gives 0, as MATLAB's conversions do (arithmetic on the result wraps, as in C).",
        "print uint16(70000)",
        "65535",
    ),
    bi("uint32", to_uint32, 1, 1).doc(
        "uint32(x)",
        "x converted to `uint32`, element by element: reals are rounded to the nearest integer (halves away from zero), every value saturates at the type's limits and NaN gives 0, as MATLAB's conversions do (arithmetic on the result wraps, as in C).",
        "print uint32(-1)",
        "0",
    ),
    bi("uint64", to_uint64, 1, 1).doc(
        "uint64(x)",
        "x converted to `uint64`, element by element: reals are rounded to the nearest integer (halves away from zero), every value saturates at the type's limits and NaN gives 0, as MATLAB's conversions do (arithmetic on the result wraps, as in C).",
        "print uint64(5) - uint64(2)",
        "3",
    ),
    bi("im2double", im2double, 1, 1).doc(
        "im2double(I)",
        "An image's values in [0, 1] as reals: `uint8` divided by 255, `uint16` by 65535, `int16` shifted by 32768 then divided by 65535; a real image is returned unchanged (taken to be in [0, 1] already), as MATLAB's `im2double`.",
        "print im2double(uint8([0, 51, 255]))",
        "[0,0.2,1]",
    ),
    bi("im2uint8", im2uint8, 1, 1).doc(
        "im2uint8(I)",
        "An image as `uint8`: reals in [0, 1] times 255, rounded and saturated; `uint16` divided by 257 and rounded; `int16` shifted by 32768 first; `uint8` unchanged (MATLAB's `im2uint8`).",
        "print im2uint8([0, 0.5, 1, 2])",
        "[0,128,255,255]",
    ),
    bi("prevpow2", prevpow2, 1, 1).doc(
        "prevpow2(n)",
        "The largest power of two not above n.",
        "print prevpow2(100), \" \", prevpow2(64)",
        "64 64",
    ),
    bi("nextpow2", nextpow2, 1, 1).doc(
        "nextpow2(n)",
        "The smallest power of two not below n (handy for FFT sizes).",
        "print nextpow2(100), \" \", nextpow2(64)",
        "128 64",
    ),
    bi("complex", complex, 1, 2),
];
