//! The value of an integer or boolean expression known before a launch, computed as
//! the generated code and the CPU executor compute it. The `fold` pass of
//! `blazar-passes` replaces constant subexpressions with it; the CUDA dialect also
//! evaluates under a fixed block shape, where block size asserts
//! (`assert(blkdim <= 1024)`) that hold drop out and shared arrays sized by the block
//! (`shared(blkdim)`) become static, so the kernel cannot fail and its launches need no
//! error read-back.

use crate::{BinOp, Const, Expr, ExprKind, Special, Ty, UnOp};

/// The value of integer (or boolean, as 0/1) expression `e` when it is known before
/// the launch: constants, `blkdim` (and its lanes) under a fixed CUDA block `block`
/// for a kernel of rank `rank`, and arithmetic and comparisons of those. `None` when
/// it is not known or would leave its type's range.
pub fn const_int(e: &Expr, block: Option<[u32; 3]>, rank: u8) -> Option<i64> {
    let f = |x: &Expr| const_int(x, block, rank);
    let v = match &e.kind {
        ExprKind::Const(Const::Int(v)) => *v,
        ExprKind::Const(Const::Bool(b)) => *b as i64,
        ExprKind::Special(Special::BlkDim) if rank <= 1 => block?[0] as i64,
        ExprKind::Lane(v, lane) if matches!(v.kind, ExprKind::Special(Special::BlkDim)) => {
            let c = f(lane)?;
            let r = rank as i64;
            if !(2..=3).contains(&r) || !(0..r).contains(&c) {
                return None;
            }
            block?[(r - 1 - c) as usize] as i64
        }
        ExprKind::Cast(a) if is_int(&a.ty) => f(a)?,
        ExprKind::Unary(UnOp::Neg, a) => f(a)?.checked_neg()?,
        ExprKind::Unary(UnOp::Not, a) => (f(a)? == 0) as i64,
        ExprKind::Binary(op, a, b) if is_int(&a.ty) && is_int(&b.ty) => {
            let (x, y) = (f(a)?, f(b)?);
            let logical = matches!(
                op,
                BinOp::And
                    | BinOp::Or
                    | BinOp::Eq
                    | BinOp::Ne
                    | BinOp::Lt
                    | BinOp::Gt
                    | BinOp::Le
                    | BinOp::Ge
            );
            // Arithmetic on booleans is not generated as integer arithmetic.
            if !logical && (is_bool(&a.ty) || is_bool(&b.ty)) {
                return None;
            }
            match op {
                BinOp::Add => x.checked_add(y)?,
                BinOp::Sub => x.checked_sub(y)?,
                BinOp::Mul => x.checked_mul(y)?,
                // As `bz_div`/`bz_rem`: truncating, and 0 for a zero divisor.
                BinOp::Div if y == 0 => 0,
                BinOp::Div => x.checked_div(y)?,
                BinOp::Rem if y == 0 => 0,
                BinOp::Rem => x.checked_rem(y)?,
                BinOp::Min => x.min(y),
                BinOp::Max => x.max(y),
                BinOp::Eq => (x == y) as i64,
                BinOp::Ne => (x != y) as i64,
                BinOp::Lt => (x < y) as i64,
                BinOp::Gt => (x > y) as i64,
                BinOp::Le => (x <= y) as i64,
                BinOp::Ge => (x >= y) as i64,
                BinOp::And => (x != 0 && y != 0) as i64,
                BinOp::Or => (x != 0 || y != 0) as i64,
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                // As `bz_shl`/`bz_shr`: a negative count shifts the other way, a count
                // of the width or more gives 0 (-1 for `>>` of a negative value), `>>`
                // is arithmetic on signed types (unsigned operands are non-negative).
                BinOp::Shl | BinOp::Shr => shift(*op, x, y, (width_mask(&a.ty)? + 1) as u32)?,
                _ => return None,
            }
        }
        _ => return None,
    };
    // Within the expression's own type (C arithmetic would wrap where i64 does not).
    let fits = match e.ty {
        Ty::Scalar(s) if s.is_int() && s.size() < 8 => {
            let bits = 8 * s.size() as u32;
            if s.is_signed() {
                v >= -(1i64 << (bits - 1)) && v < (1i64 << (bits - 1))
            } else {
                v >= 0 && v < (1i64 << bits)
            }
        }
        Ty::Scalar(s) if s.is_int() => s.is_signed() || v >= 0,
        Ty::Scalar(crate::Scalar::Bool) => v == 0 || v == 1,
        _ => false,
    };
    fits.then_some(v)
}

/// `x << y` or `x >> y` on a `bits`-wide integer as `bz_shl`/`bz_shr` compute it (and
/// the CPU executor and host code): a negative count shifts the other way, a count of
/// `bits` or more gives 0 (-1 for `>>` of a negative value), `>>` is arithmetic; `None`
/// where `<<` overflows i64.
pub fn shift(op: BinOp, x: i64, y: i64, bits: u32) -> Option<i64> {
    let m = y.unsigned_abs();
    let left = (op == BinOp::Shl) == (y >= 0);
    Some(if m >= u64::from(bits) {
        if !left && x < 0 {
            -1
        } else {
            0
        }
    } else if left {
        x.checked_mul(1i64.checked_shl(m as u32)?)?
    } else {
        x >> m
    })
}

