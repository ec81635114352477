//! Kernel facts: block-freedom and the row-level range facts of array accesses.

mod common;

use blazar_kir::affine::{int64, Aff};
use blazar_kir::*;
use common::*;

#[test]
fn block_free_is_a_fact() {
    assert!(gamma().facts().block_free);
    assert!(!reduction().facts().block_free);
}

#[test]
fn indices_that_are_pos_have_unit_forms() {
    let k = gamma();
    let ranges = k.ranges();
    // The load of `y[pos]` and the store into it.
    assert_eq!(ranges.accesses.len(), 2);
    let store = &k.body[0] as *const Stmt as usize;
    let forms = ranges.forms(store).expect("the store has forms");
    for (c, f) in forms.iter().enumerate() {
        let mut coef = [0; 4];
        coef[c] = 1;
        let want = Aff {
            coef,
            rest: int64(0),
            lo: int64(0),
            hi: int64(0),
            conds: vec![],
        };
        assert_eq!(*f, want, "index {c}");
    }
}

#[test]
fn a_clone_computes_its_own_range_facts() {
    let k = gamma();
    assert_eq!(k.ranges().accesses.len(), 2);
    let c = k.clone();
    let store = &c.body[0] as *const Stmt as usize;
    assert!(c.ranges().forms(store).is_some());
}

#[test]
fn a_counted_loop_variable_has_bounds_and_a_no_wrap_condition() {
    // for i = 0 .. size(y, 0) step 1: y[i, pos[1], pos[2]] = 0
    let mut k = gamma();
    let i = k.vars.len() as VarId;
    k.vars.push(vdecl("i", Ty::I32));
    let pos = special(Special::Pos, Ty::Vector(Scalar::I32, 3));
    let size = e(ExprKind::Size { arr: 0, dim: 0 }, Ty::I32);
    k.body = vec![s(
        StmtKind::For {
            var: i,
            start: Expr::int(0),
            step: Expr::int(1),
            end: size,
            body: vec![s(
                StmtKind::Store {
                    arr: 0,
                    index: vec![var(i, Ty::I32), lane(pos.clone(), 1), lane(pos, 2)],
                    value: f32c(0.0),
                    at: Default::default(),
                },
                3,
            )],
        },
        2,
    )];
    let ranges = k.ranges();
    assert!(ranges
        .uniform_for
        .contains(&(&k.body[0] as *const Stmt as usize)));
    let StmtKind::For { body, .. } = &k.body[0].kind else {
        unreachable!()
    };
    let forms = ranges.forms(&body[0] as *const Stmt as usize).unwrap();
    assert_eq!(forms[0].coef, [0; 4]);
    assert_eq!(forms[0].lo, int64(0));
    assert_eq!(forms[0].conds.len(), 1);
    assert!(matches!(
        forms[0].rest.kind,
        ExprKind::Cast(ref v) if v.kind == ExprKind::Var(i)
    ));
}
