//! Array memory: global views, boundary modes, offsets, gathers, scatters and atomics.
//!
//! Global buffers are shared by all work items running in parallel. A buffer that the
//! kernel never writes is read through a plain shared slice; a buffer that is written
//! (through any parameter bound to it) is accessed only through atomic views with
//! `Relaxed` ordering (plain moves on x86), and read-modify-write updates are
//! compare-and-swap loops, so parallel work items never race in the Rust sense.
//! Gathers and plain scatters whose offsets turn out consecutive copy a run instead.

use crate::ops::{apply_atomic, apply_bits, Arith};
use crate::values::LaneTy;
use blazar_kir::{AtomicOp, ReadMode, Scalar};
use blazar_runtime::Buffer;
use num_complex::{Complex32, Complex64};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::*;
use std::sync::Mutex;

/// Most dimensions an index may have (index lists are at most the array rank).
pub(crate) const MAX_DIMS: usize = 8;

/// A scalar type that global buffers hold, with its atomic counterpart.
pub(crate) trait Elem: Arith {
    type Atom: Sync;
    fn load(a: &Self::Atom) -> Self;
    fn store(a: &Self::Atom, v: Self);
    fn update(a: &Self::Atom, op: AtomicOp, v: Self);
    /// `a op x` on plain values (bitwise ops on ints only).
    fn combine(op: AtomicOp, a: Self, x: Self) -> Self {
        apply_atomic(op, a, x)
    }
    /// The largest (`max`) or smallest value: the identity of `min=` / `max=`.
    fn extreme(max: bool) -> Self;
}

macro_rules! elem_int {
    ($($t:ty, $A:ty);*) => {$(
        impl Elem for $t {
            type Atom = $A;
            #[inline(always)]
            fn load(a: &$A) -> $t { a.load(Relaxed) }
            #[inline(always)]
            fn store(a: &$A, v: $t) { a.store(v, Relaxed) }
            fn combine(op: AtomicOp, a: $t, x: $t) -> $t { apply_bits(op, a, x) }
            fn extreme(max: bool) -> $t { if max { <$t>::MAX } else { <$t>::MIN } }
            fn update(a: &$A, op: AtomicOp, v: $t) {
                match op {
                    AtomicOp::Add => { a.fetch_add(v, Relaxed); }
                    AtomicOp::Sub => { a.fetch_sub(v, Relaxed); }
                    AtomicOp::And => { a.fetch_and(v, Relaxed); }
                    AtomicOp::Or => { a.fetch_or(v, Relaxed); }
                    AtomicOp::Xor => { a.fetch_xor(v, Relaxed); }
                    AtomicOp::Min => { a.fetch_min(v, Relaxed); }
                    AtomicOp::Max => { a.fetch_max(v, Relaxed); }
                    _ => {
                        let _ = a.fetch_update(Relaxed, Relaxed, |x| Some(apply_bits(op, x, v)));
                    }
                }
            }
        }
    )*};
}
elem_int!(i8, AtomicI8; i16, AtomicI16; i32, AtomicI32; i64, AtomicI64;
          u8, AtomicU8; u16, AtomicU16; u32, AtomicU32; u64, AtomicU64);

macro_rules! elem_float {
    ($($t:ty, $A:ty);*) => {$(
        impl Elem for $t {
            type Atom = $A;
            #[inline(always)]
            fn load(a: &$A) -> $t { <$t>::from_bits(a.load(Relaxed)) }
            fn extreme(max: bool) -> $t { if max { <$t>::INFINITY } else { <$t>::NEG_INFINITY } }
            #[inline(always)]
            fn store(a: &$A, v: $t) { a.store(v.to_bits(), Relaxed) }
            fn update(a: &$A, op: AtomicOp, v: $t) {
                let _ = a.fetch_update(Relaxed, Relaxed, |x| {
                    Some(apply_atomic(op, <$t>::from_bits(x), v).to_bits())
                });
            }
        }
    )*};
}
elem_float!(f32, AtomicU32; f64, AtomicU64);

