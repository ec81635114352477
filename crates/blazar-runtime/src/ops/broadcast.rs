//! Element-wise evaluation of two operands with numpy-style broadcasting, shared by the
//! operators and by two-argument builtins (`mod`, `max`, `atan2`, ...).
//!
//! A [`Kernel2`] gives one scalar function per result class (int, real, complex); the
//! engine picks the class from the operands, converts them once and runs a tight,
//! monomorphised loop. F32 data at single precision is processed without conversion.

use crate::array::{Array, Buffer};
use crate::value::{IntTy, Prec, Value};
use crate::{RtError, RtResult};
use num_complex::{Complex32, Complex64};
use std::borrow::Cow;

type C = Complex64;

/// What complex operands do with a kernel.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum CplxMode {
    /// Complex operands are an error.
    Unsupported,
    /// The result is complex ([`Kernel2::cplx`]).
    Complex,
    /// The result is real ([`Kernel2::cplx_real`], e.g. comparisons).
    Real,
}

/// Scalar functions of one element-wise operation.
pub(crate) trait Kernel2 {
    /// Whether two int operands give an int result ([`Kernel2::int`]).
    const INT: bool = false;
    const CPLX: CplxMode = CplxMode::Unsupported;
    /// Int operation on the stored i64 values; the engine wraps the result to `t`.
    fn int(_a: i64, _b: i64, _t: IntTy) -> i64 {
        0
    }
    fn real(a: f64, b: f64) -> f64;
    /// The same on f32 data; the default computes in f64 and rounds, which is exact for
    /// the basic operations.
    #[inline(always)]
    fn f32(a: f32, b: f32) -> f32 {
        Self::real(a as f64, b as f64) as f32
    }
    fn cplx(_a: C, _b: C) -> C {
        C::default()
    }
    fn cplx_real(_a: C, _b: C) -> f64 {
        0.0
    }
}

/// Who is evaluating, for error messages.
#[derive(Clone, Copy)]
pub(crate) enum Who<'a> {
    Op(&'a str),
    Func(&'a str),
}

impl Who<'_> {
    pub(crate) fn bad_kinds(self, a: &Value, b: &Value) -> RtError {
        match self {
            Who::Op(s) => RtError::new(format!(
                "operator `{s}` cannot be applied to {} and {}",
                a.kind_name(),
                b.kind_name()
            )),
            Who::Func(f) => {
                let bad = if numeric_class(a).is_none() { a } else { b };
                RtError::new(format!(
                    "{f}: expected numbers or numeric arrays, got {}",
                    bad.kind_name()
                ))
            }
        }
    }

    fn no_complex(self) -> RtError {
        match self {
            Who::Op(s) => RtError::new(format!(
                "operator `{s}` cannot be applied to complex numbers"
            )),
            Who::Func(f) => RtError::new(format!("{f}: complex arguments are not supported")),
        }
    }
}

/// Numeric class of an operand or result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    Int(IntTy),
    Real,
    Complex,
}

/// The class of a numeric scalar or array value; `None` for anything else.
pub(crate) fn numeric_class(v: &Value) -> Option<Class> {
    match v {
        Value::Real(_) => Some(Class::Real),
        Value::Int(_, t) => Some(Class::Int(*t)),
        Value::Complex(_) => Some(Class::Complex),
        Value::Array(a) => {
            let a = a.try_borrow().ok()?;
            match a.buf() {
                Buffer::Cell(_) => None,
                Buffer::F32(_) | Buffer::F64(_) => Some(Class::Real),
                Buffer::C32(_) | Buffer::C64(_) => Some(Class::Complex),
                _ => match a.elem() {
                    crate::ElemType::Int(t) => Some(Class::Int(t)),
                    _ => None,
                },
            }
        }
        _ => None,
    }
}

/// The int type of a result combining two int types.
pub(crate) fn common_int(a: IntTy, b: IntTy) -> IntTy {
    use blazar_ops::promote::CommonInt;
    let wide = |t: IntTy| matches!(t, IntTy::I64 | IntTy::U64);
    match blazar_ops::promote::common_int(a == b, wide(a), wide(b)) {
        CommonInt::Same => a,
        CommonInt::I64 => IntTy::I64,
        CommonInt::I32 => IntTy::I32,
    }
}

