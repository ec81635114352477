//! Conversion builtins: `int int8 .. uint64` (truncating toward zero and saturating
//! from reals, wrapping between int types like C casts), `prevpow2`, `nextpow2` (int
//! results) and `complex`.

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

macro_rules! int_conv {
    ($($fname:ident => $qname:literal, $t:expr;)*) => {
        $(fn $fname(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
            if let Value::Str(_) = &args[0] {
                rt_bail!("{}: cannot convert a string to an integer", $qname);
            }
            map_to_int($qname, &args[0], Some($t), |x, t| t.from_f64(x), int_to_int)
        })*
    };
}

int_conv! {
    to_int => "int", IntTy::I32;
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
        "x converted to `int8`, element by element: reals are truncated toward zero and saturate at the type's limits; ints wrap around to the type's width, as in C.",
        "print int8(100) + int8(100), \" \", int8(-3.9)",
        "-56 -3",
    ),
    bi("int16", to_int16, 1, 1).doc(
        "int16(x)",
        "x converted to `int16`, element by element: reals are truncated toward zero and saturate at the type's limits; ints wrap around to the type's width, as in C.",
        "print int16(40000)",
        "-25536",
    ),
    bi("int32", to_int32, 1, 1).doc(
        "int32(x)",
        "x converted to `int32`, element by element: reals are truncated toward zero and saturate at the type's limits; ints wrap around to the type's width, as in C.",
        "print int32(3.9), \" \", type(int32(1))",
        "3 int",
    ),
    bi("int64", to_int64, 1, 1).doc(
        "int64(x)",
        "x converted to `int64`, element by element: reals are truncated toward zero and saturate at the type's limits; ints wrap around to the type's width, as in C.",
        "print int64(2) ^ 40",
        "1099511627776",
    ),
    bi("uint8", to_uint8, 1, 1).doc(
        "uint8(x)",
        "x converted to `uint8`, element by element: reals are truncated toward zero and saturate at the type's limits; ints wrap around to the type's width, as in C.",
        "print uint8(250) + uint8(10), \" \", uint8([1.5, 300])",
        "4 [1,255]",
    ),
    bi("uint16", to_uint16, 1, 1).doc(
        "uint16(x)",
        "x converted to `uint16`, element by element: reals are truncated toward zero and saturate at the type's limits; ints wrap around to the type's width, as in C.",
        "print uint16(70000)",
        "4464",
    ),
    bi("uint32", to_uint32, 1, 1).doc(
        "uint32(x)",
        "x converted to `uint32`, element by element: reals are truncated toward zero and saturate at the type's limits; ints wrap around to the type's width, as in C.",
        "print uint32(-1)",
        "4294967295",
    ),
    bi("uint64", to_uint64, 1, 1).doc(
        "uint64(x)",
        "x converted to `uint64`, element by element: reals are truncated toward zero and saturate at the type's limits; ints wrap around to the type's width, as in C.",
        "print uint64(5) - uint64(2)",
        "3",
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
