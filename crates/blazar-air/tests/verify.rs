//! The AIR verifier: malformed regions are caught, each with a message naming the input
//! or node at fault, and well-formed ones pass.

use blazar_air::{
    verify, Along, Axis, Builder, Input, Node, NodeKind, Prec, Reduce, Region, ScalarArg,
};
use blazar_kir::{MathFn, ReadMode, Scalar};
use blazar_ops::{BinOp, Binary};

fn node(kind: NodeKind, ty: Scalar) -> Node {
    Node { kind, ty }
}

/// `in0 .* in1` over two f32 matrices: a valid region to break.
fn product() -> Region {
    Region {
        inputs: vec![
            Input::Array {
                elem: Scalar::F32,
                rank: 2,
                unit: 0,
            },
            Input::Array {
                elem: Scalar::F32,
                rank: 2,
                unit: 0,
            },
        ],
        nodes: vec![
            node(NodeKind::Input(0), Scalar::F32),
            node(NodeKind::Input(1), Scalar::F32),
            node(NodeKind::Binary(Binary::Op(BinOp::Mul), 0, 1), Scalar::F32),
        ],
        root: 2,
        rank: 2,
        flat: true,
        reduce: None,
        along: None,
    }
}

/// The verifier's errors for `r` (it must reject it).
fn errors(r: &Region) -> Vec<String> {
    match verify(r) {
        Ok(()) => panic!("the verifier accepted a malformed region: {r:?}"),
        Err(e) => e,
    }
}

/// Whether some error starts with `at` and contains `what`.
fn has(errs: &[String], at: &str, what: &str) -> bool {
    errs.iter().any(|e| e.starts_with(at) && e.contains(what))
}

#[test]
fn a_valid_region_passes() {
    assert_eq!(verify(&product()), Ok(()));
}

#[test]
fn an_operand_used_before_it_is_defined() {
    let mut r = product();
    r.nodes.swap(0, 2);
    r.nodes[2] = node(NodeKind::Input(0), Scalar::F32);
    r.root = 0;
    let e = errors(&r);
    assert!(
        has(&e, "%0:", "operand %0 is not defined before its use"),
        "{e:?}"
    );
}

#[test]
fn operands_of_different_types() {
    let mut r = product();
    r.inputs[1] = Input::Array {
        elem: Scalar::F64,
        rank: 2,
        unit: 0,
    };
    r.nodes[1].ty = Scalar::F64;
    let e = errors(&r);
    assert!(
        has(&e, "%2:", "mul of different types f32 and f64"),
        "{e:?}"
    );
}

#[test]
fn a_node_typed_unlike_its_input() {
    let mut r = product();
    r.nodes[0].ty = Scalar::I32;
    let e = errors(&r);
    assert!(
        has(&e, "%0:", "in0 has type f32 but the node is i32"),
        "{e:?}"
    );
}

#[test]
fn a_comparison_must_give_bool_and_logic_take_bools() {
    let mut r = product();
    r.nodes[2].kind = NodeKind::Binary(Binary::Op(BinOp::Lt), 0, 1);
    let e = errors(&r);
    assert!(has(&e, "%2:", "lt of f32 gives bool, not f32"), "{e:?}");
    r.nodes[2].kind = NodeKind::Binary(Binary::Op(BinOp::And), 0, 1);
    r.nodes[2].ty = Scalar::Bool;
    let e = errors(&r);
    assert!(has(&e, "%2:", "and is not defined on f32"), "{e:?}");
    // ... and a region's stored result is never a bool.
    assert!(has(&e, "region:", "a result of bool"), "{e:?}");
}

#[test]
fn math_functions_on_the_types_they_take() {
    let mut r = product();
    r.nodes[2] = node(NodeKind::Math(MathFn::Sqrt, 0), Scalar::I32);
    let e = errors(&r);
    assert!(has(&e, "%2:", "sqrt of f32 gives f32, not i32"), "{e:?}");
    let mut q = product();
    q.inputs[0] = Input::Array {
        elem: Scalar::Bool,
        rank: 2,
        unit: 0,
    };
    q.nodes[0].ty = Scalar::Bool;
    q.nodes[2] = node(NodeKind::Math(MathFn::Sqrt, 0), Scalar::Bool);
    let e = errors(&q);
    assert!(has(&e, "%2:", "sqrt is not defined on bool"), "{e:?}");
    r.nodes[2] = node(NodeKind::Math(MathFn::Atan2, 0), Scalar::F32);
    let e = errors(&r);
    assert!(has(&e, "%2:", "atan2 takes two arguments"), "{e:?}");
    r.nodes[2] = node(NodeKind::Math(MathFn::IsNan, 0), Scalar::F32);
    let e = errors(&r);
    assert!(has(&e, "%2:", "isnan of f32 gives bool, not f32"), "{e:?}");
}

