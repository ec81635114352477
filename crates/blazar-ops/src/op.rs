//! Element-wise operators: the operators of kernel code (KIR) and of fused regions
//! (AIR), and the two-operand operations AIR nodes compute.

use crate::MathFn;

/// One-operand operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Not,
    BitNot,
}

/// Two-operand operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Division; on ints it truncates toward zero (lowering makes `int / int` real).
    Div,
    Pow,
    /// `mod`: remainder with the sign of the dividend (C `fmod` / `%`).
    Rem,
    Min,
    Max,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    And,
    Or,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
}

impl UnOp {
    /// The operator as Quasar source writes it (bit negation: the builtin's name).
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Not => "!",
            UnOp::BitNot => "not",
        }
    }
}

impl BinOp {
    /// The operator as Quasar source writes it: the operator, or for an operation that
    /// only a builtin names, the builtin's name (`mod`, `min`, `and`, `shl`, ...).
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Pow => "^",
            BinOp::Rem => "mod",
            BinOp::Min => "min",
            BinOp::Max => "max",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::BitAnd => "and",
            BinOp::BitOr => "or",
            BinOp::BitXor => "xor",
            BinOp::Shl => "shl",
            BinOp::Shr => "shr",
        }
    }

    /// The operator a two-argument builtin names (`min max mod pow and or xor shl shr`).
    pub fn from_builtin(name: &str) -> Option<BinOp> {
        Some(match name {
            "min" => BinOp::Min,
            "max" => BinOp::Max,
            "mod" => BinOp::Rem,
            "pow" => BinOp::Pow,
            "and" => BinOp::BitAnd,
            "or" => BinOp::BitOr,
            "xor" => BinOp::BitXor,
            "shl" => BinOp::Shl,
            "shr" => BinOp::Shr,
            _ => return None,
        })
    }

    /// Bit operations: ints only, and not fused by AIR.
    pub fn is_bitwise(self) -> bool {
        matches!(
            self,
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
        )
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge
        )
    }
}

/// An element-wise operation of two operands: an operator or a math function of two
/// arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binary {
    Op(BinOp),
    Math(MathFn),
}
