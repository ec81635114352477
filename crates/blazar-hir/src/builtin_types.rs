//! The static types of builtin calls, where the builtin's name and the arguments'
//! types settle them: the array makers (`zeros(3, 3)` is a `mat`), element-wise math on
//! a known type, and counts. Anything that depends on values is `??`.

use crate::types::{IntKind, Ty};

fn is_real(t: &Ty) -> bool {
    matches!(t, Ty::Scalar | Ty::Int(_))
}

fn array(rank: Option<u32>) -> Ty {
    Ty::Array {
        elem: Box::new(Ty::Scalar),
        rank,
    }
}

/// The type of `name(args...)`, `args` the arguments' static types.
pub fn builtin_result(name: &str, args: &[Ty]) -> Ty {
    match name {
        // Extents, one per dimension; one array argument is a whole shape.
        "zeros" | "ones" | "uninit" | "rand" | "randn" => match args {
            [] if name.starts_with("rand") => Ty::Scalar,
            [] => Ty::Unknown,
            [t] if !is_real(t) => array(None),
            _ => array(Some(args.len() as u32)),
        },
        "eye" => array(Some(2)),
        "linspace" | "logspace" => array(Some(1)),
        "imread" => array(Some(3)),
        "numel" | "ndims" => Ty::Int(IntKind::I32),
        "size" if args.len() == 2 => Ty::Int(IntKind::I32),
        // Element-wise functions of one real value keep an array's shape.
        "sqrt" | "exp" | "log" | "log2" | "log10" | "sin" | "cos" | "tan" | "asin" | "acos"
        | "atan" | "sinh" | "cosh" | "tanh" | "abs" | "floor" | "ceil" | "round" | "sign"
        | "frac" => match args {
            [t] if is_real(t) => Ty::Scalar,
            [Ty::Array { elem, rank }] if **elem == Ty::Scalar => array(*rank),
            _ => Ty::Unknown,
        },
        _ => Ty::Unknown,
    }
}

/// The type of a matrix literal whose items have types `items`: `[1, 2]` is a `vec`,
/// `[[1, 2], [3, 4]]` a `mat`; always an array.
pub fn matrix_type(items: &[Ty]) -> Ty {
    if !items.is_empty() && items.iter().all(is_real) {
        return array(Some(1));
    }
    let row = |t: &Ty| matches!(t, Ty::Array { elem, rank: Some(1) } if **elem == Ty::Scalar);
    if !items.is_empty() && items.iter().all(row) {
        return array(Some(2));
    }
    Ty::Array {
        elem: Box::new(Ty::Unknown),
        rank: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makers_math_and_literals() {
        let s = Ty::Scalar;
        let i = Ty::Int(IntKind::I32);
        assert_eq!(builtin_result("zeros", &[i.clone()]).to_string(), "vec");
        assert_eq!(
            builtin_result("zeros", &[i.clone(), s.clone()]).to_string(),
            "mat"
        );
        assert_eq!(builtin_result("rand", &[]).to_string(), "scalar");
        assert_eq!(builtin_result("eye", &[i.clone()]).to_string(), "mat");
        assert_eq!(builtin_result("numel", &[Ty::Unknown]).to_string(), "int");
        let v = builtin_result("linspace", &[s.clone(), s.clone(), i.clone()]);
        assert_eq!(builtin_result("sqrt", &[v]).to_string(), "vec");
        assert_eq!(builtin_result("sqrt", &[s.clone()]).to_string(), "scalar");
        assert_eq!(builtin_result("sum", &[s.clone()]), Ty::Unknown);
        assert_eq!(matrix_type(&[i.clone(), s.clone()]).to_string(), "vec");
        let row = matrix_type(&[s.clone(), s]);
        assert_eq!(matrix_type(&[row.clone(), row]).to_string(), "mat");
        assert!(matches!(matrix_type(&[]), Ty::Array { .. }));
    }
}
