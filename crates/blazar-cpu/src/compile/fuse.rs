//! Peephole fusion over the register program: a load whose temporary feeds only the
//! next arithmetic instruction becomes one `Inst::LoadBin`, so that a contiguous load
//! combines with the other operand in one lane loop (no temporary written and read).

use crate::program::{CKind, CStmt, Inst, Reg};
use blazar_kir::BinOp;

/// Fuses the code of every statement of `body` (recursively).
pub(super) fn fuse_block(body: &mut [CStmt]) {
    for s in body {
        let outer = stmt_reads(&s.kind);
        match &mut s.kind {
            CKind::Assign { code, .. }
            | CKind::SetLane { code, .. }
            | CKind::Store { code, .. }
            | CKind::Accumulate { code, .. }
            | CKind::Assert { code, .. }
            | CKind::AllocShared { code, .. }
            | CKind::AllocLocal { code, .. } => fuse_code(code, &outer),
            CKind::If {
                code, then, els, ..
            } => {
                fuse_code(code, &outer);
                fuse_block(then);
                fuse_block(els);
            }
            CKind::While { code, body, .. } | CKind::For { code, body, .. } => {
                fuse_code(code, &outer);
                fuse_block(body);
            }
            CKind::Break(_) | CKind::Continue(_) | CKind::Barrier | CKind::Return => {}
        }
    }
}

/// The registers a statement reads outside its code (its body excluded).
fn stmt_reads(k: &CKind) -> Vec<Reg> {
    match k {
        CKind::Assign { src, .. } => src.clone(),
        CKind::SetLane { dst, lane, val, .. } => dst.iter().copied().chain([*lane, *val]).collect(),
        CKind::Store { idx, val, .. } => idx.iter().copied().chain([*val]).collect(),
        CKind::Accumulate { val, .. } => vec![*val],
        CKind::If { cond, .. } | CKind::While { cond, .. } | CKind::Assert { cond, .. } => {
            vec![*cond]
        }
        CKind::For {
            var,
            start,
            step,
            end,
            ..
        } => vec![*var, *start, *step, *end],
        CKind::AllocShared { dims, .. } | CKind::AllocLocal { dims, .. } => dims.clone(),
        CKind::Break(_) | CKind::Continue(_) | CKind::Barrier | CKind::Return => vec![],
    }
}

/// Reads of `r` by `code` (the slow code of loads included) and by `outer`.
fn uses(code: &[Inst], outer: &[Reg], r: Reg) -> usize {
    fn count(code: &[Inst], r: Reg) -> usize {
        code.iter()
            .map(|i| {
                let slow = match i {
                    Inst::Load { slow, .. } => count(slow, r),
                    _ => 0,
                };
                slow + i.reads().iter().filter(|&&x| x == r).count()
            })
            .sum()
    }
    count(code, r) + outer.iter().filter(|&&x| x == r).count()
}

fn fuse_code(code: &mut Vec<Inst>, outer: &[Reg]) {
    let mut k = 0;
    while k + 1 < code.len() {
        let fused = match (&code[k], &code[k + 1]) {
            (
                Inst::Load {
                    d: t,
                    uniform: false,
                    ..
                },
                Inst::Binary { op, d, a, b },
            ) if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul)
                && (a == t) != (b == t)
                && d != t
                && d != a
                && d != b
                && uses(code, outer, *t) == 1 =>
            {
                Some((*op, *d, if a == t { *b } else { *a }, a == t))
            }
            _ => None,
        };
        if let Some((op, d, other, load_first)) = fused {
            let load = code.remove(k);
            code[k] = Inst::LoadBin {
                op,
                d,
                other,
                load_first,
                load: Box::new(load),
            };
        }
        k += 1;
    }
}