/// Builds an int buffer of type `t` from wrapped i64 values.
pub(crate) fn int_buffer(t: IntTy, v: Vec<i64>) -> Buffer {
    match t {
        IntTy::I8 => Buffer::I8(v.into_iter().map(|x| x as i8).collect()),
        IntTy::I16 => Buffer::I16(v.into_iter().map(|x| x as i16).collect()),
        IntTy::I32 => Buffer::I32(v.into_iter().map(|x| x as i32).collect()),
        IntTy::I64 => Buffer::I64(v),
        IntTy::U8 => Buffer::U8(v.into_iter().map(|x| x as u8).collect()),
        IntTy::U16 => Buffer::U16(v.into_iter().map(|x| x as u16).collect()),
        IntTy::U32 => Buffer::U32(v.into_iter().map(|x| x as u32).collect()),
        IntTy::U64 => Buffer::U64(v.into_iter().map(|x| x as u64).collect()),
    }
}

/// A real buffer at precision `prec` from f64 values (rounded by the f32 cast).
pub(crate) fn real_buffer(prec: Prec, v: Vec<f64>) -> Buffer {
    match prec {
        Prec::Single => Buffer::F32(v.into_iter().map(|x| x as f32).collect()),
        Prec::Double => Buffer::F64(v),
    }
}

pub(crate) fn complex_buffer(prec: Prec, v: Vec<C>) -> Buffer {
    match prec {
        Prec::Single => Buffer::C32(
            v.into_iter()
                .map(|z| Complex32::new(z.re as f32, z.im as f32))
                .collect(),
        ),
        Prec::Double => Buffer::C64(v),
    }
}

/// The elements of an int buffer as stored i64 values (u64 as its bit pattern).
pub(crate) fn ints_of(buf: &Buffer) -> Cow<'_, [i64]> {
    match buf {
        Buffer::I64(v) => Cow::Borrowed(v),
        Buffer::I8(v) => Cow::Owned(v.iter().map(|&x| x as i64).collect()),
        Buffer::I16(v) => Cow::Owned(v.iter().map(|&x| x as i64).collect()),
        Buffer::I32(v) => Cow::Owned(v.iter().map(|&x| x as i64).collect()),
        Buffer::U8(v) => Cow::Owned(v.iter().map(|&x| x as i64).collect()),
        Buffer::U16(v) => Cow::Owned(v.iter().map(|&x| x as i64).collect()),
        Buffer::U32(v) => Cow::Owned(v.iter().map(|&x| x as i64).collect()),
        Buffer::U64(v) => Cow::Owned(v.iter().map(|&x| x as i64).collect()),
        other => Cow::Owned((0..other.len()).map(|i| other.get_f64(i) as i64).collect()),
    }
}

/// The elements of a numeric buffer as reals (real parts of complex elements).
pub(crate) fn reals_of(buf: &Buffer) -> Cow<'_, [f64]> {
    match buf {
        Buffer::F64(v) => Cow::Borrowed(v),
        Buffer::F32(v) => Cow::Owned(v.iter().map(|&x| x as f64).collect()),
        other => Cow::Owned((0..other.len()).map(|i| other.get_f64(i)).collect()),
    }
}

pub(crate) fn complexes_of(buf: &Buffer) -> Cow<'_, [C]> {
    match buf {
        Buffer::C64(v) => Cow::Borrowed(v),
        other => Cow::Owned((0..other.len()).map(|i| other.get_c(i)).collect()),
    }
}

/// One side of an element-wise operation: a scalar or an array borrow.
pub(crate) enum Side<'a> {
    Int(i64, IntTy),
    Real(f64),
    Complex(C),
    Arr(crate::ArrRead<'a>),
}

impl<'a> Side<'a> {
    fn of(v: &'a Value) -> Option<Side<'a>> {
        Some(match v {
            Value::Real(x) => Side::Real(*x),
            Value::Int(x, t) => Side::Int(*x, *t),
            Value::Complex(z) => Side::Complex(*z),
            Value::Array(a) => Side::Arr(a.try_borrow().ok()?),
            _ => return None,
        })
    }

    fn dims(&self) -> &[usize] {
        match self {
            Side::Arr(a) => a.dims(),
            _ => &[],
        }
    }

    fn src_f64(&self) -> Src<'_, f64> {
        match self {
            Side::Int(x, t) => Src::One(t.to_f64(*x)),
            Side::Real(x) => Src::One(*x),
            Side::Complex(z) => Src::One(z.re),
            Side::Arr(a) => Src::Many(reals_of(a.buf())),
        }
    }

