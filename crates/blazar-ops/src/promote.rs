//! Promotion of operand types, as the host evaluator and AIR apply it.

/// The int type two int operands compute in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommonInt {
    /// Both have the same type: that type.
    Same,
    /// Either is 64-bit (signed or not): i64.
    I64,
    /// Otherwise i32.
    I32,
}

/// The int type of an operation on int types `a` and `b`, given whether they are equal
/// and whether each is 64 bits wide.
pub fn common_int(same: bool, a_wide: bool, b_wide: bool) -> CommonInt {
    if same {
        CommonInt::Same
    } else if a_wide || b_wide {
        CommonInt::I64
    } else {
        CommonInt::I32
    }
}
