//! The AIR verifier: structural checks of a finished region, collecting every
//! violation.
//!
//! Checked: the region's rank and root; every input well formed (ranks of 1 to 4,
//! unit bits inside the rank, a view's axes reaching dimensions of the view, element
//! types an array may have) and read by some node; every operand defined before its
//! user; each node's type against its operands (one compute type per operation,
//! comparisons and logic giving `bool`, casts never from complex to real or into
//! `bool`, math functions on the types they take); gathers reading tables and tables
//! read only by gathers; joins of parts of the join's type with int starts and
//! extents; regions with a table or a reshaped array running over one linear index;
//! and a reduction along a dimension of the result. Messages start with `in<i>:`,
//! `%<i>:` or `region:`; the verifier never panics on a malformed region. The
//! interpreter runs it on every new region in debug builds.

use crate::printer::{op_name, print_node};
use crate::region::{Axis, Input, JoinPart, NodeKind, Region};
use blazar_kir::printer::math_name;
use blazar_kir::{MathFn, Scalar};
use blazar_ops::{BinOp, Binary};

/// Checks `region`; on failure returns every violation found, inputs first, then
/// nodes in order, then the result.
pub fn verify(region: &Region) -> Result<(), Vec<String>> {
    let mut v = Verifier {
        r: region,
        errors: Vec::new(),
    };
    v.header();
    for i in 0..region.inputs.len() {
        v.input(i);
    }
    for i in 0..region.nodes.len() {
        if let Err(m) = v.node(i) {
            v.errors
                .push(format!("%{i}: {m} (in `{}`)", print_node(&region.nodes[i])));
        }
    }
    v.result();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

struct Verifier<'a> {
    r: &'a Region,
    errors: Vec<String>,
}

fn need(ok: bool, msg: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(msg())
    }
}

/// A rank an array may have.
fn rank_ok(rank: u8) -> bool {
    (1..=4).contains(&rank)
}

/// Numeric and ordered: ints and reals.
fn ordered(s: Scalar) -> bool {
    s != Scalar::Bool && !s.is_complex()
}

