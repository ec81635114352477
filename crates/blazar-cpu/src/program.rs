//! The register program: what `compile` makes of a KIR kernel and `exec` runs.
//!
//! Every value lives in a virtual register holding one lane per thread of a work item.
//! Expressions become flat lists of pure instructions ([`Inst`]) writing fresh
//! registers; statements keep KIR's structured control flow ([`CStmt`]) so that the
//! executor can run them under execution masks. Vectors are lists of scalar registers.

use crate::values::KValue;
use blazar_kir::{ArrayTy, AtomicOp, BinOp, Fill, MathFn, Output, Scalar, UnOp};

pub(crate) type Reg = u32;

/// What a register holds, which decides when it is (re)initialised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegKind {
    /// An expression result, dead after its statement.
    Temp,
    /// A kernel variable: zeroed at the start of each work item.
    Var,
    /// A variable bound to a parameter: set from the argument.
    Param,
    /// A constant: filled once per scratch.
    Const,
    /// A component of `pos`, `blkpos`, ...: computed per work item.
    Special,
}

/// A pure instruction over the lanes of a work item (loads read memory).
#[derive(Clone, Debug)]
pub(crate) enum Inst {
    Unary {
        op: UnOp,
        d: Reg,
        a: Reg,
    },
    Binary {
        op: BinOp,
        d: Reg,
        a: Reg,
        b: Reg,
    },
    Cast {
        d: Reg,
        a: Reg,
    },
    Select {
        d: Reg,
        c: Reg,
        a: Reg,
        b: Reg,
    },
    Math {
        f: MathFn,
        d: Reg,
        a: Reg,
        b: Option<Reg>,
    },
    /// `d = arr[idx]`; `pos` when the index is exactly the `pos` special. An affine
    /// index (`pos[c] + k + u` or `k + u` per component, see [`Term`]) has its terms in
    /// `affine`, and `slow` computes `idx` only when the contiguous path does not
    /// apply. A `uniform` index (the same on all active lanes) is read once.
    Load {
        arr: u32,
        d: Reg,
        idx: Box<[Reg]>,
        pos: bool,
        affine: Option<Box<[Term]>>,
        uniform: bool,
        slow: Box<[Inst]>,
        /// Where the access is written (a `'checked` miss reports it).
        at: blazar_kir::Loc,
    },
    Size {
        arr: u32,
        dim: u8,
        d: Reg,
    },
    Numel {
        arr: u32,
        d: Reg,
    },
    /// `d = srcs[idx]` (0 outside).
    LaneDyn {
        d: Reg,
        srcs: Box<[Reg]>,
        idx: Reg,
    },
    /// Narrows the mask that loads see (lazy `?:`, `&&`, `||` around checked loads).
    MaskPush {
        cond: Reg,
        neg: bool,
    },
    MaskPop,
    /// `d = other op load` (`load_first`: `d = load op other`) where `load` is an
    /// `Inst::Load` into a temporary read only here: a contiguous global load combines
    /// with `other` in one lane loop, any other load runs unfused.
    LoadBin {
        op: BinOp,
        d: Reg,
        other: Reg,
        load_first: bool,
        load: Box<Inst>,
    },
}

/// One component of an affine index: `pos[c]` (if `pos`) + `d` + uniform `u`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Term {
    pub pos: bool,
    pub d: i64,
    pub u: Option<Reg>,
}

/// Special index registers of one kind (`pos`, `blkpos`, ...), one per component.
pub(crate) const SPECIAL_KINDS: usize = 5;

#[derive(Clone, Debug)]
pub(crate) struct CStmt {
    pub kind: CKind,
    pub line: u32,
    /// May remove lanes from the enclosing mask (break, continue, return inside).
    pub exits: bool,
    /// Reads or writes shared or global memory, here or in a nested statement: the
    /// random schedule may split the block's threads before it (`exec/split.rs`).
    pub touches: bool,
    /// Holds a barrier or a shared allocation, here or nested: the random schedule's
    /// split threads meet again before it.
    pub fence: bool,
}

