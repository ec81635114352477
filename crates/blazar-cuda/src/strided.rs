//! Strided device arrays of other libraries (a CuPy slice or transposed view, a PyTorch
//! non-contiguous tensor) as Blazar arrays: their elements are gathered on the GPU into
//! a contiguous array from the pool before a call, and scattered back into the view
//! after it (so a kernel's writes land in the caller's array), by two small kernels
//! compiled once per GPU (NVRTC, cubins in the disk cache like every kernel).
//!
//! A view is up to [`MAX_RANK`] extents and element strides (DLPack's, which may be
//! negative; 0 repeats an element and is refused where the view would be written).
//! Elements are moved as 1, 2, 4, 8 or 16 bytes, whatever their type.

use crate::cache::DiskCache;
use crate::compile::{compile_cubin, options};
use crate::memory::driver;
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaStream, LaunchConfig};
use cudarc::driver::{DeviceRepr, PushKernelArg};
use cudarc::nvrtc::Ptx;
use std::sync::Arc;

/// Extents a strided view may have.
pub const MAX_RANK: usize = 8;

/// The kernels' source: `bz_gather_N` copies a view into contiguous memory,
/// `bz_scatter_N` back, for elements of N bytes. The linear index runs over the view in
/// C order; each thread moves several elements (a grid-stride loop).
pub const SOURCE: &str = r#"
struct bz_view { long long n; int rank; long long ext[8]; long long stride[8]; };
struct bz_e16 { unsigned long long a, b; };

__device__ __forceinline__ long long bz_offset(const bz_view& v, long long i) {
    long long off = 0;
    for (int k = v.rank - 1; k >= 0; --k) {
        long long e = v.ext[k];
        off += (i % e) * v.stride[k];
        i /= e;
    }
    return off;
}

#define BZ_COPY(N, T)                                                               \
extern "C" __global__ void bz_gather_##N(T* __restrict__ dst, const T* src, bz_view v) { \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < v.n;     \
         i += (long long)gridDim.x * blockDim.x)                                    \
        dst[i] = src[bz_offset(v, i)];                                              \
}                                                                                   \
extern "C" __global__ void bz_scatter_##N(T* dst, const T* __restrict__ src, bz_view v) { \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < v.n;     \
         i += (long long)gridDim.x * blockDim.x)                                    \
        dst[bz_offset(v, i)] = src[i];                                              \
}

BZ_COPY(1, unsigned char)
BZ_COPY(2, unsigned short)
BZ_COPY(4, unsigned int)
BZ_COPY(8, unsigned long long)
BZ_COPY(16, bz_e16)
"#;

/// `bz_view` as the kernels declare it.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct View {
    pub n: i64,
    pub rank: i32,
    pub ext: [i64; MAX_RANK],
    pub stride: [i64; MAX_RANK],
}

// SAFETY: plain integers laid out as the C struct `bz_view` (an i64, an i32 padded to 8,
// then two arrays of i64).
unsafe impl DeviceRepr for View {}

impl View {
    /// The view of `dims` with element `strides`; an error when it has too many
    /// extents.
    pub fn new(dims: &[usize], strides: &[i64]) -> Result<View, String> {
        if dims.len() > MAX_RANK || strides.len() != dims.len() {
            return Err(format!(
                "a strided GPU array of {} dimensions cannot be passed to Blazar (at most {MAX_RANK})",
                dims.len()
            ));
        }
        let mut v = View {
            n: dims.iter().product::<usize>() as i64,
            rank: dims.len() as i32,
            ext: [1; MAX_RANK],
            stride: [0; MAX_RANK],
        };
        for (k, (&d, &s)) in dims.iter().zip(strides).enumerate() {
            v.ext[k] = d as i64;
            v.stride[k] = s;
        }
        Ok(v)
    }

    /// Whether two positions of the view may address one element (a stride of 0 over
    /// an extent above 1, as a broadcast view has, or strides that interleave, as a
    /// sliding window of `as_strided` or PyTorch's `unfold` has): such a view cannot be
    /// written. The test is the usual sufficient one: taken by increasing stride, each
    /// extent's stride must pass the reach of those before it; a view that fails it is
    /// treated as overlapping.
    pub fn overlaps(&self) -> bool {
        if self.n <= 1 {
            return false;
        }
        let mut dims: Vec<(i64, i64)> = (0..self.rank as usize)
            .filter(|&k| self.ext[k] > 1)
            .map(|k| {
                (
                    self.stride[k].unsigned_abs().min(i64::MAX as u64) as i64,
                    self.ext[k],
                )
            })
            .collect();
        dims.sort_unstable();
        // The offsets the extents taken so far reach, from the lowest.
        let mut reach: i64 = 0;
        for (stride, ext) in dims {
            if stride <= reach {
                return true;
            }
            reach = match (ext - 1)
                .checked_mul(stride)
                .and_then(|r| r.checked_add(reach))
            {
                Some(r) => r,
                None => return true,
            };
        }
        false
    }

    /// The lowest and highest element offsets it addresses (relative to the first).
    pub fn span(&self) -> (i64, i64) {
        let (mut lo, mut hi) = (0, 0);
        for k in 0..self.rank as usize {
            let reach = (self.ext[k] - 1).max(0) * self.stride[k];
            if reach < 0 {
                lo += reach;
            } else {
                hi += reach;
            }
        }
        (lo, hi)
    }
}

/// The gather and scatter kernels of one GPU, loaded at first use.
pub struct Copier {
    _module: Arc<CudaModule>,
    gather: Vec<(usize, CudaFunction)>,
    scatter: Vec<(usize, CudaFunction)>,
}

