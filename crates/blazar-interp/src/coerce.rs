//! Conversions to declared types (parameters, outputs, `x : T = e`), matrix literals and
//! typed constructors such as `vec[int8](5)`.

use crate::typeof_::type_of_plain;
use blazar_hir::{Annot, IntKind, Ty};
use blazar_runtime::builtins::construct::dims_from_args;
use blazar_runtime::{rt_bail, Array, ElemType, IntTy, Mode, Prec, RtResult, Value};
use num_complex::Complex64;

pub fn int_ty(k: IntKind) -> IntTy {
    match k {
        IntKind::I8 => IntTy::I8,
        IntKind::I16 => IntTy::I16,
        IntKind::I32 => IntTy::I32,
        IntKind::I64 => IntTy::I64,
        IntKind::U8 => IntTy::U8,
        IntKind::U16 => IntTy::U16,
        IntKind::U32 => IntTy::U32,
        IntKind::U64 => IntTy::U64,
    }
}

/// The class name of `nullptr`, the reference to no object (a `$` name: no program can
/// declare it).
pub const NULL_CLASS: &str = "$null";

/// `nullptr`: an object of no fields that every class-typed place accepts.
pub fn null_object() -> Value {
    Value::Object(std::rc::Rc::new(std::cell::RefCell::new(
        blazar_runtime::Object {
            class: Some(std::rc::Rc::from(NULL_CLASS)),
            fields: Vec::new(),
        },
    )))
}

/// Converts `v` as an argument annotation `e : T` does: like a declaration, except that
/// a real given for an int truncates (`3.7 : int` is 3), as `int(3.7)` does.
pub fn convert(v: Value, a: &Annot, prec: Prec) -> RtResult<Value> {
    match (&a.ty, &v) {
        (Ty::Int(_), Value::Real(_)) => construct_typed(&a.ty, &[v], prec),
        _ => coerce(v, a, prec),
    }
}

/// The element type that stores values of scalar type `t`.
pub fn elem_type(t: &Ty, prec: Prec) -> Option<ElemType> {
    Some(match t {
        Ty::Scalar => ElemType::real(prec),
        Ty::CScalar => ElemType::complex(prec),
        Ty::Int(k) => ElemType::Int(int_ty(*k)),
        Ty::Unknown => return None,
        _ => ElemType::Cell,
    })
}

/// Converts `v` to the annotated type, applying its access modifiers.
pub fn coerce(v: Value, a: &Annot, prec: Prec) -> RtResult<Value> {
    let v = coerce_ty(v, &a.ty, prec)?;
    if a.mode.is_none() && !a.is_const {
        return Ok(v);
    }
    match v {
        Value::Array(mut r) => {
            if let Some(m) = &a.mode {
                r.mode.mode = Mode::from_name(m).unwrap_or_default();
            }
            r.mode.is_const |= a.is_const;
            Ok(Value::Array(r))
        }
        v => Ok(v),
    }
}

fn mismatch(v: &Value, t: &Ty) -> RtResult<Value> {
    rt_bail!("expected {t}, got {}", type_of_plain(v))
}