/// Serialises complex updates that are not component-wise (`*=`, `/=`, `^=`).
static COMPLEX_LOCK: Mutex<()> = Mutex::new(());

macro_rules! elem_complex {
    ($($t:ty, $f:ty, $A:ty);*) => {$(
        impl Elem for $t {
            type Atom = [$A; 2];
            fn extreme(_max: bool) -> $t { <$t>::default() }
            #[inline(always)]
            fn load(a: &[$A; 2]) -> $t {
                <$t>::new(<$f>::from_bits(a[0].load(Relaxed)), <$f>::from_bits(a[1].load(Relaxed)))
            }
            #[inline(always)]
            fn store(a: &[$A; 2], v: $t) {
                a[0].store(v.re.to_bits(), Relaxed);
                a[1].store(v.im.to_bits(), Relaxed);
            }
            fn update(a: &[$A; 2], op: AtomicOp, v: $t) {
                match op {
                    AtomicOp::Add | AtomicOp::Sub => {
                        let (re, im) = if op == AtomicOp::Add { (v.re, v.im) } else { (-v.re, -v.im) };
                        for (c, x) in a.iter().zip([re, im]) {
                            let _ = c.fetch_update(Relaxed, Relaxed, |b| {
                                Some((<$f>::from_bits(b) + x).to_bits())
                            });
                        }
                    }
                    _ => {
                        let _guard = COMPLEX_LOCK.lock().unwrap_or_else(|e| e.into_inner());
                        Self::store(a, apply_atomic(op, Self::load(a), v));
                    }
                }
            }
        }
    )*};
}
elem_complex!(Complex32, f32, AtomicU32; Complex64, f64, AtomicU64);

// The atomic views below reinterpret element storage as atomics of the same size; the
// alignments must agree too (they do on every 64-bit target).
const _: () = assert!(std::mem::align_of::<u64>() == std::mem::align_of::<AtomicU64>());
const _: () = assert!(std::mem::align_of::<i64>() == std::mem::align_of::<AtomicI64>());
const _: () = assert!(std::mem::align_of::<f64>() == std::mem::align_of::<AtomicU64>());

/// Runs `$body` with `$T` bound to a buffer element type; `$other` for bool.
macro_rules! with_elem {
    ($s:expr, $T:ident => $body:expr, $other:expr) => {
        crate::ops::with_num!($s, $T => $body, $other)
    };
}
pub(crate) use with_elem;

/// A global array for the duration of one launch.
pub(crate) struct GlobalMem {
    pub elem: Scalar,
    pub dims: Vec<usize>,
    ptr: *mut u8,
    len: usize,
    /// Some parameter bound to this buffer is stored to or updated.
    pub written: bool,
}

// SAFETY: a `GlobalMem` is built from a `&mut Buffer` that `launch` holds (and nothing
// else touches) for as long as the `GlobalMem` lives. Work items on other threads read
// it through `plain` only when no work item writes it (`written == false`), and
// otherwise only through the atomic views of `atoms`, so sharing it is race-free.
unsafe impl Send for GlobalMem {}
// SAFETY: as for `Send`.
unsafe impl Sync for GlobalMem {}

