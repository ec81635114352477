//! Whole-array host operations on device-resident data: reductions (`sum`, `min`,
//! `max`, `mean`), element-wise `+ - .* ./` (and `*`, `/` with a scalar), and the
//! matrix product `A*B` through cuBLAS.
//!
//! An operation runs on the GPU only when an array operand is already current there
//! (the result of a kernel, say) and its element type is `scalar` (f32, or f64 under
//! `--double`); everything else returns `None` and the host runs it after one
//! download. Results of element-wise operations and products stay on the device.
//! Reductions accumulate in f64, as the host does; block partials are combined on the
//! host in a fixed order, so results do not depend on scheduling.

use crate::cache::DiskCache;
use crate::memory::{driver, DeviceArray};
use crate::module::{cubin_for, Stats};
use crate::pool::Pool;
use blazar_codegen_cuda::Generated;
use blazar_runtime::ops::BinOp;
use blazar_runtime::{Array, ArrayRef, ElemType, Prec, Residency, Value};
use cudarc::cublas::{sys::cublasOperation_t, CudaBlas, Gemm, GemmConfig};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, LaunchConfig,
    PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use std::rc::Rc;
use std::sync::Arc;

const SOURCE: &str = r#"
typedef unsigned long long u64;
#define BZ_LIB(T, S) \
extern "C" __global__ void bz_reduce_##S(const T* x, u64 n, int op, double* part) { \
  double acc = op == 0 ? 0.0 : (op == 1 ? __longlong_as_double(0x7ff0000000000000LL) \
                                        : __longlong_as_double(0xfff0000000000000LL)); \
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) { \
    double v = (double)x[i]; \
    acc = op == 0 ? acc + v : (op == 1 ? fmin(acc, v) : fmax(acc, v)); \
  } \
  __shared__ double s[256]; \
  s[threadIdx.x] = acc; \
  __syncthreads(); \
  for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) { \
    if (threadIdx.x < w) { \
      double a = s[threadIdx.x], b = s[threadIdx.x + w]; \
      s[threadIdx.x] = op == 0 ? a + b : (op == 1 ? fmin(a, b) : fmax(a, b)); \
    } \
    __syncthreads(); \
  } \
  if (threadIdx.x == 0) part[blockIdx.x] = s[0]; \
} \
extern "C" __global__ void bz_ew_##S(int op, const T* a, const T* b, T sa, T sb, T* out, u64 n) { \
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += (u64)gridDim.x * blockDim.x) { \
    T x = a ? a[i] : sa, y = b ? b[i] : sb; \
    out[i] = op == 0 ? x + y : (op == 1 ? x - y : (op == 2 ? x * y : x / y)); \
  } \
}
BZ_LIB(float, f32)
BZ_LIB(double, f64)
"#;

/// Blocks of a grid-stride launch over `n` elements.
const BLOCKS: u32 = 1024;

/// The library kernels, compiled on first use.
pub struct ArrayLib {
    _module: Arc<CudaModule>,
    reduce: [CudaFunction; 2],
    ew: [CudaFunction; 2],
    blas: Option<CudaBlas>,
}

/// An array operand current on the device: its address, element type and length.
struct On {
    ptr: u64,
    elem: ElemType,
    dims: Vec<usize>,
}

fn on_device(a: &ArrayRef) -> Option<On> {
    if a.data.residency() == Residency::Host {
        return None;
    }
    let dev = a.data.device().try_borrow().ok()?;
    let d = dev.as_ref()?.as_any().downcast_ref::<DeviceArray>()?;
    let meta = a.data.meta().ok()?;
    let elem = meta.elem();
    if !matches!(elem, ElemType::F32 | ElemType::F64) {
        return None;
    }
    let stream = d.stream().clone();
    let ptr = {
        let (p, _sync) = d.slice().device_ptr(&stream);
        p
    };
    Some(On {
        ptr,
        elem,
        dims: meta.dims.clone(),
    })
}

impl ArrayLib {
    pub fn load(
        ctx: &Arc<CudaContext>,
        stream: &Arc<CudaStream>,
        arch: u32,
        nvrtc: (i32, i32),
        cache: &DiskCache,
        stats: &mut Stats,
    ) -> Result<ArrayLib, String> {
        let gen = Generated {
            source: SOURCE.into(),
            entry: "bz_array_lib".into(),
            params: vec![],
            shared_bytes: None,
            dynamic_shared: vec![],
            outputs: vec![],
            uses_pool: false,
            coarsen: 1,
            can_fail: false,
        };
        let cubin = cubin_for(&gen, "array library", arch, nvrtc, Some(cache), stats)?;
        let module = ctx
            .load_module(Ptx::from_binary(cubin))
            .map_err(|e| driver("loading the array library", e))?;
        let f = |n: &str| {
            module
                .load_function(n)
                .map_err(|e| driver("loading the array library", e))
        };
        // SAFETY: only opens the shared library.
        let blas = if unsafe { cudarc::cublas::sys::is_culib_present() } {
            CudaBlas::new(stream.clone()).ok()
        } else {
            None
        };
        Ok(ArrayLib {
            reduce: [f("bz_reduce_f32")?, f("bz_reduce_f64")?],
            ew: [f("bz_ew_f32")?, f("bz_ew_f64")?],
            _module: module,
            blas,
        })
    }

