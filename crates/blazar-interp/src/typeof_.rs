//! The type of a run-time value, as `type(x)` prints it and as overloads and
//! declarations compare it.

use blazar_hir::{FnKind, IntKind, Program, Ty};
use blazar_runtime::{Buffer, ElemType, FuncRef, IntTy, Value};

pub fn int_kind(t: IntTy) -> IntKind {
    match t {
        IntTy::I8 => IntKind::I8,
        IntTy::I16 => IntKind::I16,
        IntTy::I32 => IntKind::I32,
        IntTy::I64 => IntKind::I64,
        IntTy::U8 => IntKind::U8,
        IntTy::U16 => IntKind::U16,
        IntTy::U32 => IntKind::U32,
        IntTy::U64 => IntKind::U64,
    }
}

/// The type of `v`; function values take their declared types from `prog`.
pub fn type_of(prog: &Program, v: &Value) -> Ty {
    type_with(Some(prog), v)
}

/// The type of `v` without the program: function values are `[??->??]`.
pub fn type_of_plain(v: &Value) -> Ty {
    type_with(None, v)
}

fn type_with(prog: Option<&Program>, v: &Value) -> Ty {
    match v {
        Value::Real(_) => Ty::Scalar,
        Value::Int(_, t) => Ty::Int(int_kind(*t)),
        Value::Complex(_) => Ty::CScalar,
        Value::Str(_) => Ty::Str,
        Value::Object(o) => match &o.borrow().class {
            Some(c) => Ty::Class(0, c.to_string()),
            None => Ty::Object,
        },
        Value::Func(c) => match (prog, c.func) {
            (Some(p), FuncRef::User(id)) => p.functions[id as usize].ty.clone(),
            _ => Ty::Func {
                kind: FnKind::Host,
                params: vec![Ty::Unknown],
                results: vec![Ty::Unknown],
            },
        },
        Value::Array(r) => {
            // Shape and element type only (cells never live on a device).
            let (Ok(m), Ok(a)) = (r.meta(), r.data.meta_host()) else {
                return Ty::Unknown;
            };
            let rank = Some(m.rank() as u32);
            let elem = match (&a.buf, a.elem()) {
                (Buffer::Cell(items), _) => {
                    let mut tys = items.iter().map(|x| type_with(prog, x));
                    match tys.next() {
                        Some(first) => {
                            if tys.all(|t| t == first) {
                                first
                            } else {
                                Ty::Unknown
                            }
                        }
                        None => Ty::Unknown,
                    }
                }
                (_, ElemType::F32 | ElemType::F64) => Ty::Scalar,
                (_, ElemType::C32 | ElemType::C64) => Ty::CScalar,
                (_, ElemType::Int(t)) => Ty::Int(int_kind(t)),
                (_, ElemType::Cell) => Ty::Unknown,
            };
            Ty::Array {
                elem: Box::new(elem),
                rank,
            }
        }
    }
}
