//! NVRTC: CUDA C++ source to a cubin for one GPU architecture.
//!
//! A cubin (not PTX) loads in about 0.1 ms and never needs the driver's JIT, which also
//! fails when NVRTC is newer than the driver (DESIGN.md §3). This module needs only
//! `libnvrtc`, not a GPU, so `blazar run --check-cuda` and CI use it too.

use blazar_codegen_c::cuda::NVRTC_OPTIONS;
use cudarc::nvrtc::{result, sys};
use std::ffi::CString;

/// Whether `libnvrtc` can be loaded (cudarc panics on first use otherwise).
pub fn nvrtc_present() -> bool {
    // SAFETY: only tries to open the shared library; no NVRTC call is made.
    unsafe { sys::is_culib_present() }
}

/// The NVRTC version `(major, minor)`.
pub fn nvrtc_version() -> Result<(i32, i32), String> {
    let (mut major, mut minor) = (0, 0);
    // SAFETY: two valid out-pointers; the library is present (checked by callers).
    unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
        .result()
        .map_err(|e| format!("nvrtcVersion failed: {e:?}"))?;
    Ok((major, minor))
}

/// Set by [`set_deterministic`] (`blazar run --deterministic`).
static DETERMINISTIC: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Compile kernels as close to the CPU's results as CUDA allows: no multiply-add
/// contraction (`-fmad=false`) and f32 powers computed as the CPU computes them, so `+ - * /` and `sqrt` round as on the CPU (NVRTC's
/// defaults already keep division and square roots exact and denormals). CUDA's own
/// math library (`exp`, `sin`, `pow`, ...) still differs from glibc's by its documented
/// ulp bounds. The options are part of the cache key.
pub fn set_deterministic() {
    DETERMINISTIC.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The options of a compilation for `sm_{arch}` (e.g. 90).
pub fn options(arch: u32) -> Vec<String> {
    let mut o: Vec<String> = NVRTC_OPTIONS.iter().map(|s| s.to_string()).collect();
    if DETERMINISTIC.load(std::sync::atomic::Ordering::Relaxed) {
        o.push("-fmad=false".into());
        // f32 powers in f64 rounded once, as the CPU computes them (`bz_pow`).
        o.push("-DBZ_DETERMINISTIC".into());
    }
    o.push(format!("-arch=sm_{arch}"));
    o.push("-lineinfo".into());
    o
}

/// Why a compilation failed: the compiler log (an internal error of Blazar: generated
/// code must always compile).
#[derive(Debug)]
pub struct CompileFailure {
    pub log: String,
}

/// Compiles `source` (one translation unit named `name`) to a cubin with `options`.
pub fn compile_cubin(
    source: &str,
    name: &str,
    options: &[String],
) -> Result<Vec<u8>, CompileFailure> {
    let fail = |log: String| CompileFailure { log };
    let src = CString::new(source).map_err(|_| fail("the source contains a NUL byte".into()))?;
    let cname = CString::new(name).map_err(|_| fail("bad kernel name".into()))?;
    let prog = result::create_program(&src, Some(&cname))
        .map_err(|e| fail(format!("nvrtcCreateProgram failed: {e:?}")))?;
    // SAFETY: `prog` was created above and is destroyed once, at the end.
    let out = unsafe {
        match result::compile_program(prog, options) {
            Ok(()) => cubin(prog),
            Err(_) => Err(fail(log(prog))),
        }
    };
    // SAFETY: `prog` is live and not used after this.
    let _ = unsafe { result::destroy_program(prog) };
    out
}

/// # Safety
/// `prog` must be a successfully compiled, live program.
unsafe fn cubin(prog: sys::nvrtcProgram) -> Result<Vec<u8>, CompileFailure> {
    let fail = |what: &str, e: sys::nvrtcResult| CompileFailure {
        log: format!("{what} failed: {e:?}"),
    };
    let mut size = 0usize;
    let r = sys::nvrtcGetCUBINSize(prog, &mut size);
    if r != sys::nvrtcResult::NVRTC_SUCCESS {
        return Err(fail("nvrtcGetCUBINSize", r));
    }
    let mut buf = vec![0u8; size];
    let r = sys::nvrtcGetCUBIN(prog, buf.as_mut_ptr().cast());
    if r != sys::nvrtcResult::NVRTC_SUCCESS {
        return Err(fail("nvrtcGetCUBIN", r));
    }
    Ok(buf)
}

/// # Safety
/// `prog` must be a live program.
unsafe fn log(prog: sys::nvrtcProgram) -> String {
    match result::get_program_log(prog) {
        Ok(chars) => {
            let bytes: Vec<u8> = chars
                .iter()
                .map(|&c| c as u8)
                .take_while(|&b| b != 0)
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Err(e) => format!("(no compiler log: {e:?})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_a_kernel_to_a_cubin_or_skips_without_nvrtc() {
        if !nvrtc_present() {
            println!("SKIP nvrtc: libnvrtc not found");
            return;
        }
        let src = "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }";
        let cubin = compile_cubin(src, "k.cu", &options(90)).expect("compiles");
        assert_eq!(&cubin[..4], b"\x7fELF", "a cubin is an ELF image");
        let bad = compile_cubin("this is not C++", "bad.cu", &options(90)).unwrap_err();
        assert!(bad.log.contains("error"), "{}", bad.log);
        assert!(nvrtc_version().expect("version").0 >= 12);
    }
}