    fn src_i64(&self) -> Src<'_, i64> {
        match self {
            Side::Int(x, _) => Src::One(*x),
            Side::Real(x) => Src::One(*x as i64),
            Side::Complex(z) => Src::One(z.re as i64),
            Side::Arr(a) => Src::Many(ints_of(a.buf())),
        }
    }

    fn src_c(&self) -> Src<'_, C> {
        match self {
            Side::Int(x, t) => Src::One(C::new(t.to_f64(*x), 0.0)),
            Side::Real(x) => Src::One(C::new(*x, 0.0)),
            Side::Complex(z) => Src::One(*z),
            Side::Arr(a) => Src::Many(complexes_of(a.buf())),
        }
    }

    /// The operand as f32 data when that loses nothing.
    fn src_f32(&self) -> Option<Src<'_, f32>> {
        let exact = |x: f64| (x as f32 as f64 == x || x.is_nan()).then_some(x as f32);
        match self {
            Side::Int(x, t) => exact(t.to_f64(*x)).map(Src::One),
            Side::Real(x) => exact(*x).map(Src::One),
            Side::Complex(_) => None,
            Side::Arr(a) => match a.buf() {
                Buffer::F32(v) => Some(Src::Many(Cow::Borrowed(v))),
                _ => None,
            },
        }
    }
}

/// Element source: a broadcast scalar or one value per element.
pub(crate) enum Src<'a, T: Clone> {
    One(T),
    Many(Cow<'a, [T]>),
}

/// Broadcast layout of two operands.
pub(crate) struct Plan {
    pub dims: Vec<usize>,
    pub n: usize,
    /// Per-dimension element strides of each operand (0 where it broadcasts).
    sa: Vec<usize>,
    sb: Vec<usize>,
}

fn fmt_dims(d: &[usize]) -> String {
    let parts: Vec<String> = d.iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(","))
}

/// The size of an array dims list as `size()` reports it (`[1,N]` for a vec).
fn size_of(d: &[usize]) -> Vec<usize> {
    if d.len() == 1 {
        vec![1, d[0]]
    } else {
        d.to_vec()
    }
}

fn strides(d: &[usize], out: &[usize]) -> Vec<usize> {
    let r = out.len();
    let padded = if d.is_empty() {
        vec![1usize; r]
    } else {
        blazar_ops::broadcast::aligned(d, r)
    };
    let mut s = vec![0usize; r];
    let mut acc = 1usize;
    for k in (0..r).rev() {
        s[k] = if padded[k] == 1 { 0 } else { acc };
        acc = acc.saturating_mul(padded[k]);
    }
    s
}

impl Plan {
    /// Broadcasts dims `a` and `b` (empty for a scalar), leading dimensions aligned
    /// (`blazar_ops::broadcast::shape`).
    pub(crate) fn new(a: &[usize], b: &[usize]) -> RtResult<Plan> {
        let Some(mut dims) = blazar_ops::broadcast::shape(a, b) else {
            return Err(RtError::new(format!(
                "cannot combine arrays of size {} and {}",
                fmt_dims(&size_of(a)),
                fmt_dims(&size_of(b))
            )));
        };
        if dims.is_empty() {
            dims = vec![1];
        }
        // Results are probed as 8-byte elements (complex ones take 16, rarely so large).
        let n = crate::alloc::result(&dims, 8)?;
        let (sa, sb) = (strides(a, &dims), strides(b, &dims));
        Ok(Plan { dims, n, sa, sb })
    }

    /// Evaluates `f` over all output elements.
    pub(crate) fn zip<A: Copy, B: Copy, R>(
        &self,
        a: &Src<A>,
        b: &Src<B>,
        f: impl Fn(A, B) -> R,
    ) -> Vec<R> {
        let n = self.n;
        match (a, b) {
            (Src::One(x), Src::One(y)) => (0..n).map(|_| f(*x, *y)).collect(),
            (Src::Many(x), Src::One(y)) if x.len() == n => x.iter().map(|&x| f(x, *y)).collect(),
            (Src::One(x), Src::Many(y)) if y.len() == n => y.iter().map(|&y| f(*x, y)).collect(),
            (Src::Many(x), Src::Many(y)) if x.len() == n && y.len() == n => {
                x.iter().zip(y.iter()).map(|(&x, &y)| f(x, y)).collect()
            }
            _ => self.zip_general(a, b, f),
        }
    }

