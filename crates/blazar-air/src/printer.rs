//! AIR as text (`blazar emit air`): a region's inputs, its nodes in order and its result.
//!
//! ```text
//! region array_line2: rank 2, flat
//!   in0 = array f32, rank 2
//!   in1 = scalar f32
//!   %0: f32 = in0
//!   %1: f32 = in1
//!   %2: f32 = mul %0, %1
//!   result %2
//! ```
//!
//! Inputs are named as the kernel's parameters (`in0`, ...), nodes `%i` by position;
//! every node shows its type. A view lists per dimension of its array how the view's
//! index reaches it; `unit` lists the dimensions of extent 1 (they broadcast).

use crate::region::{Along, Axis, Input, Join, JoinPart, Node, NodeKind, Reduce, Region};
use blazar_kir::printer::math_name;
use blazar_kir::{ReadMode, Scalar};
use blazar_ops::{BinOp, Binary};
use std::fmt::Write;

/// The name of an element-wise binary operation, as printed and in verifier messages:
/// the one place that spells a [`Binary`] (math functions by their table name).
pub fn op_name(op: Binary) -> &'static str {
    match op {
        Binary::Math(f) => math_name(f),
        Binary::Op(op) => match op {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "div",
            BinOp::Pow => "pow",
            BinOp::Rem => "rem",
            BinOp::Min => "min",
            BinOp::Max => "max",
            BinOp::Eq => "eq",
            BinOp::Ne => "ne",
            BinOp::Lt => "lt",
            BinOp::Gt => "gt",
            BinOp::Le => "le",
            BinOp::Ge => "ge",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::BitAnd => "bitand",
            BinOp::BitOr => "bitor",
            BinOp::BitXor => "bitxor",
            BinOp::Shl => "shl",
            BinOp::Shr => "shr",
        },
    }
}

/// The name of a reduction (`sum`, `prod`, `min`, `max`).
pub fn reduce_name(r: Reduce) -> &'static str {
    match r {
        Reduce::Sum => "sum",
        Reduce::Prod => "prod",
        Reduce::Min => "min",
        Reduce::Max => "max",
    }
}

/// The boundary mode of a table read, as the array's access mode is written.
fn read_name(m: ReadMode) -> &'static str {
    match m {
        ReadMode::Zero => "safe",
        ReadMode::Circular => "circular",
        ReadMode::Mirror => "mirror",
        ReadMode::Clamped => "clamped",
        ReadMode::Checked => "checked",
        ReadMode::Unchecked => "unchecked",
    }
}

/// The text of `region`, headed by `name` (the kernel it lowers to), one line per
/// input, node and result, each line ending in a newline.
pub fn print_region(name: &str, region: &Region) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "region {name}: rank {}, {}",
        region.rank,
        if region.flat { "flat" } else { "indexed" }
    );
    for (i, input) in region.inputs.iter().enumerate() {
        let _ = writeln!(out, "  in{i} = {}", print_input(input));
    }
    for (i, node) in region.nodes.iter().enumerate() {
        let _ = writeln!(out, "  %{i}: {} = {}", node.ty.name(), print_node(node));
    }
    let _ = writeln!(out, "  {}", print_result(region));
    out
}

/// One input: its kind, element type, rank and unit dimensions.
pub fn print_input(input: &Input) -> String {
    match input {
        Input::Array { elem, rank, unit } => {
            format!("array {}, rank {rank}{}", elem.name(), units(*unit))
        }
        Input::Scalar(s) => format!("scalar {}", s.name()),
        Input::View {
            elem,
            axes,
            rank,
            unit,
        } => {
            let axes: Vec<String> = axes.iter().map(|a| print_axis(*a)).collect();
            format!(
                "view {}, rank {rank}{}, of [{}]",
                elem.name(),
                units(*unit),
                axes.join(", ")
            )
        }
        Input::Table { elem, rank, read } => {
            format!(
                "table {}, rank {rank}, read {}",
                elem.name(),
                read_name(*read)
            )
        }
        Input::Linear { elem, rank } => format!("linear {}, rank {rank}", elem.name()),
    }
}