#[derive(Clone, Debug)]
pub(crate) enum CKind {
    Assign {
        code: Vec<Inst>,
        dst: Vec<Reg>,
        src: Vec<Reg>,
        /// `src[k]` is a temp used once: a full-mask assignment may swap registers.
        swap: Vec<bool>,
    },
    SetLane {
        code: Vec<Inst>,
        dst: Vec<Reg>,
        lane: Reg,
        val: Reg,
    },
    Store {
        code: Vec<Inst>,
        arr: u32,
        idx: Box<[Reg]>,
        pos: bool,
        val: Reg,
        op: Option<AtomicOp>,
        /// An affine index (plain stores to global arrays) as for `Inst::Load`; `slow`
        /// then computes `idx` when the contiguous path does not apply.
        affine: Option<Box<[Term]>>,
        slow: Vec<Inst>,
        /// Where the access is written (a `'checked` miss reports it).
        at: blazar_kir::Loc,
    },
    Accumulate {
        code: Vec<Inst>,
        out: u32,
        val: Reg,
    },
    If {
        code: Vec<Inst>,
        cond: Reg,
        then: Vec<CStmt>,
        els: Vec<CStmt>,
    },
    While {
        code: Vec<Inst>,
        cond: Reg,
        body: Vec<CStmt>,
        depth: usize,
    },
    For {
        code: Vec<Inst>,
        var: Reg,
        start: Reg,
        step: Reg,
        end: Reg,
        body: Vec<CStmt>,
        depth: usize,
        /// Start, step and end are uniform and no `break`/`continue` targets the loop:
        /// all active lanes iterate together.
        uniform: bool,
    },
    Break(usize),
    Continue(usize),
    Barrier,
    Assert {
        code: Vec<Inst>,
        cond: Reg,
    },
    Return,
    AllocShared {
        code: Vec<Inst>,
        arr: u32,
        dims: Vec<Reg>,
        zero: bool,
    },
    AllocLocal {
        code: Vec<Inst>,
        arr: u32,
        dims: Vec<Reg>,
        fill: Fill,
    },
}

/// How a kernel parameter is bound.
#[derive(Clone, Debug)]
pub(crate) enum ParamBind {
    /// Variable registers (one per component); `assigned` when the kernel writes them.
    Var {
        regs: Vec<Reg>,
        assigned: bool,
    },
    Array(u32),
}

/// A compiled kernel.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    pub reg_types: Vec<Scalar>,
    pub reg_kinds: Vec<RegKind>,
    pub consts: Vec<(Reg, KValue)>,
    pub params: Vec<ParamBind>,
    /// Registers of `pos`, `blkpos`, `blkdim`, `blkidx`, `blkcnt` (kernel-rank
    /// components, I32), where used.
    pub specials: [Option<Vec<Reg>>; SPECIAL_KINDS],
    pub arrays: Vec<ArrayTy>,
    /// Per array slot: some statement stores to or updates it.
    pub written: Vec<bool>,
    pub outputs: Vec<Output>,
    pub body: Vec<CStmt>,
    /// Runs one block per work item (barriers or shared memory).
    pub blocky: bool,
    pub loop_depth: usize,
    pub kernel_rank: usize,
    /// Some load has a stencil index: work items record the range of `pos`.
    pub has_stencil: bool,
    /// Per KIR variable: its name and registers (for observers).
    pub var_names: Vec<String>,
    pub var_regs: Vec<Vec<Reg>>,
    /// Per array slot: its name.
    pub array_names: Vec<String>,
}