    fn zip_general<A: Copy, B: Copy, R>(
        &self,
        a: &Src<A>,
        b: &Src<B>,
        f: impl Fn(A, B) -> R,
    ) -> Vec<R> {
        let zero = vec![0usize; self.dims.len()];
        let (xa, sa): (&[A], &[usize]) = match a {
            Src::One(v) => (std::slice::from_ref(v), &zero),
            Src::Many(c) => (c, &self.sa),
        };
        let (xb, sb): (&[B], &[usize]) = match b {
            Src::One(v) => (std::slice::from_ref(v), &zero),
            Src::Many(c) => (c, &self.sb),
        };
        let mut out = Vec::with_capacity(self.n);
        let r = self.dims.len();
        let last = self.dims[r - 1];
        if self.n == 0 || last == 0 {
            return out;
        }
        let (la, lb) = (sa[r - 1], sb[r - 1]);
        let mut idx = vec![0usize; r - 1];
        let (mut oa, mut ob) = (0usize, 0usize);
        for _ in 0..self.n / last {
            for j in 0..last {
                let (ia, ib) = (oa + j * la, ob + j * lb);
                match (xa.get(ia), xb.get(ib)) {
                    (Some(&x), Some(&y)) => out.push(f(x, y)),
                    _ => return out, // unreachable with a valid plan
                }
            }
            for k in (0..r - 1).rev() {
                idx[k] += 1;
                oa += sa[k];
                ob += sb[k];
                if idx[k] < self.dims[k] {
                    break;
                }
                oa -= sa[k] * self.dims[k];
                ob -= sb[k] * self.dims[k];
                idx[k] = 0;
            }
        }
        out
    }
}

fn finish(plan: Plan, scalar: bool, buf: Buffer) -> Value {
    if scalar {
        buf.get_value(0)
    } else {
        Value::array(Array::new(plan.dims, buf))
    }
}

/// [`run`] of two real or int scalars (`mod(i, 7)` in a host loop): the value its
/// one-element buffers would give, by the same rules in the same order, without them.
#[inline]
fn run_scalars<S: Scalars>(k: &S, a: &Value, b: &Value, prec: Prec) -> Option<Value> {
    let real = |v: &Value| match v {
        Value::Real(x) => Some(*x),
        Value::Int(x, t) => Some(t.to_f64(*x)),
        _ => None,
    };
    let (x, y) = (real(a)?, real(b)?);
    if let (true, Value::Int(p, ta), Value::Int(q, tb)) = (S::INT, a, b) {
        let t = common_int(*ta, *tb);
        return Some(Value::Int(t.wrap(k.int(*p, *q, t)), t));
    }
    let exact = |x: f64| (x as f32 as f64 == x || x.is_nan()).then_some(x as f32);
    Some(Value::Real(match prec {
        Prec::Single => match (exact(x), exact(y)) {
            (Some(p), Some(q)) => k.f32(p, q) as f64,
            _ => k.real(x, y) as f32 as f64,
        },
        Prec::Double => k.real(x, y),
    }))
}

/// The scalar functions [`run`] applies: a [`Kernel2`]'s, or a function of reals.
trait Scalars {
    const INT: bool;
    const CPLX: CplxMode;
    fn int(&self, a: i64, b: i64, t: IntTy) -> i64;
    fn real(&self, a: f64, b: f64) -> f64;
    fn f32(&self, a: f32, b: f32) -> f32;
    fn cplx(&self, a: C, b: C) -> C;
    fn cplx_real(&self, a: C, b: C) -> f64;
}

struct Static<K>(std::marker::PhantomData<K>);

impl<K: Kernel2> Scalars for Static<K> {
    const INT: bool = K::INT;
    const CPLX: CplxMode = K::CPLX;
    #[inline(always)]
    fn int(&self, a: i64, b: i64, t: IntTy) -> i64 {
        K::int(a, b, t)
    }
    #[inline(always)]
    fn real(&self, a: f64, b: f64) -> f64 {
        K::real(a, b)
    }
    #[inline(always)]
    fn f32(&self, a: f32, b: f32) -> f32 {
        K::f32(a, b)
    }
    #[inline(always)]
    fn cplx(&self, a: C, b: C) -> C {
        K::cplx(a, b)
    }
    #[inline(always)]
    fn cplx_real(&self, a: C, b: C) -> f64 {
        K::cplx_real(a, b)
    }
}

