//! Marks the statements that matter to the random schedule inside a block: those that
//! touch shared or global memory (where the block's threads may part) and those that
//! hold a barrier or a shared allocation (where parted threads must meet again).
//!
//! Under `--schedule random` the executor (`exec/split.rs`) may, before a statement
//! marked `touches`, split the active threads of a block into two groups that run the
//! statements up to the next `fence` one group after the other. The marks are
//! computed once per compiled kernel; the default schedule never reads them.

use crate::program::{CKind, CStmt, Inst};
use blazar_kir::{ArrayTy, Space};

/// Marks every statement of `body` (recursively); returns whether the block as a whole
/// touches memory and whether it holds a fence.
pub(super) fn mark_block(body: &mut [CStmt], arrays: &[ArrayTy]) -> (bool, bool) {
    let (mut touches, mut fence) = (false, false);
    for s in body {
        let (t, f) = mark(s, arrays);
        s.touches = t;
        s.fence = f;
        touches |= t;
        fence |= f;
    }
    (touches, fence)
}

/// Whether array slot `arr` lives in shared or global memory (not per-thread memory).
fn visible(arrays: &[ArrayTy], arr: u32) -> bool {
    arrays
        .get(arr as usize)
        .is_some_and(|a| a.space != Space::Local)
}

/// Whether `code` loads from shared or global memory.
fn loads(code: &[Inst], arrays: &[ArrayTy]) -> bool {
    code.iter().any(|i| match i {
        Inst::Load { arr, slow, .. } => visible(arrays, *arr) || loads(slow, arrays),
        Inst::LoadBin { load, .. } => loads(std::slice::from_ref(load), arrays),
        _ => false,
    })
}

/// `(touches, fence)` of one statement, marking its nested blocks.
fn mark(s: &mut CStmt, arrays: &[ArrayTy]) -> (bool, bool) {
    match &mut s.kind {
        CKind::Assign { code, .. }
        | CKind::SetLane { code, .. }
        | CKind::Accumulate { code, .. }
        | CKind::Assert { code, .. }
        | CKind::AllocLocal { code, .. } => (loads(code, arrays), false),
        CKind::Store {
            code, arr, slow, ..
        } => (
            visible(arrays, *arr) || loads(code, arrays) || loads(slow, arrays),
            false,
        ),
        CKind::AllocShared { code, .. } => (loads(code, arrays), true),
        CKind::Barrier => (false, true),
        CKind::If {
            code, then, els, ..
        } => {
            let (t1, f1) = mark_block(then, arrays);
            let (t2, f2) = mark_block(els, arrays);
            (loads(code, arrays) || t1 || t2, f1 || f2)
        }
        CKind::While { code, body, .. } | CKind::For { code, body, .. } => {
            let (t, f) = mark_block(body, arrays);
            (loads(code, arrays) || t, f)
        }
        CKind::Break(_) | CKind::Continue(_) | CKind::Return => (false, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::CStmt;

    fn stmt(kind: CKind) -> CStmt {
        CStmt {
            kind,
            line: 1,
            exits: false,
            touches: false,
            fence: false,
        }
    }

    fn store(arr: u32) -> CStmt {
        stmt(CKind::Store {
            code: vec![],
            arr,
            idx: Box::new([]),
            pos: false,
            val: 0,
            op: None,
            affine: None,
            slow: vec![],
            at: Default::default(),
        })
    }

    #[test]
    fn stores_touch_barriers_fence_and_marks_climb_out_of_loops() {
        let ty = |space| ArrayTy {
            elem: blazar_kir::Scalar::F32,
            rank: 1,
            read: Default::default(),
            write: Default::default(),
            is_const: false,
            space,
        };
        let arrays = [ty(Space::Global), ty(Space::Local)];
        let mut body = vec![
            store(1),
            stmt(CKind::While {
                code: vec![],
                cond: 0,
                body: vec![store(0), stmt(CKind::Barrier)],
                depth: 0,
            }),
            store(0),
        ];
        let (t, f) = mark_block(&mut body, &arrays);
        assert!(t && f);
        let marks: Vec<_> = body.iter().map(|s| (s.touches, s.fence)).collect();
        assert_eq!(marks, [(false, false), (true, true), (true, false)]);
        let CKind::While { body: inner, .. } = &body[1].kind else {
            unreachable!()
        };
        assert_eq!((inner[0].touches, inner[1].fence), (true, true));
    }
}
