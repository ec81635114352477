//! The values of a launch: scalar and array types of run-time values for signatures,
//! array extents, the distinct arrays a launch passes, arguments converted into copies
//! that the kernel may not write, kernel values turned back into host values, and where
//! a kernel's error line is in its file.

use blazar_diagnostics::Span;
use blazar_kir::{ArrayTy, ReadMode, Scalar, Space, WriteMode};
use blazar_launch::{ArgVal, KValue};
use blazar_runtime::{Array, ArrayRef, ElemType, IntTy, Mode, Prec, Value};
use num_complex::Complex64;

/// The values a launch passes, flattened in the kernel's parameter order.
pub(crate) enum Flat {
    Value(KValue),
    Array(ArrayRef),
}

/// The launch's arguments with each distinct array once (parameters naming the same
/// array share it), or why they cannot be passed: a kernel takes an array with one
/// shape, so an array and a reshaped view of it of another shape cannot both be.
pub(crate) fn distinct_arrays(flat: Vec<Flat>) -> Result<(Vec<ArgVal>, Vec<ArrayRef>), String> {
    let mut distinct: Vec<ArrayRef> = Vec::new();
    let mut args = Vec::with_capacity(flat.len());
    for f in flat {
        args.push(match f {
            Flat::Value(v) => ArgVal::Value(v),
            Flat::Array(a) => {
                match distinct.iter().position(|d| d.same_store(&a)) {
                    Some(i) if !distinct[i].same_view(&a) => return Err(
                        "an array and a reshaped view of it cannot both be passed to one kernel"
                            .into(),
                    ),
                    Some(i) => ArgVal::Array(i),
                    None => {
                        distinct.push(a);
                        ArgVal::Array(distinct.len() - 1)
                    }
                }
            }
        });
    }
    Ok((args, distinct))
}

/// The int type of an int scalar type.
pub(crate) fn int_of(s: Scalar) -> IntTy {
    match s {
        Scalar::I8 => IntTy::I8,
        Scalar::I16 => IntTy::I16,
        Scalar::I64 => IntTy::I64,
        Scalar::U8 => IntTy::U8,
        Scalar::U16 => IntTy::U16,
        Scalar::U32 => IntTy::U32,
        Scalar::U64 => IntTy::U64,
        _ => IntTy::I32,
    }
}

pub(crate) fn scalar_of(t: IntTy) -> Scalar {
    match t {
        IntTy::I8 => Scalar::I8,
        IntTy::I16 => Scalar::I16,
        IntTy::I32 => Scalar::I32,
        IntTy::I64 => Scalar::I64,
        IntTy::U8 => Scalar::U8,
        IntTy::U16 => Scalar::U16,
        IntTy::U32 => Scalar::U32,
        IntTy::U64 => Scalar::U64,
    }
}

pub(crate) fn elem_scalar(e: ElemType) -> Option<Scalar> {
    Some(match e {
        ElemType::F32 => Scalar::F32,
        ElemType::F64 => Scalar::F64,
        ElemType::C32 => Scalar::C32,
        ElemType::C64 => Scalar::C64,
        ElemType::Int(t) => scalar_of(t),
        ElemType::Cell => return None,
    })
}

pub(crate) fn array_ty(a: &ArrayRef) -> Option<ArrayTy> {
    // Shape and element type only: a launch must not pull device data to the host.
    let arr = a.meta().ok()?;
    let (read, write) = match a.mode.mode {
        Mode::Default | Mode::Safe => (ReadMode::Zero, WriteMode::Skip),
        Mode::Circular => (ReadMode::Circular, WriteMode::Skip),
        Mode::Mirror => (ReadMode::Mirror, WriteMode::Skip),
        Mode::Clamped => (ReadMode::Clamped, WriteMode::Skip),
        Mode::Checked => (ReadMode::Checked, WriteMode::Checked),
        Mode::Unchecked => (ReadMode::Unchecked, WriteMode::Unchecked),
    };
    Some(ArrayTy {
        elem: elem_scalar(arr.elem())?,
        rank: arr.rank().min(255) as u8,
        read,
        write,
        is_const: a.mode.is_const,
        space: Space::Global,
    })
}

/// The dims of an array argument (empty for other values), for `Signature::extents`.
pub(crate) fn extents_of(v: &Value) -> Vec<u32> {
    match v {
        Value::Array(a) => a
            .meta()
            .map(|m| m.dims.iter().map(|&d| d as u32).collect())
            .unwrap_or_default(),
        _ => vec![],
    }
}