fn coerce_ty(v: Value, t: &Ty, prec: Prec) -> RtResult<Value> {
    match t {
        Ty::Unknown => Ok(v),
        Ty::Scalar => match v {
            Value::Real(_) => Ok(v),
            Value::Int(i, k) => Ok(Value::Real(prec.round(k.to_f64(i)))),
            _ => mismatch(&v, t),
        },
        Ty::CScalar => match v.as_complex() {
            Some(z) if !matches!(v, Value::Array(_)) => Ok(Value::Complex(prec.round_c(z))),
            _ => mismatch(&v, t),
        },
        Ty::Int(k) => match v {
            Value::Int(i, _) => Ok(Value::Int(int_ty(*k).wrap(i), int_ty(*k))),
            Value::Real(x) if x.fract() == 0.0 && x.is_finite() => {
                Ok(Value::Int(int_ty(*k).from_f64(x), int_ty(*k)))
            }
            Value::Real(x) => rt_bail!(
                "expected {t}, got the non-integer {}",
                blazar_runtime::format::format_real(x, prec)
            ),
            _ => mismatch(&v, t),
        },
        Ty::Str => match v {
            Value::Str(_) => Ok(v),
            _ => mismatch(&v, t),
        },
        Ty::Array { elem, rank } => {
            let Value::Array(r) = &v else {
                return mismatch(&v, t);
            };
            let (have_rank, have_elem) = {
                let Ok(a) = r.meta() else {
                    return mismatch(&v, t);
                };
                (a.rank() as u32, a.elem())
            };
            // Rank promotion: a lower rank is accepted where a higher one is declared (a
            // vec is a 1×N mat, a mat an M×N×1 cube); the array is not copied, and reads
            // with more indices than its rank see the extra extents as 1.
            if let Some(want) = rank {
                if *want < have_rank {
                    return mismatch(&v, t);
                }
            }
            convert_elems(v.clone(), have_elem, elem, prec).or_else(|_| mismatch(&v, t))
        }
        Ty::FixedVec { elem, len } => {
            let Value::Array(r) = &v else {
                return mismatch(&v, t);
            };
            let (n, rank, have_elem) = {
                let Ok(a) = r.meta() else {
                    return mismatch(&v, t);
                };
                (a.len(), a.rank(), a.elem())
            };
            if n != *len as usize || rank != 1 {
                return mismatch(&v, t);
            }
            if let (Ty::Int(k), true) = (&**elem, have_elem.is_real_float()) {
                return integral_vec(r, *k, t, prec);
            }
            convert_elems(v.clone(), have_elem, elem, prec).or_else(|_| mismatch(&v, t))
        }
        Ty::Func { .. } => match v {
            Value::Func(_) => Ok(v),
            _ => mismatch(&v, t),
        },
        Ty::Union(alts) => {
            let have = type_of_plain(&v);
            if alts.iter().any(|a| have.conforms_to(a)) {
                return Ok(v);
            }
            for a in alts {
                if let Ok(x) = coerce_ty(v.clone(), a, prec) {
                    return Ok(x);
                }
            }
            mismatch(&v, t)
        }
        Ty::Class(_, name) => match &v {
            Value::Object(o) if o.borrow().class.as_deref() == Some(name.as_str()) => Ok(v),
            Value::Object(o) if o.borrow().class.as_deref() == Some(NULL_CLASS) => Ok(v),
            _ => mismatch(&v, t),
        },
        Ty::Object => match v {
            Value::Object(_) => Ok(v),
            _ => mismatch(&v, t),
        },
        Ty::Type => Ok(v),
    }
}

/// A real vector where an `ivecN` is declared converts as a real scalar given for an
/// `int` does: each element must be integral (`[2, 3]` gives `ivec2`), else the error
/// names the first element that is not.
fn integral_vec(r: &blazar_runtime::ArrayRef, k: IntKind, t: &Ty, prec: Prec) -> RtResult<Value> {
    let a = r.borrow();
    for i in 0..a.len() {
        let x = a.get_c(i).re;
        if x.fract() != 0.0 || !x.is_finite() {
            rt_bail!(
                "expected {t}, got a vec whose element {i} is the non-integer {}",
                blazar_runtime::format::format_real(x, prec)
            );
        }
    }
    let converted = a.convert(ElemType::Int(int_ty(k)));
    Ok(Value::array_with(converted, r.mode))
}

/// Converts the elements of an array value to `want`; int arrays become real arrays
/// where a real array is expected (a copy), other changes are errors.
fn convert_elems(v: Value, have: ElemType, want: &Ty, prec: Prec) -> RtResult<Value> {
    let Value::Array(r) = &v else { return Ok(v) };
    let target = match want {
        Ty::Unknown => return Ok(v),
        Ty::Scalar if have.is_real_float() => return Ok(v),
        Ty::Scalar if have.is_int() => ElemType::real(prec),
        Ty::CScalar if have.is_complex() => return Ok(v),
        Ty::CScalar if !matches!(have, ElemType::Cell) => ElemType::complex(prec),
        Ty::Int(k) if have == ElemType::Int(int_ty(*k)) => return Ok(v),
        _ if have == ElemType::Cell => {
            let a = r.borrow();
            if let blazar_runtime::Buffer::Cell(items) = &a.buf {
                if items.iter().all(|x| type_of_plain(x).conforms_to(want)) {
                    drop(a);
                    return Ok(v);
                }
            }
            rt_bail!("element types differ")
        }
        _ => rt_bail!("element types differ"),
    };
    let converted = r.borrow().convert(target);
    Ok(Value::array_with(converted, r.mode))
}

/// The value a class field starts with when not given.
pub fn default_value(t: &Ty, prec: Prec) -> Value {
    match t {
        Ty::Int(k) => Value::Int(0, int_ty(*k)),
        Ty::CScalar => Value::Complex(Complex64::new(0.0, 0.0)),
        Ty::Str => Value::str(""),
        Ty::Class(..) => null_object(),
        Ty::Array { elem, rank } => {
            let e = elem_type(elem, prec).unwrap_or(ElemType::real(prec));
            Value::array(Array::zeros(vec![0; rank.unwrap_or(1) as usize], e))
        }
        _ => Value::Real(0.0),
    }
}