#[test]
fn a_cast_from_complex_to_real() {
    let mut r = product();
    r.inputs[0] = Input::Array {
        elem: Scalar::C32,
        rank: 2,
        unit: 0,
    };
    r.nodes[0].ty = Scalar::C32;
    r.nodes.insert(2, node(NodeKind::Cast(0), Scalar::F32));
    r.nodes[3] = node(NodeKind::Binary(Binary::Op(BinOp::Mul), 2, 1), Scalar::F32);
    r.root = 3;
    let e = errors(&r);
    assert!(has(&e, "%2:", "a cast of complex c32 to f32"), "{e:?}");
}

#[test]
fn malformed_inputs() {
    let mut r = product();
    r.inputs[0] = Input::Array {
        elem: Scalar::F32,
        rank: 2,
        unit: 0b100,
    };
    r.inputs.push(Input::Scalar(Scalar::F32));
    let e = errors(&r);
    assert!(has(&e, "in0:", "unit bits 0b100 outside rank 2"), "{e:?}");
    assert!(has(&e, "in2:", "never read"), "{e:?}");
}

#[test]
fn a_view_must_reach_its_own_dimensions_and_not_be_flat() {
    let mut r = product();
    r.inputs[1] = Input::View {
        elem: Scalar::F32,
        axes: vec![Axis::Range(0), Axis::Tile(2)],
        rank: 2,
        unit: 0,
    };
    let e = errors(&r);
    assert!(
        has(&e, "in1:", "axis 1 reads dimension 2 of a view of rank 2"),
        "{e:?}"
    );
    assert!(has(&e, "in1:", "a view in a flat region"), "{e:?}");
}

#[test]
fn tables_are_read_only_by_gathers() {
    let mut r = product();
    r.inputs[1] = Input::Table {
        elem: Scalar::F32,
        rank: 1,
        read: ReadMode::Checked,
    };
    let e = errors(&r);
    assert!(
        has(&e, "%1:", "in1 is a table, read only by a gather"),
        "{e:?}"
    );
    // A gather from an array that is not a table, at a real index.
    let mut r = product();
    r.nodes[2] = node(NodeKind::Gather(1, 0), Scalar::F32);
    let e = errors(&r);
    assert!(has(&e, "%2:", "gathers from in1, not a table"), "{e:?}");
}

#[test]
fn references_outside_the_region_are_errors_not_panics() {
    let mut r = product();
    r.nodes[2] = node(NodeKind::Binary(Binary::Op(BinOp::Mul), 0, 9), Scalar::F32);
    r.nodes[1].kind = NodeKind::Input(5);
    r.root = 12;
    r.rank = 7;
    let e = errors(&r);
    assert!(has(&e, "region:", "rank 7 is not 1 to 4"), "{e:?}");
    assert!(has(&e, "%1:", "reads in5 of 2 inputs"), "{e:?}");
    assert!(
        has(&e, "%2:", "operand %9 is not defined before its use"),
        "{e:?}"
    );
    assert!(
        has(&e, "region:", "the root %12 is not one of its 3 nodes"),
        "{e:?}"
    );
    assert!(has(&e, "in1:", "never read"), "{e:?}");
}

#[test]
fn a_reduction_along_a_dimension_needs_a_reduction_inside_the_rank() {
    let mut r = product();
    r.flat = false;
    r.along = Some(Along {
        axis: 2,
        mean: false,
        scan: false,
        elem: Scalar::F32,
    });
    let e = errors(&r);
    assert!(has(&e, "region:", "without a reduction"), "{e:?}");
    assert!(has(&e, "region:", "a reduction along 2 of rank 2"), "{e:?}");
    r.along = None;
    r.reduce = Some((Reduce::Sum, Scalar::Bool));
    let e = errors(&r);
    assert!(has(&e, "region:", "a sum accumulated in bool"), "{e:?}");
}

#[test]
fn regions_the_builder_makes_pass() {
    // Every kind of node the builder makes, in one region: casts, a constant, a
    // comparison, logic, a complex value and its parts, math, a masked select.
    let mut b = Builder::new(Prec::Single);
    let x = b.array(0, Scalar::F32, &[8]).unwrap();
    let i = b.array(1, Scalar::I64, &[8]).unwrap();
    let s = b.scalar(ScalarArg::Int(3), Scalar::I32, false);
    let a = b.binary(Binary::Op(BinOp::Rem), i, s).unwrap();
    let c = b.binary(Binary::Op(BinOp::Lt), x, a).unwrap();
    let n = b.not(c).unwrap();
    let z = b.binary(Binary::Math(MathFn::MakeComplex), x, n).unwrap();
    let ang = b.math("angle", z).unwrap();
    let at = b.binary(Binary::Math(MathFn::Atan2), ang, x).unwrap();
    let neg = b.neg(at).unwrap();
    let both = b.binary(Binary::Op(BinOp::And), neg, c).unwrap();
    let m = b.masked(x, c, both).unwrap();
    let done = b.finish(m, None).unwrap();
    assert_eq!(verify(&done.region), Ok(()));
    let sum = b.finish(m, Some(Reduce::Max)).unwrap();
    assert_eq!(verify(&sum.region), Ok(()));
}