/// A function of reals (ints converted; complex operands are an error), computed in f64.
/// A function of two reals in f64 and in f32; under single precision the f32 one
/// computes (as kernels do), so host and kernels give the same bits.
struct RealFn(fn(f64, f64) -> f64, fn(f32, f32) -> f32, bool);

impl Scalars for RealFn {
    const INT: bool = false;
    const CPLX: CplxMode = CplxMode::Unsupported;
    fn int(&self, _a: i64, _b: i64, _t: IntTy) -> i64 {
        0
    }
    fn real(&self, a: f64, b: f64) -> f64 {
        if self.2 {
            (self.1)(a as f32, b as f32) as f64
        } else {
            (self.0)(a, b)
        }
    }
    fn f32(&self, a: f32, b: f32) -> f32 {
        (self.1)(a, b)
    }
    fn cplx(&self, _a: C, _b: C) -> C {
        C::default()
    }
    fn cplx_real(&self, _a: C, _b: C) -> f64 {
        0.0
    }
}

/// Applies kernel `K` element-wise to `a` and `b` with broadcasting.
pub(crate) fn elementwise<K: Kernel2>(
    who: Who,
    a: &Value,
    b: &Value,
    prec: Prec,
) -> RtResult<Value> {
    run(&Static::<K>(std::marker::PhantomData), who, a, b, prec)
}

/// Applies a function of two reals element-wise with broadcasting (`atan2`, a row of
/// `blazar_ops::MATH`): ints compute as reals, complex operands are an error.
pub(crate) fn elementwise_real(
    who: Who,
    f: fn(f64, f64) -> f64,
    f32: fn(f32, f32) -> f32,
    a: &Value,
    b: &Value,
    prec: Prec,
) -> RtResult<Value> {
    run(&RealFn(f, f32, prec == Prec::Single), who, a, b, prec)
}

fn run<S: Scalars>(k: &S, who: Who, a: &Value, b: &Value, prec: Prec) -> RtResult<Value> {
    if let Some(v) = run_scalars(k, a, b, prec) {
        return Ok(v);
    }
    let (ca, cb) = match (numeric_class(a), numeric_class(b)) {
        (Some(x), Some(y)) => (x, y),
        _ => return Err(who.bad_kinds(a, b)),
    };
    let (sa, sb) = match (Side::of(a), Side::of(b)) {
        (Some(x), Some(y)) => (x, y),
        _ => return Err(who.bad_kinds(a, b)),
    };
    let scalar = a.is_scalar() && b.is_scalar();
    let plan = Plan::new(sa.dims(), sb.dims())?;
    let out = if ca == Class::Complex || cb == Class::Complex {
        let (xa, xb) = (sa.src_c(), sb.src_c());
        match S::CPLX {
            CplxMode::Unsupported => return Err(who.no_complex()),
            CplxMode::Complex => {
                let v = plan.zip(&xa, &xb, |x, y| k.cplx(x, y));
                complex_buffer(prec, v.into_iter().map(|z| prec.round_c(z)).collect())
            }
            CplxMode::Real => real_buffer(prec, plan.zip(&xa, &xb, |x, y| k.cplx_real(x, y))),
        }
    } else if let (true, Class::Int(ta), Class::Int(tb)) = (S::INT, ca, cb) {
        let t = common_int(ta, tb);
        let v = plan.zip(&sa.src_i64(), &sb.src_i64(), |x, y| t.wrap(k.int(x, y, t)));
        int_buffer(t, v)
    } else if let (Prec::Single, Some(xa), Some(xb)) = (prec, sa.src_f32(), sb.src_f32()) {
        Buffer::F32(plan.zip(&xa, &xb, |x, y| k.f32(x, y)))
    } else {
        let (xa, xb) = (sa.src_f64(), sb.src_f64());
        match prec {
            Prec::Single => Buffer::F32(plan.zip(&xa, &xb, |x, y| k.real(x, y) as f32)),
            Prec::Double => Buffer::F64(plan.zip(&xa, &xb, |x, y| k.real(x, y))),
        }
    };
    Ok(finish(plan, scalar, out))
}
