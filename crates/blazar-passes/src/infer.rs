//! Type rules of kernel code: joining the types a variable is assigned, and the result
//! type of arithmetic between scalars and vectors.

use blazar_kir::{Scalar, Ty};

/// The numeric type that holds values of both `a` and `b` (`int` and `scalar` give
/// `scalar`, anything with complex gives complex, wider ints win).
pub fn join_scalar(a: Scalar, b: Scalar) -> Scalar {
    use Scalar::*;
    if a == b {
        return a;
    }
    match (a, b) {
        (Bool, x) | (x, Bool) => x,
        (C64, _) | (_, C64) => C64,
        (C32, F64) | (F64, C32) => C64,
        (C32, _) | (_, C32) => C32,
        (F64, _) | (_, F64) => F64,
        (F32, _) | (_, F32) => F32,
        (x, y) => {
            if x.size() != y.size() {
                if x.size() > y.size() {
                    x
                } else {
                    y
                }
            } else if x.is_signed() {
                x
            } else {
                y
            }
        }
    }
}

/// The type that holds values of both `a` and `b`, if any.
pub fn join(a: Ty, b: Ty) -> Option<Ty> {
    match (a, b) {
        (Ty::Scalar(x), Ty::Scalar(y)) => Some(Ty::Scalar(join_scalar(x, y))),
        (Ty::Vector(x, n), Ty::Vector(y, m)) if n == m => Some(Ty::Vector(join_scalar(x, y), n)),
        _ if a == b => Some(a),
        _ => None,
    }
}

/// The element type of arithmetic on `a` and `b`; `real` forces a floating result
/// (division and powers). Two ints compute in the type the host gives them
/// (`blazar_ops::promote::common_int`: their own type when equal, else int64 when either
/// is 64 bits wide, else int32), so `uint16(0) - int8(5)` is -5 in kernels as on the host.
pub fn arith_scalar(a: Scalar, b: Scalar, real: bool, float: Scalar) -> Scalar {
    use blazar_ops::promote::{common_int, CommonInt};
    let a = if a == Scalar::Bool { Scalar::I32 } else { a };
    let b = if b == Scalar::Bool { Scalar::I32 } else { b };
    let j = if a.is_int() && b.is_int() {
        match common_int(a == b, a.size() == 8, b.size() == 8) {
            CommonInt::Same => a,
            CommonInt::I64 => Scalar::I64,
            CommonInt::I32 => Scalar::I32,
        }
    } else {
        join_scalar(a, b)
    };
    if real && !j.is_float() && !j.is_complex() {
        float
    } else {
        j
    }
}