    /// `sum`, `mean`, `min` or `max` of a device array; `None` to run it on the host.
    pub fn reduce(
        &self,
        queue: &crate::queue::Queue,
        name: &str,
        a: &ArrayRef,
    ) -> Option<Result<Value, String>> {
        let op: i32 = match name {
            "sum" | "mean" => 0,
            "min" => 1,
            "max" => 2,
            _ => return None,
        };
        let on = on_device(a)?;
        let n: usize = on.dims.iter().product();
        if n == 0 {
            return None;
        }
        let stream = queue.stream();
        Some((|| {
            let mut part: CudaSlice<f64> = stream
                .alloc_zeros(BLOCKS as usize)
                .map_err(|e| driver("an allocation", e))?;
            let f = &self.reduce[(on.elem == ElemType::F64) as usize];
            let n64 = n as u64;
            let mut b = stream.launch_builder(f);
            b.arg(&on.ptr).arg(&n64).arg(&op).arg(&mut part);
            let cfg = LaunchConfig {
                grid_dim: (BLOCKS, 1, 1),
                block_dim: (256, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: the arguments match the kernel's parameters; `on.ptr` holds `n`
            // elements of the kernel's type and lives while its store does.
            unsafe { b.launch(cfg) }.map_err(|e| driver("a reduction", e))?;
            let mut parts = vec![0f64; BLOCKS as usize];
            stream
                .memcpy_dtoh(&part, &mut parts)
                .and_then(|()| queue.wait())
                .map_err(|e| driver("reading a reduction", e))?;
            let mut acc = parts[0];
            for &p in &parts[1..] {
                acc = match op {
                    0 => acc + p,
                    1 => acc.min(p),
                    _ => acc.max(p),
                };
            }
            if name == "mean" {
                acc /= n as f64;
            }
            // Rounded as the host rounds a reduction of this element type.
            let prec = if on.elem == ElemType::F64 {
                Prec::Double
            } else {
                Prec::Single
            };
            Ok(Value::Real(prec.round(acc)))
        })())
    }

    /// `a op b` where an operand is a device array; `None` to run it on the host.
    pub fn binary(
        &self,
        pool: &Rc<Pool>,
        op: BinOp,
        a: &Value,
        b: &Value,
    ) -> Option<Result<Value, String>> {
        let side = |v: &Value| match v {
            Value::Array(r) => on_device(r).map(Some),
            Value::Real(_) | Value::Int(..) => Some(None),
            _ => None,
        };
        let (x, y) = (side(a)?, side(b)?);
        let stream = pool.stream();
        if let (BinOp::Mul, Some(x), Some(y)) = (op, &x, &y) {
            return self.matmul(pool, x, y);
        }
        let code: i32 = match op {
            BinOp::Add => 0,
            BinOp::Sub => 1,
            BinOp::EMul | BinOp::Mul => 2,
            BinOp::EDiv | BinOp::Div => 3,
            _ => return None,
        };
        let shape = match (&x, &y) {
            (Some(p), Some(q)) if p.dims == q.dims && p.elem == q.elem => p,
            (Some(p), None) | (None, Some(p)) => p,
            _ => return None,
        };
        let (elem, dims) = (shape.elem, shape.dims.clone());
        let scalar = |v: &Value| v.as_f64().unwrap_or(0.0);
        Some((|| {
            let (out, out_ptr) = new_device_array(pool, dims.clone(), elem)?;
            let n: usize = dims.iter().product();
            let n64 = n as u64;
            let pa = x.as_ref().map_or(0u64, |o| o.ptr);
            let pb = y.as_ref().map_or(0u64, |o| o.ptr);
            let f = &self.ew[(elem == ElemType::F64) as usize];
            let mut b2 = stream.launch_builder(f);
            let (sa32, sb32) = (scalar(a) as f32, scalar(b) as f32);
            let (sa64, sb64) = (scalar(a), scalar(b));
            b2.arg(&code).arg(&pa).arg(&pb);
            if elem == ElemType::F64 {
                b2.arg(&sa64).arg(&sb64);
            } else {
                b2.arg(&sa32).arg(&sb32);
            }
            b2.arg(&out_ptr).arg(&n64);
            let cfg = LaunchConfig {
                grid_dim: (BLOCKS, 1, 1),
                block_dim: (256, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: arguments match `bz_ew_*`; every pointer holds `n` elements (or is
            // null for a scalar operand) and outlives the launch.
            unsafe { b2.launch(cfg) }.map_err(|e| driver("an element-wise operation", e))?;
            out.data.set_residency(Residency::Device);
            Ok(Value::Array(out))
        })())
    }

    fn matmul(&self, pool: &Rc<Pool>, x: &On, y: &On) -> Option<Result<Value, String>> {
        let blas = self.blas.as_ref()?;
        let ([m, k], [k2, n]) = (x.dims.as_slice(), y.dims.as_slice()) else {
            return None;
        };
        let (m, k, k2, n) = (*m, *k, *k2, *n);
        if k != k2 || x.elem != y.elem || m == 0 || n == 0 || k == 0 {
            return None;
        }
        let int = |v: usize| i32::try_from(v).ok();
        let (mi, ki, ni) = (int(m)?, int(k)?, int(n)?);
        let stream = pool.stream();
        Some((|| {
            let (out, _) = new_device_array(pool, vec![m, n], x.elem)?;
            // Row-major C = A B is column-major Cᵀ = Bᵀ Aᵀ: B first, with m = n.
            let dev = out.data.device();
            let mut dev = dev
                .try_borrow_mut()
                .map_err(|_| "internal error: result in use".to_string())?;
            let c = dev
                .as_mut()
                .and_then(|d| d.as_any_mut().downcast_mut::<DeviceArray>())
                .ok_or("internal error: no device result")?;
            macro_rules! gemm {
                ($t:ty, $one:expr, $zero:expr) => {{
                    let cfg = GemmConfig::<$t> {
                        transa: cublasOperation_t::CUBLAS_OP_N,
                        transb: cublasOperation_t::CUBLAS_OP_N,
                        m: ni,
                        n: mi,
                        k: ki,
                        alpha: $one,
                        lda: ni,
                        ldb: ki,
                        beta: $zero,
                        ldc: ni,
                    };
                    let a = RawView::<$t>::new(y.ptr, k * n, stream);
                    let b = RawView::<$t>::new(x.ptr, m * k, stream);
                    // SAFETY: the views address k×n and m×k elements of the right type
                    // that live while their stores do; `c` holds m×n elements.
                    let mut cv = unsafe { c.slice_mut().transmute_mut::<$t>(m * n) }
                        .ok_or("internal error: result size")?;
                    unsafe { blas.gemm(cfg, &a, &b, &mut cv) }
                        .map_err(|e| format!("cuBLAS error in a matrix product: {e:?}"))?;
                }};
            }
            if x.elem == ElemType::F64 {
                gemm!(f64, 1.0, 0.0);
            } else {
                gemm!(f32, 1.0f32, 0.0f32);
            }
            drop(dev);
            out.data.set_residency(Residency::Device);
            Ok(Value::Array(out))
        })())
    }
}

/// A device address viewed as `len` typed elements for cuBLAS.
struct RawView<T> {
    ptr: u64,
    len: usize,
    stream: Arc<CudaStream>,
    _t: std::marker::PhantomData<T>,
}

impl<T> RawView<T> {
    fn new(ptr: u64, len: usize, stream: &Arc<CudaStream>) -> Self {
        RawView {
            ptr,
            len,
            stream: stream.clone(),
            _t: std::marker::PhantomData,
        }
    }
}

impl<T> cudarc::driver::DeviceSlice<T> for RawView<T> {
    fn len(&self) -> usize {
        self.len
    }
    fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }
}

impl<T> DevicePtr<T> for RawView<T> {
    fn device_ptr<'a>(&'a self, _stream: &'a CudaStream) -> (u64, cudarc::driver::SyncOnDrop<'a>) {
        (self.ptr, cudarc::driver::SyncOnDrop::Sync(None))
    }
}

/// A new array whose elements will be written on the device: a lazily zeroed host
/// buffer (no pages touched until read) and a device copy.
pub(crate) fn new_device_array(
    pool: &Rc<Pool>,
    dims: Vec<usize>,
    elem: ElemType,
) -> Result<(ArrayRef, u64), String> {
    let bytes = dims
        .iter()
        .try_fold(elem.size_bytes(), |acc, &d| acc.checked_mul(d))
        .ok_or("out of GPU memory (the array's size overflows)")?;
    let arr = Array::device_only(dims, elem);
    let slice = pool
        .take(bytes)
        .map_err(|e| crate::memory::oom_or(e, bytes))?;
    let ptr = slice.device_ptr(pool.stream()).0;
    let r = ArrayRef::new(arr);
    *r.data.device().borrow_mut() = Some(Box::new(DeviceArray::new(slice, pool.clone())));
    Ok((r, ptr))
}

#[cfg(test)]
mod tests {
    use super::SOURCE;
    use crate::compile::{compile_cubin, nvrtc_present, options};

    #[test]
    fn the_array_library_compiles_or_skips_without_nvrtc() {
        if !nvrtc_present() {
            println!("SKIP nvrtc: libnvrtc not found");
            return;
        }
        if let Err(f) = compile_cubin(SOURCE, "array_lib.cu", &options(90)) {
            panic!("{}", f.log);
        }
    }
}
