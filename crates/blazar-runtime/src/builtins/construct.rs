//! Array construction and copying builtins: `zeros ones uninit eye linspace logspace cell copy
//! deepcopy object lincell`, plus [`dims_from_args`], shared with the interpreter's typed
//! constructors (`cube[int](10)`). Shape builtins live in [`shape`].

pub(super) mod shape;
pub use shape::reshape_view;

use super::math::bi;
use super::{Builtin, Ctx};
use crate::aref::ArrayRef;
use crate::array::{Access, Array, Buffer, ElemType};
use crate::ops::{complex_buffer, int_buffer, real_buffer};
use crate::value::{Object, Prec, Value};
use crate::{rt_bail, RtResult};
use std::cell::RefCell;
use std::rc::Rc;

/// Largest number of elements an array constructor will allocate.
const MAX_ELEMS: usize = 1 << 32;

fn dim_of(name: &str, x: f64) -> RtResult<usize> {
    if !x.is_finite() || x.fract() != 0.0 || x < 0.0 {
        rt_bail!(
            "{name}: dimensions must be non-negative integers, got {}",
            crate::format::format_real(x, Prec::Double)
        );
    }
    Ok(x as usize)
}

/// The dimensions given to a constructor: `(N)`, `(M, N)`, `(M, N, P, ...)` or one
/// dims vector (`[M, N]`, `size(x)`). The dims are returned as given (not
/// canonicalised); sizes must be non-negative integers.
pub fn dims_from_args(name: &str, args: &[Value]) -> RtResult<Vec<usize>> {
    let dims = match args {
        [] => rt_bail!("{name}: expected dimensions"),
        [Value::Array(r)] => {
            let a = r
                .try_borrow()
                .map_err(|_| crate::RtError::new(format!("{name}: bad dimensions")))?;
            if a.is_cell() {
                rt_bail!("{name}: dimensions must be numbers, got a cell array");
            }
            if a.is_empty() {
                rt_bail!("{name}: empty dimension vector");
            }
            if a.elem().is_complex() {
                rt_bail!("{name}: dimensions must be real numbers");
            }
            (0..a.len())
                .map(|i| dim_of(name, a.get_f64(i)))
                .collect::<RtResult<Vec<usize>>>()?
        }
        _ => args
            .iter()
            .map(|v| match v {
                Value::Real(_) | Value::Int(..) => dim_of(name, v.as_f64().unwrap_or(-1.0)),
                other => rt_bail!(
                    "{name}: dimensions must be numbers, got {}",
                    other.kind_name()
                ),
            })
            .collect::<RtResult<Vec<usize>>>()?,
    };
    check_count(name, &dims)?;
    Ok(dims)
}

/// Errors when an array of these dims would be unreasonably large.
pub(super) fn check_count(name: &str, dims: &[usize]) -> RtResult<usize> {
    let n = dims.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d));
    match n {
        Some(n) if n <= MAX_ELEMS => Ok(n),
        _ => rt_bail!("{name}: array of size {dims:?} is too large"),
    }
}

pub(super) use crate::alloc::reserve;

fn filled(ctx: &Ctx, name: &str, args: &[Value], value: f64) -> RtResult<Value> {
    let dims = Array::canonical_dims(&dims_from_args(name, args)?);
    let elem = ElemType::real(ctx.prec);
    let n: usize = dims.iter().product();
    reserve(name, n.checked_mul(elem.size_bytes()))?;
    if value == 0.0 {
        return Ok(Value::Array(ArrayRef::zeros(dims, elem)));
    }
    let mut a = Array::zeros(dims, elem);
    {
        match &mut a.buf {
            Buffer::F32(v) => v.fill(value as f32),
            Buffer::F64(v) => v.fill(value),
            _ => {}
        }
    }
    Ok(Value::array(a))
}

fn zeros(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    filled(ctx, "zeros", args, 0.0)
}

fn ones(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    filled(ctx, "ones", args, 1.0)
}

fn uninit(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    filled(ctx, "uninit", args, 0.0)
}

/// `eye(n)` or `eye(m, n)`: an identity matrix (always a mat).
fn eye(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let d = dims_from_args("eye", args)?;
    let (m, n) = match d.as_slice() {
        [n] => (*n, *n),
        [m, n] => (*m, *n),
        _ => rt_bail!("eye: expected one or two dimensions"),
    };
    check_count("eye", &[m, n])?;
    let elem = ElemType::real(ctx.prec);
    reserve("eye", (m * n).checked_mul(elem.size_bytes()))?;
    let mut a = Array::zeros(vec![m, n], elem);
    for i in 0..m.min(n) {
        a.buf.set_f64(i * n + i, 1.0);
    }
    Ok(Value::array(a))
}