impl Inst {
    /// The registers this instruction reads (the `slow` code of loads excluded).
    pub(crate) fn reads(&self) -> Vec<Reg> {
        match self {
            Inst::Unary { a, .. } | Inst::Cast { a, .. } => vec![*a],
            Inst::Binary { a, b, .. } => vec![*a, *b],
            Inst::Select { c, a, b, .. } => vec![*c, *a, *b],
            Inst::Math { a, b, .. } => std::iter::once(*a).chain(*b).collect(),
            Inst::Load { idx, .. } => idx.to_vec(),
            Inst::LoadBin { other, load, .. } => {
                std::iter::once(*other).chain(load.reads()).collect()
            }
            Inst::LaneDyn { srcs, idx, .. } => srcs.iter().copied().chain([*idx]).collect(),
            Inst::MaskPush { cond, .. } => vec![*cond],
            Inst::Size { .. } | Inst::Numel { .. } | Inst::MaskPop => vec![],
        }
    }
}

/// Whether `pos` registers are read only as the exact index of loads and stores that
/// take the contiguous path, or by affine loads (whose slow path fills `pos` on
/// demand), so that a chunk need not compute them; collects the arrays so accessed.
pub(crate) fn pos_fast_only(body: &[CStmt], pos: &[Reg], arrays: &mut Vec<u32>) -> bool {
    let hit = |rs: &[Reg]| rs.iter().any(|r| pos.contains(r));
    let code_ok = |code: &[Inst], arrays: &mut Vec<u32>| {
        let mut flat: Vec<&Inst> = Vec::with_capacity(code.len());
        for i in code {
            match i {
                Inst::LoadBin { other, load, .. } => {
                    if hit(&[*other]) {
                        return false;
                    }
                    flat.push(load);
                }
                i => flat.push(i),
            }
        }
        flat.into_iter().all(|i| match i {
            Inst::Load {
                arr,
                idx,
                pos: p,
                affine,
                ..
            } => {
                let zero = affine.as_ref().is_some_and(|s| {
                    s.iter().all(|t| {
                        *t == Term {
                            pos: true,
                            d: 0,
                            u: None,
                        }
                    })
                });
                if (*p || zero) && &idx[..] == pos {
                    arrays.push(*arr);
                    true
                } else {
                    // The slow path of an affine load fills `pos` on demand.
                    affine.is_some() || !hit(idx)
                }
            }
            i => !hit(&i.reads()),
        })
    };
    body.iter().all(|s| match &s.kind {
        CKind::Assign { code, src, .. } => code_ok(code, arrays) && !hit(src),
        CKind::SetLane {
            code, lane, val, ..
        } => code_ok(code, arrays) && !hit(&[*lane, *val]),
        CKind::Store {
            code,
            arr,
            idx,
            pos: p,
            val,
            op,
            affine,
            ..
        } => {
            let fast = *p && op.is_none() && &idx[..] == pos;
            if fast {
                arrays.push(*arr);
            }
            // The slow path of an affine store fills `pos` on demand.
            code_ok(code, arrays) && !hit(&[*val]) && (fast || affine.is_some() || !hit(idx))
        }
        CKind::Accumulate { code, val, .. } => code_ok(code, arrays) && !hit(&[*val]),
        CKind::If {
            code,
            cond,
            then,
            els,
        } => {
            code_ok(code, arrays)
                && !hit(&[*cond])
                && pos_fast_only(then, pos, arrays)
                && pos_fast_only(els, pos, arrays)
        }
        CKind::While {
            code, cond, body, ..
        } => code_ok(code, arrays) && !hit(&[*cond]) && pos_fast_only(body, pos, arrays),
        CKind::For {
            code,
            start,
            step,
            end,
            body,
            ..
        } => {
            code_ok(code, arrays)
                && !hit(&[*start, *step, *end])
                && pos_fast_only(body, pos, arrays)
        }
        CKind::Assert { code, cond } => code_ok(code, arrays) && !hit(&[*cond]),
        CKind::AllocShared { code, dims, .. } | CKind::AllocLocal { code, dims, .. } => {
            code_ok(code, arrays) && !hit(dims)
        }
        CKind::Break(_) | CKind::Continue(_) | CKind::Barrier | CKind::Return => true,
    })
}
