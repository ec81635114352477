//! Vector math for strips: glibc's vector math library (`libmvec`, found at run time),
//! whose SSE variants take and give a whole strip (four `f32` or two `f64` lanes in one
//! register), so `atan2`, `exp`, `.^ 0.45`, ... cost a call per strip instead of one
//! per element.
//!
//! These are the functions the C++ tier's loops call where the library is installed
//! (`blazar-codegen-c`'s prelude under `BZ_MVEC`), with the same bound: within 4 ulp of
//! the libm function the interpreter calls (glibc's documented bound). Without the
//! library, under `BLAZAR_NO_MVEC` or after [`set_deterministic`] (`blazar run
//! --deterministic`), a strip does not take a math call and such kernels run thread by
//! thread with the interpreter's own functions, bit for bit.

use blazar_kir::{MathFn, Scalar};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::OnceLock;

static DETERMINISTIC: AtomicBool = AtomicBool::new(false);

/// From now on (for kernels compiled after the call), strips call no vector math
/// function: every math call gives the interpreter's bits.
pub fn set_deterministic() {
    DETERMINISTIC.store(true, Relaxed);
}

/// The library, opened once (`None`: not installed, or turned off).
fn library() -> Option<&'static libloading::Library> {
    static LIB: OnceLock<Option<libloading::Library>> = OnceLock::new();
    LIB.get_or_init(|| {
        if std::env::var_os("BLAZAR_NO_MVEC").is_some() {
            return None;
        }
        // SAFETY: libmvec is part of glibc; loading it runs no initialiser beyond the
        // dynamic linker's choice of each function's variant for this CPU.
        unsafe { libloading::Library::new("libmvec.so.1") }.ok()
    })
    .as_ref()
}

/// libm's name of `f` on reals and its arity, for the functions with vector variants.
fn libm_name(f: MathFn) -> Option<(&'static str, usize)> {
    use MathFn::*;
    Some(match f {
        Exp => ("exp", 1),
        Exp2 => ("exp2", 1),
        Log => ("log", 1),
        Log2 => ("log2", 1),
        Log10 => ("log10", 1),
        Sin => ("sin", 1),
        Cos => ("cos", 1),
        Tan => ("tan", 1),
        Asin => ("asin", 1),
        Acos => ("acos", 1),
        Atan => ("atan", 1),
        Sinh => ("sinh", 1),
        Cosh => ("cosh", 1),
        Tanh => ("tanh", 1),
        Atan2 => ("atan2", 2),
        Hypot => ("hypot", 2),
        _ => return None,
    })
}

/// The address of the SSE variant of libm's `name` (arity `n`) on `s` (`f32`: four
/// lanes, `f64`: two), when the library has it and vector math is on.
fn variant(name: &str, n: usize, s: Scalar) -> Option<usize> {
    if DETERMINISTIC.load(Relaxed) {
        return None;
    }
    let args = "v".repeat(n);
    let sym = match s {
        Scalar::F32 => format!("_ZGVbN4{args}_{name}f"),
        Scalar::F64 => format!("_ZGVbN2{args}_{name}"),
        _ => return None,
    };
    let lib = library()?;
    // SAFETY: the symbol is a function of glibc's vector ABI (`_ZGVbN<lanes><args>_`:
    // SSE, unmasked, `n` vector arguments of `s`, a vector result); only its address is
    // taken here, and strips call it with exactly that signature.
    let f = unsafe { lib.get::<unsafe extern "C" fn()>(sym.as_bytes()) }.ok()?;
    Some(*f as usize)
}

/// Math function `f` on a strip of `s` lanes: the vector variant's address and arity.
pub(crate) fn math(f: MathFn, s: Scalar) -> Option<(usize, usize)> {
    let (name, n) = libm_name(f)?;
    variant(name, n, s).map(|a| (a, n))
}

/// `^` on a strip of `s`: `powf` on four `f32` lanes, `pow` on two `f64` lanes.
///
/// The host computes an `f32` power in f64 and rounds it once; the vector `powf` is
/// within its 4 ulp of that (the GPU makes the same choice, `codegen-c`'s `bz_pow`):
/// the f64 vector `pow` costs as much as the scalar one, several times `powf`.
pub(crate) fn pow(s: Scalar) -> Option<usize> {
    variant("pow", 2, s)
}