/// Element sizes the kernels move.
const SIZES: [usize; 5] = [1, 2, 4, 8, 16];

impl Copier {
    /// Compiles (or finds in `cache`) and loads the kernels for `sm_{arch}`.
    pub fn load(
        ctx: &Arc<CudaContext>,
        arch: u32,
        nvrtc: (i32, i32),
        cache: &DiskCache,
    ) -> Result<Copier, String> {
        let opts = options(arch);
        let key = DiskCache::key(SOURCE, &opts, nvrtc, arch);
        let cubin = match cache.get(&key) {
            Some(b) => b,
            None => {
                let b = compile_cubin(SOURCE, "bz_strided.cu", &opts).map_err(|f| {
                    format!(
                        "internal error: the strided copy kernels failed to compile:\n{}",
                        f.log
                    )
                })?;
                cache.put(&key, &b);
                b
            }
        };
        let module = ctx
            .load_module(Ptx::from_binary(cubin))
            .map_err(|e| driver("loading the strided copy kernels", e))?;
        let load = |what: &str| -> Result<Vec<(usize, CudaFunction)>, String> {
            SIZES
                .iter()
                .map(|&n| {
                    module
                        .load_function(&format!("bz_{what}_{n}"))
                        .map(|f| (n, f))
                        .map_err(|e| driver("loading the strided copy kernels", e))
                })
                .collect()
        };
        Ok(Copier {
            gather: load("gather")?,
            scatter: load("scatter")?,
            _module: module,
        })
    }

    /// Copies view `v` of elements of `elem_bytes` at `strided` into contiguous memory at
    /// `dense` (`to_dense`), or back.
    ///
    /// # Safety
    /// `strided` must address every element of `v` (offsets [`View::span`] from it) and
    /// `dense` `v.n` elements, both device memory of this context, alive until the copy
    /// has run on `stream`.
    pub unsafe fn copy(
        &self,
        stream: &Arc<CudaStream>,
        v: &View,
        elem_bytes: usize,
        strided: u64,
        dense: u64,
        to_dense: bool,
    ) -> Result<(), String> {
        if v.n == 0 {
            return Ok(());
        }
        let table = if to_dense {
            &self.gather
        } else {
            &self.scatter
        };
        let f = table
            .iter()
            .find(|(n, _)| *n == elem_bytes)
            .map(|(_, f)| f)
            .ok_or_else(|| {
                format!("internal error: no strided copy of {elem_bytes}-byte elements")
            })?;
        let (dst, src) = if to_dense {
            (dense, strided)
        } else {
            (strided, dense)
        };
        let threads = 256u32;
        let blocks = (v.n as u64).div_ceil(threads as u64).min(65_535) as u32;
        let cfg = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut b = stream.launch_builder(f);
        b.arg(&dst).arg(&src).arg(v);
        b.launch(cfg)
            .map(|_| ())
            .map_err(|e| driver("a strided copy on the device", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_know_their_reach_and_their_overlaps() {
        // A transposed 3x4 array: strides (1, 3).
        let t = View::new(&[4, 3], &[1, 4]).unwrap();
        assert_eq!(t.n, 12);
        assert_eq!(t.span(), (0, 3 + 8));
        assert!(!t.overlaps());
        // x[::-1] of 5 elements: stride -1 from the last element.
        assert_eq!(View::new(&[5], &[-1]).unwrap().span(), (-4, 0));
        // A broadcast row.
        assert!(View::new(&[3, 4], &[0, 1]).unwrap().overlaps());
        assert!(!View::new(&[1, 4], &[0, 1]).unwrap().overlaps());
        assert!(View::new(&[1; 9], &[1; 9]).is_err());
    }

    #[test]
    fn interleaved_strides_overlap_without_a_zero_stride() {
        // Sliding windows of 3 over 10 elements (PyTorch `unfold(0, 3, 1)`, NumPy
        // `sliding_window_view`): element 1 is window 0's second and window 1's first.
        assert!(View::new(&[8, 3], &[1, 1]).unwrap().overlaps());
        // Rows of 4 that start 2 apart.
        assert!(View::new(&[3, 4], &[2, 1]).unwrap().overlaps());
        assert!(View::new(&[3, 4], &[-2, 1]).unwrap().overlaps());
        // Slices, reversals, transposes and steps do not.
        assert!(!View::new(&[3, 4], &[4, 1]).unwrap().overlaps());
        assert!(!View::new(&[3, 4], &[8, 2]).unwrap().overlaps());
        assert!(!View::new(&[3, 4], &[-4, -1]).unwrap().overlaps());
        assert!(!View::new(&[4, 3, 2], &[1, 8, 4]).unwrap().overlaps());
        assert!(!View::new(&[5], &[-1]).unwrap().overlaps());
        assert!(!View::new(&[0, 4], &[0, 0]).unwrap().overlaps());
        assert!(!View::new(&[1], &[0]).unwrap().overlaps());
    }

    #[test]
    fn the_copy_kernels_compile_or_skip_without_nvrtc() {
        if !crate::compile::nvrtc_present() {
            println!("SKIP nvrtc: libnvrtc not found");
            return;
        }
        let cubin = compile_cubin(SOURCE, "bz_strided.cu", &options(90)).expect("compiles");
        assert_eq!(&cubin[..4], b"\x7fELF");
    }

    #[test]
    fn the_view_struct_matches_the_c_layout() {
        // long long n; int rank (padded); long long ext[8]; long long stride[8].
        assert_eq!(std::mem::size_of::<View>(), 8 + 8 + 64 + 64);
        assert_eq!(std::mem::offset_of!(View, ext), 16);
    }
}
