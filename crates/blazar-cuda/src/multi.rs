//! One GPU as a [`blazar_multi::Device`], for runs over several GPUs (`--devices 0,1`).
//!
//! Each `CudaDevice` owns a whole [`CudaBackend`] on its GPU (context, stream, memory
//! pool, compiled modules), and a buffer of it is an array private to that backend
//! ([`CudaBuffer`]): a store whose device copy is the backend's own. A launch hands the
//! backend views of those arrays with each argument's dims, so the single-GPU launch path
//! runs unchanged. Copies between GPUs are staged through the host for now (peer copies
//! with `cuMemcpyPeerAsync` where `cuDeviceCanAccessPeer` allows them are the next step).
//! Not yet run on a machine with several GPUs.

use crate::CudaBackend;
use blazar_kir::Kernel;
use blazar_launch::{ArgVal, Backend, KValue, KernelError, KernelErrorKind, LaunchPlan};
use blazar_multi::{CopyRoute, Device, DeviceBuffer};
use blazar_runtime::{Array, ArrayRef, Buffer, ElemType, Residency};
use std::any::Any;
use std::rc::Rc;

/// A buffer in one GPU's memory: an array whose device copy holds the elements.
pub struct CudaBuffer {
    array: ArrayRef,
    gpu: usize,
}

impl DeviceBuffer for CudaBuffer {
    fn download(&self, buf: &mut Buffer) -> Result<(), String> {
        let dev = self
            .array
            .data
            .device()
            .try_borrow()
            .map_err(|_| "internal error: a GPU buffer is in use".to_string())?;
        match dev.as_ref() {
            Some(d) if self.array.data.residency() != Residency::Zero => d.download(buf),
            _ => {
                *buf = Buffer::zeros(buf.elem(), buf.len());
                Ok(())
            }
        }
    }

    fn bytes(&self) -> usize {
        self.array
            .data
            .device()
            .try_borrow()
            .ok()
            .and_then(|d| d.as_ref().map(|d| d.bytes()))
            .unwrap_or(0)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// GPU `ordinal` of the host.
pub struct CudaDevice {
    gpu: usize,
    backend: CudaBackend,
}

impl CudaDevice {
    pub fn open(ordinal: usize, file_name: &str) -> Result<CudaDevice, String> {
        Ok(CudaDevice {
            gpu: ordinal,
            backend: CudaBackend::on_gpu(ordinal, file_name)?,
        })
    }

    fn mine<'a>(&self, b: &'a mut dyn DeviceBuffer) -> Result<&'a mut CudaBuffer, String> {
        match b.as_any_mut().downcast_mut::<CudaBuffer>() {
            Some(c) if c.gpu == self.gpu => Ok(c),
            _ => Err(format!(
                "internal error: GPU {} got another device's buffer",
                self.gpu
            )),
        }
    }

    /// Makes the device copy of `b` hold `host` (one upload).
    fn put(&mut self, b: &CudaBuffer, host: Buffer) -> Result<(), String> {
        let n = host.len();
        *b.array.data.host_unsynced().borrow_mut() = Array::new(vec![n], host);
        b.array.data.set_residency(Residency::Host);
        crate::memory::ensure_on_device(&b.array, &self.backend.pool_mem)?;
        // The host buffer is not kept: the device copy is the buffer's only one.
        let elem = b.array.data.host_unsynced().borrow().buf.elem();
        *b.array.data.host_unsynced().borrow_mut() = Array::device_only(vec![n], elem);
        b.array.data.set_residency(Residency::Device);
        Ok(())
    }
}

fn staged(src: &dyn DeviceBuffer, elem: ElemType, len: usize) -> Result<Buffer, String> {
    let mut host = Buffer::zeros(elem, len);
    src.download(&mut host)?;
    Ok(host)
}

fn bad(msg: String) -> KernelError {
    KernelError::new(0, KernelErrorKind::BadLaunch, msg)
}

impl Device for CudaDevice {
    fn name(&self) -> String {
        format!("cuda{}", self.gpu)
    }

    fn alloc(&mut self, elem: ElemType, len: usize) -> Result<Box<dyn DeviceBuffer>, String> {
        let array = self.backend.alloc(vec![len], elem)?;
        Ok(Box::new(CudaBuffer {
            array,
            gpu: self.gpu,
        }))
    }

    fn upload(&mut self, dst: &mut dyn DeviceBuffer, src: &Buffer) -> Result<(), String> {
        let dst = self.mine(dst)?;
        let b = CudaBuffer {
            array: dst.array.clone(),
            gpu: dst.gpu,
        };
        self.put(&b, src.clone())
    }

    fn zero(&mut self, dst: &mut dyn DeviceBuffer) -> Result<(), String> {
        let dst = self.mine(dst)?;
        dst.array.data.set_residency(Residency::Zero);
        crate::memory::ensure_on_device(&dst.array, &self.backend.pool_mem).map(|_| ())
    }

    fn copy_from(
        &mut self,
        dst: &mut dyn DeviceBuffer,
        src: &dyn DeviceBuffer,
        _from: usize,
    ) -> Result<CopyRoute, String> {
        let dst = self.mine(dst)?;
        let (elem, len) = {
            let h = dst.array.data.host_unsynced().borrow();
            (h.buf.elem(), h.len())
        };
        let host = staged(src, elem, len)?;
        let b = CudaBuffer {
            array: dst.array.clone(),
            gpu: dst.gpu,
        };
        self.put(&b, host)?;
        Ok(CopyRoute::Staged)
    }

    fn copy_range_from(
        &mut self,
        dst: &mut dyn DeviceBuffer,
        src: &dyn DeviceBuffer,
        _from: usize,
        start: usize,
        len: usize,
    ) -> Result<CopyRoute, String> {
        let dst = self.mine(dst)?;
        let (elem, n) = {
            let h = dst.array.data.host_unsynced().borrow();
            (h.buf.elem(), h.len())
        };
        let theirs = staged(src, elem, n)?;
        let mut ours = staged(&*dst, elem, n)?;
        for i in start..start + len {
            ours.set_value(i, &theirs.get_value(i));
        }
        let b = CudaBuffer {
            array: dst.array.clone(),
            gpu: dst.gpu,
        };
        self.put(&b, ours)?;
        Ok(CopyRoute::Staged)
    }

    fn launch(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<Vec<KValue>, KernelError> {
        let mut refs = Vec::with_capacity(arrays.len());
        for (dims, b) in arrays.iter_mut() {
            let b = self.mine(&mut **b).map_err(bad)?;
            refs.push(b.array.reshaped(dims.clone()));
        }
        match self.backend.launch(kernel, plan, args, &refs)? {
            Some(outs) => Ok(outs),
            None => Err(bad(format!(
                "GPU {} cannot run kernel `{}` (a serial launch)",
                self.gpu, kernel.name
            ))),
        }
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        self.backend.synchronize()
    }

    fn declines(&self, kernel: &Kernel) -> Option<&'static str> {
        let deep =
            blazar_kir::visit::max_expr_depth(kernel) > blazar_kir::visit::MAX_COMPILED_DEPTH;
        deep.then_some("its expressions nest too deeply for NVRTC")
    }

    fn serial_launches(&self) -> bool {
        false
    }

    fn grid_stride_reductions(&self) -> bool {
        self.backend.grid_stride_reductions()
    }

    fn fuse_min(&self) -> usize {
        self.backend.fuse_min()
    }
}