/// `linspace(a, b, n)`: `n` equally spaced reals from `a` to `b` inclusive.
fn linspace(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let (a, b) = match (args[0].as_f64(), args[1].as_f64()) {
        (Some(a), Some(b)) => (a, b),
        _ => rt_bail!("linspace: expected real numbers for the end points"),
    };
    let n = dims_from_args("linspace", &args[2..3])?[0];
    // The f64 values, then the array at the program's precision.
    reserve("linspace", n.checked_mul(16))?;
    let data: Vec<f64> = match n {
        0 => vec![],
        1 => vec![b],
        _ => (0..n)
            .map(|i| {
                if i + 1 == n {
                    b
                } else {
                    a + (b - a) * i as f64 / (n - 1) as f64
                }
            })
            .collect(),
    };
    Ok(Value::array(Array::new(
        vec![n],
        real_buffer(ctx.prec, data),
    )))
}

/// `logspace(a, b)`, `logspace(a, b, n)`: n (default 50) values from 10^a to 10^b,
/// evenly spaced in the exponent.
fn logspace(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = super::signal::real_arg("logspace", "the first exponent", &args[0])?;
    let b = super::signal::real_arg("logspace", "the last exponent", &args[1])?;
    let n = match args.get(2) {
        Some(v) => match v.as_i64() {
            Some(n) if (0..=1 << 28).contains(&n) => n as usize,
            _ => rt_bail!("logspace: the count must be a non-negative integer"),
        },
        None => 50,
    };
    let data = (0..n)
        .map(|i| {
            let e = if n == 1 || i + 1 == n {
                b
            } else {
                a + (b - a) * i as f64 / (n - 1) as f64
            };
            10f64.powf(e)
        })
        .collect();
    Ok(Value::array(Array::new(
        vec![n],
        real_buffer(ctx.prec, data),
    )))
}

/// `cell(n)`, `cell(m, n)`, ...: a cell array of real zeros.
fn cell(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let dims = Array::canonical_dims(&dims_from_args("cell", args)?);
    let n: usize = dims.iter().product();
    reserve("cell", n.checked_mul(std::mem::size_of::<Value>()))?;
    Ok(Value::array(Array::zeros(dims, ElemType::Cell)))
}

/// `copy(x)`: a new buffer for arrays (cell elements are shared), a new object with the
/// same fields for objects; other values are returned as they are.
fn copy(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(match &args[0] {
        Value::Array(r) => {
            let a = r
                .try_borrow()
                .map_err(|_| crate::RtError::new("copy: array is being modified"))?;
            Value::array_with(
                a.clone(),
                Access {
                    mode: r.mode.mode,
                    is_const: false,
                },
            )
        }
        Value::Object(o) => {
            let o = o
                .try_borrow()
                .map_err(|_| crate::RtError::new("copy: object is being modified"))?;
            Value::Object(Rc::new(RefCell::new(o.clone())))
        }
        other => other.clone(),
    })
}

fn deep(v: &Value, depth: usize) -> RtResult<Value> {
    if depth > 64 {
        rt_bail!("deepcopy: data nested too deeply (is it cyclic?)");
    }
    Ok(match v {
        Value::Array(r) => {
            let a = r
                .try_borrow()
                .map_err(|_| crate::RtError::new("deepcopy: array is being modified"))?;
            let copy = match &a.buf {
                Buffer::Cell(items) => Array::new(
                    a.dims.clone(),
                    Buffer::Cell(
                        items
                            .iter()
                            .map(|x| deep(x, depth + 1))
                            .collect::<RtResult<_>>()?,
                    ),
                ),
                _ => a.clone(),
            };
            Value::array_with(
                copy,
                Access {
                    mode: r.mode.mode,
                    is_const: false,
                },
            )
        }
        Value::Object(o) => {
            let o = o
                .try_borrow()
                .map_err(|_| crate::RtError::new("deepcopy: object is being modified"))?;
            let fields = o
                .fields
                .iter()
                .map(|(k, x)| Ok((k.clone(), deep(x, depth + 1)?)))
                .collect::<RtResult<_>>()?;
            Value::Object(Rc::new(RefCell::new(Object {
                class: o.class.clone(),
                fields,
            })))
        }
        other => other.clone(),
    })
}

/// `deepcopy(x)`: like `copy`, recursively through cells and objects.
fn deepcopy(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    deep(&args[0], 0)
}

/// `lincell(c)`: the leaves of a nested cell (every element that is not itself a cell,
/// depth first, in storage order) as one flat cell vector. The leaves are the same
/// values, not copies: an array in the result is the array in `c`.
fn lincell(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    fn walk(v: &Value, depth: usize, out: &mut Vec<Value>) -> RtResult<()> {
        if depth > 256 {
            rt_bail!("lincell: cells nested more than 256 deep");
        }
        if let Value::Array(r) = v {
            let a = r
                .try_borrow()
                .map_err(|_| crate::RtError::new("lincell: cell is being modified"))?;
            if let Buffer::Cell(items) = &a.buf {
                for item in items {
                    walk(item, depth + 1, out)?;
                }
                return Ok(());
            }
        }
        out.push(v.clone());
        Ok(())
    }
    if !matches!(&args[0], Value::Array(r) if r.meta().is_ok_and(|a| a.is_cell())) {
        rt_bail!("lincell: expected a cell, got {}", args[0].kind_name());
    }
    let mut leaves = Vec::new();
    walk(&args[0], 0, &mut leaves)?;
    Ok(Value::array(Array::cell(vec![leaves.len()], leaves)))
}