impl Verifier<'_> {
    fn header(&mut self) {
        let r = self.r;
        if !rank_ok(r.rank) {
            self.errors
                .push(format!("region: rank {} is not 1 to 4", r.rank));
        }
        if r.nodes.is_empty() {
            self.errors.push("region: no nodes".into());
        }
    }

    fn input(&mut self, i: usize) {
        let err = |m: String| format!("in{i}: {m}");
        let mut errs = Vec::new();
        let (elem, rank, unit) = match &self.r.inputs[i] {
            Input::Scalar(s) => {
                if !(s.is_int() || s.is_float()) {
                    errs.push(format!("a scalar input of type {}", s.name()));
                }
                (None, None, 0)
            }
            Input::Array { elem, rank, unit } => (Some(*elem), Some(*rank), *unit),
            Input::Linear { elem, rank } | Input::Table { elem, rank, .. } => {
                if !self.r.flat {
                    errs.push("read at one linear index in a region that is not flat".into());
                }
                (Some(*elem), Some(*rank), 0)
            }
            Input::View {
                elem,
                axes,
                rank,
                unit,
            } => {
                if axes.is_empty() || axes.len() > 4 {
                    errs.push(format!("a view of an array of rank {}", axes.len()));
                }
                for (k, a) in axes.iter().enumerate() {
                    if let Axis::Range(d) | Axis::Shift(d) | Axis::Tile(d) | Axis::Rotate(d) = *a {
                        if d >= *rank {
                            errs.push(format!(
                                "axis {k} reads dimension {d} of a view of rank {rank}"
                            ));
                        }
                    }
                }
                if self.r.flat {
                    errs.push("a view in a flat region".into());
                }
                (Some(*elem), Some(*rank), *unit)
            }
        };
        if let Some(rank) = rank {
            if !rank_ok(rank) {
                errs.push(format!("rank {rank} is not 1 to 4"));
            } else if unit >> rank != 0 {
                errs.push(format!("unit bits {unit:#b} outside rank {rank}"));
            }
        }
        if elem == Some(Scalar::Bool) {
            errs.push("an array of bool".into());
        }
        let read = self.r.nodes.iter().any(|n| match n.kind {
            NodeKind::Input(j) | NodeKind::Gather(j, _) => j as usize == i,
            _ => false,
        });
        if !read {
            errs.push("never read".into());
        }
        self.errors.extend(errs.into_iter().map(err));
    }

    /// The type of operand `a` of node `i`, which must come before it.
    fn operand(&self, i: usize, a: u32) -> Result<Scalar, String> {
        need((a as usize) < i, || {
            format!("operand %{a} is not defined before its use")
        })?;
        Ok(self.r.nodes[a as usize].ty)
    }

    fn node(&self, i: usize) -> Result<(), String> {
        let node = &self.r.nodes[i];
        let ty = node.ty;
        let name = ty.name();
        for a in node.kind.operands() {
            self.operand(i, a)?;
        }
        let t = |a: u32| self.r.nodes[a as usize].ty;
        match &node.kind {
            NodeKind::Input(j) => {
                let input = self
                    .r
                    .inputs
                    .get(*j as usize)
                    .ok_or_else(|| format!("reads in{j} of {} inputs", self.r.inputs.len()))?;
                let elem = match input {
                    Input::Scalar(s) => *s,
                    Input::Array { elem, .. }
                    | Input::View { elem, .. }
                    | Input::Linear { elem, .. } => *elem,
                    Input::Table { .. } => {
                        return Err(format!("in{j} is a table, read only by a gather"))
                    }
                };
                need(elem == ty, || {
                    format!("in{j} has type {} but the node is {name}", elem.name())
                })
            }
            NodeKind::Const(bits) => match ty {
                Scalar::Bool => need(*bits <= 1, || format!("a bool constant of {bits}")),
                t if t.is_complex() => Err(format!("a constant of type {name}")),
                _ => Ok(()),
            },
            NodeKind::Cast(a) => {
                need(ty != Scalar::Bool, || "a cast to bool".into())?;
                need(!t(*a).is_complex() || ty.is_complex(), || {
                    format!("a cast of complex {} to {name}", t(*a).name())
                })
            }
            NodeKind::Neg(a) => {
                need(t(*a) == ty, || {
                    format!("negates a {} into a {name}", t(*a).name())
                })?;
                need(ty != Scalar::Bool, || "negates a bool".into())
            }
            NodeKind::Not(a) => need(ty == Scalar::Bool && t(*a) == Scalar::Bool, || {
                format!("not of {} gives bool, not {name}", t(*a).name())
            }),
            NodeKind::Binary(op, a, b) => binary(*op, t(*a), t(*b), ty),
            NodeKind::Math(f, a) => math(*f, t(*a), ty),
            NodeKind::Select(c, a, b) => {
                need(t(*c) == Scalar::Bool, || {
                    format!("the condition is {}, not bool", t(*c).name())
                })?;
                need(t(*a) == ty && t(*b) == ty, || {
                    format!(
                        "branches of types {} and {} give {name}",
                        t(*a).name(),
                        t(*b).name()
                    )
                })
            }
            NodeKind::Gather(j, a) => {
                match self.r.inputs.get(*j as usize) {
                    Some(Input::Table { elem, .. }) => need(*elem == ty, || {
                        format!("gathers {} from in{j} into {name}", elem.name())
                    })?,
                    Some(_) => return Err(format!("gathers from in{j}, not a table")),
                    None => {
                        return Err(format!(
                            "gathers from in{j} of {} inputs",
                            self.r.inputs.len()
                        ))
                    }
                }
                need(t(*a).is_int(), || {
                    format!("the index is {}, not an int", t(*a).name())
                })
            }
            NodeKind::Join(j) => {
                need(rank_ok(j.rank), || format!("a join of rank {}", j.rank))?;
                need(j.axis < j.rank, || {
                    format!("joins along {} in rank {}", j.axis, j.rank)
                })?;
                need(j.unit >> j.rank == 0, || {
                    format!("unit bits {:#b} outside rank {}", j.unit, j.rank)
                })?;
                need(!j.parts.is_empty(), || "a join of no parts".into())?;
                need(j.linear || !self.r.flat, || {
                    "a join that is not in blocks, in a flat region".into()
                })?;
                for (k, p) in j.parts.iter().enumerate() {
                    need(t(p.node) == ty, || {
                        format!("part {k} is {}, not {name}", t(p.node).name())
                    })?;
                    need(t(p.start).is_int() && t(p.len).is_int(), || {
                        format!("part {k} has a start or extent that is not an int")
                    })?;
                    let bad = p.dims.iter().find(|&&d| d != JoinPart::ZERO && d >= j.rank);
                    need(bad.is_none(), || {
                        format!(
                            "part {k} reads dimension {} of rank {}",
                            bad.unwrap(),
                            j.rank
                        )
                    })?;
                }
                Ok(())
            }
        }
    }

    fn result(&mut self) {
        let r = self.r;
        let Some(root) = r.nodes.get(r.root as usize) else {
            self.errors.push(format!(
                "region: the root %{} is not one of its {} nodes",
                r.root,
                r.nodes.len()
            ));
            return;
        };
        if let Some((red, acc)) = r.reduce {
            if !ordered(acc) {
                self.errors.push(format!(
                    "region: a {} accumulated in {}",
                    crate::printer::reduce_name(red),
                    acc.name()
                ));
            }
            if root.ty.is_complex() {
                self.errors
                    .push(format!("region: a reduction of {}", root.ty.name()));
            }
        } else if root.ty == Scalar::Bool {
            self.errors.push("region: a result of bool".into());
        }
        if let Some(a) = r.along {
            if r.reduce.is_none() {
                self.errors
                    .push("region: a reduction along a dimension without a reduction".into());
            }
            if a.axis >= r.rank {
                self.errors.push(format!(
                    "region: a reduction along {} of rank {}",
                    a.axis, r.rank
                ));
            }
            if !ordered(a.elem) {
                self.errors
                    .push(format!("region: a result array of {}", a.elem.name()));
            }
        }
    }
}

