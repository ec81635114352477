//! The matrix product `A*B` of device arrays through cuBLAS: the one whole-array
//! operation that is a library call rather than a kernel generated from AIR
//! (element-wise operations, reductions and data movement are fused kernels, see
//! `interp::fuse`). The result stays on the device.

use crate::memory::{new_device_array, DeviceArray};
use crate::pool::Pool;
use blazar_runtime::{ArrayRef, ElemType, Residency, Value};
use cudarc::cublas::{sys::cublasOperation_t, CudaBlas, Gemm, GemmConfig};
use cudarc::driver::{CudaStream, DevicePtr};
use std::rc::Rc;
use std::sync::Arc;

/// cuBLAS, opened on first use (`None` inside when the library is missing).
pub struct Blas {
    handle: Option<CudaBlas>,
}

/// An array operand current on the device: its address, element type and extents.
struct On {
    ptr: u64,
    elem: ElemType,
    dims: Vec<usize>,
}

fn on_device(a: &ArrayRef) -> Option<On> {
    if matches!(a.data.residency(), Residency::Host | Residency::Zero) {
        return None;
    }
    let dev = a.data.device().try_borrow().ok()?;
    let d = dev.as_ref()?.as_any().downcast_ref::<DeviceArray>()?;
    let meta = a.meta().ok()?;
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

impl Blas {
    pub fn open(stream: &Arc<CudaStream>) -> Blas {
        // SAFETY: only opens the shared library.
        let handle = if unsafe { cudarc::cublas::sys::is_culib_present() } {
            CudaBlas::new(stream.clone()).ok()
        } else {
            None
        };
        Blas { handle }
    }

    /// `a * b` of two matrices current on the device; `None` to run it on the host.
    pub fn product(
        &self,
        pool: &Rc<Pool>,
        a: &ArrayRef,
        b: &ArrayRef,
    ) -> Option<Result<Value, String>> {
        let (x, y) = (on_device(a)?, on_device(b)?);
        self.matmul(pool, &x, &y)
    }

    fn matmul(&self, pool: &Rc<Pool>, x: &On, y: &On) -> Option<Result<Value, String>> {
        let blas = self.handle.as_ref()?;
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