/// How a view reaches one dimension of its array.
fn print_axis(a: Axis) -> String {
    match a {
        Axis::Fixed => "fixed".into(),
        Axis::Range(d) => format!("range {d}"),
        Axis::Shift(d) => format!("shift {d}"),
        Axis::Tile(d) => format!("tile {d}"),
        Axis::Rotate(d) => format!("rotate {d}"),
    }
}

/// `, unit [0, 2]` for the dimensions whose bit is set in `unit` (nothing for none).
fn units(unit: u8) -> String {
    if unit == 0 {
        return String::new();
    }
    let dims: Vec<String> = (0..8)
        .filter(|d| unit & (1 << d) != 0)
        .map(|d| d.to_string())
        .collect();
    format!(", unit [{}]", dims.join(", "))
}

/// A node's right-hand side.
pub fn print_node(node: &Node) -> String {
    match &node.kind {
        NodeKind::Input(i) => format!("in{i}"),
        NodeKind::Const(bits) => format!("const {}", print_const(*bits, node.ty)),
        NodeKind::Cast(a) => format!("cast %{a}"),
        NodeKind::Neg(a) => format!("neg %{a}"),
        NodeKind::Not(a) => format!("not %{a}"),
        NodeKind::Binary(op, a, b) => format!("{} %{a}, %{b}", op_name(*op)),
        NodeKind::Math(f, a) => format!("{} %{a}", math_name(*f)),
        NodeKind::Select(c, a, b) => format!("select %{c}, %{a}, %{b}"),
        NodeKind::Gather(t, a) => format!("gather in{t}[%{a}]"),
        NodeKind::Join(j) => print_join(j),
    }
}

/// A constant's value as its type reads its bits.
pub fn print_const(bits: u64, ty: Scalar) -> String {
    match ty {
        Scalar::Bool => (bits != 0).to_string(),
        Scalar::F32 => format!("{:?}", f64::from_bits(bits) as f32),
        Scalar::F64 => format!("{:?}", f64::from_bits(bits)),
        Scalar::U64 => bits.to_string(),
        t if t.is_int() => (bits as i64).to_string(),
        // Not a valid constant (the verifier says so): the raw bits.
        _ => format!("{bits:#x}"),
    }
}

/// `join axis 1, rank 2, unit [0]: %3 at %4 len %5 dims [0, 1]; ...`
fn print_join(j: &Join) -> String {
    let parts: Vec<String> = j
        .parts
        .iter()
        .map(|p| {
            let dims: Vec<String> = p
                .dims
                .iter()
                .map(|&d| {
                    if d == JoinPart::ZERO {
                        "-".to_string()
                    } else {
                        d.to_string()
                    }
                })
                .collect();
            format!(
                "%{} at %{} len %{} dims [{}]",
                p.node,
                p.start,
                p.len,
                dims.join(", ")
            )
        })
        .collect();
    format!(
        "join axis {}, rank {}{}{}: {}",
        j.axis,
        j.rank,
        units(j.unit),
        if j.linear { ", linear" } else { "" },
        parts.join("; ")
    )
}

/// The last line: the root stored, or reduced (in its accumulator type), or reduced
/// along one dimension.
pub fn print_result(region: &Region) -> String {
    let root = region.root;
    match (region.reduce, region.along) {
        (None, _) => format!("result %{root}"),
        (Some((r, acc)), None) => {
            format!("result {}(%{root}) in {}", reduce_name(r), acc.name())
        }
        (Some((r, acc)), Some(a)) => {
            let Along {
                axis,
                mean,
                scan,
                elem,
            } = a;
            let what = match (mean, scan) {
                (true, _) => "mean".to_string(),
                (false, true) => format!("cum{}", reduce_name(r)),
                (false, false) => reduce_name(r).to_string(),
            };
            format!(
                "result {what}(%{root}) along {axis} in {} as {}",
                acc.name(),
                elem.name()
            )
        }
    }
}