/// The typing rule of a binary node: both operands of one type; arithmetic gives it,
/// comparisons and logic give `bool`; a math function of two arguments types as the
/// operation table says (`complex` makes a complex of two reals).
fn binary(op: Binary, a: Scalar, b: Scalar, ty: Scalar) -> Result<(), String> {
    let name = op_name(op);
    need(a == b, || {
        format!("{name} of different types {} and {}", a.name(), b.name())
    })?;
    let (ok, result) = match op {
        Binary::Math(f) if f.arity() == 2 => match blazar_kir::math_result(f, a) {
            Some(r) => (true, Some(r)),
            None => (false, None),
        },
        Binary::Math(_) => return Err(format!("{name} takes one argument (a math node)")),
        Binary::Op(op) => match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Pow => {
                (a != Scalar::Bool, Some(a))
            }
            BinOp::Rem | BinOp::Min | BinOp::Max => (ordered(a), Some(a)),
            BinOp::Eq | BinOp::Ne => (true, Some(Scalar::Bool)),
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => (ordered(a), Some(Scalar::Bool)),
            BinOp::And | BinOp::Or => (a == Scalar::Bool, Some(Scalar::Bool)),
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr => {
                return Err(format!(
                    "{name} is not fused (bit operations stay on the host)"
                ))
            }
        },
    };
    need(ok, || format!("{name} is not defined on {}", a.name()))?;
    need(result == Some(ty), || {
        format!(
            "{name} of {} gives {}, not {}",
            a.name(),
            result.map_or("?", Scalar::name),
            ty.name()
        )
    })
}

/// The typing rule of a one-argument math node, from the operation table.
fn math(f: MathFn, a: Scalar, ty: Scalar) -> Result<(), String> {
    let name = math_name(f);
    if f.arity() != 1 {
        return Err(format!("{name} takes two arguments (a binary node)"));
    }
    let (ok, result) = match blazar_kir::math_result(f, a) {
        Some(r) => (true, r),
        None => (false, a),
    };
    need(ok, || format!("{name} is not defined on {}", a.name()))?;
    need(result == ty, || {
        format!(
            "{name} of {} gives {}, not {}",
            a.name(),
            result.name(),
            ty.name()
        )
    })
}