impl GlobalMem {
    /// Views `buf` (`None` for cell buffers, which kernels cannot hold).
    pub(crate) fn new(buf: &mut Buffer, dims: Vec<usize>, written: bool) -> Option<GlobalMem> {
        macro_rules! raw {
            ($v:expr, $s:ident) => {
                ($v.as_mut_ptr() as *mut u8, $v.len(), Scalar::$s)
            };
        }
        let (ptr, len, elem) = match buf {
            Buffer::F32(v) => raw!(v, F32),
            Buffer::F64(v) => raw!(v, F64),
            Buffer::C32(v) => raw!(v, C32),
            Buffer::C64(v) => raw!(v, C64),
            Buffer::I8(v) => raw!(v, I8),
            Buffer::I16(v) => raw!(v, I16),
            Buffer::I32(v) => raw!(v, I32),
            Buffer::I64(v) => raw!(v, I64),
            Buffer::U8(v) => raw!(v, U8),
            Buffer::U16(v) => raw!(v, U16),
            Buffer::U32(v) => raw!(v, U32),
            Buffer::U64(v) => raw!(v, U64),
            Buffer::Cell(_) => return None,
        };
        Some(GlobalMem {
            elem,
            dims,
            ptr,
            len,
            written,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The elements as a plain slice: only for buffers that no work item writes.
    pub(crate) fn plain<T: Elem>(&self) -> &[T] {
        if T::SCALAR != self.elem || self.written {
            return &[];
        }
        // SAFETY: `ptr` points to `len` initialised elements of type `T` (checked just
        // above) inside a buffer that outlives `self`; no work item writes it during
        // the launch (`written == false`), so shared reads cannot race.
        unsafe { std::slice::from_raw_parts(self.ptr as *const T, self.len) }
    }

    /// The elements as atomics: every access to a written buffer goes through this.
    pub(crate) fn atoms<T: Elem>(&self) -> &[T::Atom] {
        if T::SCALAR != self.elem || std::mem::size_of::<T::Atom>() != std::mem::size_of::<T>() {
            return &[];
        }
        // SAFETY: `T::Atom` has the size of `T` (checked above) and its alignment (the
        // integer atomics match their integers, float and complex atoms use the atomic
        // of the same-sized integer; see the const asserts), and any bit pattern of `T`
        // is a valid atomic integer. The buffer outlives `self` and is accessed only
        // through these atomics while a work item may write it.
        unsafe { std::slice::from_raw_parts(self.ptr as *const T::Atom, self.len) }
    }
}

/// The logical shape used to index `dims` with `k` indices: dims left-padded with 1s
/// when `k` exceeds their number, trailing dims folded into the last index otherwise
/// (one index is linear).
pub(crate) fn index_shape(dims: &[usize], k: usize, out: &mut [usize; MAX_DIMS]) {
    let r = dims.len();
    if k >= r {
        for (i, o) in out.iter_mut().enumerate().take(k) {
            *o = if i < k - r { 1 } else { dims[i - (k - r)] };
        }
    } else {
        out[..k - 1].copy_from_slice(&dims[..k - 1]);
        out[k - 1] = dims[k - 1..].iter().product();
    }
}

/// An index value of any integer type.
pub(crate) trait Idx: LaneTy {
    fn to_i64(self) -> i64;
}
macro_rules! idx {
    ($($t:ty),*) => {$( impl Idx for $t { #[inline(always)] fn to_i64(self) -> i64 { self as i64 } } )*};
}
idx!(i8, i16, i32, i64, u8, u16, u32, u64);

/// Folds index `i` into `off` for a dimension of extent `n` under a read mode; clears
/// `ok` when the index is outside and the mode does not remap it.
#[inline(always)]
fn fold_one(mode: ReadMode, i: i64, n: usize, off: &mut usize, ok: &mut bool) {
    let n64 = n as i64;
    let j = if (i as u64) < n as u64 {
        i
    } else {
        match mode {
            _ if n == 0 => {
                *ok = false;
                0
            }
            ReadMode::Clamped => i.clamp(0, n64 - 1),
            ReadMode::Circular => i.rem_euclid(n64),
            ReadMode::Mirror => {
                let j = i.unsigned_abs() % (2 * n as u64);
                let j = if j >= n as u64 {
                    2 * n as u64 - 1 - j
                } else {
                    j
                };
                j as i64
            }
            _ => {
                *ok = false;
                0
            }
        }
    };
    *off = off.wrapping_mul(n).wrapping_add(j as usize);
}

fn fold_dim<I: Idx>(mode: ReadMode, idx: &[I], n: usize, off: &mut [usize], ok: &mut [bool]) {
    let len = off.len();
    let (idx, ok) = (&idx[..len], &mut ok[..len]);
    if matches!(
        mode,
        ReadMode::Zero | ReadMode::Checked | ReadMode::Unchecked
    ) {
        // Branch-free, so that it vectorises.
        for l in 0..len {
            let i = idx[l].to_i64();
            let inside = (i as u64) < n as u64;
            ok[l] &= inside;
            off[l] = off[l].wrapping_mul(n).wrapping_add(i as usize);
        }
    } else {
        for l in 0..len {
            fold_one(mode, idx[l].to_i64(), n, &mut off[l], &mut ok[l]);
        }
    }
}

/// Computes the element offset of every lane (`ok[l]` false: outside and not remapped)
/// for the index registers `idx` of `regs`.
pub(crate) fn offsets(
    mode: ReadMode,
    shape: &[usize],
    regs: &[crate::values::Lanes],
    idx: &[u32],
    off: &mut [usize],
    ok: &mut [bool],
) {
    let plain = matches!(
        mode,
        ReadMode::Zero | ReadMode::Checked | ReadMode::Unchecked
    );
    let mut first = true;
    for (&n, &r) in shape.iter().zip(idx) {
        let ix = &regs[r as usize];
        if std::mem::take(&mut first) {
            if plain && ix.scalar() == Scalar::I32 {
                // The first dimension sets the offsets (no fill, no multiply).
                let len = off.len();
                let (iv, ok) = (&i32::get(ix)[..len], &mut ok[..len]);
                for ((o, k), &i) in off.iter_mut().zip(ok.iter_mut()).zip(iv) {
                    *k = (i as i64 as u64) < n as u64;
                    *o = i as i64 as usize;
                }
                continue;
            }
            off.fill(0);
            ok.fill(true);
        }
        crate::ops::with_int!(ix.scalar(), I => fold_dim(mode, I::get(ix), n, off, ok), {
            ok.fill(false)
        });
    }
    if first {
        off.fill(0);
        ok.fill(true);
    }
}

/// Offset of one lane's index (`Err((dim, index))` when outside and not remapped).
pub(crate) fn offset_one(
    mode: ReadMode,
    shape: &[usize],
    idx: &[i64],
) -> Result<usize, (usize, i64)> {
    let mut off = 0usize;
    for (d, (&n, &i)) in shape.iter().zip(idx).enumerate() {
        let mut ok = true;
        fold_one(mode, i, n, &mut off, &mut ok);
        if !ok {
            return Err((d, i));
        }
    }
    Ok(off)
}

/// The message of a `'checked` violation.
pub(crate) fn oob_message(i: i64, dim: usize, n: usize) -> String {
    blazar_launch::out_of_bounds_message(i, dim, n)
}

/// `d[l] = buf[off[l]]` (0 where `!ok[l]`).
pub(crate) fn gather_global<T: Elem>(g: &GlobalMem, d: &mut [T], off: &[usize], ok: &[bool]) {
    let n = d.len();
    let (off, ok) = (&off[..n], &ok[..n]);
    if let Some(base) = run_start(off, ok) {
        if base.checked_add(n).is_some_and(|e| e <= g.len()) {
            return gather_contiguous(g, d, base);
        }
    }
    if !g.written {
        let src = g.plain::<T>();
        for l in 0..n {
            d[l] = if ok[l] {
                src.get(off[l]).copied().unwrap_or_default()
            } else {
                T::default()
            };
        }
    } else {
        let src = g.atoms::<T>();
        for l in 0..n {
            d[l] = if ok[l] {
                src.get(off[l]).map_or(T::default(), T::load)
            } else {
                T::default()
            };
        }
    }
}

/// The first offset when every lane is inside and the offsets run consecutively
/// (checked branch-free, so that it vectorises).
fn run_start(off: &[usize], ok: &[bool]) -> Option<usize> {
    let b = *off.first()?;
    // Most non-contiguous patterns fail at the ends: reject them without a pass.
    if *off.last()? != b.wrapping_add(off.len() - 1) {
        return None;
    }
    let bad = (off.iter().enumerate()).fold(false, |a, (l, &o)| a | (o != b.wrapping_add(l)));
    let out = ok.iter().fold(false, |a, &k| a | !k);
    (!bad && !out).then_some(b)
}

/// `d[l] = buf[base + l]` for a contiguous run inside the buffer.
pub(crate) fn gather_contiguous<T: Elem>(g: &GlobalMem, d: &mut [T], base: usize) {
    let n = d.len();
    if !g.written {
        if let Some(src) = g.plain::<T>().get(base..base + n) {
            d.copy_from_slice(src);
        }
    } else if let Some(src) = g.atoms::<T>().get(base..base + n) {
        for (x, a) in d.iter_mut().zip(src) {
            *x = T::load(a);
        }
    }
}

/// `buf[base + l] = v[l]` for active lanes of a contiguous run.
pub(crate) fn scatter_contiguous<T: Elem>(
    g: &GlobalMem,
    v: &[T],
    base: usize,
    mask: &[bool],
    full: bool,
) {
    let n = v.len();
    if let Some(dst) = g.atoms::<T>().get(base..base + n) {
        if full {
            for (a, &x) in dst.iter().zip(v) {
                T::store(a, x);
            }
        } else {
            for l in 0..n {
                if mask[l] {
                    T::store(&dst[l], v[l]);
                }
            }
        }
    }
}

/// `buf[off[l]] = v[l]` (or `op=`) for active lanes inside the array.
pub(crate) fn scatter_global<T: Elem>(
    g: &GlobalMem,
    v: &[T],
    off: &[usize],
    ok: &[bool],
    mask: &[bool],
    op: Option<AtomicOp>,
) {
    let n = v.len();
    let (off, ok, mask) = (&off[..n], &ok[..n], &mask[..n]);
    if let (None, Some(base)) = (op, run_start(off, ok)) {
        if base.checked_add(n).is_some_and(|e| e <= g.len()) {
            let full = mask.iter().all(|&m| m);
            return scatter_contiguous(g, v, base, mask, full);
        }
    }
    let dst = g.atoms::<T>();
    for l in 0..n {
        if mask[l] && ok[l] {
            if let Some(a) = dst.get(off[l]) {
                match op {
                    None => T::store(a, v[l]),
                    Some(op) => T::update(a, op, v[l]),
                }
            }
        }
    }
}

/// `dst[off[l]] = f(dst[off[l]], v[l])` for active lanes inside a plain (work-item
/// private) store: shared or local memory. Lanes go in order, so updates are atomic.
pub(crate) fn scatter_plain<T: Copy>(
    dst: &mut [T],
    v: &[T],
    off: &[usize],
    ok: &[bool],
    mask: &[bool],
    f: impl Fn(T, T) -> T,
) {
    let n = v.len();
    let (off, ok, mask) = (&off[..n], &ok[..n], &mask[..n]);
    for l in 0..n {
        if mask[l] && ok[l] {
            if let Some(a) = dst.get_mut(off[l]) {
                *a = f(*a, v[l]);
            }
        }
    }
}

/// `d[l] = src[off[l]]` from a plain store (0 where `!ok[l]`).
pub(crate) fn gather_plain<T: Copy + Default>(src: &[T], d: &mut [T], off: &[usize], ok: &[bool]) {
    let n = d.len();
    let (off, ok) = (&off[..n], &ok[..n]);
    for l in 0..n {
        d[l] = if ok[l] {
            src.get(off[l]).copied().unwrap_or_default()
        } else {
            T::default()
        };
    }
}