/// `[a, b, c]`: scalars form a row vector (int when all are ints); arrays of equal
/// dims are stacked along a new leading dimension (`[[1,2],[3,4]]` is a 2×2 matrix).
pub fn build_matrix(vals: Vec<Value>, prec: Prec, _nested: bool) -> RtResult<Value> {
    if vals.is_empty() {
        return Ok(Value::array(Array::zeros(vec![0], ElemType::real(prec))));
    }
    if vals.iter().all(Value::is_scalar) {
        let n = vals.len();
        if vals.iter().all(|v| matches!(v, Value::Int(..))) {
            // The elements' common type is the type `+` gives them (the runtime's
            // promotion), so `[x, x + 1]` of int64 values is a vec[int64].
            let mut t = IntTy::I32;
            for (i, v) in vals.iter().enumerate() {
                let Value::Int(_, u) = v else { continue };
                t = match (
                    i,
                    blazar_runtime::ops::binary_scalar(
                        blazar_ops::BinOp::Add,
                        &Value::Int(0, t),
                        &Value::Int(0, *u),
                        prec,
                    ),
                ) {
                    (0, _) => *u,
                    (_, Some(Value::Int(_, w))) => w,
                    _ => t,
                };
            }
            let mut a = Array::zeros(vec![n], ElemType::Int(t));
            for (i, v) in vals.iter().enumerate() {
                if let Value::Int(x, _) = v {
                    a.buf.set_value(i, &Value::Int(t.wrap(*x), t));
                }
            }
            return Ok(Value::array(a));
        }
        if vals.iter().any(|v| matches!(v, Value::Complex(_))) {
            let data = vals
                .iter()
                .map(|v| v.as_complex().unwrap_or_default())
                .collect();
            return Ok(Value::array(Array::from_complex(vec![n], data, prec)));
        }
        let data = vals.iter().map(|v| v.as_f64().unwrap_or(0.0)).collect();
        return Ok(Value::array(Array::from_reals(vec![n], data, prec)));
    }
    let mut dims: Option<Vec<usize>> = None;
    let mut complex = false;
    for v in &vals {
        let Value::Array(r) = v else {
            rt_bail!("a matrix literal cannot mix {} and arrays", v.kind_name());
        };
        let a = r.borrow();
        if a.is_cell() {
            rt_bail!("a matrix literal cannot hold cell arrays; use `a, b' for cells");
        }
        complex |= a.elem().is_complex();
        match &dims {
            None => dims = Some(a.dims.clone()),
            Some(d) if *d != a.dims => {
                let text = |d: &[usize]| {
                    let size = if d.len() == 1 {
                        vec![1, d[0]]
                    } else {
                        d.to_vec()
                    };
                    size.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join("x")
                };
                rt_bail!(
                    "the rows of a matrix literal must have the same size: {} and {}",
                    text(d),
                    text(&a.dims)
                )
            }
            _ => {}
        }
    }
    let inner = dims.unwrap_or_default();
    let mut out_dims = vec![vals.len()];
    out_dims.extend(&inner);
    let elem = if complex {
        ElemType::complex(prec)
    } else {
        ElemType::real(prec)
    };
    blazar_runtime::alloc::result(&out_dims, elem.size_bytes())?;
    let mut out = Array::zeros(out_dims, elem);
    let mut k = 0;
    for v in &vals {
        if let Value::Array(r) = v {
            let a = r.borrow();
            for i in 0..a.len() {
                out.buf.set_c(k, a.get_c(i));
                k += 1;
            }
        }
    }
    Ok(Value::array(out))
}

/// `vec[int8](5)`, `cube[int](10)`, `cscalar(2)`: typed construction.
pub fn construct_typed(t: &Ty, args: &[Value], prec: Prec) -> RtResult<Value> {
    match t {
        Ty::Array { elem, rank } => {
            let e = elem_type(elem, prec).unwrap_or(ElemType::Cell);
            let mut dims = dims_from_args("constructor", args)?;
            if let Some(r) = rank {
                let r = *r as usize;
                if dims.len() > r {
                    dims = Array::canonical_dims(&dims);
                }
                if dims.len() > r {
                    rt_bail!("{t} cannot have {} dimensions", dims.len());
                }
                while dims.len() < r {
                    dims.insert(0, 1);
                }
            }
            let n = blazar_runtime::alloc::count("constructor", &dims)?;
            blazar_runtime::alloc::reserve_elems(&t.to_string(), Some(n), e)?;
            Ok(Value::array(Array::zeros(dims, e)))
        }
        Ty::Scalar | Ty::CScalar | Ty::Int(_) if args.len() == 1 => {
            let v = &args[0];
            match t {
                Ty::Int(k) => match v.as_f64() {
                    Some(x) => Ok(Value::Int(int_ty(*k).from_f64(x), int_ty(*k))),
                    None => rt_bail!("cannot convert a {} to {t}", v.kind_name()),
                },
                _ => coerce_ty(v.clone(), t, prec),
            }
        }
        _ => rt_bail!("{t} cannot be constructed this way"),
    }
}