fn object(_ctx: &mut Ctx, _args: &[Value]) -> RtResult<Value> {
    Ok(Value::Object(Rc::new(RefCell::new(Object::default()))))
}

/// The value as an array: arrays are copied, scalars become one-element vectors.
pub(super) fn to_array(name: &str, v: &Value, prec: Prec) -> RtResult<Array> {
    Ok(match v {
        Value::Array(r) => r
            .try_borrow()
            .map_err(|_| crate::RtError::new(format!("{name}: array is being modified")))?
            .to_array(),
        Value::Real(x) => Array::new(vec![1], real_buffer(prec, vec![*x])),
        Value::Int(x, t) => Array::new(vec![1], int_buffer(*t, vec![*x])),
        Value::Complex(z) => Array::new(vec![1], complex_buffer(prec, vec![*z])),
        other => rt_bail!("{name}: expected an array, got {}", other.kind_name()),
    })
}

pub(super) static TABLE: &[Builtin] = &[
    bi("zeros", zeros, 1, usize::MAX).doc(
        "zeros(n1, n2, ...) · zeros([n1, n2, ...])",
        "An array of zeros with the given extents, one per dimension (`zeros(size(x))` for the shape of x). `zeros(N)` is a 1×N row vector, unlike MATLAB's N×N matrix. A type used as a function gives other element types: `mat[int](2, 3)`.",
        "print zeros(3), \" \", size(zeros(3))\nprint zeros(2, 3)",
        "[0,0,0] [1,3]\n[ [0,0,0],\n  [0,0,0] ]",
    ),
    bi("ones", ones, 1, usize::MAX).doc(
        "ones(n1, n2, ...) · ones([n1, n2, ...])",
        "An array of ones with the given extents (as `zeros`).",
        "print ones(2, 2)",
        "[ [1,1],\n  [1,1] ]",
    ),
    bi("uninit", uninit, 1, usize::MAX).doc(
        "uninit(n1, n2, ...)",
        "An array of the given extents whose contents the program will overwrite (Blazar fills it with zeros); as `zeros`, named for what the program means.",
        "x = uninit(3)\nx[:] = 7\nprint x",
        "[7,7,7]",
    ),
    bi("eye", eye, 1, 2).doc(
        "eye(n) · eye(m, n)",
        "The n×n identity matrix (m×n: ones on the main diagonal).",
        "print eye(2)\nprint eye(2, 3)",
        "[ [1,0],\n  [0,1] ]\n[ [1,0,0],\n  [0,1,0] ]",
    ),
    bi("linspace", linspace, 3, 3).doc(
        "linspace(a, b, n)",
        "A row vector of n evenly spaced values from a to b, both included.",
        "print linspace(0, 1, 5)",
        "[0,0.25,0.5,0.75,1]",
    ),
    bi("logspace", logspace, 2, 3).doc(
        "logspace(a, b) · logspace(a, b, n)",
        "n (default 50) values from 10^a to 10^b, evenly spaced in the exponent (MATLAB's `logspace`).",
        "print logspace(0, 2, 3)",
        "[1,10,100]",
    ),
    bi("cell", cell, 1, usize::MAX).doc(
        "cell(n1, n2, ...)",
        "A cell array of the given extents, whose elements can be values of any type (they start as 0). Index it with brackets, like an array.",
        "c = cell(2)\nc[0] = \"text\"\nc[1] = [1, 2]\nprint c[0], \" \", c[1]",
        "text [1,2]",
    ),
    bi("copy", copy, 1, 1).doc(
        "copy(x)",
        "An independent copy of array x: assignment shares an array (as in NumPy), and `copy` is how to get one that changes alone.",
        "a = [1, 2]\nb = copy(a)\nb[0] = 9\nprint a, \" \", b",
        "[1,2] [9,2]",
    ),
    bi("deepcopy", deepcopy, 1, 1).doc(
        "deepcopy(x)",
        "A copy of x that also copies the arrays, cells and objects inside cells and objects, so nothing is shared with x.",
        "c = cell(1)\nc[0] = [1, 2]\nd = deepcopy(c)\nd[0][0] = 9\nprint c[0], \" \", d[0]",
        "[1,2] [9,2]",
    ),
    bi("object", object, 0, 0).doc(
        "object()",
        "A new object with no fields; assigning `o.name = value` adds a field.",
        "o = object()\no.width = 64\no.name = \"tile\"\nprint o.width, \" \", o.name",
        "64 tile",
    ),
    bi("lincell", lincell, 1, 1).doc(
        "lincell(c)",
        "The leaves of a nested cell (every element that is not itself a cell, depth first) as one flat cell vector. The leaves are shared, not copied.",
        "c = cell(2)\nc[0] = 1\nc[1] = cell(2)\nc[1][0] = 2\nc[1][1] = 3\nprint lincell(c)",
        "{1, 2, 3}",
    ),
];

#[cfg(test)]
mod tests;