/// The shift-count mask of integer type `t` (bits - 1).
fn width_mask(t: &Ty) -> Option<i64> {
    match t {
        Ty::Scalar(s) if s.is_int() => Some(8 * s.size() as i64 - 1),
        _ => None,
    }
}

fn is_bool(t: &Ty) -> bool {
    *t == Ty::Scalar(crate::Scalar::Bool)
}

fn is_int(t: &Ty) -> bool {
    matches!(t, Ty::Scalar(s) if s.is_int() || *s == crate::Scalar::Bool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scalar;

    fn int(v: i64) -> Expr {
        Expr {
            kind: ExprKind::Const(Const::Int(v)),
            ty: Ty::Scalar(Scalar::I32),
        }
    }

    fn bin(op: BinOp, a: Expr, b: Expr, ty: Scalar) -> Expr {
        Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty: Ty::Scalar(ty),
        }
    }

    #[test]
    fn block_extents_fold_under_a_fixed_block() {
        let blkdim = Expr {
            kind: ExprKind::Special(Special::BlkDim),
            ty: Ty::Scalar(Scalar::I32),
        };
        let cond = bin(BinOp::Le, blkdim.clone(), int(1024), Scalar::Bool);
        assert_eq!(const_int(&cond, Some([256, 1, 1]), 1), Some(1));
        assert_eq!(const_int(&cond, Some([2048, 1, 1]), 1), Some(0));
        assert_eq!(const_int(&cond, None, 1), None, "no block: not known");
        let twice = bin(BinOp::Mul, blkdim, int(2), Scalar::I32);
        assert_eq!(const_int(&twice, Some([128, 1, 1]), 1), Some(256));
        // Lane 0 of a 2-d kernel's blkdim is CUDA's y extent.
        let lane = Expr {
            kind: ExprKind::Lane(
                Box::new(Expr {
                    kind: ExprKind::Special(Special::BlkDim),
                    ty: Ty::Vector(Scalar::I32, 2),
                }),
                Box::new(int(0)),
            ),
            ty: Ty::Scalar(Scalar::I32),
        };
        assert_eq!(const_int(&lane, Some([32, 8, 1]), 2), Some(8));
    }

    #[test]
    fn shifts_and_divisions_fold_as_generated() {
        let t = Scalar::I32;
        assert_eq!(
            const_int(&bin(BinOp::Shr, int(2048), int(5), t), None, 1),
            Some(64)
        );
        assert_eq!(
            const_int(&bin(BinOp::Shr, int(-64), int(3), t), None, 1),
            Some(-8)
        );
        assert_eq!(
            const_int(&bin(BinOp::Shl, int(3), int(33), t), None, 1),
            Some(0)
        );
        assert_eq!(
            const_int(&bin(BinOp::Shl, int(8), int(-2), t), None, 1),
            Some(2)
        );
        assert_eq!(
            const_int(&bin(BinOp::Shr, int(1), int(-3), t), None, 1),
            Some(8)
        );
        assert_eq!(
            const_int(&bin(BinOp::Shr, int(-5), int(40), t), None, 1),
            Some(-1)
        );
        assert_eq!(
            const_int(&bin(BinOp::Shl, int(1), int(31), t), None, 1),
            None
        );
        assert_eq!(
            const_int(&bin(BinOp::BitAnd, int(13), int(6), t), None, 1),
            Some(4)
        );
        assert_eq!(
            const_int(&bin(BinOp::Rem, int(-7), int(2), t), None, 1),
            Some(-1)
        );
        assert_eq!(
            const_int(&bin(BinOp::Div, int(-7), int(2), t), None, 1),
            Some(-3)
        );
        assert_eq!(
            const_int(&bin(BinOp::Rem, int(7), int(0), t), None, 1),
            Some(0)
        );
    }

    #[test]
    fn arithmetic_on_booleans_is_not_folded() {
        let t = Expr {
            kind: ExprKind::Const(Const::Bool(true)),
            ty: Ty::Scalar(Scalar::Bool),
        };
        let rem = bin(BinOp::Rem, t.clone(), t.clone(), Scalar::Bool);
        assert_eq!(const_int(&rem, None, 1), None);
        let and = bin(BinOp::And, t.clone(), t, Scalar::Bool);
        assert_eq!(const_int(&and, None, 1), Some(1));
    }

    #[test]
    fn overflow_in_the_type_is_not_folded() {
        let big = bin(BinOp::Mul, int(1 << 20), int(1 << 20), Scalar::I32);
        assert_eq!(const_int(&big, None, 1), None);
    }
}