/// The span of line `line` (from its first non-blank character) in the file that
/// defines kernel `kernel` (the launch's file when no function has that name); `None`
/// for line 0.
pub fn kernel_line_span(
    prog: &blazar_hir::Program,
    sources: &blazar_diagnostics::SourceMap,
    kernel: &str,
    line: u32,
    launch: Span,
) -> Option<Span> {
    {
        let line = (line as usize).checked_sub(1)?;
        let file = prog
            .functions
            .iter()
            .find(|f| f.name == kernel)
            .map_or(launch.file, |f| f.span.file);
        let src = sources.files().get(file.0 as usize)?;
        let range = src.line_range(line);
        let text = src.text.get(range.clone())?;
        let lo = range.start + (text.len() - text.trim_start().len());
        let hi = range.start + text.trim_end().len();
        (hi > lo).then(|| Span::new(file, lo, hi))
    }
}

pub(crate) fn kvalue_to_value(v: KValue, ty: Scalar, prec: Prec) -> Value {
    match v {
        KValue::Bool(b) => Value::int(b as i64),
        KValue::Int(i) => match ty {
            Scalar::I8 => Value::Int(i, IntTy::I8),
            Scalar::I16 => Value::Int(i, IntTy::I16),
            Scalar::I64 => Value::Int(i, IntTy::I64),
            Scalar::U8 => Value::Int(i, IntTy::U8),
            Scalar::U16 => Value::Int(i, IntTy::U16),
            Scalar::U32 => Value::Int(i, IntTy::U32),
            Scalar::U64 => Value::Int(i, IntTy::U64),
            _ => Value::int(i),
        },
        KValue::Float(x) => Value::Real(prec.round(x)),
        KValue::Complex(re, im) => Value::Complex(prec.round_c(Complex64::new(re, im))),
        KValue::Vector(items) => {
            let vals: Vec<f64> = items
                .iter()
                .map(|x| match x {
                    KValue::Int(i) => *i as f64,
                    KValue::Float(f) => *f,
                    _ => 0.0,
                })
                .collect();
            let n = vals.len();
            Value::array(Array::from_reals(vec![n], vals, prec))
        }
    }
}

/// An array argument that the launch converted into a copy: an int array (such as the
/// literal `[5, 2, 7]`) where the kernel declares `vec`, `mat`, ... of reals.
pub(crate) struct Converted {
    /// Its position among the kernel's data arguments.
    pub arg: usize,
    pub param: String,
    /// The argument's type and the declared one, as `type` prints them.
    pub from: String,
    pub to: String,
}

impl Converted {
    /// The record of argument `arg` (for parameter `param`, declared `decl`) when
    /// converting `before` made `after` a new array.
    pub(crate) fn of(
        arg: usize,
        param: &str,
        before: &Value,
        after: &Value,
        decl: &Option<blazar_hir::Ty>,
    ) -> Option<Converted> {
        let (Value::Array(a), Value::Array(b), Some(t)) = (before, after, decl) else {
            return None;
        };
        (!std::rc::Rc::ptr_eq(&a.data, &b.data)).then(|| Converted {
            arg,
            param: param.to_string(),
            from: crate::typeof_::type_of_plain(before).to_string(),
            to: t.to_string(),
        })
    }
}

/// The first converted argument whose parameter kernel `k` writes: its writes would go
/// to the copy and be lost, so the launch is refused (`tests/programs/kernel_errors/
/// converted_argument_written.q`).
pub(crate) fn written_copy<'c>(
    k: &blazar_kir::Kernel,
    converted: &'c [Converted],
) -> Option<(&'c Converted, String)> {
    let writes = blazar_kir::visit::written_params(k);
    let c = converted.iter().find(|c| {
        k.params
            .iter()
            .zip(&writes)
            .any(|(p, &w)| w && p.name == c.param)
    })?;
    let hint = if c.to.starts_with('c') {
        "a complex array".to_string()
    } else {
        "a real array (a literal with a real element, such as `[5.0, 2, 7]`, is one)".into()
    };
    let message = format!(
        "the kernel `{}` writes its parameter `{}` : {}, but this argument is a {}: it \
         would be converted into a new array and the kernel's writes to it lost; pass {hint}",
        k.name, c.param, c.to, c.from
    );
    Some((c, message))
}
