//! Combining the partial outputs of a launch split over several devices: each band's
//! kernel output holds what its rows contributed (`+=` of its elements, their minimum,
//! ...), and the launch's output is the partials combined by the output's operator, as
//! one device would have combined the rows' contributions.

use blazar_kir::{AtomicOp, Output, Scalar};
use blazar_launch::KValue;

/// `a` and `b`, two partials of `out`, combined (`None` for operators that do not
/// combine: see [`crate::split::combinable`]).
pub fn combine(out: &Output, a: &KValue, b: &KValue) -> Option<KValue> {
    use AtomicOp as O;
    let ty = out.ty;
    Some(match (a, b) {
        (KValue::Float(x), KValue::Float(y)) => KValue::Float(real(
            ty,
            match out.op {
                // `-=` accumulates the negated sum: partials add.
                O::Add | O::Sub => x + y,
                O::Mul => x * y,
                O::Min => x.min(*y),
                O::Max => x.max(*y),
                _ => return None,
            },
        )),
        (KValue::Complex(ar, ai), KValue::Complex(br, bi)) => {
            let (r, i) = match out.op {
                O::Add | O::Sub => (ar + br, ai + bi),
                O::Mul => (ar * br - ai * bi, ar * bi + ai * br),
                _ => return None,
            };
            KValue::Complex(real(ty, r), real(ty, i))
        }
        (KValue::Int(x), KValue::Int(y)) => {
            let signed = !matches!(ty, Scalar::U8 | Scalar::U16 | Scalar::U32 | Scalar::U64);
            KValue::Int(int(
                ty,
                match out.op {
                    O::Add | O::Sub => x.wrapping_add(*y),
                    O::Mul => x.wrapping_mul(*y),
                    O::Min if signed => *x.min(y),
                    O::Max if signed => *x.max(y),
                    O::Min => (*x as u64).min(*y as u64) as i64,
                    O::Max => (*x as u64).max(*y as u64) as i64,
                    O::And => x & y,
                    O::Or => x | y,
                    O::Xor => x ^ y,
                    _ => return None,
                },
            ))
        }
        (KValue::Bool(x), KValue::Bool(y)) => KValue::Bool(match out.op {
            O::And | O::Min | O::Mul => *x && *y,
            O::Or | O::Max | O::Add => *x || *y,
            O::Xor => x ^ y,
            _ => return None,
        }),
        _ => return None,
    })
}

/// A real result in the output's precision.
fn real(ty: Scalar, x: f64) -> f64 {
    match ty {
        Scalar::F32 | Scalar::C32 => x as f32 as f64,
        _ => x,
    }
}

/// An integer result wrapped to the output's width.
fn int(ty: Scalar, x: i64) -> i64 {
    match ty {
        Scalar::I8 => x as i8 as i64,
        Scalar::I16 => x as i16 as i64,
        Scalar::I32 => x as i32 as i64,
        Scalar::U8 => x as u8 as i64,
        Scalar::U16 => x as u16 as i64,
        Scalar::U32 => x as u32 as i64,
        _ => x,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(op: AtomicOp, ty: Scalar) -> Output {
        Output {
            name: "o".into(),
            ty,
            op,
        }
    }

    #[test]
    fn partials_combine_by_the_outputs_operator() {
        let sum = out(AtomicOp::Add, Scalar::F64);
        assert_eq!(
            combine(&sum, &KValue::Float(1.5), &KValue::Float(2.0)),
            Some(KValue::Float(3.5))
        );
        let max = out(AtomicOp::Max, Scalar::I32);
        assert_eq!(
            combine(&max, &KValue::Int(-3), &KValue::Int(7)),
            Some(KValue::Int(7))
        );
        let wrap = out(AtomicOp::Add, Scalar::U8);
        assert_eq!(
            combine(&wrap, &KValue::Int(200), &KValue::Int(100)),
            Some(KValue::Int(44))
        );
        let single = out(AtomicOp::Add, Scalar::F32);
        let KValue::Float(x) = combine(&single, &KValue::Float(0.1), &KValue::Float(0.2)).unwrap()
        else {
            panic!()
        };
        assert_eq!(x, (0.1f64 + 0.2) as f32 as f64);
        assert_eq!(
            combine(
                &out(AtomicOp::Div, Scalar::F64),
                &KValue::Float(1.0),
                &KValue::Float(2.0)
            ),
            None
        );
    }
}
